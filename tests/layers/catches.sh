#!/bin/sh
# The layer check must fail on each kind of breach: a small tree where src/core
# includes a kernel header and calls into src/kernel, and src/vulkan and src/data
# call each other. Usage: catches.sh CHECK_SCRIPT C_COMPILER
set -eu
check=$1
cc=${2:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/core" "$tmp/src/kernel" "$tmp/src/vulkan" "$tmp/src/data"
cat >"$tmp/src/kernel/k.h" <<'C'
int kernel_thing(void);
C
cat >"$tmp/src/kernel/k.c" <<'C'
int kernel_thing(void) { return 1; }
C
cat >"$tmp/src/core/c.c" <<'C'
#include "kernel/k.h"
int core_thing(void) { return kernel_thing(); }
C
cat >"$tmp/src/vulkan/v.c" <<'C'
int data_thing(void);
int vulkan_thing(int n) { return n ? data_thing() : 0; }
C
cat >"$tmp/src/data/d.c" <<'C'
int vulkan_thing(int n);
int data_thing(void) { return vulkan_thing(0); }
C
for f in core/c kernel/k vulkan/v data/d; do
    "$cc" -c -I"$tmp/src" -o "$tmp/src/$f.c.o" "$tmp/src/$f.c"
done
# after compiling: a header named without its layer folder (it need not exist)
printf '#include "vulkan_thing.h"\n' >>"$tmp/src/data/d.c"
if out=$(sh "$check" "$tmp/src" "$tmp/src/core/c.c.o" "$tmp/src/kernel/k.c.o" "$tmp/src/vulkan/v.c.o" \
    "$tmp/src/data/d.c.o" 2>&1); then
    echo "the layer check passed a tree that breaks every rule:"; echo "$out"; exit 1
fi
status=0
for want in 'src/core/c.c (core) includes "kernel/k.h" of the layer above it (kernel)' \
            'src/core/c.c (core) calls kernel_thing of src/kernel/k.c, a layer above it' \
            'src/vulkan/v.c (vulkan) calls data_thing of src/data/d.c, a layer above it' \
            'src/data/d.c includes "vulkan_thing.h": name internal headers by their layer folder' \
            'files call each other in a loop'; do
    case $out in
    *"$want"*) echo "caught: $want" ;;
    *) echo "missed: $want"; status=1 ;;
    esac
done
[ $status -eq 0 ] || { echo "check said:"; echo "$out"; }
exit $status
