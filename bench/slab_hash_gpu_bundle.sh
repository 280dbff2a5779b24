#!/usr/bin/env bash
# The slab hash's programs for the GPU bundle beyond its benchmark
# (tools/gpu_run.sh --bundle calls it): the public SlabHash beside it, when
# a fetched copy is named (SLAB_HASH_DIR=.../SlabHash with SlabAlloc in it;
# SLABHASH_DIR, its name before issue 31, too); never committed.
#   bash bench/slab_hash_gpu_bundle.sh BUNDLE_DIR
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bundle=${1:?usage: bash bench/slab_hash_gpu_bundle.sh BUNDLE_DIR}
dir=${SLAB_HASH_DIR:-${SLABHASH_DIR:-}}
[ -z "$dir" ] || bash bench/ext/slab_hash_public_build.sh "$dir" "$bundle/slab_hash_public_bench"
