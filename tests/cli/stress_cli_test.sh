#!/usr/bin/env bash
# warpcheck stress and repro end to end on the simulator: exit codes, the
# failure's files, a reproduction that gives back the same history byte for
# byte, and clear errors for impossible configurations.
# Usage: stress_cli_test.sh WARPCHECK
set -uo pipefail
w=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=expect.sh
source "$(dirname "$0")/expect.sh"

expect 0 stress --structure slab_hash --mode map --backend sim --seeds 20 --quiet
expect 0 stress --structure slab_hash --mode multimap --backend sim --seeds 20 --quiet --hot-keys 2 --churn 0.5 --same-key 0.3
expect 0 stress --structure sorted_set --backend threads --seeds 2 --quiet
grep -q "| 2 | 384 | 2 | 0 | 0 | 0 | 0 | 0 |" "$dir/out" || { cat "$dir/out"; fail "threads summary"; }

# Progress into a log (not a terminal): plain lines, no carriage returns.
"$w" stress --structure sorted_set --backend sim --seeds 3 > "$dir/log" 2>&1 || { cat "$dir/log"; fail "stress with progress"; }
grep -q $'\r' "$dir/log" && fail "progress wrote carriage returns into a log"
grep -q "^  3/3 runs, 0 failing" "$dir/log" || { cat "$dir/log"; fail "no last progress line in the log"; }

# --keep: the runs' histories kept beside the failure's files, each checkable on its own.
expect 0 stress --structure sorted_set --backend sim --seeds 2 --quiet --out "$dir/k" --keep all
for s in 1 2; do
  [ -s "$dir/k/seed-$s-LINEARIZABLE.bin" ] || { ls "$dir/k"; fail "--keep all: seed $s not kept"; }
  "$w" check "$dir/k/seed-$s-LINEARIZABLE.bin" >/dev/null || fail "--keep all: seed $s does not check"
done
# A kept passing run reruns bit for bit, as a failure does.
expect 0 repro "$dir/k/seed-2-LINEARIZABLE.bin"
grep -q "^reproduced bit for bit" "$dir/out" || { cat "$dir/out"; fail "repro of a kept passing run: not bit for bit"; }
expect 0 stress --structure sorted_set --backend sim --seeds 2 --quiet --out "$dir/k2"
[ ! -e "$dir/k2" ] || { ls "$dir/k2"; fail "--keep unknown (the default) kept a linearizable run"; }
expect 3 stress --structure sorted_set --backend sim --seeds 2 --quiet --out "$dir/k3" --keep some
# suite --keep: each suite run keeps its runs in its own folder.
expect 0 suite --structure sorted_set --out "$dir/su" --keep all
[ "$(ls "$dir/su/sorted_set_0" | grep -c '^seed-[0-9]*-LINEARIZABLE.bin$')" = 100 ] || { ls "$dir/su"; fail "suite --keep all"; }
expect 3 suite --structure sorted_set --out "$dir/su2" --keep some

# A planted bug: caught, shrunk, files written, reproduced exactly.
expect 1 stress --structure slab_hash --mode multimap --backend sim --mutant delete_by_exchange --seeds 50 --quiet --out "$dir/f"
grep -q "^shrunk the failing workload" "$dir/out" || fail "no shrink report"
for f in history.bin report.html workload.txt schedule.txt; do [ -s "$dir/f/$f" ] || fail "missing $f"; done
repro=$(sed -n 's/^reproduce: warpcheck //p' "$dir/out")
[ -n "$repro" ] || fail "no reproduce line"
# shellcheck disable=SC2086
expect 1 $repro --quiet --out "$dir/g"
same_run "$dir/f/history.bin" "$dir/g/history.bin" || fail "the reproduction's history differs"
"$w" check "$dir/g/history.bin" > "$dir/check.txt"
[ $? = 1 ] || fail "the reproduced history is not a violation"
grep -q "^RUN FAILED: checker: VIOLATION" "$dir/check.txt" || { cat "$dir/check.txt"; fail "the history records no checker failure"; }

