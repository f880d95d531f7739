#!/usr/bin/env bash
# Installs everything ptodist needs to build and test, from Debian's archive. Idempotent: a package that
# is already installed is skipped, so a second run does no network traffic.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev
  libopenblas-dev libblis-dev libdnnl-dev
  openmpi-bin libopenmpi-dev
  libcli11-dev libfmt-dev nlohmann-json3-dev
  llvm-14-tools python3 python3-numpy
  python3-dev pybind11-dev python3-torch python3-pytest
  clang-14 libclang-rt-14-dev  # libFuzzer's runtime (libclang_rt.fuzzer) for clang-14: make fuzz
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
