#!/usr/bin/env bash
# Builds bench/ext/slab_hash_public_bench.cu against a copy of the public
# SlabHash that is not part of this repository (fetched by the user:
# `git clone https://github.com/owensgroup/SlabHash` with its SlabAlloc
# submodule in SlabHash/SlabAlloc), for sm_90 with nvcc 13:
#   bash bench/ext/slab_hash_public_build.sh SLAB_HASH_DIR [OUTPUT]
# Nothing of that code is patched or committed: it compiles as fetched; its
# warnings are silenced here.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
dir=${1:?usage: slab_hash_public_build.sh SLAB_HASH_DIR [OUTPUT]}
out=${2:-build/bench/slab_hash_public_bench}
[ -f "$dir/src/slab_hash.cuh" ] || { echo "error: $dir/src/slab_hash.cuh not found" >&2; exit 2; }
[ -f "$dir/SlabAlloc/src/slab_alloc.cuh" ] || { echo "error: $dir/SlabAlloc/src/slab_alloc.cuh not found (the SlabAlloc submodule)" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
"${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}" -O3 -std=c++17 -arch=sm_90 -w -I. -I"$dir/src" -I"$dir/SlabAlloc/src" \
  bench/ext/slab_hash_public_bench.cu -o "$out"
echo "built $out"
