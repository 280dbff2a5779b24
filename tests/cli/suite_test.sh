#!/usr/bin/env bash
# warpcheck suite: its runs in processes of their own, several at a time,
# printed in declared order, each under the stress line that runs it; that
# line, run alone, gives the run's declared exit; a run that does not end as
# declared is named and fails the suite.
# Usage: suite_test.sh WARPCHECK
set -uo pipefail
w=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=expect.sh
source "$(dirname "$0")/expect.sh"

expect 0 suite --structure heap --jobs 3
cp "$dir/out" "$dir/suite"
grep '^== heap: ' "$dir/suite" | sed 's/^== heap: //' >"$dir/headers"
grep '^| heap | ' "$dir/suite" | cut -d'|' -f3 | sed 's/^ //; s/ $//' >"$dir/rows"
[ "$(wc -l <"$dir/rows")" -ge 3 ] || { cat "$dir/suite"; fail "the heap's suite has fewer than 3 main runs"; }
cmp -s "$dir/headers" "$dir/rows" || { cat "$dir/suite"; fail "runs not printed in their declared (the table's) order"; }
grep '^| heap | ' "$dir/suite" | cut -d'|' -f6 | grep -qvE '^ [0-9]+\.[0-9] $' && { cat "$dir/suite"; fail "a run's seconds missing"; }

# Each run's printed stress line, run alone, exits as the table declares.
n=0
while IFS=$'\t' read -r line want; do
  # shellcheck disable=SC2086
  expect "${want// /}" ${line#warpcheck }
  n=$((n + 1))
done < <(paste <(grep '^   (warpcheck stress ' "$dir/suite" | sed 's/^   (//; s/)$//') \
               <(grep '^| heap | ' "$dir/suite" | cut -d'|' -f4))
[ "$n" = "$(wc -l <"$dir/rows")" ] || { cat "$dir/suite"; fail "$n stress lines printed for $(wc -l <"$dir/rows") runs"; }

# Runs that cannot end as declared (the heap has no host-thread back-end):
# each named, its exit 3 in the table, the suite's exit 1.
expect 1 suite --structure heap --backend threads --jobs 2
grep -q "NOT as expected" "$dir/out" || { cat "$dir/out"; fail "no run reported as not as declared"; }
grep -q "^suite: .*threads" "$dir/out" || { cat "$dir/out"; fail "the refusal not said"; }
expect 3 suite --structure heap --jobs 0
grep -q -- "--jobs" "$dir/out" || fail "--jobs 0: no word on --jobs"
echo "suite test: ok ($n runs)"
