#!/bin/sh
# ampvk filter on a folder of 5 good images and a corrupt one: exit 1, the 5 outputs
# and nothing else in OUT, the corrupt file named on stderr with its reason; plain
# progress lines when stdout is not a terminal; --quiet: nothing on stdout.
#   sh folder.sh AMPVK SOURCE_DIR WORK_DIR
set -eu
ampvk=$1 src=$2 work=$3
. "$src/tests/tool/common.sh"
fresh
mkdir "$work/in"
for f in rgb8 rgba8 gray8 rgb16 ga8; do cp "$src/tests/data/$f.png" "$work/in/"; done
head -c 100 "$src/assets/sample.png" >"$work/in/corrupt.png"
echo "not an image" >"$work/in/notes.txt"
good="ga8.png gray8.png rgb16.png rgb8.png rgba8.png "

expect 1 "$ampvk" filter --jobs 2 "$work/in" "$work/out1" gaussian:sigma=1
[ "$(ls -A "$work/out1" | sort | tr '\n' ' ')" = "$good" ] || fail "OUT holds: $(ls -A "$work/out1")"
has "$work/err" "^corrupt.png: .*truncated"
has "$work/err" "1 file failed"
[ "$(grep -c corrupt.png "$work/err")" = 1 ] || fail "corrupt.png is not named once on stderr"
has "$work/out" "^[0-9]/6 images, .* images/s"
has "$work/out" "^6 images in .*, 1 failed$"
! grep -q "$(printf '\r')" "$work/out" || fail "a progress bar (\\r) although stdout is not a terminal"
# the outputs equal single-file runs
for f in $good; do
    expect 0 "$ampvk" filter --quiet "$work/in/$f" "$work/single-$f" gaussian:sigma=1
    expect 0 "$ampvk" diff "$work/single-$f" "$work/out1/$f"
done

# more threads than the device's turns (4) and more files than threads: every file
# goes through the queue of images read ahead once, and comes out as the single-file
# run of its own image (the five kinds in turn, so an image written under another
# file's name shows)
mkdir "$work/many"
n=0
for i in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16; do
    set -- $good
    shift $((n % 5))
    cp "$work/in/$1" "$work/many/$i-$1"
    n=$((n + 1))
done
expect 0 "$ampvk" filter --quiet --jobs 8 "$work/many" "$work/out3" gaussian:sigma=1
[ "$(ls -A "$work/out3" | wc -l)" = 16 ] || fail "OUT holds $(ls -A "$work/out3" | wc -l) files, not 16"
for f in "$work"/many/*; do
    name=${f##*/}
    cmp -s "$work/single-${name#*-}" "$work/out3/$name" || fail "$name differs from the single-file run"
done

expect 1 "$ampvk" filter --quiet "$work/in" "$work/out2" gaussian:sigma=1
[ ! -s "$work/out" ] || fail "--quiet printed on stdout"
has "$work/err" "^corrupt.png: "
[ "$(ls -A "$work/out2" | sort | tr '\n' ' ')" = "$good" ] || fail "OUT holds: $(ls -A "$work/out2")"
echo PASS
