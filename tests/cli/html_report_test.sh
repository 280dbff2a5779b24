#!/usr/bin/env bash
# The HTML report in a real headless browser (Debian's chromium): the page
# renders every operation it claims to, raises no script error, and a
# screenshot is produced. Skips (exit 77) with a message when no chromium.
# Usage: html_report_test.sh WARPCHECK DATA_DIR
set -u
warpcheck=$1
data=$2
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "SKIPPED: no chromium on this machine (tools/setup.sh installs it)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
run_browser() { timeout 120 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/profile" "$@" 2>/dev/null; }

check_page() {  # check_page NAME PAGE EXPECTED_RENDERED
  local status rendered errors ms
  status=$(run_browser --dump-dom "$2" | grep -o '<div id="status"[^>]*>')
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

"$warpcheck" check "$data/known/lin_pq_overlapping_pops_one_order.jsonl" --html "$tmp/pq.html" >/dev/null
check_page "priority queue witness" "$tmp/pq.html" 5
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
