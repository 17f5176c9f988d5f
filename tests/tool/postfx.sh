#!/bin/sh
# ampvk-postfx (demos/postfx.c), under the validation layer with synchronization
# validation (the demo exits 1 on any message about its own device, ampvk's on
# ampvk's): frame 8 of a 320x180 run through ampvk against its golden image
# (tests/golden/postfx_frame_0008.png, made on lavapipe: a rasterizer may differ at
# triangle edges, hence one level on up to 0.5% of the pixels), the application's own
# blur and tone map against ampvk's (one level on up to 2%: float rounding in two
# different blurs), frame 0 of each written too, the render alone, and usage errors.
#   sh postfx.sh AMPVK_POSTFX AMPVK SOURCE_DIR WORK_DIR
set -eu
postfx=$1 ampvk=$2 src=$3 work=$4
. "$src/tests/tool/common.sh"
fresh

run() { # run PASS: 9 frames, 0 and 8 saved, into $work/PASS
    expect 0 "$postfx" --width 320 --height 180 --frames 9 --every 8 --out "$work/$1" --pass "$1"
    has "$work/out" "^postfx: 9 frames of 320x180, pass $1: .* frames/s"
    has "$work/out" "frame_0008.png$"
    [ "$(png_header "$work/$1/frame_0000.png")" = "320 180 8 6" ] || fail "frame 0 of pass $1 is not 320x180 RGBA8"
}
run ampvk
run app
if [ "${AMPVK_UPDATE_GOLDEN:-0}" = 1 ]; then
    cp "$work/ampvk/frame_0008.png" "$src/tests/golden/postfx_frame_0008.png"
fi
expect 0 "$ampvk" diff "$src/tests/golden/postfx_frame_0008.png" "$work/ampvk/frame_0008.png" --max-diff 1 \
    --max-pixels 0.5% --diff "$work/golden_diff.png"
expect 0 "$ampvk" diff "$work/ampvk/frame_0008.png" "$work/app/frame_0008.png" --max-diff 1 --max-pixels 2%
# the frames differ from each other: the scene moves
expect 1 "$ampvk" diff "$work/ampvk/frame_0000.png" "$work/ampvk/frame_0008.png"
expect 0 "$postfx" --width 64 --height 32 --frames 3 --pass none --quiet
has "$work/out" "^postfx: 3 frames of 64x32, pass none: "

expect 0 "$postfx" --help
has "$work/out" "^usage: ampvk-postfx"
expect 2 "$postfx" --pass sideways
has "$work/err" "bad value 'sideways' for --pass"
expect 2 "$postfx" --width 0
expect 2 "$postfx" --frames
expect 2 "$postfx" --bogus
has "$work/err" "unknown option '--bogus'"
echo "ok"
