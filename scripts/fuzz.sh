#!/bin/sh
# Builds the libFuzzer harnesses of tests/fuzz in build-fuzz/ (clang, AMPVK_FUZZ=ON:
# ASan + UBSan + coverage; no tests, no demos) and runs each for SECONDS (the three
# fuzzers of the device API, fuzz_params, fuzz_api and fuzz_compare_png, a third of it):
#
#   ./scripts/fuzz.sh SECONDS [FUZZER ...]     (default: every fuzzer)
#
# First every file in tests/data/fuzz/<fuzzer>/ runs once (regression inputs: past
# findings); fuzz_png also decodes its inputs with allocations filled by two different
# bytes and fails where the decodes differ. Then the fuzzer starts from a copy of
# tests/fuzz/corpus/<fuzzer>/ in build-fuzz/work/<fuzzer>/ (the committed corpus never
# grows), on lavapipe with the validation layer on. JOBS fuzzers run at a time (default:
# one a core; JOBS also sets the build's parallelism). Prints executions and coverage per
# fuzzer (libFuzzer's final stats) and exits non-zero on any finding (crash, abort, leak,
# timeout, out of memory); a finding's input is saved in build-fuzz/findings/ and its log
# in build-fuzz/work/<fuzzer>.log. FUZZ_FLAGS adds libFuzzer flags. Runs wait for each
# other (a lock in build-fuzz/).
set -eu
cd "$(dirname "$0")/.."
root=$PWD
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
all="fuzz_png fuzz_hdr fuzz_params fuzz_compare_png fuzz_api fuzz_image fuzz_jpeg fuzz_webp fuzz_exr fuzz_tiff"

