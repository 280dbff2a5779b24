#!/usr/bin/env bash
# warpcheck repro DIR/history.bin --in-simulator end to end, without a GPU:
# guided-bench keeps a planted bug's failing simulator run relabeled as a
# GPU run's history; repro finds it under guided schedules, writes its
# files, seed and schedule, and both replays give the history back byte for
# byte; the reproduce line and the written history rerun it; what cannot be
# tried is refused with exit code 3.
# Usage: guided_repro_cli_test.sh WARPCHECK
set -uo pipefail
w=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=expect.sh
source "$(dirname "$0")/expect.sh"

bug="--structure sorted_set --mutant unlocked_contains --teams 8 --ops-per-lane 4 --keys 128 --buckets 4"
# shellcheck disable=SC2086
expect 0 guided-bench $bug --histories 1 --tries 30 --keep "$dir/gpu"
grep -q "^| guided | 1 of 1 |" "$dir/out" || { cat "$dir/out"; fail "guided-bench did not reproduce its one failure"; }
gpu=$(ls -d "$dir"/gpu/seed-*/history.bin | head -1)
[ -s "$gpu" ] || fail "no GPU-like history kept"
grep -q '"backend":"gpu"' <("$w" convert "$gpu" /dev/stdout --to jsonl | head -1) || fail "the kept history is not a GPU run's"

expect 1 repro "$gpu" --in-simulator --tries 60 --quiet --out "$dir/sim"
for said in "reproduced in the simulator at try" "^simulator seed: " "and its schedule: reproduced bit for bit" \
  "alone (guided again): reproduced bit for bit"; do
  grep -q "$said" "$dir/out" || { cat "$dir/out"; fail "repro --in-simulator did not say: $said"; }
done
for f in history.bin report.html workload.txt schedule.txt; do [ -s "$dir/sim/$f" ] || fail "missing $f"; done
repro=$(sed -n 's/^reproduce: warpcheck //p' "$dir/out")
[ -n "$repro" ] || fail "no reproduce line"
# shellcheck disable=SC2086
expect 1 $repro --quiet --out "$dir/again"
same_run "$dir/sim/history.bin" "$dir/again/history.bin" || fail "the reproduce line's history differs"
expect 1 repro "$dir/sim/history.bin" --quiet
grep -q "reproduced bit for bit" "$dir/out" || { cat "$dir/out"; fail "the written history does not rerun bit for bit"; }

# Without --out the files go next to the GPU run's history.
expect 1 repro "$gpu" --in-simulator --tries 60 --quiet
[ -s "$(dirname "$gpu")/in-simulator/schedule.txt" ] || fail "no files next to the GPU history"

# Refused: a simulator run's history, --tries alone, run options with a history.
expect 3 repro "$dir/sim/history.bin" --in-simulator
grep -q "not a GPU run's" "$dir/out" || { cat "$dir/out"; fail "a simulator history taken for a GPU one"; }
expect 3 repro "$gpu" --tries 5
grep -q -- "--tries goes with warpcheck repro" "$dir/out" || { cat "$dir/out"; fail "--tries without --in-simulator"; }
expect 3 repro "$gpu" --in-simulator --keys 4
grep -q "the history's to say" "$dir/out" || { cat "$dir/out"; fail "a run option with a GPU history"; }
expect 3 stress --structure sorted_set --backend sim --scheduler guided --seeds 2
grep -q "give it as --guide FILE" "$dir/out" || { cat "$dir/out"; fail "--scheduler guided without a guide"; }
echo "guided repro: a GPU-like failure reproduced in the simulator, replayed bit for bit; refusals clear"
