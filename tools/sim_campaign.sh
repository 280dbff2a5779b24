#!/usr/bin/env bash
# Many simulator seeds of one structure over several shapes: one
# `warpcheck campaign` a shape, its seeds in shards of SHARD run by JOBS
# local processes, then one row a shape (runs, failing runs, the three
# verdicts' counts, points that hold, shards not finished). Each shape's
# campaign folder, report and replay lines stay under OUT (default: a
# temporary folder, removed). A shard that did not finish (killed, or cut
# by DEADLINE seconds for all shapes together) is listed as not run.
#   bash tools/sim_campaign.sh STRUCTURE SEEDS SHAPES_FILE [JOBS] [SHARD] [DEADLINE]
# SHAPES_FILE: one line of stress options a shape. FIRST_SEED (default 1)
# starts the seed range elsewhere; OUT keeps the campaigns. Exits 1 when a
# run failed, 2 when a shard did not finish.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
structure=$1 seeds=$2 shapes=$3 jobs=${4:-$(nproc)} shard=${5:-500} deadline=${6:-0}
warpcheck=${WARPCHECK:-build/tools/warpcheck}
work=${OUT:-$(mktemp -d)}
[ -n "${OUT:-}" ] || trap 'rm -rf "$work"' EXIT
end=$(($(date +%s) + deadline))
shards=$(((seeds + shard - 1) / shard))

count() { grep -o "\"$1\":[0-9]*" "$2" | head -1 | cut -d: -f2; }  # NAME SUMMARY_JSON

status=0 n=0
echo "| shape | seeds run | failing runs | LINEARIZABLE | VIOLATION | UNKNOWN | faults | invariants broken | points hold | shards not run |"
echo "|---|---|---|---|---|---|---|---|---|---|"
while IFS= read -r shape; do
  [ -z "$shape" ] && continue
  n=$((n + 1))
  limit=()
  if [ "$deadline" -gt 0 ]; then
    left=$((end - $(date +%s)))
    [ "$left" -ge 1 ] || left=1
    limit=(--deadline "$left")
  fi
  # shellcheck disable=SC2086
  "$warpcheck" campaign --structure "$structure" $shape --backend sim --seed "${FIRST_SEED:-1}" --seeds "$seeds" \
    --shards "$shards" --local "$jobs" "${limit[@]}" --out "$work/shape$n" --quiet >"$work/shape$n.txt" 2>&1
  rc=$?
  summary="$work/shape$n/summary.json"
  if [ ! -f "$summary" ]; then  # refused: bad options
    sed "s/^/  shape $n: /" "$work/shape$n.txt" >&2
    [ "$status" = 0 ] && status=2
    echo "| \`$shape\` | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | $shards |"
    continue
  fi
  [ "$rc" = 1 ] && status=1
  [ "$rc" = 2 ] && [ "$status" = 0 ] && status=2
  # The first failing seed and the line that replays it (every one: the campaign's report.md).
  grep -o '"replay":"[^"]*"' "$summary" | head -1 | sed "s/^\"replay\":\"/  shape $n, first failure: /; s/\"$//" >&2
  echo "| \`$shape\` | $(count runs "$summary") | $(count failing_runs "$summary") | $(count linearizable "$summary") |" \
    "$(count violations "$summary") | $(count unknown "$summary") | $(count faults "$summary") |" \
    "$(count invariants_broken "$summary") | $(count points_explained "$summary") |" \
    "$(($(count shards "$summary") - $(count finished_shards "$summary"))) |"
done < "$shapes"
exit $status