if [ $# -lt 1 ] || ! [ "$1" -gt 0 ] 2>/dev/null; then
    echo "usage: $0 SECONDS [FUZZER ...]   (fuzzers: $all)" >&2
    exit 2
fi
seconds=$1
shift
fuzzers=${*:-$all}

./scripts/install-deps.sh

# One run at a time: runs share build-fuzz/ (the build, the work folders, findings).
mkdir -p build-fuzz
exec 9>build-fuzz/.lock
if command -v flock >/dev/null 2>&1 && ! flock -n 9; then
    echo "fuzz: another fuzz.sh is using build-fuzz/; waiting for it" >&2
    flock 9
fi

echo "== build-fuzz/ (clang, AMPVK_FUZZ=ON)"
# line tables only (-g1): what a finding's stack trace prints, in half the build time
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    -DAMPVK_FUZZ=ON -DAMPVK_TESTS=OFF -DAMPVK_DEMOS=OFF >/dev/null
cmake --build build-fuzz -j "$jobs" --target fuzzers

export AMPVK_VALIDATION=1 AMPVK_DEFAULT_ACCELERATOR=llvmpipe XDG_CACHE_HOME="$root/build-fuzz/cache"
# Leaks inside the Vulkan driver and the validation layer are not ampvk's.
export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# uninitialized heap bytes read as a pattern, not as the zeros of fresh pages
export ASAN_OPTIONS="malloc_fill_byte=165:max_malloc_fill_size=2147483647${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
mkdir -p build-fuzz/work build-fuzz/findings build-fuzz/cache

# fuzz_one FUZZER: its regression inputs, its poisoned double decode (fuzz_png), then
# fuzzing; its summary line in build-fuzz/work/FUZZER.line, and build-fuzz/work/FUZZER.failed
# on any finding.
fuzz_one() {
    f=$1
    bin=build-fuzz/tests/fuzz/$f
    # the device fuzzers run slower inputs and hold the Vulkan driver; the decoders'
    # fuzzers run SECONDS, the device API's (40 to 7000 inputs a second) a third of it
    case $f in
        fuzz_png|fuzz_hdr|fuzz_image|fuzz_jpeg|fuzz_exr|fuzz_webp|fuzz_tiff)
            limits="-timeout=30 -rss_limit_mb=2560" secs=$seconds ;;
        *) limits="-timeout=120 -rss_limit_mb=4096" secs=$(((seconds + 2) / 3)) ;;
    esac
    log=build-fuzz/work/$f.log
    rm -f "build-fuzz/work/$f.failed" "build-fuzz/work/$f.line"

    regressions=$(find "tests/data/fuzz/$f" -type f ! -name 'README*' 2>/dev/null | sort)
    if [ -n "$regressions" ]; then
        echo "== $f: $(echo "$regressions" | wc -l) regression input(s) from tests/data/fuzz/$f"
        # shellcheck disable=SC2086
        if ! "$bin" $limits $regressions >"$log.regressions" 2>&1; then
            tail -n 40 "$log.regressions"
            echo "fuzz: $f fails on a regression input (log: $log.regressions)" >&2
            echo "$f(regression)" >"build-fuzz/work/$f.failed"
            return
        fi
    fi

    # fuzz_png: the regression inputs and the corpus decoded twice, every allocation
    # filled with 0x00 in one run and 0xFF in the other; the decodes must agree
    if [ "$f" = fuzz_png ]; then
        inputs=$(find "tests/data/fuzz/$f" "tests/fuzz/corpus/$f" -type f ! -name 'README*' | sort)
        for fill in 0 255; do
            rm -f "$log.digests.$fill"
            # shellcheck disable=SC2086
            AMPVK_FUZZ_DIGESTS="$log.digests.$fill" ASAN_OPTIONS="$ASAN_OPTIONS:malloc_fill_byte=$fill" \
                "$bin" $limits $inputs >"$log.poisoned.$fill" 2>&1 || true
        done
        if ! cmp -s "$log.digests.0" "$log.digests.255" || ! [ -s "$log.digests.0" ]; then
            diff "$log.digests.0" "$log.digests.255" | head -n 20
            echo "fuzz: $f decodes differently when allocations are poisoned differently (inputs, in order:" \
                 "find tests/data/fuzz/$f tests/fuzz/corpus/$f | sort; logs $log.poisoned.*)" >&2
            echo "$f(poisoned)" >"build-fuzz/work/$f.failed"
            return
        fi
        echo "== $f: $(wc -l <"$log.digests.0") decodes agree with allocations filled with 0x00 and 0xFF"
    fi

    work=build-fuzz/work/$f
    rm -rf "$work"
    mkdir -p "$work"
    cp -R "tests/fuzz/corpus/$f" "$work/corpus"
    echo "== $f: fuzzing for $secs s"
    status=0
    # shellcheck disable=SC2086
    "$bin" "$work/corpus" -max_total_time="$secs" -print_final_stats=1 $limits \
        -artifact_prefix="build-fuzz/findings/$f-" ${FUZZ_FLAGS:-} >"$log" 2>&1 || status=$?
    done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1)
    last_line=$(grep -E '^#[0-9]+[[:space:]]' "$log" | tail -n 1)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    cov=$(echo "${done_line:-$last_line}" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
    ft=$(echo "${done_line:-$last_line}" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
    line=$(printf '%-18s %12s execs %8s/s  cov %6s  ft %7s' "$f" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}")
    if [ "$status" -ne 0 ]; then
        grep -E 'FUZZ FINDING|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|SUMMARY' "$log" \
            | head -n 20 || true
        artifact=$(sed -n 's/.*Test unit written to //p' "$log" | tail -n 1)
        echo "fuzz: $f found something (exit $status): log $log, input ${artifact:-build-fuzz/findings/$f-*};" \
             "once fixed, add the input to tests/data/fuzz/$f/" >&2
        echo "$f" >"build-fuzz/work/$f.failed"
        line="$line  FINDING"
    fi
    echo "$line" | tee "build-fuzz/work/$f.line"
}

for f in $fuzzers; do
    if [ ! -x "build-fuzz/tests/fuzz/$f" ]; then
        echo "fuzz: no fuzzer $f (fuzzers: $all)" >&2
        exit 2
    fi
done
# JOBS fuzzers at a time, each in its own process
running=0
for f in $fuzzers; do
    fuzz_one "$f" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait
        running=0
    fi
done
wait

failed=""
summary=""
for f in $fuzzers; do
    [ ! -e "build-fuzz/work/$f.failed" ] || failed="$failed $(cat "build-fuzz/work/$f.failed")"
    [ ! -e "build-fuzz/work/$f.line" ] || summary="$summary$(cat "build-fuzz/work/$f.line")
"
done

echo "== fuzzing summary ($seconds s each, the device API's fuzzers a third of it)"
printf '%s' "$summary"
if [ -n "$failed" ]; then
    echo "fuzz: findings in:$failed" >&2
    exit 1
fi
echo "== no findings"
