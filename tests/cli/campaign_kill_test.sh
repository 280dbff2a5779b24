#!/usr/bin/env bash
# warpcheck campaign and kills: a launcher killed outright (SIGKILL) takes
# its local shards with it; shards that outlive one (the test hook
# WARPCHECK_CAMPAIGN_TEST_ORPHAN_SHARDS, as where no death signal exists)
# are left alone by --resume and by a second --run-shard, so that no shard
# runs twice at once; SIGTERM stops the shards and says so; a shard result
# cut short or not adding up is named by --merge and --status and run
# again by --resume. About 10 s: no long shard is waited for.
# Usage: campaign_kill_test.sh WARPCHECK
set -uo pipefail
w=$1
dir=$(mktemp -d)
launcher=""
strays=""
# shellcheck disable=SC2086
trap '[ -n "$launcher" ] && kill -9 "$launcher" 2>/dev/null; [ -n "$strays" ] && kill -9 $strays 2>/dev/null; rm -rf "$dir"' EXIT
# shellcheck source=tests/cli/campaign_common.sh
. "$(dirname "$0")/campaign_common.sh"

# Shards far longer than the test: they end only when killed.
long=(--structure slab_hash --mode map --backend sim --seeds 100000)

# The pids of DIR's running shards (their locks' holders, as --status shows them).
running_pids() { "$w" campaign --status "$1" 2>/dev/null | sed -n 's/^| [0-9]* | .* | running (pid \([0-9]*\) on .*/\1/p'; }
wait_running() {  # DIR N: until N shards run (10 s at most)
  for _ in $(seq 100); do [ "$(running_pids "$1" | wc -l)" -ge "$2" ] && return 0; sleep 0.1; done
  "$w" campaign --status "$1"
  fail "$2 shards of $1 did not start"
}
starts() { grep -c '^== warpcheck campaign: shard' "$1/logs/shard-000$2.log"; }  # DIR I: how often a launcher started shard I

# 1. SIGKILL of the launcher: its shards die with it (their locks go with their processes).
"$w" campaign "${long[@]}" --shards 2 --local 2 --out "$dir/a" --quiet >"$dir/a.txt" 2>&1 &
launcher=$!
wait_running "$dir/a" 2
pids=$(running_pids "$dir/a")
{ kill -9 "$launcher" && wait "$launcher"; } 2>/dev/null  # bash would say "Killed"
launcher=""
for _ in $(seq 50); do [ -z "$(running_pids "$dir/a")" ] && break; sleep 0.1; done
[ -z "$(running_pids "$dir/a")" ] || { strays=$pids; fail "shards outlived their killed launcher: $pids"; }
for p in $pids; do
  ! kill -0 "$p" 2>/dev/null || grep -q '^State:.*zombie' "/proc/$p/status" 2>/dev/null || { strays=$pids; fail "shard pid $p still runs"; }
done

# 2. Shards that outlive their launcher (the hook): --resume skips them, runs the third alone.
WARPCHECK_CAMPAIGN_TEST_ORPHAN_SHARDS=1 "$w" campaign "${long[@]}" --shards 3 --local 2 --out "$dir/b" --quiet >"$dir/b1.txt" 2>&1 &
launcher=$!
wait_running "$dir/b" 2
orphans=$(running_pids "$dir/b")
strays=$orphans
{ kill -9 "$launcher" && wait "$launcher"; } 2>/dev/null  # bash would say "Killed"
launcher=""
sleep 0.3
[ "$(running_pids "$dir/b")" = "$orphans" ] || fail "the hook's shards did not outlive their launcher"
"$w" campaign --run-shard "$dir/b" 0 >"$dir/b-again.txt" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "shard 0 is running already (pid [0-9]* on .*): not run a second time" "$dir/b-again.txt" ||
  { cat "$dir/b-again.txt"; fail "a second --run-shard of a running shard exited $rc"; }
"$w" campaign --resume "$dir/b" --local 2 --deadline 1 >"$dir/b2.txt" 2>"$dir/b2.err"
rc=$?
[ $rc = 2 ] || { cat "$dir/b2.txt" "$dir/b2.err"; fail "the resume beside running shards exited $rc"; }
for i in 0 1; do
  grep -q "^campaign: shard $i is still running (pid [0-9]* on .*: not started again" "$dir/b2.err" ||
    { cat "$dir/b2.err"; fail "resume did not say that shard $i still runs"; }
