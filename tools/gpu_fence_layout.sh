#!/usr/bin/env bash
# The missing-fence planted bugs on the GPU with the structure's arrays far
# apart (the recipe item apart=, docs/gpu-perturbation.md): each structure's
# fence rows (bench/<structure>_gpu_rows.txt: a planted bug and its recipes,
# with and without apart=, and longer stress runs of it), and the correct
# structures under apart= (false alarms). Why apart=: the litmus runs of
# tools/gpu_issue15.sh (the H100 reorders unfenced message passing only
# between far apart words).
#
# Here:                   bash tools/gpu_campaign.sh --bundle
# On the device machine:  bash tools/gpu_fence_layout.sh       (carry build/campaign-bundle)
# Writes $OUT/fence/ (OUT defaults to ./gpu-out): summary.md, by_recipe.md,
# by_mutant.md, correct.md, <structure>_big_<i>.txt (the longer runs), progress.log.
# Knobs: FENCE_BUDGET (80 s a planted-bug row), FENCE_CORRECT_BUDGET (20 s a
# structure), FENCE_BIG_SEEDS (40 runs a longer run's row).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source tools/gpu_rows.sh
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

while IFS='|' read -r s mutant recipes; do
  row "$s" "$mutant" "$recipes" 400 "$budget" < /dev/null
done < <(structure_rows "$w" fence)
# Every registered structure, from the declarations (warpcheck stress --help).
for s in $(structures "$w"); do
  row "$s" none "apart=4M;apart=64M" 100 "$correct_budget"
done
# Longer runs of a planted bug (its lock hand-offs many times a run, say).
i=0
while IFS='|' read -r s options; do
  i=$((i + 1))
  stamp "$s $options"
  # shellcheck disable=SC2086
  timeout 150 "$w" stress --structure "$s" --backend gpu $options --seeds "${FENCE_BIG_SEEDS:-40}" --keep-going --no-shrink \
    --timeout 5 > "$out/${s}_big_$i.txt" 2>&1 < /dev/null
  stamp "exit $?: $(grep -A2 '^| runs' "$out/${s}_big_$i.txt" | tail -1)"
done < <(structure_rows "$w" fence-stress)
bash tools/gpu_mutant_table.sh --merge "$out" | tee "$out/summary.md"
stamp "done"
