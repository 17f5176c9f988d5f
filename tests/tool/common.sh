# Shared by the tool tests (tests/tool/*.sh), sourced after setting `work`, the test's
# own folder: checks of exit statuses, output and files.

# In the sanitizer build: no table of the suppressions used on stderr (the tests count
# its lines); a sanitizer's report still fails the test (expect).
if [ -n "${LSAN_OPTIONS:-}" ]; then
    export LSAN_OPTIONS="$LSAN_OPTIONS:print_suppressions=0"
fi

# fail MESSAGE...: the test fails with MESSAGE.
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# expect STATUS CMD [ARGS...]: runs CMD, its stdout in $work/out and its stderr in
# $work/err (both shown), and fails unless it exits with STATUS and without a
# sanitizer's report.
expect() {
    _want=$1
    shift
    echo "\$ $*"
    set +e
    "$@" >"$work/out" 2>"$work/err"
    _got=$?
    set -e
    sed 's/^/  out: /' "$work/out"
    sed 's/^/  err: /' "$work/err"
    [ "$_got" = "$_want" ] || fail "exit status $_got, expected $_want: $*"
    ! grep -q "Sanitizer\|runtime error:" "$work/err" || fail "a sanitizer's report: $*"
}

# has FILE REGEX: fails unless a line of FILE matches the basic regular expression.
has() {
    grep -q -- "$2" "$1" || fail "no line of $(basename "$1") matches '$2'"
}

# lines FILE: the number of lines in FILE.
lines() {
    wc -l <"$1" | tr -d ' '
}

# png_header FILE: "WIDTH HEIGHT BITS COLOR_TYPE" from a PNG's IHDR chunk.
png_header() {
    od -A n -t u1 -j 16 -N 10 "$1" | awk '{ print $1*16777216 + $2*65536 + $3*256 + $4,
                                              $5*16777216 + $6*65536 + $7*256 + $8, $9, $10 }'
}

# fresh: empties the test's folder.
fresh() {
    rm -rf "$work"
    mkdir -p "$work"
}

# json_check FILE [-DKEYS=...] [-DEQUAL=...]: FILE is one valid JSON object holding them
# (json_check.cmake).
json_check() {
    file=$1
    shift
    cmake -DFILE="$file" "$@" -P "$src/tests/tool/json_check.cmake" || fail "$file: not the JSON expected"
}