done
grep -q "shards to run: 1, on 2 processes" "$dir/b2.err" || { cat "$dir/b2.err"; fail "resume started running shards"; }
[ "$(starts "$dir/b" 0) $(starts "$dir/b" 1) $(starts "$dir/b" 2)" = "1 1 1" ] ||
  fail "shards started (0, 1, 2): $(starts "$dir/b" 0) $(starts "$dir/b" 1) $(starts "$dir/b" 2); each once expected"
[ "$(running_pids "$dir/b")" = "$orphans" ] || fail "the running shards were disturbed"
# shellcheck disable=SC2086
kill -9 $orphans
strays=""

# 3. SIGTERM: the launcher stops its shards, says so, merges and exits 2.
"$w" campaign "${long[@]}" --shards 2 --local 2 --out "$dir/c" --quiet >"$dir/c.txt" 2>&1 &
launcher=$!
wait_running "$dir/c" 2
kill -TERM "$launcher"
wait "$launcher"
rc=$?
launcher=""
[ $rc = 2 ] && grep -q "^campaign: SIGTERM: the shards still running were stopped" "$dir/c.txt" &&
  [ "$(grep -c "| stopped: the campaign got SIGTERM (process" "$dir/c.txt")" = 2 ] || { cat "$dir/c.txt"; fail "SIGTERM of the launcher: exit $rc"; }
[ -z "$(running_pids "$dir/c")" ] || fail "shards outlived a launcher stopped by SIGTERM"

# 4. Damaged results: named, not merged, run again by --resume.
"$w" campaign --structure slab_hash --mode map --backend sim --seeds 30 --shards 3 --local 2 --out "$dir/d" --quiet >"$dir/d1.txt" 2>&1 ||
  { cat "$dir/d1.txt"; fail "the small campaign"; }
sed -i 's/"linearizable":10,/"linearizable":5700,/' "$dir/d/shards/shard-0000.json"
head -c 60 "$dir/d/shards/shard-0002.json" >"$dir/cut" && mv "$dir/cut" "$dir/d/shards/shard-0002.json"
"$w" campaign --merge "$dir/d" >"$dir/d2.txt" 2>"$dir/d2.err"
rc=$?
[ $rc = 2 ] && grep -q "^seeds 1 to 30 in 3 shards: 1 finished (10 seeds), 2 not" "$dir/d2.txt" ||
  { cat "$dir/d2.txt" "$dir/d2.err"; fail "--merge of damaged results exited $rc"; }
grep -qx "warpcheck campaign: warning: $dir/d/shards/shard-0000.json: 10 runs, but linearizable 5700; counted as not finished (--resume $dir/d runs it again)" "$dir/d2.err" &&
  grep -q "^warpcheck campaign: warning: $dir/d/shards/shard-0002.json: not a shard result: " "$dir/d2.err" || { cat "$dir/d2.err"; fail "--merge's warnings"; }
grep -q "^| 2 | 21 to 30 | result damaged: not a shard result" "$dir/d2.txt" || { cat "$dir/d2.txt"; fail "the report's damaged shard"; }
"$w" campaign --status "$dir/d" >/dev/null 2>"$dir/d3.err"
[ $? = 2 ] && [ "$(grep -c "^warpcheck campaign: warning: " "$dir/d3.err")" = 2 ] || { cat "$dir/d3.err"; fail "--status of damaged results"; }
"$w" campaign --resume "$dir/d" --local 2 >"$dir/d4.txt" 2>"$dir/d4.err"
rc=$?
[ $rc = 0 ] && grep -q "shards to run: 2, on 2 processes" "$dir/d4.err" && grep -q "^seeds 1 to 30 in 3 shards: 3 finished (30 seeds), 0 not" "$dir/d4.txt" ||
  { cat "$dir/d4.txt" "$dir/d4.err"; fail "--resume of damaged results exited $rc"; }
[ -e "$dir/d/shards/shard-0002.json.damaged" ] && [ "$(starts "$dir/d" 1)" = 1 ] || fail "damaged results set aside, sound ones left"
grep -q "LINEARIZABLE" "$dir/d4.txt" && [ "$(counts "$dir/d4.txt" | cut -d'|' -f1,3)" = "30|30" ] || { cat "$dir/d4.txt"; fail "the merged counts"; }

"$w" campaign --help | grep -q "^live shards: " || fail "--help says nothing of live shards"
echo "campaign kills: shards die with a killed launcher, live ones are never started twice, damaged results rerun"
