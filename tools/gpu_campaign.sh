#!/usr/bin/env bash
# Campaigns over every GPU of a host (issue 15), in one run on a
# multi-GPU machine: `warpcheck campaign --gpus` (one process a device,
# each seeing its device alone) against the same campaign on one GPU,
# a planted bug's campaign with its failing seeds' replay lines, and a
# shard killed on one GPU then resumed. Writes $OUT/campaign.md (or
# ./gpu-out) and an archive of the campaign folders.
#
# Here (no GPU; the build with CUDA):
#   bash tools/gpu_campaign.sh --bundle      # fills build/campaign-bundle/ (ignored: carry it)
# There (a machine with two or more GPUs):
#   bash tools/gpu_campaign.sh
# CAMPAIGN_SEEDS (default 400) seeds a campaign; CAMPAIGN_ARGS the stress
# options (default: the default structure, warpcheck stress --help, at a GPU
# shape); CAMPAIGN_MUTANT the planted bug (default: the first it lists).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bundle=build/campaign-bundle

if [ "${1:-}" = --bundle ]; then
  # warpcheck, and the GPU litmus program tools/gpu_issue15.sh runs too.
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build build -j"${JOBS:-2}" --target warpcheck litmus_gpu_bench || exit 1
  rm -rf "$bundle" && mkdir -p "$bundle"
  cp build/tools/warpcheck build/bench/litmus_gpu_bench "$bundle"/ || exit 1
  bash tools/bundle_libs.sh "$bundle"
  ls -la "$bundle"
  exit 0
fi

out=${OUT:-gpu-out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/$bundle${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
wc="$PWD/$bundle/warpcheck"
seeds=${CAMPAIGN_SEEDS:-400}
read -r -a stress <<< "${CAMPAIGN_ARGS:---teams 64 --ops-per-lane 2 --keys 64}"
mutant=${CAMPAIGN_MUTANT:-$("$wc" stress "${stress[@]}" --list-mutants | sed -n '2s/^  \([a-z0-9_]*\).*/\1/p')}
work=$(mktemp -d)
start=$SECONDS
stamp() { echo "[$((SECONDS - start)) s] $*"; }
nvidia-smi -L | tee "$out/devices.txt"
gpus=$(nvidia-smi -L | grep -c '^GPU')
timed() {  # NAME, then the campaign's arguments: runs it, records the wall time and exit code
  local name=$1; shift
  local t0=$SECONDS
  "$wc" campaign "$@" --quiet > "$out/$name.log" 2>&1
  local rc=$?
  echo "$name exit $rc, $((SECONDS - t0)) s" | tee -a "$out/times.txt"
}

stamp "campaign over $gpus GPUs, $seeds seeds"
timed all_gpus "${stress[@]}" --seeds "$seeds" --out "$work/all" --gpus
stamp "the same campaign on one GPU"
CUDA_VISIBLE_DEVICES=0 timed one_gpu "${stress[@]}" --seeds "$seeds" --out "$work/one" --gpus
stamp "a planted bug over $gpus GPUs"
timed mutant "${stress[@]}" --mutant "$mutant" --seeds 100 --out "$work/mutant" --gpus
stamp "a shard killed, then resumed"
WARPCHECK_CAMPAIGN_TEST_KILL_SHARD=1 timed killed "${stress[@]}" --seeds "$seeds" --out "$work/resumed" --gpus
"$wc" campaign --status "$work/resumed" > "$out/killed_status.txt" 2>&1
ls "$work/resumed/shards" > "$out/killed_files.txt"
timed resume --resume "$work/resumed" --gpus

{
  echo "# Campaigns over GPUs ($(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $gpus GPUs)"
  echo
  echo "Command: bash tools/gpu_campaign.sh; stress options: ${stress[*]}; planted bug $mutant; $seeds seeds"
  echo
  echo '```'
  cat "$out/times.txt"
  echo '```'
  for c in all one mutant resumed; do
    echo
    echo "## $c"
    echo
    sed -n '1,/^## Failing/p' "$work/$c/report.md" | head -60
  done
  echo
  echo "## The killed shard before the resume"
  echo
  echo '```'
  cat "$out/killed_status.txt" | head -30
  echo '```'
} > "$out/campaign.md"
tar -czf "$out/campaigns.tar.gz" -C "$work" . 2>/dev/null
cat "$out/campaign.md"
stamp done
