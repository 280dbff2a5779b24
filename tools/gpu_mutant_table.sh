#!/usr/bin/env bash
# The perturbation table on the GPU (docs/gpu-perturbation.md): every planted
# bug of every structure with a GPU back-end under a few recipes (caught/runs,
# time to first catch, the first failure in the simulator), and each
# structure unmutated under the same recipes (false alarms, slowdown).
# Nothing here names a structure or a mutant: the declarations do
# (`warpcheck recipes --plan`, the same list as `stress --list-mutants`).
#
# On the device machine, from the bundle (bash tools/gpu_run.sh --bundle here):
#   bash tools/gpu_mutant_table.sh [STRUCTURE...]     default: every structure with a GPU back-end
# Writes $OUT/recipes/ (OUT defaults to ./gpu-out): by_recipe.md, by_mutant.md,
# correct.md (rows as they come), summary.md (all three, and the median time
# to first catch), progress.log. One process a planted bug: a CUDA error in
# one cannot spoil the next, and `timeout` bounds each.
#
# Merging the outputs of several calls (each call's $OUT comes back apart):
#   bash tools/gpu_mutant_table.sh --merge DIR...      DIRs holding by_*.md; summary to stdout
#
# Knobs (environment): GPU_RECIPES ("off;preset:delays;preset:tear;preset:storm"),
# GPU_TABLE_RUNS (100 a recipe), GPU_TABLE_ENOUGH (20: a recipe that caught
# stops after this many runs), GPU_TABLE_BUDGET (10 s a row, its recipes
# together), GPU_TABLE_TIMEOUT (3 s of checker a history), GPU_TABLE_SIM_SEEDS
# (10), GPU_TABLE_SIM_BUDGET (5 s), WARPCHECK (the program).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

summary() {  # summary DIR...: the three tables merged, and the median time to first catch
  local first=1 f
  for t in by_mutant by_recipe correct; do
    case $t in
      by_mutant) echo "## Planted bugs: the first catch over all recipes" ;;
      by_recipe) echo; echo "## Planted bugs, each recipe" ;;
      correct) echo; echo "## Correct structures: false alarms and slowdown" ;;
    esac
    first=1
    for d in "$@"; do
      f="$d/$t.md"
      [ -s "$f" ] || continue
      if [ $first = 1 ]; then sed -n '1,2p' "$f"; first=0; fi
      sed -n '3,$p' "$f"
    done
  done
  echo
  # by_mutant: | structure | mutant | run | expected | caught (runs) | recipe | time | sim |
  for d in "$@"; do [ -s "$d/by_mutant.md" ] && sed -n '3,$p' "$d/by_mutant.md"; done | awk -F'|' '
    $5 ~ /benign/ {next}
    {n++; t = $8; gsub(/ /, "", t); if (t != "-" && t != "") {c++; v[c] = t + 0}}
    END {
      if (!n) exit
      for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (v[j] < v[i]) {x = v[i]; v[i] = v[j]; v[j] = x}
      med = c ? (c % 2 ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2) : 0
      printf "planted bugs (rows, benign ones aside) caught on the GPU by some recipe: %d of %d; median time to first catch over the caught: %s s\n", c, n, c ? sprintf("%.2f", med) : "-"
    }'
}

if [ "${1:-}" = --merge ]; then
  shift
  summary "$@"
  exit 0
fi

bundle=.gpu-bundle
w=${WARPCHECK:-$bundle/warpcheck}
[ -x "$w" ] || w=build/tools/warpcheck
export LD_LIBRARY_PATH="$PWD/$bundle${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
out=${OUT:-gpu-out}/recipes
mkdir -p "$out"
recipes=${GPU_RECIPES:-"off;preset:delays;preset:tear;preset:storm"}
runs=${GPU_TABLE_RUNS:-100}
enough=${GPU_TABLE_ENOUGH:-20}
budget=${GPU_TABLE_BUDGET:-10}
check_timeout=${GPU_TABLE_TIMEOUT:-3}
sim_seeds=${GPU_TABLE_SIM_SEEDS:-10}
sim_budget=${GPU_TABLE_SIM_BUDGET:-5}
# A row may overrun its budget by one run and its check; the simulator's replay comes after.
row_limit=$(awk -v b="$budget" -v t="$check_timeout" -v s="$sim_budget" 'BEGIN {printf "%d", 2 * b + 2 * t + 2 * s + 60}')

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tee "$out/device.txt"
# The declarations: a structure with a GPU back-end, then its planted bugs, a line each.
plan=$("$w" recipes --plan) || { echo "cannot read the declarations from $w"; exit 1; }
if [ $# -gt 0 ]; then
  for want in "$@"; do
    grep -q "^$want\( \|$\)" <<< "$plan" || { echo "no structure with a GPU back-end called $want (known: $(cut -d' ' -f1 <<< "$plan" | tr '\n' ' '))"; exit 1; }
  done
  plan=$(for want in "$@"; do grep "^$want\( \|$\)" <<< "$plan"; done)
fi

{
  echo "device: $(cat "$out/device.txt")"
  echo "recipes: $recipes; up to $runs runs a recipe, $enough after a catch, $budget s a row; checker $check_timeout s a history;"
  echo "simulator replay: $sim_seeds schedules, $sim_budget s"
} | tee -a "$out/progress.log"
start=$SECONDS
common=(--recipes "$recipes" --runs "$runs" --enough "$enough" --budget "$budget" --timeout "$check_timeout"
        --sim-seeds "$sim_seeds" --sim-budget "$sim_budget" --append "$out")
while read -r structure mutants; do
  [ -n "$structure" ] || continue
  for m in $mutants; do
    timeout "$row_limit" "$w" recipes --structure "$structure" --mutants "$m" "${common[@]}" >> "$out/stdout.log" 2>> "$out/progress.log"
    rc=$?
    if [ $rc != 0 ] && [ $rc != 1 ]; then  # 1: some planted bug not caught, a row says so
      [ -s "$out/by_mutant.md" ] || printf '%s\n%s\n' "| structure | mutant | run (GPU) | expected oracle | caught (runs, all recipes) | first catch: recipe | time to first catch (s) | first failure in the simulator |" \
        "|---|---|---|---|---|---|---|---|" > "$out/by_mutant.md"
      why="exit $rc (progress.log)"
      [ $rc = 124 ] && why="stopped after ${row_limit} s"
      echo "| $structure | $m | (its runs) | - | $why | - | - | - |" >> "$out/by_mutant.md"
    fi
    echo "$structure $m: exit $rc, $((SECONDS - start)) s so far" | tee -a "$out/progress.log"
  done
  # The structure unmutated: its mutants' runs, same recipes.
  timeout $((row_limit * 8)) "$w" recipes --structure "$structure" --mutants none "${common[@]}" >> "$out/stdout.log" 2>> "$out/progress.log"
  echo "$structure (correct): exit $?, $((SECONDS - start)) s so far" | tee -a "$out/progress.log"
done <<< "$plan"

summary "$out" | tee "$out/summary.md"
