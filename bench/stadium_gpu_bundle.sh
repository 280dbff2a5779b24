#!/usr/bin/env bash
# Stadium hashing's programs for the GPU bundle beyond its benchmark
# (tools/gpu_run.sh --bundle calls it): cuCollections' static_map on the
# same pairs, when a fetched copy is named
# (CUCO_INCLUDE=.../cuCollections/include); never committed.
#   bash bench/stadium_gpu_bundle.sh BUNDLE_DIR
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bundle=${1:?usage: bash bench/stadium_gpu_bundle.sh BUNDLE_DIR}
[ -z "${CUCO_INCLUDE:-}" ] || bash bench/ext/build_cuco_bench.sh "$CUCO_INCLUDE" "$bundle/cuco_static_map_gpu_bench"
