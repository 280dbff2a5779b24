#!/usr/bin/env bash
# The real-threads mode under ThreadSanitizer: the correct sorted-array set
# runs race-free and its history checks LINEARIZABLE; the unlocked_contains
# mutant's plain reads outside the lock are reported as a data race.
# Usage: tsan_test.sh THREADS_TSAN WARPCHECK
set -uo pipefail
tsan=$1 warpcheck=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# TSan needs a low-entropy address space on some kernels.
run() { if setarch "$(uname -m)" -R true 2>/dev/null; then setarch "$(uname -m)" -R "$@"; else "$@"; fi; }
fail() { echo "FAIL: $*"; exit 1; }

for seed in 1 2 3; do
  run "$tsan" "$seed" none "$dir/ok.bin" >"$dir/ok.log" 2>&1
  rc=$?
  grep -q "ThreadSanitizer" "$dir/ok.log" && { cat "$dir/ok.log"; fail "TSan reported on the correct structure (seed $seed)"; }
  [ $rc = 0 ] || { cat "$dir/ok.log"; fail "correct run exited $rc"; }
  "$warpcheck" check "$dir/ok.bin" >"$dir/check.log" || { cat "$dir/check.log"; fail "history of seed $seed not LINEARIZABLE"; }
done
echo "correct structure: no race, 3 histories LINEARIZABLE"

run "$tsan" 1 unlocked_contains "$dir/bad.bin" >"$dir/bad.log" 2>&1
rc=$?
grep -q "WARNING: ThreadSanitizer: data race" "$dir/bad.log" || { cat "$dir/bad.log"; fail "no data race reported for unlocked_contains"; }
grep -q "structures/sorted_set/sorted_set.hpp" "$dir/bad.log" || fail "the race report does not point into structures/sorted_set/sorted_set.hpp"
[ $rc = 66 ] || fail "expected TSan's exit code 66, got $rc"
echo "unlocked_contains: data race reported in structures/sorted_set/sorted_set.hpp (exit 66)"
