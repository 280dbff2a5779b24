#!/usr/bin/env bash
# Issue 27's table: one hot key, overlap 512, for map, register,
# cas-register and kv: a history linearizable by construction and the same
# with one wrong answer planted (`gen --wrong 1`), each checked by
# `warpcheck check` (wall time of the whole command, file reading
# included; verdict; which checker decided; counterexample size).
#   bash bench/contended_check.sh [OPS...]     (default: 1000000)
# Needs build/tools/warpcheck (bash tools/setup.sh builds it).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
warpcheck=${WARPCHECK:-build/tools/warpcheck}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000000)
echo "| model | operations | planted | verdict | wall s | checker | counterexample ops |"
echo "|---|---|---|---|---|---|---|"
for ops in "${sizes[@]}"; do
  for model in map register cas-register kv; do
    for wrong in 0 1; do
      "$warpcheck" gen --out "$dir/h.bin" --model "$model" --ops "$ops" --keys 1 --overlap 512 --seed 5 --wrong "$wrong" 2>/dev/null ||
        { echo "| $model | $ops | $wrong | gen failed | - | - | - |"; continue; }
      start=$(date +%s.%N)
      "$warpcheck" check "$dir/h.bin" --timeout 120 > "$dir/out.txt" 2>&1
      end=$(date +%s.%N)
      verdict=$(head -n 1 "$dir/out.txt" | cut -d: -f1)
      checker=$(sed -n 's/^checker: \([a-z -]*checker\|wing-gong-lowe search\).*/\1/p' "$dir/out.txt" | head -n 1)
      cx=$(sed -n 's/^counterexample: \([0-9]*\) operation.*/\1/p' "$dir/out.txt")
      printf '| %s | %s | %s | %s | %.2f | %s | %s |\n' "$model" "$ops" "$wrong" "$verdict" "$(echo "$end - $start" | bc)" \
        "${checker:--}" "${cx:--}"
    done
  done
done
