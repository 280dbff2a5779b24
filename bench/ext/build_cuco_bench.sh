#!/usr/bin/env bash
# Builds bench/ext/cuco_static_map_bench.cu against a copy of cuCollections
# that is not part of this repository (fetched by the user, e.g.
# `git clone https://github.com/NVIDIA/cuCollections`), for sm_90:
#   bash bench/ext/build_cuco_bench.sh CUCO_INCLUDE_DIR [OUTPUT]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
inc=${1:?usage: build_cuco_bench.sh CUCO_INCLUDE_DIR [OUTPUT]}
out=${2:-build/bench/cuco_static_map_gpu_bench}
[ -f "$inc/cuco/static_map.cuh" ] || { echo "error: $inc/cuco/static_map.cuh not found" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
"${CUDACXX:-nvcc}" -O3 -std=c++20 -arch=sm_90 --expt-extended-lambda --expt-relaxed-constexpr -I. -I"$inc" \
  bench/ext/cuco_static_map_bench.cu -o "$out"
echo "built $out"
