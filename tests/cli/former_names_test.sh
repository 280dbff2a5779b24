#!/usr/bin/env bash
# What was written under a structure's former name still runs (issue 31):
# histories and failure folders whose configuration names it so (two kept
# from before the rename, in tests/data/former_names/), the reproduce lines
# of bench/RESULTS.md and the docs, and campaign folders resumed. A former
# name on the command line runs the structure and says its name now, once.
# The one place outside a structure's own folders that spells a former name
# (structure_names_test.sh exempts this file and its data).
# Usage: former_names_test.sh WARPCHECK DATA_DIR
set -uo pipefail
w=$1
data=$2/former_names
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=expect.sh
source "$(dirname "$0")/expect.sh"

# Failure histories written when the structures were slabhash and sorted-set.
for h in map_torn_read set_keep_lock_on_miss; do
  grep -qa '"structure":"slabhash"\|"structure":"sorted-set"' "$data/$h.bin" || fail "$h.bin does not name a former name"
done
expect 1 check "$data/map_torn_read.bin"
grep -q '^RUN FAILED: checker: VIOLATION' "$dir/out" || { cat "$dir/out"; fail "the old history's failure is not read back"; }
expect 1 repro "$data/map_torn_read.bin" --quiet
grep -q '^repro: seed 1000005, slab_hash, ' "$dir/out" || { cat "$dir/out"; fail "the old history does not rerun as slab_hash"; }
grep -q '^reproduced bit for bit' "$dir/out" || { cat "$dir/out"; fail "the old history does not rerun bit for bit"; }
grep -q '^the same failure as recorded: checker' "$dir/out" || { cat "$dir/out"; fail "the old history's failure differs"; }
expect 1 repro "$data/set_keep_lock_on_miss.bin" --quiet
grep -q '^repro: seed 1, sorted_set, ' "$dir/out" || { cat "$dir/out"; fail "the old history does not rerun as sorted_set"; }
grep -q '^reproduced bit for bit' "$dir/out" || { cat "$dir/out"; fail "the old deadlock history does not rerun bit for bit"; }
grep -q '^the same failure as recorded: deadlock detector' "$dir/out" || { cat "$dir/out"; fail "the old deadlock differs"; }
grep -q 'former name' "$dir/out" && fail "a history's former name is data, not the user's words: no note"

# A former name on the line: the run as under its name now, and one note.
expect 0 stress --structure slabhash --mode map --backend sim --seeds 2 --quiet
[ "$(grep -c "^warpcheck: note: 'slabhash' is a former name of slab_hash: --structure slab_hash$" "$dir/out")" = 1 ] ||
  { cat "$dir/out"; fail "no one note for --structure slabhash"; }
grep -q '^stress: slab_hash, ' "$dir/out" || { cat "$dir/out"; fail "--structure slabhash does not run slab_hash"; }
expect 0 stress --structure=sorted-set --backend sim --seeds 2 --quiet
grep -q "^warpcheck: note: 'sorted-set' is a former name of sorted_set: --structure sorted_set$" "$dir/out" ||
  { cat "$dir/out"; fail "no note for --structure=sorted-set"; }
expect 0 stress --structure sorted-set --list-mutants
grep -q 'unlocked_contains' "$dir/out" || { cat "$dir/out"; fail "--list-mutants under the former name"; }
expect 3 stress --structure slab-hash --backend sim --seeds 1
grep -q "slab_hash" "$dir/out" || { cat "$dir/out"; fail "an unknown name's error does not list the names"; }
# A reproduce line as the version before printed it (--no-shrink, so no workload file).
expect 1 repro 1 --structure sorted-set --backend sim --scheduler random --pct-depth 3 --preempt-reads 0.1 --preempt-handoffs 0.25 \
  --preempt-writes 1 --preempt-steps 2000 --pos-variant pos --pos-unit team --delays 0 --delay-steps 2000 --memory-model sc \
  --stale-reads 0.5 --visibility-steps 4000 --teams-per-block 1 --spin-bound 20000 --record op --mutant keep_lock_on_miss --teams 3 \
  --ops-per-lane 2 --keys 8 --prefill 0 --mix insert=50,erase=20,contains=30 --hot-keys 0 --hot-fraction 0.5 --same-key 0 --churn 0 \
  --buckets 1 --quiet
grep -q '^FAILED at seed 1: .*spin bound' "$dir/out" || { cat "$dir/out"; fail "the old reproduce line does not fail as it did"; }
grep -q 'warpcheck repro 1 --structure sorted_set ' "$dir/out" || { cat "$dir/out"; fail "the new reproduce line"; }

# A campaign folder whose plan names the former name resumes, with or without the run's options.
expect 0 campaign --structure slab_hash --mode map --backend sim --seeds 4 --shards 2 --local 1 --out "$dir/c" --quiet
sed -i 's/"structure":"slab_hash"/"structure":"slabhash"/' "$dir/c/plan.json"
grep -q '"structure":"slabhash"' "$dir/c/plan.json" || fail "the plan was not made old"
expect 0 campaign --resume "$dir/c" --quiet
expect 0 campaign --resume "$dir/c" --structure slabhash --mode map --backend sim --seeds 4 --local 1
grep -q 'nothing to run' "$dir/out" || { cat "$dir/out"; fail "the old plan resumed under its former name is not the same campaign"; }
expect 3 campaign --resume "$dir/c" --structure slab_hash --mode multimap --backend sim --seeds 4 --local 1 --quiet
grep -q -- '--mode: stored map, asked multimap' "$dir/out" || { cat "$dir/out"; fail "a different campaign is not refused"; }
echo "former names: old histories check and rerun bit for bit, old lines run with one note, old campaign plans resume"
