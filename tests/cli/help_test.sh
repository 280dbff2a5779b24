#!/usr/bin/env bash
# Every warpcheck command's --help against its parser: both read one
# declaration, so each option the help shows is taken and nothing else is.
# Usage: help_test.sh WARPCHECK
set -uo pipefail
w=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=expect.sh
source "$(dirname "$0")/expect.sh"

# Every command answers --help (exit 0) from the declarations its parser
# reads: each option it shows is one it takes (given with a value where it
# shows one, and then an unknown option, the line is refused for that one:
# exit 3 and no word against the option shown), and an unknown one is
# refused with exit 3. The commands are those the top-level help lists.
expect 0 --help
commands=$(sed -n 's/^  \([a-z-]*\) .*/\1/p' "$dir/out")
[ "$(echo "$commands" | wc -w)" -ge 10 ] || { cat "$dir/out"; fail "warpcheck --help lists too few commands"; }
structures=$(sed -n 's/^structures: \([^(]*\) (default.*/\1/p' <("$w" stress --help) | tr -d ,)
[ -n "$structures" ] || fail "stress --help names no structures"
help_matches_parser() {  # COMMAND [--structure S]
  local c=$1 o; shift
  expect 0 "$c" "$@" --help
  grep -q "^usage: warpcheck $c\|^       warpcheck $c " "$dir/out" || { cat "$dir/out"; fail "$c --help"; }
  local valued flags
  valued=$(sed -n 's/^  --\([a-z0-9-]*\) [^ ].*/\1/p' "$dir/out" | sort -u)
  flags=$(sed -n 's/^  --\([a-z0-9-]*\)\( *\|  .*\)$/\1/p' "$dir/out" | grep -vx help | sort -u)
  [ -n "$valued$flags" ] || fail "$c --help lists no option"
  for o in $valued; do
    "$w" "$c" "$@" "--$o=x" --zzz-unknown > "$dir/o" 2>&1; rc=$?
    [ $rc = 3 ] && ! grep -q "unknown option .--$o.\|--$o takes no value" "$dir/o" || { cat "$dir/o"; fail "$c --help shows --$o VALUE, which it does not take ($rc)"; }
  done
  for o in $flags; do
    "$w" "$c" "$@" "--$o" --zzz-unknown > "$dir/o" 2>&1; rc=$?
    [ $rc = 3 ] && ! grep -q "unknown option .--$o.\|--$o needs a value" "$dir/o" || { cat "$dir/o"; fail "$c --help shows the flag --$o, which it does not take ($rc)"; }
  done
  "$w" "$c" "$@" --zzz-unknown > "$dir/o" 2>&1; rc=$?
  [ $rc = 3 ] && grep -q "unknown option .--zzz-unknown." "$dir/o" || { cat "$dir/o"; fail "$c takes an unknown option ($rc)"; }
}
for c in $commands; do
  case $c in
    stress | repro) for s in $structures; do help_matches_parser "$c" --structure "$s"; done ;;
    *) help_matches_parser "$c" ;;
  esac
done
echo "help_test: ok"
