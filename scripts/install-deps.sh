#!/bin/sh
# Installs the Debian 12 packages ampvk needs to build and test.
# Idempotent: packages already present are not downloaded again.
# clang, libclang-rt-dev (libFuzzer and the sanitizer runtimes, only recommended by
# clang) and llvm (llvm-symbolizer, for readable stack traces) are for
# scripts/fuzz.sh; chromium (headless) is the browser the diff report's test opens;
# python3-cffi, python3-numpy and python3-dev build the Python package (python/),
# python3-pytest and python3-opencv (the tests compare with OpenCV) test it.
set -eu
pkgs="build-essential cmake pkg-config libvulkan-dev mesa-vulkan-drivers \
vulkan-validationlayers vulkan-tools libshaderc-dev glslang-dev glslc \
spirv-tools spirv-headers libstb-dev libspng-dev libdeflate-dev libturbojpeg0-dev \
libopenexr-dev libwebp-dev libtiff-dev clang libclang-rt-dev llvm \
libopenmpi-dev openmpi-bin chromium python3-cffi python3-numpy python3-dev \
python3-pytest python3-opencv"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
        || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
        echo "install-deps: need root to install:$missing" >&2; exit 1; fi
else SUDO=""; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing
