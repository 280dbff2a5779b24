#!/usr/bin/env bash
# Many simulator seeds of one structure over several shapes, sharded over
# the cores of one machine: each shape's seeds in shards of SHARD, JOBS
# processes at a time, then one row a shape (runs, failing runs, and the
# three verdicts' counts summed over its shards). A shard that did not
# finish (killed, or cut by DEADLINE seconds) is listed as not run.
#   bash tools/sim_campaign.sh STRUCTURE SEEDS SHAPES_FILE [JOBS] [SHARD] [DEADLINE]
# SHAPES_FILE: one line of stress options a shape. FIRST_SEED (default 1)
# starts the seed range elsewhere. Exits 1 when a run failed, 2 when a
# shard did not finish.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
structure=$1 seeds=$2 shapes=$3 jobs=${4:-$(nproc)} shard=${5:-500} deadline=${6:-0}
warpcheck=${WARPCHECK:-build/tools/warpcheck}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
end=$(($(date +%s) + deadline))

n=0
while IFS= read -r shape; do
  [ -z "$shape" ] && continue
  n=$((n + 1))
  printf '%s\n' "$shape" > "$work/shape$n"
  last=$((${FIRST_SEED:-1} + seeds - 1))
  for ((first = ${FIRST_SEED:-1}; first <= last; first += shard)); do
    count=$((last - first + 1 < shard ? last - first + 1 : shard))
    echo "$n $first $count"
  done
done < "$shapes" > "$work/shards"

run_shard() {  # SHAPE FIRST COUNT
  local left=""
  if [ "$deadline" -gt 0 ]; then
    left=$((end - $(date +%s)))
    [ "$left" -le 0 ] && return 0
  fi
  # shellcheck disable=SC2046
  ${left:+timeout $left} "$warpcheck" stress --structure "$structure" $(cat "$work/shape$1") --backend sim \
    --seed "$2" --seeds "$3" --keep-going --quiet --no-shrink > "$work/out.$1.$2" 2>&1
  echo $? > "$work/rc.$1.$2"
}
export -f run_shard
export work structure warpcheck deadline end
xargs -P "$jobs" -L 1 bash -c 'run_shard "$@"' _ < "$work/shards"

status=0
echo "| shape | seeds run | failing runs | LINEARIZABLE | VIOLATION | UNKNOWN | faults | invariants broken | points hold | shards not run |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for ((i = 1; i <= n; i++)); do
  runs=0 failing=0 lin=0 viol=0 unk=0 faults=0 inv=0 points=0 missing=0
  while read -r s first count; do
    [ "$s" = "$i" ] || continue
    out="$work/out.$s.$first"
    rc=$(cat "$work/rc.$s.$first" 2>/dev/null || echo none)
    # The summary row: | runs | operations | LIN | VIOL | UNK | faults | invariants | failing | ...
    row=$(grep -m1 -A2 '^| runs | operations' "$out" 2>/dev/null | tail -1)
    if [ "$rc" = none ] || [ "$rc" -gt 1 ] || [ -z "$row" ]; then
      missing=$((missing + 1))
      [ -f "$out" ] && grep -m3 -E 'error|FAILED' "$out" | sed "s/^/  shape $s, seeds from $first: /" >&2
      continue
    fi
    IFS='|' read -r _ r _ l v u f iv fr _ <<< "$row"
    runs=$((runs + r)) lin=$((lin + l)) viol=$((viol + v)) unk=$((unk + u)) faults=$((faults + f)) inv=$((inv + iv))
    failing=$((failing + fr))
    p=$(grep -m1 -A2 "^| runs | proof's points hold" "$out" | tail -1 | awk -F'|' '{print $3}' | awk '{print $1}')
    points=$((points + ${p:-0}))
    [ "$fr" -gt 0 ] && grep -m1 -A1 '^FAILED at seed' "$out" | sed "s/^/  shape $s: /" >&2
  done < "$work/shards"
  [ "$failing" -gt 0 ] && status=1
  [ "$missing" -gt 0 ] && [ "$status" = 0 ] && status=2
  echo "| \`$(cat "$work/shape$i")\` | $runs | $failing | $lin | $viol | $unk | $faults | $inv | $points | $missing |"
done
exit $status
