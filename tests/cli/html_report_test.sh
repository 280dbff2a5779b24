#!/usr/bin/env bash
# The HTML report in a real headless browser (Debian's chromium): the page
# renders every operation it claims to and raises no script error; what it
# shows is read back from the rendered page: the verdict, one row group a
# team, the witness numbered in order, and a counterexample opened on its
# operation with the longest partial linearization highlighted; a
# screenshot is produced. Skips (exit 77) with a message when no chromium.
# Usage: html_report_test.sh WARPCHECK DATA_DIR
set -u
warpcheck=$1
data=$2
# shellcheck source=tests/cli/browser.sh
source "$(dirname "${BASH_SOURCE[0]}")/browser.sh"
need_browser
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

expect_in() {  # expect_in NAME DOM_FILE EXPECTED_COUNT PATTERN: PATTERN (grep -oE) occurs that many times
  local got
  got=$(grep -oE "$4" "$2" | wc -l)
  if [ "$got" = "$3" ]; then passed=$((passed + 1)); else echo "FAIL: $1: '$4' shown $got times, wanted $3"; failed=$((failed + 1)); fi
}

check_page() {  # check_page NAME PAGE EXPECTED_RENDERED (the rendered page is left in PAGE.dom)
  local status rendered errors ms
  run_browser --dump-dom "$2" > "$2.dom"
  status=$(grep -o '<div id="status"[^>]*>' "$2.dom")
  rendered=$(sed -n 's/.*data-rendered="\([0-9]*\)".*/\1/p' <<<"$status")
  errors=$(sed -n 's/.*data-errors="\([0-9]*\)".*/\1/p' <<<"$status")
  ms=$(sed -n 's/.*data-ms="\([0-9]*\)".*/\1/p' <<<"$status")
  load=$(sed -n 's/.*data-load-ms="\([0-9]*\)".*/\1/p' <<<"$status")
  if [ "$rendered" = "$3" ] && [ "$errors" = "0" ]; then
    echo "ok: $1: $rendered operations, rendered in $ms ms, $load ms from navigation start, no script errors"
    passed=$((passed + 1))
  else
    echo "FAIL: $1: status '$status', wanted $3 operations and no errors"
    failed=$((failed + 1))
  fi
}

"$warpcheck" gen --model map --ops 10000 --keys 20 --overlap 16 --pending 0.01 --out "$tmp/map.bin" 2>/dev/null
"$warpcheck" check "$tmp/map.bin" --html "$tmp/map.html" >/dev/null
check_page "10,000-operation linearizable map history" "$tmp/map.html" 10000

"$warpcheck" check "$data/known/viol_set_one_bad_key_among_many.jsonl" --html "$tmp/viol.html" >/dev/null
check_page "counterexample of a stale read" "$tmp/viol.html" 3
grep -q '"partial":\[\[7,' "$tmp/viol.html" && passed=$((passed + 1)) || { echo "FAIL: no partial linearization in the page"; failed=$((failed + 1)); }
# What the page shows: the verdict; the counterexample's three operations in
# the rows of their teams (0, 1 and 3); the page opened on insert(7), whose
# longest partial linearization (insert(7), then the first erase) is
# highlighted and listed.
dom=$tmp/viol.html.dom
expect_in "verdict" "$dom" 1 '<span id="verdict" class="VIOLATION">VIOLATION</span>'
expect_in "team rows" "$dom" 3 '<div class="team">team [013]</div>'
expect_in "counterexample bars" "$dom" 3 'class="op cx[^"]*"'
expect_in "the opened operation" "$dom" 1 'class="op cx me hl"[^>]*>insert\(7\)'
expect_in "its partial linearization highlighted" "$dom" 2 'class="op cx[ a-z]* hl"'
expect_in "its partial linearization listed" "$dom" 1 'longest partial linearization with it \(2\)'

# A failed run's history: the headline is the failure (never the green
# LINEARIZABLE its history alone gets), its record above the timeline, the
# operation it names outlined; times exact, relative to the first stamp.
"$warpcheck" check "$data/known/lin_set_run_failed_deadlock.jsonl" --html "$tmp/failed.html" >/dev/null
check_page "a deadlocked run's history" "$tmp/failed.html" 4
dom=$tmp/failed.html.dom
expect_in "failure headline" "$dom" 1 '<span id="verdict" class="FAILED">RUN FAILED \(deadlock detector\)</span>'
expect_in "no green verdict" "$dom" 0 'class="LINEARIZABLE"'
expect_in "the record above the timeline" "$dom" 1 '<div id="failure">deadlock detector: spin bound: team 1 lane 0'
expect_in "its wait-for cycle" "$dom" 1 'wait-for cycle: team 1 -&gt; team 1'
expect_in "the operation it names outlined" "$dom" 1 'class="op[a-z ]* ev"'
expect_in "the checker's verdict beside it" "$dom" 1 'the checker on the history: LINEARIZABLE'
expect_in "times from the first stamp" "$dom" 1 'times from stamp 100'

"$warpcheck" check "$data/known/lin_pq_overlapping_pops_one_order.jsonl" --html "$tmp/pq.html" >/dev/null
check_page "priority queue witness" "$tmp/pq.html" 5
# A linearizable history: every bar numbered by its step in the witness.
expect_in "witness verdict" "$tmp/pq.html.dom" 1 '<span id="verdict" class="LINEARIZABLE">LINEARIZABLE</span>'
expect_in "witness steps 1 to 5" "$tmp/pq.html.dom" 5 'class="op lin"[^>]*>[1-5]: '
# A map history on 20 keys: one part a key, each with the row groups of its
# 32 teams.
expect_in "parts of the 10,000-operation history" "$tmp/map.html.dom" 20 '<div class="part">'
expect_in "team rows of the 10,000-operation history" "$tmp/map.html.dom" 640 '<div class="team">team [0-9]+</div>'
run_browser --screenshot="$tmp/pq.png" --window-size=1200,600 "$tmp/pq.html"
if [ -s "$tmp/pq.png" ]; then passed=$((passed + 1)); else echo "FAIL: no screenshot"; failed=$((failed + 1)); fi

# No network and no external scripts: the page must be self-contained.
if grep -qE '<script[^>]+src=|<link[^>]+href=|https?://' "$tmp/map.html"; then
  echo "FAIL: the page refers to something outside itself"; failed=$((failed + 1))
else
  passed=$((passed + 1))
fi

echo "html: $passed passed, $failed failed"
[ $failed -eq 0 ]
