#!/bin/sh
# Runtime failures of ampvk filter on one file: a missing input, a corrupt one and
# one whose header claims a huge image exit 1 with one line naming the file and the reason; no output file appears and
# an existing one is left as it was.
#   sh failures.sh AMPVK SOURCE_DIR WORK_DIR
set -eu
ampvk=$1 src=$2 work=$3
. "$src/tests/tool/common.sh"
fresh
head -c 100 "$src/assets/sample.png" >"$work/corrupt.png"
cp "$src/tests/data/rgb8.png" "$work/existing.png"

expect 1 "$ampvk" filter "$work/nosuch.png" "$work/a.png" copy
has "$work/err" "nosuch.png"
[ "$(lines "$work/err")" = 1 ] || fail "$(lines "$work/err") lines on stderr, expected 1"
expect 1 "$ampvk" filter "$work/corrupt.png" "$work/b.png" gaussian:sigma=1
has "$work/err" "corrupt.png.*truncated"
[ "$(lines "$work/err")" = 1 ] || fail "$(lines "$work/err") lines on stderr, expected 1"
[ ! -e "$work/a.png" ] && [ ! -e "$work/b.png" ] || fail "a failed run wrote its output"

# a file of a few bytes whose header claims 16384 x 16384 pixels fails from its
# header, before a device is opened: within 50 MB of address space, where opening a
# device alone takes more (not under AddressSanitizer, whose shadow memory reserves
# terabytes of it: its test environment sets ASAN_OPTIONS)
limit=51200
[ -z "${ASAN_OPTIONS:-}" ] || limit=unlimited
(ulimit -v $limit; expect 1 "$ampvk" filter "$src/tests/data/formats/huge_header.bmp" "$work/c.png" gaussian:sigma=1)
has "$work/err" "huge_header.bmp is truncated: its header claims 16384x16384 pixels but a bmp file of 70 bytes"
[ ! -e "$work/c.png" ] || fail "a failed run wrote its output"

for in in nosuch.png corrupt.png; do
    expect 1 "$ampvk" filter "$work/$in" "$work/existing.png" copy
    cmp -s "$src/tests/data/rgb8.png" "$work/existing.png" || fail "a failed run changed an existing output"
done
# nothing else left behind (no temporary files)
[ "$(ls -A "$work" | sort | tr '\n' ' ')" = "corrupt.png err existing.png out " ] || fail "files left: $(ls -A "$work")"
echo PASS
