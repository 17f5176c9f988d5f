#!/bin/sh
# Builds ampvk and runs every test twice: a RelWithDebInfo build in build/ and a
# build with AddressSanitizer and UndefinedBehaviorSanitizer in build-asan/, which
# also has fault injection on (AMPVK_FAULT_INJECTION: test_faults and
# test_device_lost fail allocations, Vulkan calls and the device there); then
# the thread stress test under ThreadSanitizer in build-tsan/; last, each libFuzzer
# harness fuzzes for 30 s (scripts/fuzz.sh: build-fuzz/, clang, ASan + UBSan).
# Installs the Debian packages it needs first (scripts/install-deps.sh).
# Exits non-zero on the first failure. JOBS overrides the parallelism.
set -eu
cd "$(dirname "$0")/.."
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

./scripts/install-deps.sh

echo "== build/ (RelWithDebInfo)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$jobs"
(cd build && ctest --output-on-failure -j "$jobs")

echo "== build-asan/ (AMPVK_SANITIZE=ON, AMPVK_FAULT_INJECTION=ON)"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAMPVK_SANITIZE=ON -DAMPVK_FAULT_INJECTION=ON
cmake --build build-asan -j "$jobs"
# Leaks inside the Vulkan driver and the validation layer are not ampvk's.
(cd build-asan && LSAN_OPTIONS="suppressions=$PWD/../scripts/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
    ctest --output-on-failure -j "$jobs")

echo "== build-tsan/ (AMPVK_SANITIZE=thread): the thread stress test"
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAMPVK_SANITIZE=thread -DAMPVK_DEMOS=OFF
cmake --build build-tsan -j "$jobs" --target test_threads
(cd build-tsan && ctest --output-on-failure -R '^test_threads$')

# Fuzzing: the regression inputs of tests/data/fuzz, then 30 s per fuzzer.
./scripts/fuzz.sh 30

echo "== all tests passed"
