#!/bin/sh
# ampvk diff GOLDEN_DIR ACTUAL_DIR: pairs by relative path (folders included), every
# pair reported, failures first; missing and new files; an unreadable file an error
# that stops nothing; --json, --junit, --update; --report's page, which headless
# Chromium loads: every pair listed, failures first, a screenshot that is not blank.
# The pairs are tests/data/compare's (pixelmatch's counts: moved 19 and changed 320 at
# 0.1 with anti-aliasing ignored).
#   sh diff_folders.sh AMPVK SOURCE_DIR WORK_DIR
set -eu
ampvk=$1 src=$2 work=$3
. "$src/tests/tool/common.sh"
fresh
c=$src/tests/data/compare
g=$work/golden a=$work/actual
mkdir -p "$g/sub" "$a/sub"
cp "$c/moved_a.png" "$g/moved.png"
cp "$c/moved_b.png" "$a/moved.png"
cp "$c/changed_a.png" "$g/changed.png"
cp "$c/changed_b.png" "$a/changed.png"
cp "$c/gray_a.png" "$g/sub/gray.png"
cp "$c/gray_a.png" "$a/sub/gray.png"
cp "$c/noise_a.png" "$g/same.png"
cp "$c/noise_a.png" "$a/same.png"
cp "$c/translucent_a.png" "$g/gone.png"
cp "$c/translucent_b.png" "$a/extra.png"
cp "$c/moved_a.png" "$g/broken.png"
head -c 100 "$c/moved_a.png" >"$a/broken.png"

# an unreadable actual image: an error (exit 2), every other pair still reported
expect 2 "$ampvk" diff --metric yiq --aa "$g" "$a" --junit "$work/junit.xml" --report "$work/report"
has "$work/out" "^different changed.png: 320 pixels differ "
has "$work/out" "^different moved.png: 19 pixels differ "
has "$work/out" "^error     broken.png: .*broken.png is truncated"
has "$work/out" "^missing   gone.png: no actual image$"
has "$work/out" "^new       extra.png: no golden image$"
has "$work/out" "^7 pairs in .*: 2 match, 2 different, 1 errors, 1 missing, 1 new$"
[ "$(sed -n 1p "$work/out" | cut -c1-9)" = "different" ] || fail "the failures are not first"
has "$work/junit.xml" '<testsuite name="ampvk diff" tests="7" failures="4" errors="1"'
has "$work/junit.xml" '<testcase classname="ampvk.diff" name="sub/gray.png"/>'
has "$work/junit.xml" 'name="gone.png"><failure message="missing: no actual image"/>'
[ -s "$work/report/images/0.diff.png" ] || [ -s "$work/report/images/1.diff.png" ] || fail "no diff picture"
expect 2 "$ampvk" diff --metric yiq --aa --json "$g" "$a"
cp "$work/out" "$work/folders.json"
json_check "$work/folders.json" -DKEYS=results/6/name \
    "-DEQUAL=result=error,pairs=7,match=2,different=2,missing=1,new=1,error=1,results/0/name=changed.png,results/0/differing_pixels=320"

# without the broken pair: different (exit 1); --update makes the actual images the
# goldens (a missing golden's actual is still missing); then the gone golden removed: a match
rm "$g/broken.png" "$a/broken.png"
expect 1 "$ampvk" diff --metric yiq --aa "$g" "$a"
expect 1 "$ampvk" diff --metric yiq --aa --update "$g" "$a"
has "$work/out" "^updated: changed.png$"
has "$work/out" "^added:   extra.png$"
cmp -s "$a/changed.png" "$g/changed.png" || fail "--update did not copy changed.png"
cmp -s "$a/extra.png" "$g/extra.png" || fail "--update did not add extra.png"
rm "$g/gone.png"
expect 0 "$ampvk" diff --metric yiq --aa "$g" "$a"
has "$work/out" "^5 pairs in .*: 5 match, 0 different, 0 errors, 0 missing, 0 new$"
has "$work/out" "^result: MATCH$"

# FLIP over folders: NVIDIA's mean of the pair (tests/data/compare/flip/flip.txt: ldr_lines 0.134065)
f=$src/tests/data/compare/flip
mkdir -p "$work/fg" "$work/fa"
cp "$f/ldr_lines_ref.png" "$work/fg/lines.png"
cp "$f/ldr_lines_test.png" "$work/fa/lines.png"
expect 1 "$ampvk" diff --metric flip --json "$work/fg" "$work/fa"
cp "$work/out" "$work/flip.json"
json_check "$work/flip.json" "-DEQUAL=result=different,different=1,results/0/name=lines.png"
grep -q '"mean_score": 0.13406[45]' "$work/flip.json" || fail "the folder's FLIP mean is not NVIDIA's 0.134065"
expect 1 "$ampvk" diff --metric flip --report "$work/flip_report" "$work/fg" "$work/fa"
has "$work/flip_report/index.html" "FLIP mean 0.13406[45], weighted median "

# usage errors and empty folders
mkdir -p "$work/empty1" "$work/empty2"
expect 2 "$ampvk" diff "$work/empty1" "$work/empty2"
has "$work/err" "no images in"
expect 2 "$ampvk" diff "$g" "$c/moved_a.png"
has "$work/err" "give two folders or two files"
expect 2 "$ampvk" diff --report "$work/r2" "$c/moved_a.png" "$c/moved_b.png"
has "$work/err" "compare folders"

# the report in a real browser: the DOM lists every pair, failures first; the page draws
if ! command -v chromium >/dev/null 2>&1; then
    echo "skipped: no chromium for the report's test"
    exit 77
fi
browse() {
    timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$work/chromium" "$@" \
        "file://$work/report/index.html" 2>"$work/chromium.err"
}
browse --dump-dom >"$work/dom.html" || fail "chromium could not load the report"
grep -o 'section class="pair [a-z]*" data-name="[^"]*"' "$work/dom.html" >"$work/sections"
cat "$work/sections"
[ "$(lines "$work/sections")" = 7 ] || fail "the report lists $(lines "$work/sections") pairs, not 7"
[ "$(sed -n 1p "$work/sections")" = 'section class="pair different" data-name="changed.png"' ] ||
    fail "the report does not begin with the failures"
[ "$(sed -n 7p "$work/sections")" = 'section class="pair match" data-name="sub/gray.png"' ] ||
    fail "the matches are not last"
grep -q 'data-result="error"' "$work/dom.html" || fail "no result in the report's summary"
grep -q '<img src="images/[0-9]*.diff.png"' "$work/dom.html" || fail "no diff picture in the report"
grep -q '<img src="images/[0-9]*.heatmap.png"' "$work/dom.html" || fail "no heat map in the report"
browse --screenshot="$work/shot.png" --window-size=1200,900 >/dev/null
size=$(wc -c <"$work/shot.png")
[ "$size" -gt 30000 ] || fail "the report's screenshot is $size bytes: blank?"
echo PASS
