#!/usr/bin/env bash
# The fixed variants over many seeds a shape, in sequentially consistent
# and in relaxed memory (issue 30: "clean over 2,000 seeds a shape"), each
# shape a campaign over P local processes. Prints one table row a shape and
# memory model; exits 1 when any run failed (its campaign folder is kept
# and named).
#   bash bench/fixed_sweep.sh [SHAPES_FILE] [SEEDS] [P]
# SHAPES_FILE: one shape a line, "STRUCTURE STRESS OPTIONS" (# comments);
# default bench/fixed_sweep_shapes.txt, 2,000 seeds, P = the cores.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
shapes=${1:-bench/fixed_sweep_shapes.txt} seeds=${2:-2000} processes=${3:-$(nproc)}
w=$(realpath "${WARPCHECK:-build/tools/warpcheck}")
out=${OUT:-sweep-out}
mkdir -p "$out"
[ -r "$shapes" ] || { echo "fixed_sweep: no shapes file $shapes" >&2; exit 2; }

# The merged summary's counts: runs, failing runs.
counts() { grep -m1 -A2 '^| runs | operations' "$1" | tail -1 | awk -F'|' '{gsub(/ /, ""); print $2, $9}'; }

echo "$(nproc) cores; $seeds seeds a shape and memory model, $processes processes"
echo "| structure | shape | memory | runs | failing | wall s |"
echo "|---|---|---|---|---|---|"
failed=0 n=0
while read -r structure options; do
  case "$structure" in '' | '#'*) continue ;; esac
  for memory in sc relaxed; do
    n=$((n + 1))
    dir="$out/shape-$n-$structure-$memory"
    rm -rf "$dir"
    start=$SECONDS
    # shellcheck disable=SC2086
    "$w" campaign --structure "$structure" $options --memory-model "$memory" --seeds "$seeds" --shards "$((processes * 2))" \
      --local "$processes" --out "$dir" --quiet >"$dir.txt" 2>&1
    rc=$?
    read -r runs failing <<<"$(counts "$dir.txt")"
    [ "$rc" = 0 ] && [ "${failing:-x}" = 0 ] || { failed=1; failing="${failing:-?} (exit $rc: $dir)"; }
    printf '| %s | `%s` | %s | %s | %s | %d |\n' "$structure" "$options" "$memory" "${runs:-?}" "$failing" "$((SECONDS - start))"
  done
done <"$shapes"
exit $failed
