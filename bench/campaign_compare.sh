#!/usr/bin/env bash
# One stress run against the same seeds as a campaign over P local
# processes and as a campaign on a one-node Slurm cluster started here
# (tests/cli/local_slurm.sh; skipped, saying why, where it cannot start):
# the merged counts, which must be identical, and the wall times.
#   bash bench/campaign_compare.sh [SEEDS] [P] [SHARDS] [-- STRESS OPTIONS]
# Defaults: 10000 seeds, P = the cores, 20 shards, and the CLI test's run
# (slab_hash in map mode with the torn_read bug planted). Results: bench/RESULTS.md,
# "Campaigns and sweeps", issue 15.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seeds=${1:-10000} processes=${2:-$(nproc)} shards=${3:-20}
shift $(($# < 3 ? $# : 3))
[ "${1:-}" = -- ] && shift
run=("$@")
[ ${#run[@]} = 0 ] && run=(--structure slab_hash --mode map --mutant torn_read --backend sim)
w=$(realpath "${WARPCHECK:-build/tools/warpcheck}")
dir=$(mktemp -d)
# shellcheck source=tests/cli/local_slurm.sh
. tests/cli/local_slurm.sh
trap 'local_slurm_stop; rm -rf "$dir"' EXIT

counts() { grep -m1 -A2 '^| runs | operations' "$1" | tail -1 | cut -d'|' -f2-9; }
timed() {  # NAME COMMAND...: one row
  local name=$1 start end
  shift
  start=$(date +%s.%N)
  "$@" >"$dir/$name.txt" 2>"$dir/$name.err"
  end=$(date +%s.%N)
  printf '| %s |%s| %.1f |\n' "$name" "$(counts "$dir/$name.txt")" "$(echo "$end - $start" | bc)"
}

echo "run: ${run[*]}, seeds 1 to $seeds; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| how | runs | operations | LINEARIZABLE | VIOLATION | UNKNOWN | faults | invariants broken | failing runs | wall s |"
echo "|---|---|---|---|---|---|---|---|---|---|"
timed "one process" "$w" stress "${run[@]}" --seeds "$seeds" --keep-going --no-shrink --quiet
timed "$processes local processes, $shards shards" "$w" campaign "${run[@]}" --seeds "$seeds" --shards "$shards" \
  --local "$processes" --out "$dir/local" --quiet
if local_slurm_start; then
  timed "local Slurm, $shards tasks" "$w" campaign "${run[@]}" --seeds "$seeds" --shards "$shards" --slurm --out "$dir/slurm" --quiet
fi
