#!/bin/sh
# ampvk filter on single files: a chain of filters against its golden image, the
# output format chosen by OUT's extension, the bit depth and the channels kept.
#   sh filter.sh AMPVK SOURCE_DIR WORK_DIR
set -eu
ampvk=$1 src=$2 work=$3
. "$src/tests/tool/common.sh"
fresh
data=$src/tests/data

# A chain on the bundled 512x512 image: 256 wide, within 1 step of the golden image
# (tests/golden/tool/chain.png, made by this command).
expect 0 "$ampvk" filter "$src/assets/sample.png" "$work/chain.png" gaussian:sigma=2 sharpen:amount=0.5 \
    resize:width=256
has "$work/out" "sample.png -> .*chain.png (512x512, 4 channels of 8 bits -> 256x256, 4 channels of 8 bits)"
[ "$(png_header "$work/chain.png")" = "256 256 8 6" ] || fail "chain.png: $(png_header "$work/chain.png")"
expect 0 "$ampvk" diff --max-diff 1 "$src/tests/golden/tool/chain.png" "$work/chain.png"

# The format by extension: every output decodes; the lossless ones equal the PNG.
for ext in png jpg bmp tga hdr webp tif exr; do
    expect 0 "$ampvk" filter --quiet "$data/rgb8.png" "$work/rgb.$ext" gaussian:sigma=1
    [ ! -s "$work/out" ] || fail "--quiet printed on stdout"
    expect 0 "$ampvk" diff "$work/rgb.$ext" "$work/rgb.$ext"
done
[ "$(od -A n -c -N 2 "$work/rgb.bmp" | tr -d ' ')" = BM ] || fail "rgb.bmp is not a BMP file"
[ "$(od -A n -t x1 -N 2 "$work/rgb.jpg" | tr -d ' ')" = ffd8 ] || fail "rgb.jpg is not a JPEG file"
head -c 10 "$work/rgb.hdr" | grep -q '^#?RADIANCE' || fail "rgb.hdr is not a Radiance file"
expect 0 "$ampvk" diff "$work/rgb.png" "$work/rgb.bmp"
expect 0 "$ampvk" diff "$work/rgb.png" "$work/rgb.tga"
expect 0 "$ampvk" diff "$work/rgb.png" "$work/rgb.tif"
[ "$(od -A n -c -N 4 "$work/rgb.webp" | tr -d ' ')" = RIFF ] || fail "rgb.webp is not a RIFF file"
[ "$(od -A n -t x1 -N 4 "$work/rgb.exr" | tr -d ' ')" = 762f3101 ] || fail "rgb.exr is not an OpenEXR file"
# Float results stay floats in OpenEXR and TIFF: the HDR read back, filtered, written, compared.
expect 0 "$ampvk" filter --quiet "$work/rgb.hdr" "$work/float.exr" invert
expect 0 "$ampvk" filter --quiet "$work/float.exr" "$work/float.tif" invert
expect 0 "$ampvk" diff --max-diff 0.002 "$work/rgb.hdr" "$work/float.tif"

# 16-bit PNG in: 16-bit out (--bits 8 asks for 8); gray in: gray out.
expect 0 "$ampvk" filter --quiet "$data/rgb16.png" "$work/rgb16.png" gaussian:sigma=1
[ "$(png_header "$work/rgb16.png")" = "7 5 16 2" ] || fail "rgb16.png: $(png_header "$work/rgb16.png")"
expect 0 "$ampvk" filter --quiet --bits 8 "$data/rgb16.png" "$work/rgb16to8.png" gaussian:sigma=1
[ "$(png_header "$work/rgb16to8.png")" = "7 5 8 2" ] || fail "rgb16to8.png: $(png_header "$work/rgb16to8.png")"
expect 0 "$ampvk" filter --quiet "$data/gray8.png" "$work/gray.png" gaussian:sigma=1
[ "$(png_header "$work/gray.png")" = "7 5 8 0" ] || fail "gray.png: $(png_header "$work/gray.png")"
expect 1 "$ampvk" diff "$work/gray.png" "$work/rgb.png"
has "$work/out" "channel count mismatch"
echo PASS
