#!/bin/sh
# Usage errors of ampvk filter and ampvk diff: exit 2, one line on stderr, nothing
# on stdout, no output file; --help: exit 0 and the usage on stdout.
#   sh usage.sh AMPVK SOURCE_DIR WORK_DIR
set -eu
ampvk=$1 src=$2 work=$3
. "$src/tests/tool/common.sh"
fresh
in=$src/tests/data/rgb8.png

# usage_error CMD...: CMD exits 2 with one line on stderr and nothing on stdout.
usage_error() {
    expect 2 "$@"
    [ "$(lines "$work/err")" = 1 ] || fail "$(lines "$work/err") lines on stderr, expected 1"
    [ ! -s "$work/out" ] || fail "a usage error printed on stdout"
}

usage_error "$ampvk"
usage_error "$ampvk" filter
usage_error "$ampvk" filter --nosuch "$in" "$work/out.png" copy
has "$work/err" "unknown option '--nosuch'"
usage_error "$ampvk" filter "$in" "$work/out.png" blur:x=1
has "$work/err" blur
usage_error "$ampvk" filter "$in" "$work/out.png" gaussian:nosuch=1
has "$work/err" nosuch
usage_error "$ampvk" filter "$in"
has "$work/err" "missing OUT"
usage_error "$ampvk" filter "$in" "$work/out.png"
has "$work/err" "missing FILTER"
usage_error "$ampvk" filter "$in" "$work/out.xyz" copy
has "$work/err" "out.xyz"
usage_error "$ampvk" filter --jobs 0 "$in" "$work/out.png" copy
usage_error "$ampvk" diff
usage_error "$ampvk" diff "$in"
usage_error "$ampvk" diff --nosuch "$in" "$in"
usage_error "$ampvk" diff --max-pixels 101% "$in" "$in"
usage_error "$ampvk" diff --max-diff -1 "$in" "$in"
[ ! -e "$work/out.png" ] && [ ! -e "$work/out.xyz" ] || fail "a usage error wrote an output file"

expect 0 "$ampvk" filter --help
has "$work/out" "^usage: ampvk filter"
expect 0 "$ampvk" diff --help
has "$work/out" "^usage: ampvk diff"
echo PASS
