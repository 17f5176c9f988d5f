#!/bin/sh
# A golden-image test with the ampvk tool: render, compare with the golden image,
# PASS or FAIL. Run from the repository root; copy it for your own pipeline.
#   sh tests/tool/golden_example.sh [WORK_DIR]
# AMPVK: the tool (default: ampvk on the PATH). AMPVK_UPDATE_GOLDEN=1: the rendering
# becomes the golden image (review it, then commit it).
set -eu
ampvk=${AMPVK:-ampvk}
golden=tests/golden/tool/example.png
work=${1:-.}
result=$work/example.png
diff=$work/example-diff.png
mkdir -p "$work"

# render
"$ampvk" filter --quiet assets/sample.png "$result" gaussian:sigma=1.5 resize:width=128

if [ "${AMPVK_UPDATE_GOLDEN:-0}" = 1 ]; then
    cp "$result" "$golden"
    echo "UPDATED $golden"
    exit 0
fi

# compare: every channel within 1 step; the diff image shows the pixels beyond it in red
if "$ampvk" diff --max-diff 1 --diff "$diff" "$golden" "$result"; then
    rm -f "$diff"
    echo "PASS $result matches $golden"
else
    echo "FAIL $result differs from $golden: see $diff"
    exit 1
fi
