#!/usr/bin/env bash
# End-to-end tests of the warpcheck command line: verdicts and exit codes on
# the known-answer histories in every format, bad input, usage errors.
# Usage: cli_test.sh WARPCHECK DATA_DIR
set -u
warpcheck=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

expect() {  # expect NAME WANTED_EXIT ACTUAL_EXIT [OUTPUT_FILE PATTERN]
  local name=$1 want=$2 got=$3
  if [ "$got" != "$want" ]; then
    echo "FAIL: $name: exit $got, wanted $want"; failed=$((failed + 1)); return
  fi
  if [ $# -ge 5 ] && ! grep -q -- "$5" "$4"; then
    echo "FAIL: $name: output lacks '$5':"; sed 's/^/    /' "$4"; failed=$((failed + 1)); return
  fi
  passed=$((passed + 1))
}

edn_model() {  # lin_cas_register_jepsen.edn -> cas-register
  basename "$1" .edn | sed -E 's/^(lin|viol)_//; s/_jepsen$//; s/_/-/g'
}

for f in "$data"/known/*; do
  name=$(basename "$f")
  case $name in *_run_failed_*) want=4 ;; lin_*) want=0 ;; *) want=1 ;; esac
  model_args=()
  [[ $name == *.edn ]] && model_args=(--model "$(edn_model "$f")")
  "$warpcheck" check "$f" "${model_args[@]}" >"$tmp/out" 2>&1
  rc=$?
  case $want in 0) said=LINEARIZABLE ;; 1) said=VIOLATION ;; 4) said="RUN FAILED" ;; esac
  expect "check $name" $want $rc "$tmp/out" "^$said:"
  "$warpcheck" convert "$f" "$tmp/h.bin" "${model_args[@]}" 2>"$tmp/err"
  expect "convert $name" 0 $?
  "$warpcheck" check "$tmp/h.bin" --json >"$tmp/out" 2>&1
  expect "check binary of $name" $want $? "$tmp/out" '"verdict":"'
  "$warpcheck" convert "$tmp/h.bin" "$tmp/h.jsonl" 2>"$tmp/err" && "$warpcheck" convert "$tmp/h.jsonl" "$tmp/h2.bin" 2>"$tmp/err"
  cmp -s "$tmp/h.bin" "$tmp/h2.bin"
  expect "binary -> jsonl -> binary is exact for $name" 0 $?
done

for f in "$data"/bad/*; do
  name=$(basename "$f")
  model_args=()
  case $name in
    *_queue_*.edn) model_args=(--model queue) ;;
    *_stack_*.edn) model_args=(--model stack) ;;
    *.edn) model_args=(--model cas-register) ;;
  esac
  "$warpcheck" check "$f" "${model_args[@]}" >"$tmp/out" 2>&1
  expect "bad input $name" 3 $? "$tmp/out" "$name"
done

"$warpcheck" gen --model pq --ops 300 --pending 0.1 --out "$tmp/g.bin" 2>/dev/null
head -c 200 "$tmp/g.bin" >"$tmp/truncated.bin"
"$warpcheck" check "$tmp/truncated.bin" >"$tmp/out" 2>&1
expect "truncated binary" 3 $? "$tmp/out" "truncated"
printf '\x01' | dd of="$tmp/g.bin" bs=1 seek=300 conv=notrunc 2>/dev/null
"$warpcheck" check "$tmp/g.bin" >"$tmp/out" 2>&1
expect "corrupted binary" 3 $? "$tmp/out" "checksum"
"$warpcheck" check "$data/known/lin_pq_batch.jsonl" --model register >"$tmp/out" 2>&1
expect "wrong model for the history" 3 $? "$tmp/out" "not part of model"
# --context T: a lost insert's counterexample (two operations on key 5)
# with the other key's erase that ran inside its span, the culprit of a
# slot stolen; a wider T takes in more; the recorder's warps and lanes named.
stolen=$data/known/viol_map_slot_stolen_by_another_keys_erase.jsonl
"$warpcheck" check "$stolen" --context 0 >"$tmp/out" 2>&1
expect "--context 0" 1 $? "$tmp/out" "context: 1 other operation(s) within 0 stamps of its span:"
expect "--context 0 names the culprit" 1 1 "$tmp/out" "^    id 3  warp 2 lane 7  \[15, 35\]  erase(9) -> true$"
expect "the counterexample in warps and lanes" 1 1 "$tmp/out" "^  id 2  warp 1 lane 5  \[10, 20\]  insert(5,50) -> true$"
"$warpcheck" check "$stolen" --context 70 >"$tmp/out" 2>&1
expect "--context 70" 1 $? "$tmp/out" "context: 3 other operation(s) within 70 stamps"
"$warpcheck" check "$stolen" --context 0 --json 2>&1 | cat >"$tmp/out"  # through a pipe, which cannot seek
expect "--context in JSON" 1 "${PIPESTATUS[0]}" "$tmp/out" '"shrunk_from":2,"key":5,.*"context":\[3\]}}$'
"$warpcheck" check "$stolen" >"$tmp/out" 2>&1
grep -q "context:" "$tmp/out" && { echo "FAIL: context shown without --context"; failed=$((failed + 1)); }
"$warpcheck" check "$stolen" --context -1 >"$tmp/out" 2>&1
expect "--context refuses a negative span" 3 $? "$tmp/out" "context"
# A FIFO with no writer is refused at once, not waited on; so is a folder.
mkfifo "$tmp/fifo"
timeout 10 "$warpcheck" check "$tmp/fifo" --timeout 1 >"$tmp/out" 2>&1
expect "a FIFO is refused at once" 3 $? "$tmp/out" "not a regular file"
"$warpcheck" check "$tmp" >"$tmp/out" 2>&1
expect "a folder is refused" 3 $? "$tmp/out" "not a regular file"
# --memory past the machine's memory is capped to it, and said so.
"$warpcheck" check "$data/known/lin_pq_batch.jsonl" --memory 100000000 >"$tmp/out" 2>&1
expect "--memory capped to the machine's" 0 $? "$tmp/out" "is more than this machine's .* MB: capped to"
"$warpcheck" check "$tmp/does-not-exist" >"$tmp/out" 2>&1
expect "missing file" 3 $? "$tmp/out" "cannot open"
"$warpcheck" frobnicate >"$tmp/out" 2>&1
expect "unknown command" 3 $? "$tmp/out" "unknown command"
"$warpcheck" check >"$tmp/out" 2>&1
expect "check without a file" 3 $? "$tmp/out" "usage"
"$warpcheck" check "$data/known/lin_pq_batch.jsonl" --timeout abc >"$tmp/out" 2>&1
expect "bad number" 3 $? "$tmp/out" "--timeout must be"
"$warpcheck" check "$data/known/lin_pq_batch.jsonl" --model deque >"$tmp/out" 2>&1
expect "unknown model option" 3 $? "$tmp/out" "unknown model"
"$warpcheck" gen --model set --ops 20000 --keys 64 --overlap 100 --out "$tmp/s.jsonl" 2>/dev/null
"$warpcheck" check "$tmp/s.jsonl" >"$tmp/out" 2>&1
expect "generated set history" 0 $? "$tmp/out" "^checker: set presence procedure"
grep -q "64 parts" "$tmp/out" || { echo "FAIL: generated set history: not 64 parts"; failed=$((failed + 1)); }
"$warpcheck" check "$tmp/s.jsonl" --algo search >"$tmp/out" 2>&1
expect "generated set history, searched" 0 $? "$tmp/out" "partitioned by key into 64 parts"
"$warpcheck" gen --model queue --ops 20000 --overlap 32 --pending 0.01 --out "$tmp/q.bin" 2>/dev/null
"$warpcheck" check "$tmp/q.bin" >"$tmp/out" 2>&1
expect "generated queue history" 0 $? "$tmp/out" "^checker: distinct-value queue checker"
"$warpcheck" gen --model stack --ops 300 --overlap 4 --out "$tmp/st.jsonl" 2>/dev/null
"$warpcheck" check "$tmp/st.jsonl" >"$tmp/out" 2>&1
expect "generated stack history" 0 $? "$tmp/out" "^LINEARIZABLE"
"$warpcheck" check "$data/known/lin_queue_jepsen.edn" --model queue --initial 0 >"$tmp/out" 2>&1
expect "register import options refused for a queue" 3 $? "$tmp/out" "are for the register, cas-register and kv models"
"$warpcheck" gen --model pq --ops 3000 --keys 1000 --overlap 16 --pending 0.3 --seed 11 --out "$tmp/hard.bin" 2>/dev/null
"$warpcheck" check "$tmp/hard.bin" --timeout 0.3 >"$tmp/out" 2>&1
expect "time budget gives unknown" 2 $? "$tmp/out" "^UNKNOWN"

echo "cli: $passed passed, $failed failed"
[ $failed -eq 0 ]
