#!/usr/bin/env bash
# The missing-fence planted bugs on the GPU with the structure's arrays far
# apart (the recipe item apart=, docs/gpu-perturbation.md): the heap's
# relaxed_unlock and Stadium's missing_fence_device_table under recipes with
# and without apart=, and the correct structures under apart= (false
# alarms). Why apart=: the litmus runs of tools/gpu_issue15.sh (the H100
# reorders unfenced message passing only between far apart words).
#
# Here:                   bash tools/gpu_campaign.sh --bundle
# On the device machine:  bash tools/gpu_fence_layout.sh       (carry build/campaign-bundle)
# Writes $OUT/fence/ (OUT defaults to ./gpu-out): summary.md, by_recipe.md,
# by_mutant.md, correct.md, heap_big_*.txt, progress.log.
# Knobs: FENCE_BUDGET (80 s a planted-bug row), FENCE_CORRECT_BUDGET (20 s a
# structure), FENCE_BIG_SEEDS (40 heap runs of 128 operations a block).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bundle=build/campaign-bundle
[ -x "$bundle/warpcheck" ] || { echo "no $bundle/warpcheck: run 'bash tools/gpu_campaign.sh --bundle' first and carry it"; exit 2; }
export LD_LIBRARY_PATH="$PWD/$bundle${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
w="$PWD/$bundle/warpcheck"
out=${OUT:-gpu-out}/fence
mkdir -p "$out"
budget=${FENCE_BUDGET:-80}
correct_budget=${FENCE_CORRECT_BUDGET:-20}
start=$SECONDS
stamp() { echo "[$((SECONDS - start)) s] $*" | tee -a "$out/progress.log"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"

row() {  # row STRUCTURE MUTANTS RECIPES RUNS BUDGET: one `warpcheck recipes` row, appended
  stamp "$1 $2: $3"
  timeout $(($5 * 2 + 90)) "$w" recipes --structure "$1" --mutants "$2" --recipes "$3" --runs "$4" --enough 20 \
    --budget "$5" --timeout 3 --sim-seeds 10 --sim-budget 5 --append "$out" >> "$out/stdout.log" 2>> "$out/progress.log"
  stamp "$1 $2: exit $?"
}

row heap relaxed_unlock "off;apart=4M;apart=64M;apart=4M,hammer=16,lines=16" 400 "$budget"
row stadium missing_fence_device_table "off;apart=4M;apart=64M;apart=4M,hammer=8,shuffle" 400 "$budget"
# Every registered structure, from the declarations (warpcheck stress --help).
for s in $("$w" stress --help | sed -n 's/^structures: \(.*\) (default.*/\1/p' | tr -d ,); do
  row "$s" none "apart=4M;apart=64M" 100 "$correct_budget"
done
# The heap's lock hand-offs, eight times as many a run (128 operations a block).
for v in td-fixed bu-fixed; do
  stamp "heap $v relaxed_unlock, 128 operations a block, apart=4M"
  timeout 150 "$w" stress --structure heap --backend gpu --variant $v --mutant relaxed_unlock --ops-per-team 128 \
    --recipe apart=4M --seeds "${FENCE_BIG_SEEDS:-40}" --keep-going --no-shrink --timeout 5 > "$out/heap_big_$v.txt" 2>&1
  stamp "exit $?: $(grep -A2 '^| runs' "$out/heap_big_$v.txt" | tail -1)"
done
bash tools/gpu_mutant_table.sh --merge "$out" | tee "$out/summary.md"
stamp "done"
