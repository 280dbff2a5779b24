#!/usr/bin/env bash
# Issue 15's GPU rows in one run on a GPU machine: the perturbation table
# (tools/gpu_mutant_table.sh) for the structures named, and real GPU
# failures of planted bugs kept as histories, to be taken into the
# simulator afterwards (`warpcheck repro DIR/history.bin --in-simulator`,
# on any machine: the simulator needs no GPU).
#
# Here (no GPU; the build with CUDA):
#   bash tools/gpu_campaign.sh --bundle      # build/campaign-bundle: warpcheck and its libraries (carry it)
# There:
#   bash tools/gpu_issue15.sh [STRUCTURE...]   # the table's structures (default: every one with a GPU back-end)
#   (SKIP_FAILURES=1, SKIP_LITMUS=1 leave those parts out: the table in two calls)
# Writes $OUT/recipes.tar.gz (the table), $OUT/failures.tar.gz (one folder a
# planted bug: the GPU run's history.bin, report and replay line) and
# $OUT/litmus_mp_*.txt (message passing with x and y far apart).
# GPU_FAILURES: "structure mutant [stress options]" entries, ';'-separated
# (default: each structure's failure rows, bench/<structure>_gpu_rows.txt).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source tools/gpu_rows.sh
bundle=build/campaign-bundle
export LD_LIBRARY_PATH="$PWD/$bundle${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export WARPCHECK="$PWD/$bundle/warpcheck"
out=${OUT:-gpu-out}
mkdir -p "$out"
start=$SECONDS
stamp() { echo "[$((SECONDS - start)) s] $*"; }

# GPU failures first (a few seconds each): the planted bugs whose GPU runs
# fit the simulator (at most 4,096 lanes), with a recipe that catches each
# (bench/RESULTS.md, "GPU perturbation", issue 15's table).
failures=${GPU_FAILURES:-$(structure_rows "$WARPCHECK" failure | tr '|\n' ' ;')}
[ -n "${SKIP_FAILURES:-}" ] && failures=""
mkdir -p "$out/failures"
IFS=';' read -r -a entries <<< "$failures"
for e in "${entries[@]}"; do
  read -r -a f <<< "$e"
  name="${f[0]}-${f[1]}"
  stamp "GPU failure: $e"
  timeout 120 "$WARPCHECK" stress --structure "${f[0]}" --backend gpu --mutant "${f[1]}" "${f[@]:2}" --seeds 40 \
    --no-shrink --quiet --timeout 10 --out "$out/failures/$name" > "$out/failures/$name.txt" 2>&1
  echo "exit $?" >> "$out/failures/$name.txt"
  grep -E '^\| [0-9]|^reproduce|exit' "$out/failures/$name.txt" | head -4
done
tar -czf "$out/failures.tar.gz" -C "$out" failures && rm -rf "$out/failures"

# Message passing on the GPU with x and y in different L2 slices and
# partitions (the missing-fence planted bugs need such a reordering; with
# y on the next line no H100 showed one: bench/RESULTS.md, "Relaxed memory and
# litmus tests", issue 18).
aparts="128 262144 4194304 67108864"
[ -n "${SKIP_LITMUS:-}" ] && aparts=""
for apart in $aparts; do
  stamp "litmus MP, x and y $apart bytes apart"
  timeout 120 "$bundle/litmus_gpu_bench" --only MP --apart "$apart" --launches 400 --sim-seeds 1000 > "$out/litmus_mp_$apart.txt" 2>&1
  echo "exit $?" >> "$out/litmus_mp_$apart.txt"
  grep -E '^\| MP' "$out/litmus_mp_$apart.txt"
done

stamp "perturbation table"
bash tools/gpu_mutant_table.sh "$@"
tar -czf "$out/recipes.tar.gz" -C "$out" recipes
stamp done
