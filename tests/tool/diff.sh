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
has "$work/out" "^first difference: pixel (x 5, y 3): .* actual (255, 0, 0, 255)$"

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
# --metric yiq: pixelmatch's counts (tests/data/compare/pixelmatch.txt: moved 0.1 with and
# without anti-aliasing, 19 and 627), its default threshold 0.1, --aa, the masks, the
# densest window, --diff-mask and the JSON
c=$src/tests/data/compare
expect 1 "$ampvk" diff --metric yiq "$c/moved_a.png" "$c/moved_b.png"
has "$work/out" "^pixels over 0.1: 627 of 30000 "
expect 1 "$ampvk" diff --metric yiq --aa "$c/moved_a.png" "$c/moved_b.png"
has "$work/out" "^pixels over 0.1: 19 of 30000 "
has "$work/out" "^anti-aliased pixels: 608$"
expect 0 "$ampvk" diff --metric yiq --aa --max-pixels 19 "$c/moved_a.png" "$c/moved_b.png"
has "$work/out" "^result: MATCH (within tolerance)$"
expect 1 "$ampvk" diff --metric yiq --threshold 0.05 --on-white "$c/translucent_a.png" "$c/translucent_b.png"
has "$work/out" "^pixels over 0.05: 240 of 6912 "
expect 0 "$ampvk" diff --ignore 150:20-165:43 "$c/changed_a.png" "$c/changed_b.png"
has "$work/out" "^ignored pixels: 384$"
expect 1 "$ampvk" diff --ignore 150:20-157:43,0:0-9:9 --window 16 "$c/changed_a.png" "$c/changed_b.png"
has "$work/out" "^pixels over 0: 160 of 29708 "
has "$work/out" "^densest 16x16 window: 128 differing pixels at (x 150, y "
expect 1 "$ampvk" diff --metric yiq --json --window 8 --diff-mask "$work/mask.png" "$c/changed_a.png" "$c/changed_b.png"
cp "$work/out" "$work/yiq.json"
json_check "$work/yiq.json" -DKEYS=max_score,mean_score,window/x,threshold \
    "-DEQUAL=metric=yiq,differing_pixels=320,antialiased_pixels=0,window/differing_pixels=64"
expect 1 "$ampvk" diff "$work/mask.png" "$c/changed_a.png"
expect 1 "$ampvk" diff --metric ssim --heatmap "$work/heat.png" "$c/moved_a.png" "$c/moved_b.png"
has "$work/out" "^diff image: "
expect 1 "$ampvk" diff --json "$work/heat.png" "$c/moved_a.png"
# --metric ssim: scikit-image's mean (tests/data/compare/ssim.txt: moved 0.984129752)
expect 1 "$ampvk" diff --metric ssim "$c/moved_a.png" "$c/moved_b.png"
has "$work/out" "^SSIM: 0.984130 "
expect 0 "$ampvk" diff --metric ssim "$c/moved_a.png" "$c/moved_a.png"
has "$work/out" "^SSIM: 1.000000 "
expect 2 "$ampvk" diff --metric ssim "$src/tests/data/rgb8.png" "$src/tests/data/rgb8.png"
has "$work/err" "SSIM needs images of at least 11x11 pixels; these are 7x5"
# --metric flip: NVIDIA's FLIP 1.6 (tests/data/compare/flip/flip.txt: ldr_lines mean 0.134065,
# weighted median 0.334002, max 0.654985; at 30 pixels per degree mean 0.154485)
f="$src/tests/data/compare/flip"
expect 1 "$ampvk" diff --metric flip "$f/ldr_lines_ref.png" "$f/ldr_lines_test.png"
has "$work/out" "^metric: LDR-FLIP, threshold 0.1, 67.02 pixels per degree$"
has "$work/out" "^FLIP: mean 0.13406[45], weighted median 0.33400[123], "
expect 1 "$ampvk" diff --metric flip --ppd 30 --json --heatmap "$work/flip.png" "$f/ldr_lines_ref.png" "$f/ldr_lines_test.png"
cp "$work/out" "$work/flip.json"
json_check "$work/flip.json" -DKEYS=flip/weighted_quartiles/1,flip/histogram/99,flip/max \
    "-DEQUAL=metric=flip,flip/ppd=30,result=different,diff_image=$work/flip.png"
