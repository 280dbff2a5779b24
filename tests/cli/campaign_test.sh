#!/usr/bin/env bash
# warpcheck campaign over local processes: the merged counts of shards run
# by N processes equal one process's over the same seeds; a killed shard is
# reported and --resume runs it alone; the deadline stops shards and says
# so; --no-submit writes a Slurm batch script; bad input is refused.
# (The Slurm path: campaign_slurm_test.sh.)
# Usage: campaign_test.sh WARPCHECK
set -uo pipefail
w=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/cli/campaign_common.sh
. "$(dirname "$0")/campaign_common.sh"

want=$(one_process_counts)

# Three processes, five shards; shard 2 is killed (SIGKILL) before it writes its result.
WARPCHECK_CAMPAIGN_TEST_KILL_SHARD=2 "$w" campaign "${run[@]}" --seeds "$seeds" --shards 5 --local 3 --out "$dir/c" --quiet >"$dir/c1.txt" 2>&1
rc=$?
[ $rc = 1 ] || { cat "$dir/c1.txt"; fail "a campaign with failures and a killed shard exited $rc"; }
grep -q "^## Shards not finished: 1" "$dir/c1.txt" && grep -q "^| 2 | 121 to 180 | killed by signal 9" "$dir/c1.txt" ||
  { cat "$dir/c1.txt"; fail "the killed shard is not reported"; }
grep -q "^seeds 1 to 300 in 5 shards: 4 finished (240 seeds), 1 not" "$dir/c1.txt" || { cat "$dir/c1.txt"; fail "finished shards"; }
[ -e "$dir/c/shards/shard-0002.json" ] && fail "the killed shard has a result"
"$w" campaign --status "$dir/c" >"$dir/status.txt"
[ $? = 1 ] && grep -q "killed by signal 9" "$dir/status.txt" || fail "--status"

# --resume runs shard 2 alone: the finished shards' files are not touched.
before=$(finished_shards "$dir/c")
"$w" campaign --resume "$dir/c" --local 3 >"$dir/c2.txt" 2>"$dir/c2.err"
[ $? = 1 ] || { cat "$dir/c2.txt" "$dir/c2.err"; fail "the resumed campaign's exit code"; }
grep -q "shards to run: 1, on 3 processes" "$dir/c2.err" || { cat "$dir/c2.err"; fail "resume ran other shards"; }
grep -q "campaign: 5/5 shards, 300/300 seeds" "$dir/c2.err" || { cat "$dir/c2.err"; fail "no progress line"; }
[ "$(finished_shards "$dir/c" | grep -v shard-0002)" = "$before" ] || fail "resume rewrote a finished shard"
for i in 0 1 3 4; do [ "$(grep -c '^== warpcheck campaign: shard' "$dir/c/logs/shard-000$i.log")" = 1 ] || fail "shard $i ran twice"; done
[ "$(grep -c '^== warpcheck campaign: shard' "$dir/c/logs/shard-0002.log")" = 2 ] || fail "shard 2 did not run again"
got=$(counts "$dir/c2.txt")
[ "$got" = "$want" ] || fail "3 processes, 5 shards, one resumed: $got; one process: $want"
[ "$(counts "$dir/c/report.md")" = "$want" ] || fail "report.md's counts"
grep -q '"counts":{"runs":300,' "$dir/c/summary.json" || fail "summary.json's counts"
# Every failing run's history is kept (--keep unknown, the default), with
# its failure in it: check never passes one, and the report says where.
kept=$(ls "$dir/c/histories" | grep -c -- '-\(FAILED\|VIOLATION\)\.bin$')
[ "$kept" -ge 1 ] || { ls "$dir/c"; fail "no failing run's history kept"; }
h=$(ls "$dir/c/histories"/seed-*.bin | head -1)
"$w" check "$h" >"$dir/kept.txt" 2>&1
rc=$?
{ [ $rc = 1 ] || [ $rc = 4 ]; } && grep -q "^RUN FAILED: " "$dir/kept.txt" || { cat "$dir/kept.txt"; fail "check of a kept failing run exited $rc"; }
grep -q "/histories/seed-K-FAILED.bin" "$dir/c2.txt" || { cat "$dir/c2.txt"; fail "the report does not say where the histories are"; }
check_failures_listed "$dir/c"

# Nothing left to run: resuming again reruns nothing; merging again gives the same.
before=$(finished_shards "$dir/c")
"$w" campaign --resume "$dir/c" >"$dir/c3.txt" 2>"$dir/c3.err"
grep -q "has its result: nothing to run" "$dir/c3.err" && [ "$(finished_shards "$dir/c")" = "$before" ] || fail "resume of a finished campaign"
"$w" campaign --merge "$dir/c" >"$dir/c4.txt"
[ $? = 1 ] && [ "$(counts "$dir/c4.txt")" = "$want" ] || fail "--merge"