# The history alone reproduces it, bit for bit (its header holds the configuration and the workload).
expect 1 repro "$dir/f/history.bin" --quiet --out "$dir/j"
grep -q "reproduced bit for bit" "$dir/out" || { cat "$dir/out"; fail "repro of the history file"; }
grep -q "^the same failure as recorded: checker" "$dir/out" || { cat "$dir/out"; fail "repro does not compare the recorded failure"; }
same_run "$dir/f/history.bin" "$dir/j/history.bin" || fail "the history file's reproduction differs"
# Without --out, its reproduce line is the history (the shrunk workload lives there), and it fails the same way.
expect 1 repro "$dir/f/history.bin" --quiet
line=$(sed -n 's/^reproduce: warpcheck //p' "$dir/out")
[ "$line" = "repro $dir/f/history.bin" ] || { cat "$dir/out"; fail "repro of a history prints \"$line\""; }
expect 1 repro "$dir/f" --quiet
# A hostile history names files in its stored options (a secret to print,
# a FIFO to block on): repro refuses it and opens neither.
echo "SECRET-LINE-42" >"$dir/secret.txt"
mkfifo "$dir/fifo"
"$w" convert "$dir/f/history.bin" "$dir/hostile.jsonl" --to jsonl >/dev/null || fail "convert to JSON lines"
for named in "workload\":\"@$dir/secret.txt" "schedule\":\"@$dir/fifo"; do
  sed "1s|\"options\":{|\"options\":{\"$named\",|" "$dir/hostile.jsonl" >"$dir/hostile2.jsonl"
  grep -q "@$dir" "$dir/hostile2.jsonl" || fail "the hostile history was not written"
  timeout 20 "$w" repro "$dir/hostile2.jsonl" --quiet >"$dir/out" 2>&1
  got=$?
  [ $got = 3 ] || { cat "$dir/out"; fail "repro of a history naming a file exited $got, not 3"; }
  grep -q "names a file; a history holds its workload itself and opens nothing it names" "$dir/out" || { cat "$dir/out"; fail "no refusal"; }
  ! grep -q "SECRET-LINE-42" "$dir/out" || fail "repro printed a file the history named"
done
# Nor may it say where to write (a session's option), or name a guide outside its folder.
for named in "out\":\"$dir/evil" "scheduler\":\"guided\",\"guide\":\"$dir/secret.txt"; do
  sed "1s|\"options\":{|\"options\":{\"$named\",|" "$dir/hostile.jsonl" | sed '1s|"scheduler":"random",||' >"$dir/hostile3.jsonl"
  grep -q "\"$named\"" "$dir/hostile3.jsonl" || fail "the hostile history was not written"
  timeout 20 "$w" repro "$dir/hostile3.jsonl" --quiet >"$dir/out" 2>&1
  got=$?
  [ $got = 3 ] || { cat "$dir/out"; fail "repro of a history holding \"$named\" exited $got, not 3"; }
  grep -qE "which is not a run's option|a guide that its folder does not hold" "$dir/out" || { cat "$dir/out"; fail "no refusal"; }
  [ ! -e "$dir/evil" ] || fail "repro wrote where the history said"
  ! grep -q "SECRET-LINE-42" "$dir/out" || fail "repro printed a file the history named"
done
expect 3 repro "$dir/f/history.bin" --structure heap
grep -q "a history holds its structure" "$dir/out" || { cat "$dir/out"; fail "run options with a history file"; }
expect 3 repro "$dir/f/history.bin" --keys 4
grep -q "the history's to say" "$dir/out" || { cat "$dir/out"; fail "a run option with a history file"; }

