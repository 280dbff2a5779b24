#!/usr/bin/env bash
# Every reproduce line the commands print, run as printed, fails the same
# way: the same exit, the same seed, the same oracle ("caught by:"). The
# lines of stress (with and without --out), of repro (a history file, a
# seed), of suite (its failing run), of score (each caught mutant's first
# seed) and of campaign (each failing run's replay line, from report.md).
# Usage: reproduce_lines_test.sh WARPCHECK
set -u
w=$(realpath "$1")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1  # whatever a command writes by default lands here
# shellcheck source=tests/cli/expect.sh
source "$here/expect.sh"

ran=0
# replay WANTED_ORACLES LINE...: each "warpcheck ARGS" line, run as printed,
# exits 1, runs the seed it names (a line by seed) or fails as its history
# records (a line by file), and names an oracle among WANTED_ORACLES
# ("checker, invariants": either).
replay() {
  local want=$1 line oracle
  shift
  for line in "$@"; do
    # shellcheck disable=SC2086
    "$w" ${line#warpcheck } >"$dir/again" 2>&1
    local got=$?
    [ $got = 1 ] || { cat "$dir/again"; fail "\"$line\" exited $got, not 1"; }
    oracle=$(sed -n 's/^caught by: //p' "$dir/again")
    [ -n "$oracle" ] || { cat "$dir/again"; fail "\"$line\" names no oracle"; }
    [[ ", $want, " == *", $oracle, "* ]] || { cat "$dir/again"; fail "\"$line\" was caught by $oracle, not $want"; }
    if [[ $line =~ ^warpcheck\ repro\ ([0-9]+)\  ]]; then
      grep -q "^repro: seed ${BASH_REMATCH[1]}, " "$dir/again" || { cat "$dir/again"; fail "\"$line\" ran another seed"; }
    else
      grep -q "^the same failure as recorded: $oracle" "$dir/again" || { cat "$dir/again"; fail "\"$line\" is not the recorded failure"; }
    fi
    ran=$((ran + 1))
  done
}
# The "reproduce...: warpcheck ..." lines of an output, one a line.
lines() { sed -n 's/^reproduce[^:]*: \(warpcheck .*\)$/\1/p' "$1"; }
# The oracle its output names.
oracle_of() { sed -n 's/^caught by: //p' "$1"; }

# stress, with --out: by seed with its files, and from the history alone.
expect 1 stress --structure heap --variant td --backend sim --seeds 50 --quiet --out "$dir/td"
cp "$dir/out" "$dir/stress.txt"
mapfile -t printed < <(lines "$dir/stress.txt")
[ ${#printed[@]} = 2 ] || { cat "$dir/stress.txt"; fail "stress --out printed ${#printed[@]} reproduce lines, not 2"; }
replay "$(oracle_of "$dir/stress.txt")" "${printed[@]}"

# stress without --out: the unshrunk run by seed (the shrunk workload is
# kept nowhere), and without shrinking the run itself.
for extra in "" "--no-shrink"; do
  # shellcheck disable=SC2086
  expect 1 stress --structure heap --variant td --backend sim --seeds 50 --quiet $extra
  mapfile -t printed < <(lines "$dir/out")
  [ ${#printed[@]} = 1 ] || { cat "$dir/out"; fail "stress $extra printed ${#printed[@]} reproduce lines, not 1"; }
  replay "$(oracle_of "$dir/out")" "${printed[@]}"
done

# repro of the history file, without and with --out.
expect 1 repro "$dir/td/history.bin" --quiet
mapfile -t printed < <(lines "$dir/out")
replay "$(oracle_of "$dir/out")" "${printed[@]}"
expect 1 repro "$dir/td/history.bin" --quiet --out "$dir/again-td"
mapfile -t printed < <(lines "$dir/out")
[ ${#printed[@]} = 2 ] || { cat "$dir/out"; fail "repro --out printed ${#printed[@]} reproduce lines, not 2"; }
replay "$(oracle_of "$dir/out")" "${printed[@]}"

# suite: its failing run's lines (the suite's own folders).
expect 0 suite --structure heap --out "$dir/suite"
mapfile -t printed < <(lines "$dir/out")
[ ${#printed[@]} = 2 ] || { cat "$dir/out"; fail "suite printed ${#printed[@]} reproduce lines, not 2"; }
replay "$(oracle_of "$dir/out")" "${printed[@]}"

# score: each caught mutant's first seed, caught by an oracle of its row.
expect 0 score --structure heap --no-shrink
n=0
while IFS= read -r row; do
  replay "$(sed -n 's/.*, caught by \(.*\) at seed [0-9]*: warpcheck .*/\1/p' <<<"$row")" "${row#*: }"
  n=$((n + 1))
done < <(grep '^reproduce heap ' "$dir/out")
[ $n -ge 8 ] || { cat "$dir/out"; fail "score printed $n reproduce lines for the heap's 8 caught rows"; }

# campaign: every failing run's replay line in report.md.
expect 1 campaign --structure heap --variant td --seeds 12 --shards 2 --local 2 --out "$dir/campaign" --quiet
mapfile -t printed < <(grep -o '`warpcheck repro [^`]*`' "$dir/campaign/report.md" | tr -d '`')
[ ${#printed[@]} -ge 1 ] || { cat "$dir/campaign/report.md"; fail "campaign listed no replay line"; }
for line in "${printed[@]}"; do
  seed=$(awk '{print $3}' <<<"$line")
  [ -s "$dir/campaign/histories/seed-$seed-FAILED.bin" ] || [ -s "$dir/campaign/histories/seed-$seed-VIOLATION.bin" ] ||
    { ls "$dir/campaign/histories"; fail "campaign kept no history of seed $seed"; }
  h=$(ls "$dir"/campaign/histories/seed-"$seed"-*.bin | head -1)
  "$w" check "$h" >"$dir/recorded" 2>&1
  recorded=$(sed -n 's/^RUN FAILED: \([^:]*\):.*/\1/p; s/^VIOLATION:.*/checker/p' "$dir/recorded" | head -1)
  replay "$recorded" "$line"
done

echo "reproduce lines: $ran printed lines run as printed, each failing at its seed by its oracle"
