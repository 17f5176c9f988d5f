#!/bin/sh
# Runtime failures of ampvk filter on one file: a missing input and a corrupt one
# exit 1 with one line naming the file and the reason; no output file appears and
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

for in in nosuch.png corrupt.png; do
    expect 1 "$ampvk" filter "$work/$in" "$work/existing.png" copy
    cmp -s "$src/tests/data/rgb8.png" "$work/existing.png" || fail "a failed run changed an existing output"
done
# nothing else left behind (no temporary files)
[ "$(ls -A "$work" | sort | tr '\n' ' ')" = "corrupt.png err existing.png out " ] || fail "files left: $(ls -A "$work")"
echo PASS
