#!/bin/sh
# ampvk diff: exit 0 for a match, 1 for a difference (the first differing pixel
# reported), 2 when a file cannot be read; the allowances --max-diff and --max-pixels
# (a count or a percentage); --diff writes the difference picture; --json prints one
# valid JSON object (checked by json_check.cmake).
# tests/data/tool/pixel_changed.png is pixel.png (16x12 RGB) with 9 added to the red
# of pixel (5, 3).
#   sh diff.sh AMPVK SOURCE_DIR WORK_DIR
set -eu
ampvk=$1 src=$2 work=$3
. "$src/tests/tool/common.sh"
fresh
a=$src/tests/data/tool/pixel.png
b=$src/tests/data/tool/pixel_changed.png
head -c 100 "$a" >"$work/corrupt.png"

# json_check FILE [-DKEYS=...] [-DEQUAL=...]: FILE is one valid JSON object holding them.
json_check() {
    file=$1
    shift
    cmake -DFILE="$file" "$@" -P "$src/tests/tool/json_check.cmake" || fail "$file: not the JSON expected"
}

expect 0 "$ampvk" diff "$a" "$a"
has "$work/out" "^result: MATCH$"
expect 1 "$ampvk" diff "$a" "$b"
has "$work/out" "^first difference: pixel (x 5, y 3): expected (80, 60, 128), actual (89, 60, 128)$"
has "$work/out" "^pixels over 0: 1 of 192 "
has "$work/out" "^result: DIFFERENT$"

# allowances
expect 0 "$ampvk" diff --max-diff 9 "$a" "$b"
has "$work/out" "^result: MATCH (within tolerance)$"
expect 1 "$ampvk" diff --max-diff 8 "$a" "$b"
expect 0 "$ampvk" diff --max-pixels 1 "$a" "$b"
expect 1 "$ampvk" diff --max-pixels 0 "$a" "$b"
expect 0 "$ampvk" diff --max-pixels 1% "$a" "$b"
expect 1 "$ampvk" diff --max-pixels 0.5% "$a" "$b"

# mismatches and unreadable files
expect 1 "$ampvk" diff "$a" "$src/tests/data/rgb8.png"
has "$work/out" "size mismatch"
expect 1 "$ampvk" diff "$src/tests/data/gray8.png" "$src/tests/data/rgb8.png"
has "$work/out" "channel count mismatch"
expect 2 "$ampvk" diff "$a" "$work/nosuch.png"
has "$work/err" "nosuch.png"
expect 2 "$ampvk" diff "$work/corrupt.png" "$a"
has "$work/err" "corrupt.png"

# --diff: red where the pixels differ, over a faded gray EXPECTED (identical: no red)
expect 1 "$ampvk" diff --diff "$work/diff.png" "$a" "$b"
has "$work/out" "^diff image: "
expect 0 "$ampvk" diff "$src/tests/golden/tool/pixel_diff.png" "$work/diff.png"
expect 0 "$ampvk" diff --diff "$work/same.png" "$a" "$a"
expect 1 "$ampvk" diff "$work/same.png" "$work/diff.png"
has "$work/out" "^pixels over 0: 1 of 192 "
has "$work/out" "^first difference: pixel (x 5, y 3): .* actual (255, 0, 0)$"

# --json, for each result
expect 1 "$ampvk" diff --json --diff "$work/diff2.png" "$a" "$b"
cp "$work/out" "$work/different.json"
equal=result=different,passed=OFF,differing_pixels=1,diff_image=$work/diff2.png
equal=$equal,first_difference/x=5,first_difference/y=3,first_difference/actual/0=89
json_check "$work/different.json" -DKEYS=max_diff/R,psnr,differing_percent -DEQUAL="$equal"
expect 0 "$ampvk" diff --json "$a" "$a"
cp "$work/out" "$work/match.json"
json_check "$work/match.json" -DEQUAL=result=match,equal=ON,psnr=null,first_difference=null
expect 1 "$ampvk" diff --json "$a" "$src/tests/data/rgb8.png"
cp "$work/out" "$work/size.json"
json_check "$work/size.json" "-DEQUAL=result=different,reason=size mismatch"
expect 2 "$ampvk" diff --json "$a" "$work/nosuch.png"
cp "$work/out" "$work/error.json"
json_check "$work/error.json" -DKEYS=error -DEQUAL=result=error
echo PASS
