#!/bin/sh
# Builds ampvk and runs its tests in four stages, each timed:
#   build/       RelWithDebInfo: every test
#   build-asan/  AddressSanitizer + UndefinedBehaviorSanitizer with fault injection on
#                (AMPVK_FAULT_INJECTION: test_faults and test_device_lost fail
#                allocations, Vulkan calls and the device there): every host code path,
#                not the numeric matrix again (ctest label "numeric" is left out, and
#                the programs that are nothing else are not built: the shaders do not
#                run under ASan, the host code does); -O1, as the sanitizers advise
#   build-tsan/  ThreadSanitizer: the thread stress test
#   build-fuzz/  each decoder's libFuzzer harness for 30 s, the device API's for 10 s
#                (scripts/fuzz.sh: clang, ASan + UBSan)
# The long checks (ctest label "long": the full cross products of filter paths, types
# and sizes) run only with --long, as the GPU runs do. The two sanitizer builds share
# build/'s shader and pipeline caches, so lavapipe compiles each pipeline once.
# Installs the Debian packages it needs first (scripts/install-deps.sh). Prints each
# stage's time and the slowest tests, and exits non-zero on the first failure.
# JOBS overrides the parallelism.
#
#   ./scripts/test.sh [--long]
set -eu
cd "$(dirname "$0")/.."
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
long=""
for a in "$@"; do
    case $a in
        --long) long=1 ;;
        *) echo "usage: $0 [--long]" >&2; exit 2 ;;
    esac
done
skip_long="-LE long"
[ -z "$long" ] || skip_long=""
cache=$PWD/build/test-cache
started=$(date +%s)
summary=""

# stage NAME: starts timing a stage; done_stage prints its time.
stage() {
    stage_name=$1
    stage_start=$(date +%s)
    echo "== $stage_name"
}
done_stage() {
    t=$(($(date +%s) - stage_start))
    echo "== $stage_name: $t s"
    summary="$summary$(printf '%6d s  %s' "$t" "$stage_name")
"
}

# run_ctest DIR [CTEST ARGS]: ctest in DIR, then its slowest tests.
run_ctest() {
    dir=$1
    shift
    rc=0
    # shellcheck disable=SC2086
    { (cd "$dir" && ctest --output-on-failure -j "$jobs" "$@") || echo $? >"$dir/.ctest-failed"; } \
        | tee "$dir/.ctest-log"
    echo "slowest tests in $dir:"
    awk '/Test +#[0-9]+:/ { printf "%9s s  %s\n", $(NF-1), $4 }' "$dir/.ctest-log" | sort -rn | head -n 8
    if [ -e "$dir/.ctest-failed" ]; then
        rm -f "$dir/.ctest-failed"
        return 1
    fi
}

stage "install the Debian packages"
./scripts/install-deps.sh
done_stage

stage "build/ (RelWithDebInfo): build"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAMPVK_TEST_CACHE="$cache"
cmake --build build -j "$jobs"
done_stage
stage "build/: test"
# shellcheck disable=SC2086
run_ctest build $skip_long
done_stage

# The sanitizer builds at -O1 (as the sanitizers' authors advise): they compile in about
# half the time of -O2, and the host code they check is not what the tests wait on; with
# line tables only (-g1), which is what their stack traces print.
sanitized="-O1 -g1 -DNDEBUG"
stage "build-asan/ (AMPVK_SANITIZE=ON, AMPVK_FAULT_INJECTION=ON): build"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="$sanitized" \
    -DAMPVK_SANITIZE=ON -DAMPVK_FAULT_INJECTION=ON -DAMPVK_TESTS_NUMERIC=OFF -DAMPVK_TEST_CACHE="$cache"
cmake --build build-asan -j "$jobs"
done_stage
stage "build-asan/: test"
# Leaks inside the Vulkan driver and the validation layer are not ampvk's.
(
    export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
    run_ctest build-asan -LE "numeric|long"
)
done_stage

stage "build-tsan/ (AMPVK_SANITIZE=thread): build and run the thread stress test"
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="$sanitized" \
    -DAMPVK_SANITIZE=thread -DAMPVK_DEMOS=OFF -DAMPVK_TEST_CACHE="$cache"
cmake --build build-tsan -j "$jobs" --target test_threads
run_ctest build-tsan -R '^test_threads$'
done_stage

# Fuzzing: the regression inputs of tests/data/fuzz, then 30 s per decoder's fuzzer (the
# device API's fuzzers 10 s).
stage "build-fuzz/: each decoder's fuzzer for 30 s, the others 10 s"
./scripts/fuzz.sh 30
done_stage

echo "== all tests passed in $(($(date +%s) - started)) s:"
printf '%s' "$summary"