grep -q '"mean": 0.15448[45]' "$work/flip.json" || fail "FLIP's mean at 30 pixels per degree is not NVIDIA's 0.154485"
expect 0 "$ampvk" diff --metric flip "$f/ldr_same_ref.png" "$f/ldr_same_test.png"
has "$work/out" "^result: MATCH$"
expect 0 "$ampvk" diff --metric flip --threshold 0.7 "$f/ldr_lines_ref.png" "$f/ldr_lines_test.png"
has "$work/out" "^pixels over 0.7: 0 of 4800 "
expect 2 "$ampvk" diff --metric flip --ppd 0 "$f/ldr_lines_ref.png" "$f/ldr_lines_test.png"
has "$work/err" "--ppd must be pixels per degree > 0, not '0'"
expect 2 "$ampvk" diff --metric flip --tone-mapper filmic "$f/ldr_lines_ref.png" "$f/ldr_lines_test.png"
has "$work/err" "--tone-mapper must be aces, hable or reinhard, not 'filmic'"
expect 2 "$ampvk" diff --metric flip --exposures 3:1:4 "$f/ldr_lines_ref.png" "$f/ldr_lines_test.png"
has "$work/err" "--exposures takes START:STOP:N (START <= STOP, N 1..1000), not '3:1:4'"
# --server: a JSON reply a line, the "id" first; errors answered, the server goes on
printf '%s\n' "{\"id\": 1, \"expected\": \"$c/moved_a.png\", \"actual\": \"$c/moved_b.png\", \"metric\": \"yiq\", \"aa\": true}" \
    "not json" "{\"id\": \"two\", \"expected\": \"$c/changed_a.png\", \"actual\": \"$c/changed_b.png\", \"ignore\": \"150:20-165:43\"}" \
    "{\"id\": 3, \"expected\": \"$work/nosuch.png\", \"actual\": \"$a\"}" >"$work/requests"
expect 0 sh -c "\"$ampvk\" diff --server <\"$work/requests\""
[ "$(lines "$work/out")" = 4 ] || fail "--server answered $(lines "$work/out") lines to 4 requests"
for k in 1 2 3 4; do sed -n "${k}p" "$work/out" >"$work/reply$k.json"; done
json_check "$work/reply1.json" "-DEQUAL=id=1,result=different,metric=yiq,differing_pixels=19,antialiased_pixels=608"
json_check "$work/reply2.json" -DKEYS=error -DEQUAL=result=error
json_check "$work/reply3.json" "-DEQUAL=id=two,result=match,ignored_pixels=384"
json_check "$work/reply4.json" -DKEYS=error "-DEQUAL=id=3,result=error"
expect 2 "$ampvk" diff --server "$a"
# usage errors and a mask of the wrong size
expect 2 "$ampvk" diff --aa "$a" "$b"
has "$work/err" "need --metric yiq"
expect 2 "$ampvk" diff --metric yiq --threshold 2 "$a" "$b"
expect 2 "$ampvk" diff --metric psnr "$a" "$b"
has "$work/err" "--metric must be channel, yiq, ssim or flip, not 'psnr'"
expect 2 "$ampvk" diff --ignore 5:5-2:2 "$a" "$b"
has "$work/err" "x1:y1-x2:y2"
expect 2 "$ampvk" diff --ignore 0:0-100:1 "$a" "$b"
has "$work/err" "ignore rectangle 0 (columns 0..100, rows 0..1) is not inside the 16x12 image"
expect 2 "$ampvk" diff --mask "$c/noise_a.png" "$a" "$b"
has "$work/err" "the mask is 96x64 with 4 channels; the images are 16x12"
echo PASS
