#!/bin/sh
# The comment check: comments say what and why; the figures behind a choice live in
# docs/perf.md, dated, with the device and the command. Reads the comments (the text
# of // and /* */, not string literals) of the .c, .h, .glsl and .comp files under
# src/, shaders/ and include/, and fails, printing FILE:LINE: and the text, on one that
#   - quotes a time: a number with ns, us, µs, ms, s, sec, seconds, minutes, hours,
#     cycles or clocks ("0.053 ms", "12 s", "1-3 us"),
#   - quotes a speed-up or a throughput: "3.4x", "20x slower", "8% faster", any
#     "GB/s" (KB/MB/GB/TB, GiB/...), "1209 G/s", "pixels/s", "TFLOPS", "fps",
#   - gives a before -> after pair of timings without their unit ("0.098 -> 0.094":
#     decimals of two places or more on both sides), or
#   - names a device model: NVIDIA's (H100, H200, A100, L40, V100, RTX, GTX, GeForce,
#     Quadro, Tesla, "NVIDIA T4" ...), AMD's (Radeon, Instinct, MI300X, RX 7900),
#     Intel's (Arc, Iris, UHD Graphics), Adreno, Mali, PowerVR, Apple M1..., the GPU
#     architectures (Hopper, Ampere, Blackwell, Lovelace, Volta, Kepler, Maxwell, RDNA,
#     CDNA) and llvmpipe (the device's name in a measurement; "lavapipe", the software
#     accelerator the library is built for, may be named).
# A number counts only where it starts a word, so vec4, uint_4, float_4s, host0,
# 16x16 and 5x5 shapes, O(n), 1e-4, Vulkan 1.2 and "0.5 -> 128" pass, as does a
# single-digit "(2 s)" of a formula.
# Usage: comments.sh ROOT   (checks ROOT/src, ROOT/shaders and ROOT/include)
set -eu
root=$1
files=$(cd "$root" && find src shaders include -type f \
    \( -name '*.c' -o -name '*.h' -o -name '*.glsl' -o -name '*.comp' \) 2>/dev/null | sort)
[ -n "$files" ] || { echo "comments: no sources under $root/src, shaders or include" >&2; exit 1; }
out=$(cd "$root" && printf '%s\n' $files | xargs awk '
BEGIN {
    N = "[0-9]+(\\.[0-9]+)?"          # a number
    S = "(^|[^A-Za-z0-9_.])"          # ... that starts a word
    E = "([^A-Za-z0-9_]|$)"           # the end of a word
    n = 0
    p[++n] = S N " ?(ns|us|µs|ms)" E
    p[++n] = S N " ?(sec|secs|seconds?|minutes?|hours?|cycles|clocks)" E
    p[++n] = S N " s([ ,.;:]|$)"
    p[++n] = S "([0-9][0-9]+|[0-9]+\\.[0-9]+) s\\)"
    p[++n] = S N "x" E
    p[++n] = S N " ?% (faster|slower|longer|shorter|quicker)"
    p[++n] = "[KMGT]i?B/s"
    p[++n] = S N " ?[KMGT]/s"
    p[++n] = S N " ?[KMGT]?(pixels|pix|texels|pairs|frames|ops|images)/s"
    p[++n] = S N " ?[GT]?FLOPS" E
    p[++n] = S N " ?fps" E
    p[++n] = S "[0-9]+\\.[0-9][0-9]+(-[0-9.]+)? -> [0-9]*\\.[0-9][0-9]"
    W = "(^|[^A-Za-z0-9_])"
    p[++n] = W "(H100|H200|H800|GH200|GB200|A100|A800|A10G|A30|A40|L40S?|V100|P100|B100|B200)" E
    p[++n] = W "(MI[0-9][0-9][0-9]X?|RTX|GTX|GeForce|Quadro|Tesla|TITAN|Radeon|Instinct|Arc|Iris)" E
    p[++n] = W "(Adreno|Mali|PowerVR|Hopper|Ampere|Blackwell|Lovelace|Volta|Kepler|Maxwell)" E
    p[++n] = W "(RDNA[0-9]?|CDNA[0-9]?|llvmpipe)" E
    p[++n] = "NVIDIA [A-Z]+ ?[0-9]|Intel U?HD Graphics|RX ?[0-9][0-9][0-9]|Apple M[1-9]" E
}
FNR == 1 { inblk = 0 }
{
    line = $0; len = length(line); text = ""; instr = 0; i = 1
    while (i <= len) {
        c = substr(line, i, 1)
        if (inblk) {
            if (c == "*" && substr(line, i + 1, 1) == "/") { inblk = 0; text = text " "; i += 2; continue }
            text = text c; i++; continue
        }
        if (instr) {
            if (c == "\\") { i += 2; continue }
            if (c == q) instr = 0
            i++; continue
        }
        if (c == "\"" || c == "\047") { instr = 1; q = c; i++; continue }
        if (c == "/" && substr(line, i + 1, 1) == "/") { text = text substr(line, i + 2); break }
        if (c == "/" && substr(line, i + 1, 1) == "*") { inblk = 1; i += 2; continue }
        i++
    }
    for (k = 1; k <= n; k++)
        if (text ~ p[k]) {
            sub(/^[[:space:]*]+/, "", text); sub(/[[:space:]\\]+$/, "", text)
            print FILENAME ":" FNR ": " text
            break
        }
}')
if [ -n "$out" ]; then
    echo "$out" | sed 's/^/comments: /' >&2
    echo "comments: FAILED: $(echo "$out" | wc -l) comment lines quote a measurement or name a device;" \
        "say what and why, and move the figures to docs/perf.md (dated, with the device and command)" >&2
    exit 1
fi
echo "comments: $(echo "$files" | wc -l) files, no comment quotes a time or names a device"
