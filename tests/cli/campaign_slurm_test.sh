#!/usr/bin/env bash
# warpcheck campaign --slurm for real: a one-node Slurm cluster started
# here (local_slurm.sh) runs the campaign as a job array, one shard a task.
# The merged counts equal one process's over the same seeds; a task killed
# mid-shard is reported, and --resume submits that shard alone; a launcher
# stopped by SIGTERM cancels its job (scancel) and says so. Skips
# (exit 77) only where the daemons cannot start.
# Usage: campaign_slurm_test.sh WARPCHECK
set -uo pipefail
w=$1
here=$(dirname "$0")
dir=$(mktemp -d)
# shellcheck source=tests/cli/local_slurm.sh
. "$here/local_slurm.sh"
# shellcheck source=tests/cli/campaign_common.sh
. "$here/campaign_common.sh"
launcher=""
trap '[ -n "$launcher" ] && kill -9 "$launcher" 2>/dev/null; local_slurm_stop; rm -rf "$dir"' EXIT
local_slurm_start || exit $?

want=$(one_process_counts)

# Four tasks, two at a time; task 1 is killed (SIGKILL) before it writes its result.
WARPCHECK_CAMPAIGN_TEST_KILL_SHARD=1 "$w" campaign "${run[@]}" --seeds "$seeds" --shards 4 --slurm --max-parallel 2 \
  --deadline 50 --out "$dir/c" >"$dir/c1.txt" 2>"$dir/c1.err"
rc=$?
[ $rc = 1 ] || { cat "$dir/c1.txt" "$dir/c1.err"; fail "a Slurm campaign with failures and a killed task exited $rc"; }
job=$(sed -n 's/.*as Slurm job \([0-9]*\) (tasks 0-3%2)$/\1/p' "$dir/c1.err")
[ -n "$job" ] || { cat "$dir/c1.err"; fail "not submitted as one array of 4 tasks"; }
grep -q "^| 1 | 76 to 150 | killed by signal 9 (Slurm job ${job}_1 on " "$dir/c1.txt" || { cat "$dir/c1.txt"; fail "the killed task is not reported"; }
grep -q "^seeds 1 to 300 in 4 shards: 3 finished (225 seeds), 1 not" "$dir/c1.txt" || { cat "$dir/c1.txt"; fail "finished tasks"; }
grep -q "^shard 2: seeds 151 to 225, 75 runs" "$dir/c/logs/shard-0002.log" || { cat "$dir/c/logs/shard-0002.log"; fail "a task's log"; }

# --resume submits shard 1 alone; the finished shards' files are not touched.
before=$(finished_shards "$dir/c")
"$w" campaign --resume "$dir/c" --slurm --deadline 50 >"$dir/c2.txt" 2>"$dir/c2.err"
[ $? = 1 ] || { cat "$dir/c2.txt" "$dir/c2.err"; fail "the resumed Slurm campaign's exit code"; }
grep -q "shards to run: 1, as Slurm job [0-9]* (tasks 1)$" "$dir/c2.err" && grep -qx "#SBATCH --array=1" "$dir/c/campaign.sbatch" ||
  { cat "$dir/c2.err" "$dir/c/campaign.sbatch"; fail "resume submitted other shards"; }
[ "$(finished_shards "$dir/c" | grep -v shard-0001)" = "$before" ] || fail "resume rewrote a finished shard"
[ "$(wc -l <"$dir/c/slurm-jobs.txt")" = 2 ] || fail "slurm-jobs.txt"
got=$(counts "$dir/c2.txt")
[ "$got" = "$want" ] || fail "4 Slurm tasks, one resumed: $got; one process: $want"
check_failures_listed "$dir/c"

# SIGTERM of the launcher while its tasks run: it cancels its job, says so, merges and exits 2.
"$w" campaign --structure slab_hash --mode map --backend sim --seeds 100000 --shards 2 --slurm --out "$dir/t" --quiet >"$dir/t.txt" 2>&1 &
launcher=$!
for _ in $(seq 100); do
  # Not `status | grep -q`: grep's early exit is a SIGPIPE, a failure under pipefail.
  status=$("$w" campaign --status "$dir/t" 2>/dev/null)
  [ -s "$dir/t/slurm-jobs.txt" ] && [[ $status == *"| running (pid"* ]] && break
  sleep 0.1
done
job=$(cat "$dir/t/slurm-jobs.txt")
kill -TERM "$launcher"
wait "$launcher"
rc=$?
launcher=""
[ $rc = 2 ] && grep -q "^campaign: SIGTERM: Slurm job $job cancelled (scancel)" "$dir/t.txt" || { cat "$dir/t.txt"; fail "SIGTERM of a Slurm launcher: exit $rc"; }
for _ in $(seq 50); do [ -z "$(squeue --noheader --jobs "$job" 2>/dev/null)" ] && break; sleep 0.2; done
[ -z "$(squeue --noheader --jobs "$job" 2>/dev/null)" ] || fail "job $job is still queued after the launcher's scancel"
echo "campaign on a local Slurm cluster: merged counts equal one process's ($want); killed task reported and resumed alone"