# The deadline: shards still running are stopped, reported, and the exit says incomplete.
start=$(date +%s)
"$w" campaign --structure slab_hash --backend sim --seeds 100000 --shards 2 --local 2 --deadline 1 --out "$dir/d" --quiet >"$dir/d.txt" 2>&1
rc=$?
[ $rc = 2 ] || { cat "$dir/d.txt"; fail "a campaign cut by its deadline exited $rc"; }
[ $(($(date +%s) - start)) -lt 20 ] || fail "the deadline did not stop the campaign"
[ "$(grep -c "stopped at the campaign's deadline (--deadline 1)" "$dir/d.txt")" = 2 ] || { cat "$dir/d.txt"; fail "deadline not reported"; }

# --no-submit: the batch script only, one task a shard.
"$w" campaign "${run[@]}" --seeds 40 --shards 4 --slurm --no-submit --max-parallel 2 --sbatch-args "--partition=gpu --time=10" \
  --out "$dir/s" >"$dir/s.txt" 2>&1 || { cat "$dir/s.txt"; fail "--no-submit"; }
script="$dir/s/campaign.sbatch"
grep -qx "#SBATCH --array=0-3%2" "$script" && grep -qx "#SBATCH --partition=gpu --time=10" "$script" &&
  grep -q -- "campaign --run-shard '$dir/s' \"\$shard\"" "$script" && bash -n "$script" || { cat "$script"; fail "the batch script"; }
ls "$dir/s/shards" | grep -q . && fail "--no-submit ran shards"
# What a task runs: --run-shard, as each local process does.
# A shard records the device it was given (--gpus gives each process one).
CUDA_VISIBLE_DEVICES=7 "$w" campaign --run-shard "$dir/s" 3 >"$dir/r.txt" && grep -q "^shard 3: seeds 31 to 40, 10 runs" "$dir/r.txt" &&
  grep -q '"devices":"7"' "$dir/s/shards/shard-0003.json" || { cat "$dir/r.txt"; fail "--run-shard"; }
"$w" campaign --run-shard "$dir/s" 3 | grep -q "has its result already" || fail "--run-shard of a finished shard"
"$w" campaign --status "$dir/s" >"$dir/st.txt"
rc=$?  # 2: shards not finished; 1 when the finished one also had a failing run
{ [ $rc = 1 ] || [ $rc = 2 ]; } && grep -q "^| 0 | 1 to 10 | not run |" "$dir/st.txt" || { cat "$dir/st.txt"; fail "--status of shards not run"; }

# tools/sim_campaign.sh: one campaign a shape, one row each.
printf -- '--mode map\n--mode map --mutant torn_read\n' >"$dir/shapes.txt"
WARPCHECK=$w bash "$(dirname "$0")/../../tools/sim_campaign.sh" slab_hash 40 "$dir/shapes.txt" 2 20 >"$dir/sim.txt" 2>"$dir/sim.err"
rc=$?
[ $rc = 1 ] && grep -q '^| `--mode map` | 40 | 0 | 40 | 0 | 0 | 0 | 0 | 0 | 0 |$' "$dir/sim.txt" &&
  grep -q '^| `--mode map --mutant torn_read` | 40 | [1-9]' "$dir/sim.txt" && grep -q "first failure: warpcheck repro " "$dir/sim.err" ||
  { cat "$dir/sim.txt" "$dir/sim.err"; fail "tools/sim_campaign.sh exited $rc"; }

# Bad input: a clear error and exit code 3.
expect_refused() {  # WHAT_THE_ERROR_SAYS ARGS...
  local says=$1
  shift
  "$w" campaign "$@" >"$dir/bad.txt" 2>&1
  local rc=$?
  [ $rc = 3 ] && grep -q -- "$says" "$dir/bad.txt" || { cat "$dir/bad.txt"; fail "campaign $* exited $rc, expected 3 saying '$says'"; }
}
expect_refused "no such campaign folder" --resume "$dir/none"
expect_refused "not a campaign folder" --merge "$dir"
expect_refused "holds a campaign already" "${run[@]}" --seeds 300 --out "$dir/c"
expect_refused "\-\-mutant: stored torn_read, asked none" --resume "$dir/c" --mutant none
expect_refused "\-\-seeds: stored 300, asked 700" --resume "$dir/c" --seeds 700
env PATH=/nonexistent "$w" campaign "${run[@]}" --seeds 10 --slurm --out "$dir/x" >"$dir/bad.txt" 2>&1
[ $? = 3 ] && grep -q "sbatch is not on PATH" "$dir/bad.txt" || { cat "$dir/bad.txt"; fail "--slurm without sbatch"; }
[ -e "$dir/x" ] && fail "a refused --slurm campaign wrote its folder"
expect_refused "give one" "${run[@]}" --seeds 10 --local 2 --slurm --out "$dir/x"
expect_refused "goes with --slurm" "${run[@]}" --seeds 10 --sbatch-args "--time=1" --out "$dir/x"
expect_refused "is not a campaign's" "${run[@]}" --seeds 10 --no-shrink --out "$dir/x"
expect_refused "one seed at least a shard" "${run[@]}" --seeds 3 --shards 4 --out "$dir/x"
expect_refused "no --out" --resume "$dir/c" --out "$dir/y"
expect_refused "\-\-out DIR" "${run[@]}" --seeds 10
expect_refused "has shards 0 to 4, not 5" --run-shard "$dir/c" 5
expect_refused "must be a shard's index" --run-shard "$dir/c" x
if ! "$w" stress --structure slab_hash --backend gpu --seeds 1 --quiet >/dev/null 2>&1; then
  expect_refused "^warpcheck campaign: --gpus: " "${run[@]}" --seeds 10 --gpus --out "$dir/x"
fi
echo "campaign over local processes: merged counts equal one process's ($want); killed shard reported and resumed alone"
