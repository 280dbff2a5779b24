#!/usr/bin/env bash
# Builds bench/ext/btree_bench.cu against copies of MVGpuBTree and GpuBTree
# that are not part of this repository (fetched by the user:
# `git clone https://github.com/owensgroup/MVGpuBTree` and
# `git clone https://github.com/owensgroup/GpuBTree`; bench/clients/fetch.sh
# puts them in .ext/), for sm_90 with nvcc 13:
#   bash bench/ext/btree_bench_build.sh MVGPUBTREE_DIR GPUBTREE_DIR [OUTPUT]
# Nothing of that code is patched or committed: both compile as fetched,
# header-only; their warnings are silenced here. C++20 for this
# repository's headers (both libraries are C++17 code that compiles as 20).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
usage="usage: btree_bench_build.sh MVGPUBTREE_DIR GPUBTREE_DIR [OUTPUT]"
mv=${1:?$usage}
gb=${2:?$usage}
out=${3:-build/bench/btree_bench}
[ -f "$mv/include/gpu_btree.h" ] || { echo "error: $mv/include/gpu_btree.h not found (MVGpuBTree)" >&2; exit 2; }
[ -f "$gb/src/GpuBTree.h" ] || { echo "error: $gb/src/GpuBTree.h not found (GpuBTree)" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
"${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}" -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -w \
  -I. -I"$mv/include" -I"$gb/src" bench/ext/btree_bench.cu -o "$out"
echo "built $out"
