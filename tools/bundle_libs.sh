#!/usr/bin/env bash
# The shared libraries that the programs of a GPU bundle load and the device
# machine's image may lack (Boost, OpenMP, the CUDA runtime, Abseil; glibc
# and the driver are there), copied beside them. The --bundle steps of
# tools/gpu_run.sh and gpu_campaign.sh, and the structures' GPU scripts in bench/, call it.
#   bash tools/bundle_libs.sh DIR
set -uo pipefail
dir=${1:?usage: bash tools/bundle_libs.sh DIR}
for b in "$dir"/*; do ldd "$b"; done | awk '/=> \// {print $3}' | grep -E 'boost|gomp|cudart|absl' | sort -u |
  xargs -r -I{} cp -L {} "$dir"/