# Deadlocks and shadow violations are faults with a report; their folders'
# histories say so (check exits 4, never 0) and name the oracle.
expect 1 stress --structure sorted_set --backend sim --mutant keep_lock_on_miss --seeds 3 --quiet --no-shrink --out "$dir/d"
grep -q "wait-for cycle: warp [0-9]* -> warp" "$dir/out" || { cat "$dir/out"; fail "no wait-for cycle"; }
expect 4 check "$dir/d/history.bin"
grep -q "^RUN FAILED: deadlock detector: " "$dir/out" || { cat "$dir/out"; fail "the deadlock's history does not say so"; }
grep -q "^ *wait-for cycle: warp" "$dir/out" || { cat "$dir/out"; fail "the deadlock's history has no wait-for cycle"; }
grep -q "^the checker on the history: " "$dir/out" || fail "no checker verdict under the record"
expect 4 check "$dir/d/history.bin" --json
grep -q '"outcome":"RUN FAILED","run_failed":{"oracle":"deadlock detector"' "$dir/out" || { cat "$dir/out"; fail "check --json"; }
expect 1 stress --structure slab_hash --backend sim --mutant link_free_winner --seeds 50 --quiet --no-shrink --out "$dir/s"
grep -q "a freed unit" "$dir/out" || { cat "$dir/out"; fail "no shadow-state report"; }
expect 4 check "$dir/s/history.bin"
grep -q "^RUN FAILED: shadow state: " "$dir/out" || { cat "$dir/out"; fail "the shadow violation's history does not say so"; }

# The heap: the corrected variants pass with the three verdicts apart; the
# paper's top-down heap deadlocks (F2), reported with its lock owners, and
# its reproduction gives back the same history; the paper's bottom-up heap's
# linearization points miss linearizable histories (--require-points fails).
expect 0 stress --structure heap --variant td-fixed --backend sim --seeds 30 --quiet
grep -q "proof's points hold" "$dir/out" || { cat "$dir/out"; fail "no three-verdict table"; }
grep -q "| 30 | 30 of 30 | 30 of 30 | 30 of 30 | 0 |" "$dir/out" || { cat "$dir/out"; fail "td-fixed verdicts"; }
expect 0 stress --structure heap --variant bu-fixed --backend sim --seeds 30 --quiet --phases --prefill 2
expect 1 stress --structure heap --variant td --backend sim --seeds 30 --quiet --out "$dir/h"
grep -q "spin bound" "$dir/out" || { cat "$dir/out"; fail "td: no deadlock report"; }
grep -q "held by \(warp\|block\) [0-9]" "$dir/out" || { cat "$dir/out"; fail "td: no lock owner"; }
repro=$(sed -n 's/^reproduce: warpcheck //p' "$dir/out")
# shellcheck disable=SC2086
expect 1 $repro --quiet --out "$dir/i"
same_run "$dir/h/history.bin" "$dir/i/history.bin" || fail "the heap reproduction's history differs"
expect 1 stress --structure heap --variant bu --fixes take_parked_last,wait_on_delmod_parent,checked_trylock,empty_taken_buffer,lock_acquire_release,one_node_delete,descent_restores_avail --backend sim \
  --seeds 30 --quiet --require-points --no-shrink
grep -q "proof's points NOT explained" "$dir/out" || { cat "$dir/out"; fail "bu: points explained everything"; }
# Points that are not judged (GFSL in relaxed memory) are not reported as unexplained either.
expect 0 stress --structure gfsl --memory-model relaxed --variant fixed --chunk 16 --keys 40 --ops-per-lane 4 --seeds 30 --quiet --no-shrink
grep -q "proof's points: not judged in relaxed memory" "$dir/out" || { cat "$dir/out"; fail "gfsl relaxed: no 'not judged'"; }
grep -q "NOT explained" "$dir/out" && { cat "$dir/out"; fail "gfsl relaxed: unjudged points reported as unexplained"; }
expect 0 stress --list-mutants
grep -q "ignore_parked_parent" "$dir/out" && grep -q "hold_target_parent" "$dir/out" || fail "heap mutants and fixes not listed"
expect 0 check --help
grep -q "(default 60)" "$dir/out" || fail "check --help shows no default timeout"
# The schedulers and their options, from their own declarations; score under another scheduler says so in each row.
expect 0 stress --structure slab_hash --help
grep -q -- "--scheduler random|pct|targeted|guided|pos" "$dir/out" && grep -q -- "--pos-variant pos|basic" "$dir/out" ||
  { cat "$dir/out"; fail "stress --help: the schedulers and their options"; }
