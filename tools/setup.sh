#!/usr/bin/env bash
# Installs the build's dependencies (Debian packages) when they are missing,
# then configures and builds into build/: the targets named (the main job
# builds only the program it runs: `setup.sh warpcheck`), or everything
# (the tests, benchmarks and examples). Run by the main-job and test
# scripts; safe to run again.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(cmake make ninja-build g++ pkgconf googletest libgtest-dev librapidcheck-dev libbenchmark-dev libboost-context-dev libabsl-dev chromium)
# Slurm and its authentication: the campaign test starts a one-node cluster (tests/cli/local_slurm.sh).
packages+=(slurm-wlm munge)
# Thrust comes with the CUDA toolkit; without one, Debian's copy does.
if ! ls /usr/local/cuda/include/cccl/thrust/version.h /usr/local/cuda/targets/*/include/cccl/thrust/version.h \
        /usr/local/cuda/include/thrust/version.h >/dev/null 2>&1; then
  packages+=(libthrust-dev)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# WARPCHECK_BUILD names another build folder, WARPCHECK_CMAKE_ARGS adds
# configuration (the main job on a machine without a GPU: no CUDA back-end).
dir=${WARPCHECK_BUILD:-build}
# shellcheck disable=SC2086
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release ${WARPCHECK_CMAKE_ARGS:-} >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$dir" -j"$(nproc)" "${targets[@]}"
