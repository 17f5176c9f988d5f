#!/bin/sh
# Makes the README's gallery, docs/gallery/*.png: the bundled image and each built-in
# filter's result on it, through the ampvk tool, shrunk to 160x160 (area resampling)
# so the files stay small. Run after a build, from anywhere:
#
#     ./scripts/make_gallery.sh [path/to/ampvk]
#
# The pictures are what the filters make on the default accelerator; rerun it when a
# filter changes and look at them.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
ampvk=${1:-$root/build/demos/ampvk}
in=$root/assets/sample.png
out=$root/docs/gallery
small="resize:width=160,height=160,interpolation=area"
mkdir -p "$out"

# name | filters
while IFS='|' read -r name chain; do
    [ -n "$name" ] || continue
    # shellcheck disable=SC2086 # the chain is words on purpose
    "$ampvk" filter --quiet "$in" "$out/$name.png" $chain $small
done <<'LIST'
original|copy
gaussian|gaussian:sigma=3
box|box:radius=4
median|median:radius=4
sobel|sobel
sharpen|sharpen:amount=2,sigma=2
bilateral|bilateral:diameter=15,sigma_color=80,sigma_space=8
erode|erode:radius=3
dilate|dilate:radius=3
grayscale|grayscale
sepia|sepia
invert|invert
gamma|gamma:gamma=2.2
brightness_contrast|brightness_contrast:brightness=0.1,contrast=1.5
threshold|grayscale threshold:threshold=0.5
srgb_to_linear|srgb_to_linear
linear_to_srgb|linear_to_srgb
resize_nearest|resize:width=32,height=32,interpolation=area resize:width=512,height=512,interpolation=nearest
resize_lanczos4|resize:width=96,height=96,interpolation=area resize:width=512,height=512,interpolation=lanczos4
equalize|grayscale equalize
LIST
ls "$out"
