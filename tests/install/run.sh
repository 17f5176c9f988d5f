#!/bin/sh
# Installs a build of ampvk into a temporary prefix and builds a consumer program
# against it four ways: find_package with ampvk::ampvk and with ampvk::ampvk_static,
# and pkg-config (shared, and --static) with plain cc. Each program must run and
# print the sums 7 9 11 13 15.
#
#     tests/install/run.sh BUILD_DIR SOURCE_DIR
#
# AMPVK_SANITIZE=ON or thread (set by ctest for a sanitizer build) builds the consumers with
# the same -fsanitize flags, which a sanitized libampvk needs.
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/ampvk-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cc=${CC:-cc}
case "${AMPVK_SANITIZE:-OFF}" in
    ON|on|1|TRUE|true) san="-fsanitize=address,undefined" ;;
    thread) san="-fsanitize=thread" ;;
    *) san="" ;;
esac

echo "== cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; exit 1; }

libdir=$(dirname "$(find "$prefix" -name 'libampvk.so' | head -n 1)")
[ -f "$libdir/libampvk.a" ] || { echo "no libampvk.a next to libampvk.so in $libdir"; exit 1; }

check() { # name program
    out=$("$2") || { echo "$1: the program failed"; echo "$out"; exit 1; }
    echo "$out" | sed "s/^/  $1: /"
    echo "$out" | grep -qx 'sums: 7 9 11 13 15' || { echo "$1: wrong sums"; exit 1; }
}
# Requires that the program does (shared) or does not (static) need libampvk.so.
needs_shared() { # name program yes|no
    if readelf -d "$2" | grep -q 'NEEDED.*libampvk\.so'; then got=yes; else got=no; fi
    [ "$got" = "$3" ] || { echo "$1: needs libampvk.so: $got, expected $3"; exit 1; }
}

for link in ampvk ampvk_static; do
    echo "== find_package(ampvk), ampvk::$link"
    cmake -S "$src/tests/install/consumer" -B "$work/$link" -DCMAKE_PREFIX_PATH="$prefix" \
        -DAMPVK_LINK=$link -DCMAKE_C_FLAGS="$san" >"$work/$link.log" 2>&1 \
        && cmake --build "$work/$link" >>"$work/$link.log" 2>&1 \
        || { cat "$work/$link.log"; exit 1; }
    check "cmake $link" "$work/$link/consumer"
done
needs_shared "cmake ampvk" "$work/ampvk/consumer" yes
needs_shared "cmake ampvk_static" "$work/ampvk_static/consumer" no

export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
echo "== pkg-config, shared: $(pkg-config --cflags --libs ampvk)"
# shellcheck disable=SC2046
$cc -std=c11 $san -o "$work/pc-shared" "$src/tests/install/consumer/main.c" $(pkg-config --cflags --libs ampvk)
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" check "pkg-config shared" "$work/pc-shared"
needs_shared "pkg-config shared" "$work/pc-shared" yes

# With libampvk.so and libampvk.a side by side, -lampvk finds the .so; a static
# link names the archive (-l:libampvk.a) and takes the rest of pkg-config --static.
static_libs=$(pkg-config --static --libs ampvk | sed 's/-lampvk\b/-l:libampvk.a/')
echo "== pkg-config, static: $static_libs"
# shellcheck disable=SC2086
$cc -std=c11 $san -o "$work/pc-static" "$src/tests/install/consumer/main.c" $(pkg-config --cflags ampvk) $static_libs
check "pkg-config static" "$work/pc-static"
needs_shared "pkg-config static" "$work/pc-static" no

# The Python package, where the build made it: imported from the prefix alone (its module
# finds libampvk.so there by its rpath), and its pytest plugin found by its entry point.
init=$(find "$prefix" -path '*/ampvk/__init__.py' | head -n 1)
python=$(sed -n 's/^Python3_EXECUTABLE:FILEPATH=//p' "$build/CMakeCache.txt")
if [ -n "$init" ] && [ -n "$python" ]; then
    site=$(dirname "$(dirname "$init")")
    echo "== python: $site"
    out=$(cd "$work" && PYTHONPATH="$site" "$python" -c '
import numpy as np, ampvk, importlib.metadata as m
s = ampvk.filter(np.array([[1, 2, 3, 4, 5]], np.uint8), "invert")
print("sums:", " ".join(str(2 * (255 - int(v)) + 5) for v in s[0]))  # the inputs back, as the C consumer sums
print("plugin:", [e.value for e in m.entry_points(group="pytest11") if e.value.startswith("ampvk")])
') || { echo "python: the package failed"; echo "$out"; exit 1; }
    echo "$out" | sed "s/^/  python: /"
    echo "$out" | grep -qx 'sums: 7 9 11 13 15' || { echo "python: wrong sums"; exit 1; }
    echo "$out" | grep -qx "plugin: \['ampvk.pytest_plugin'\]" || { echo "python: no pytest11 entry point"; exit 1; }
fi
echo "install test: ok"
