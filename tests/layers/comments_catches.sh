#!/bin/sh
# The comment check must fail on each kind of figure and device name, and only on
# comments: a small tree with one bad comment line of each kind, in // and /* */
# comments of .c, .h and .comp files, beside code and comments it must let pass.
# Usage: comments_catches.sh CHECK_SCRIPT
set -eu
check=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/filter" "$tmp/shaders/filter" "$tmp/include/ampvk"

# ---- what must pass: figures in code, shapes, formulas, tolerances, versions ----
cat >"$tmp/src/filter/good.c" <<'C'
#include <stdio.h>
/* A 16x16 work group of vec4 and uint_4 texels, float_4s in, 5x5 windows; O(n) in the
 * pixels. Tolerance 1e-4; Vulkan 1.2, SPIR-V 1.3, Mesa 22.3.6; 0.5 -> 128 in unorm8.
 * lavapipe runs it on the host; 16 min or max an output; ticks at host0 ns. */
static void report(double ms, double s) { printf("%.3f ms, %.1f s, 3.4x, H100\n", ms, s); }
// the sum (2 s) of the two halves, 255 S^2 < 2^16, 4 x 4 tiles, radius 2 (5 x 5)
static const char *url = "http://example.org/ // 12 ms /* RTX */";
static const char quote = '"', *after = "12 ms"; // a quote char, then a string
C
printf 'done: "%%d ms"\n' >"$tmp/src/filter/good.h"
cat >"$tmp/include/ampvk/good.h" <<'C'
/* An 8x8 tile; radius up to 4096 (box, erode and dilate); 3 x 3 derivatives. */
C
if ! out=$(sh "$check" "$tmp" 2>&1); then
    echo "the comment check failed a tree of good comments:"; echo "$out"; exit 1
fi

# ---- what must fail: each kind once ----
cat >"$tmp/src/filter/bad.c" <<'C'
int a; // 4K RGBA8: 0.053 ms
/* a first line that passes,
 * took 12 s on two cores, */
int b; /* 3.4x as fast */
// 20x slower
// 8% faster than the other
// at 11-13 GB/s
// 1209 G/s and 40 Mpixels/s
// 0.098 -> 0.094, the same
// 1-3 us a call, 57-110 ms to make
C
cat >"$tmp/shaders/filter/bad.comp" <<'C'
#version 450
/* measured on an H100
   and an H200 */
void main() {} // NVIDIA T4, GeForce RTX 4090, Radeon RX 7900, Intel Arc A770
// llvmpipe (LLVM 15.0.6, 256 bits), Hopper
C
cat >"$tmp/include/ampvk/bad.h" <<'C'
/* two minutes with an empty cache, 1.5-2 s warm */
C
if out=$(sh "$check" "$tmp" 2>&1); then
    echo "the comment check passed a tree of measurements and device names:"; echo "$out"; exit 1
fi
status=0
for want in src/filter/bad.c:1: src/filter/bad.c:3: src/filter/bad.c:4: src/filter/bad.c:5: \
            src/filter/bad.c:6: src/filter/bad.c:7: src/filter/bad.c:8: src/filter/bad.c:9: \
            src/filter/bad.c:10: shaders/filter/bad.comp:2: shaders/filter/bad.comp:3: \
            shaders/filter/bad.comp:4: shaders/filter/bad.comp:5: include/ampvk/bad.h:1:; do
    case $out in
    *"comments: $want"*) echo "caught: $want" ;;
    *) echo "missed: $want"; status=1 ;;
    esac
done
case $out in
*good* | *"bad.c:2:"*) echo "flagged a comment that passes:"; status=1 ;;
esac
[ $status -eq 0 ] || { echo "check said:"; echo "$out"; }
exit $status
