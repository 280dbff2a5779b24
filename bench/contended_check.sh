#!/usr/bin/env bash
# Issue 27's tables, each history checked by `warpcheck check` (wall time
# of the whole command, file reading included; verdict; which checker
# decided; counterexample size):
#  - one hot key, overlap 512, for map, register, cas-register and kv: a
#    history linearizable by construction and the same with one wrong
#    answer planted (`gen --wrong 1`);
#  - the heap's shape for pq: 977 pushes of 1,024 keys then 977 pops of
#    1,024 (10^6 keys), 512 operations at once (`--warp-batch 512`) or
#    about 128 overlapping each (`--overlap 128`), linearizable, with one
#    pop trading a key with the next (`--wrong-pops 1`), and with one pop
#    that lost a key (`--wrong 1`).
#   bash bench/contended_check.sh [OPS...]     (default: 1000000; pq rows once)
# Needs build/tools/warpcheck (bash tools/setup.sh builds it).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
warpcheck=${WARPCHECK:-build/tools/warpcheck}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000000)

# measure LABEL OPS PLANTED GEN-ARGS...: one row.
measure() {
  local label=$1 ops=$2 planted=$3
  shift 3
  "$warpcheck" gen --out "$dir/h.bin" "$@" >/dev/null 2>&1 || { echo "| $label | $ops | $planted | gen failed | - | - | - |"; return; }
  local start end verdict checker cx
  start=$(date +%s.%N)
  "$warpcheck" check "$dir/h.bin" --timeout 120 > "$dir/out.txt" 2>&1
  end=$(date +%s.%N)
  verdict=$(head -n 1 "$dir/out.txt" | cut -d: -f1)
  checker=$(sed -n 's/^checker: \([a-z -]*checker\|[a-z -]*refutation\|wing-gong-lowe search\).*/\1/p' "$dir/out.txt" | head -n 1)
  cx=$(sed -n 's/^counterexample: \([0-9]*\) operation.*/\1/p' "$dir/out.txt")
  printf '| %s | %s | %s | %s | %.2f | %s | %s |\n' "$label" "$ops" "$planted" "$verdict" "$(echo "$end - $start" | bc)" \
    "${checker:--}" "${cx:--}"
}

echo "| model | operations | planted | verdict | wall s | checker | counterexample ops |"
echo "|---|---|---|---|---|---|---|"
for ops in "${sizes[@]}"; do
  for model in map register cas-register kv; do
    for wrong in 0 1; do
      measure "$model" "$ops" "$wrong" --model "$model" --ops "$ops" --keys 1 --overlap 512 --seed 5 --wrong "$wrong"
    done
  done
done
heap=(--model pq --ops 1954 --batch 1024 --full-batches --phases --keys 4611686018427387904 --seed 1)
for shape in "--warp-batch 512" "--overlap 128"; do
  # shellcheck disable=SC2086
  measure "pq, $shape" 1954 0 "${heap[@]}" $shape
  # shellcheck disable=SC2086
  measure "pq, $shape" 1954 "wrong pop" "${heap[@]}" $shape --wrong-pops 1
  # shellcheck disable=SC2086
  measure "pq, $shape" 1954 "lost key" "${heap[@]}" $shape --wrong 1
done
