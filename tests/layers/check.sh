#!/bin/sh
# The layer check: src/ holds one folder per layer, and a layer uses only the layers
# below it. Fails, naming the file and what it uses, when
#   - a file includes an internal header of a layer above its own, or one not named
#     by its layer folder ("vulkan/gpu.h", not "gpu.h"), or
#   - an object file calls (or reads) a symbol defined in a layer above its own, or
#   - the files call each other in a loop, within a layer too.
# Usage: check.sh SRC_DIR OBJECT...   (the objects of the library, from the build)
set -eu
LAYERS="core vulkan data kernel image filter"
src=$1
shift

rank() { # the position of a layer in LAYERS, or nothing
    i=0
    for l in $LAYERS; do
        [ "$l" = "$1" ] && { echo $i; return; }
        i=$((i + 1))
    done
}

fail=0
report() { echo "layers: $*" >&2; fail=1; }

# ---- includes ----
for f in $(cd "$src" && find . -name '*.[ch]' | sed 's|^\./||' | sort); do
    layer=${f%%/*}
    r=$(rank "$layer")
    [ -n "$r" ] || { report "src/$f is in no layer folder (layers: $LAYERS)"; continue; }
    for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$src/$f"); do
        case $inc in ampvk/*) continue ;; esac
        il=${inc%%/*}
        ir=$(rank "$il")
        if [ "$il" = "$inc" ] || [ -z "$ir" ]; then
            report "src/$f includes \"$inc\": name internal headers by their layer folder ($LAYERS)"
        elif [ "$ir" -gt "$r" ]; then
            report "src/$f ($layer) includes \"$inc\" of the layer above it ($il)"
        fi
    done
done

# ---- calls: symbols an object uses that another object of the library defines ----
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for o in "$@"; do
    case $o in */src/*) ;; *) continue ;; esac # generated sources hold data only
    name=${o##*/src/}
    name=${name%.o}
    nm --defined-only "$o" | awk -v f="$name" '$2 ~ /^[TDRBC]$/ {print $3, f}' >>"$tmp/defs"
    nm --undefined-only "$o" | awk -v f="$name" '{print f, $NF}' >>"$tmp/uses"
done
[ -s "$tmp/defs" ] || { echo "layers: no objects under src/ given" >&2; exit 1; }
touch "$tmp/uses"
# edges "user definer symbol", one per used symbol
awk 'NR == FNR {def[$1] = $2; next} ($2 in def) && def[$2] != $1 {print $1, def[$2], $2}' \
    "$tmp/defs" "$tmp/uses" >"$tmp/edges"
while read -r user definer symbol; do
    ur=$(rank "${user%%/*}")
    dr=$(rank "${definer%%/*}")
    if [ -n "$ur" ] && [ -n "$dr" ] && [ "$dr" -gt "$ur" ]; then
        report "src/$user (${user%%/*}) calls $symbol of src/$definer, a layer above it"
    fi
done <"$tmp/edges"

# ---- loops between files: a depth-first search over the call graph ----
awk '
{ if (!(($1 SUBSEP $2) in seen)) { seen[$1, $2] = 1; adj[$1] = adj[$1] " " $2 } nodes[$1] = 1; nodes[$2] = 1 }
function visit(n,    k, m, parts, i) {
    state[n] = 1; stack[++depth] = n
    k = split(adj[n], parts, " ")
    for (i = 1; i <= k; i++) {
        m = parts[i]
        if (state[m] == 1) {
            for (j = depth; j > 1 && stack[j] != m; j--) ;
            cycle = stack[j]
            for (j++; j <= depth; j++) cycle = cycle " -> " stack[j]
            print "layers: files call each other in a loop: " cycle " -> " m > "/dev/stderr"
            found = 1
        } else if (!state[m]) visit(m)
    }
    state[n] = 2; depth--
}
END { for (n in nodes) if (!state[n]) visit(n); exit found }' "$tmp/edges" || fail=1

if [ $fail -ne 0 ]; then
    echo "layers: FAILED (order, lowest first: $LAYERS)" >&2
    exit 1
fi
echo "layers: $(ls "$src" | wc -l) layers, $(wc -l <"$tmp/edges") symbols used across files, no use of a layer above, no loop"
