#!/bin/sh
# A demo given a bad image: a one-line message naming the file and the reason, a
# non-zero exit, and no output file. Usage: demo_bad_input.sh AMPVK_FILTER SAMPLE.png
set -u
filter=$1
sample=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
size=$(wc -c <"$sample")
head -c $((size / 2)) "$sample" >"$tmp/truncated.png"
# one byte of the first IDAT's data flipped: its CRC no longer matches
cp "$sample" "$tmp/bad_crc.png"
at=$(grep -abo IDAT "$sample" | head -1 | cut -d: -f1)
printf '\125' | dd of="$tmp/bad_crc.png" bs=1 seek=$((at + 20)) conv=notrunc 2>/dev/null
printf 'not a png at all\n' >"$tmp/text.png"
: >"$tmp/empty.png"
for case in truncated:truncated bad_crc:"bad CRC in chunk IDAT" text:"not a PNG file" empty:"is empty" \
            missing:"No such file"; do
    name=${case%%:*}
    why=${case#*:}
    rm -f "$tmp/out.png"
    "$filter" "$tmp/$name.png" "$tmp/out.png" >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    lines=$(wc -l <"$tmp/stderr")
    msg=$(cat "$tmp/stderr")
    if [ $rc -eq 0 ]; then echo "FAIL $name: exit 0"; status=1; fi
    if [ "$lines" -ne 1 ]; then echo "FAIL $name: $lines lines on stderr: $msg"; status=1; fi
    case $msg in *"$tmp/$name.png"*"$why"*) ;; *) echo "FAIL $name: '$msg' lacks the file or '$why'"; status=1 ;; esac
    if [ -e "$tmp/out.png" ]; then echo "FAIL $name: wrote an output file"; status=1; fi
    [ $status -eq 0 ] && echo "ok $name: $msg"
done
exit $status