"$w" score --structure slab_hash --seeds 1 --no-shrink --scheduler pos > "$dir/score" 2>&1
grep -q "^| slab_hash | --mode map --scheduler targeted (declared targeted, run under pos) | torn_read |" "$dir/score" ||
  { cat "$dir/score"; fail "score --scheduler pos: the row of a run declared under targeted"; }
expect 3 score --scheduler fifo
grep -q "must be one of random, pct, targeted, guided, pos" "$dir/out" || fail "score --scheduler fifo"
# Without a structure, stress --help shows every structure's own mutants.
expect 0 stress --help
grep -q "^  --mutant none|no_zombie_skip" "$dir/out" && grep -q "^  --mutant none|early_root_release" "$dir/out" || { cat "$dir/out"; fail "stress --help: each structure's mutants"; }
# One default for every structure: the corrected variant (--variant paper, td or bu: as printed).
grep -q "(every structure's default); paper" "$dir/out" && grep -q "(default td-fixed)" "$dir/out" || fail "stress --help: the corrected default"
# --list-mutants lists only the structure asked for, in text or JSON.
expect 0 stress --structure sorted_set --list-mutants
grep -q "unlocked_contains" "$dir/out" || fail "sorted_set mutants not listed"
grep -q "torn_read\|ignore_parked_parent" "$dir/out" && fail "--structure sorted_set lists another structure's mutants"
expect 0 stress --structure heap --list-mutants --json
grep -q '"structure":"heap"' "$dir/out" && ! grep -q '"structure":"slab_hash"' "$dir/out" || fail "heap --json"
# Every command in the help; every structure/back-end runs or says where it runs.
expect 0 --help
for c in check convert gen stress repro score suite campaign recipes guided-bench; do grep -q "^  $c " "$dir/out" || fail "warpcheck --help lacks $c"; done
expect 3 stress --structure heap --backend threads
grep -q "heap runs on sim, gpu" "$dir/out" || { cat "$dir/out"; fail "heap on threads: no list of back-ends"; }
expect 0 stress --structure heap --help
grep -q -- "--variant" "$dir/out" && ! grep -q -- "--memory-blocks" "$dir/out" || fail "heap help"

# Impossible configurations and bad input: exit 3 with a message.
expect 3 stress --structure heap --k 3
grep -q "power of two" "$dir/out" || fail "heap k message"
expect 3 stress --structure heap --variant td --mutant ignore_parked_parent
expect 3 stress --structure heap --variant td --fixes take_parked_last
expect 3 stress --structure heap --mix insert=50,delete=20,search=30
expect 3 stress --structure slab_hash --mutant delete_by_exchange --mode map
grep -q "does not apply in map mode" "$dir/out" || fail "mutant/mode message"
expect 3 stress --structure sorted_set --keys 33
expect 3 stress --structure slab_hash --keys 5000000000
expect 3 stress --structure nope
# --recipe perturbs GPU runs only (docs/gpu-perturbation.md); recipes wants a GPU.
expect 3 stress --structure sorted_set --backend sim --recipe preset:tear
grep -q -- "--recipe applies only with --backend gpu" "$dir/out" || { cat "$dir/out"; fail "recipe on the simulator"; }
expect 0 stress --help
grep -q -- "--recipe RECIPE|preset:NAME" "$dir/out" || fail "stress help lacks --recipe"
expect 0 recipes --help
grep -q "time to first catch\|Time to first catch" "$dir/out" || fail "recipes help"
expect 3 stress --mix insert=0
expect 3 stress --backend sim --structure slab_hash --workload @/nonexistent
printf 'upsert 1 1\n' > "$dir/short.txt"
expect 3 stress --backend sim --structure slab_hash --workload @"$dir/short.txt"
grep -q "slots" "$dir/out" || fail "workload size message"
expect 3 repro
expect 3 repro notaseed
echo "stress CLI: all good"
