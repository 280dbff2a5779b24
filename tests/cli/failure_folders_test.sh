#!/usr/bin/env bash
# The failure folders of the paper findings that are not checker
# violations (GFSL's G1, G2, G6; Stadium's S1, S5) and of the zombie
# detector's catch tell the truth on their own: `warpcheck check` on the
# folder's history exits 4 (a run failed) and names the oracle that caught
# it, one of those the finding declares; report.html, rendered in headless
# Chromium, headlines "RUN FAILED (oracle)", never a verdict. Each run is
# the finding's own declared run (`stress --list-mutants`), unshrunk.
# Skips (exit 77) with a message when there is no chromium.
# Usage: failure_folders_test.sh WARPCHECK
set -u
w=$(realpath "$1")
# shellcheck source=tests/cli/browser.sh
source "$(dirname "${BASH_SOURCE[0]}")/browser.sh"
need_browser
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail() {
  echo "FAIL: $*"
  exit 1
}

# folder NAME DECLARED_ORACLES STRESS_ARGS...: runs it into $dir/NAME and checks the folder.
folder() {
  local name=$1 declared=$2 caught recorded headline
  shift 2
  "$w" "$@" --no-shrink --quiet --out "$dir/$name" >"$dir/$name.txt" 2>&1
  [ $? = 1 ] || { cat "$dir/$name.txt"; fail "$name: the run did not fail"; }
  caught=$(sed -n 's/^caught by: //p' "$dir/$name.txt")
  [[ ", $declared, " == *", $caught, "* ]] || fail "$name: caught by '$caught', which it does not declare ($declared)"
  "$w" check "$dir/$name/history.bin" >"$dir/$name.check" 2>&1
  [ $? = 4 ] || { cat "$dir/$name.check"; fail "$name: check of its history did not exit 4"; }
  recorded=$(sed -n '1s/^RUN FAILED: \([^:]*\): .*/\1/p' "$dir/$name.check")
  [ "$recorded" = "$caught" ] || { cat "$dir/$name.check"; fail "$name: check names '$recorded', the run '$caught'"; }
  render "$dir/$name/report.html" "$dir/$name.dom"
  headline=$(grep -o '<span id="verdict" class="[A-Z]*">[^<]*</span>' "$dir/$name.dom")
  [ "$headline" = "<span id=\"verdict\" class=\"FAILED\">RUN FAILED ($caught)</span>" ] ||
    fail "$name: report.html headlines '$headline'"
  echo "ok: $name: caught by $caught; check exits 4 naming it; report.html headlines it"
}

# finding STRUCTURE NAME [ARGS...]: the finding's declared run, its seeds
# and oracles (ARGS added: a deadlock's spin bound lowered, to wait less).
finding() {
  local line run seeds declared
  line=$("$w" stress --structure "$1" --list-mutants | sed -n "s/^  $2 (without [^)]*): warpcheck //p")
  [ -n "$line" ] || fail "$1 declares no finding $2"
  run=${line% (within*}
  seeds=$(sed -n 's/.*(within \([0-9]*\) seeds, .*/\1/p' <<<"$line")
  declared=$(sed -n 's/.*, caught by \(.*\))$/\1/p' <<<"$line")
  local name=$2
  shift 2
  # shellcheck disable=SC2086
  folder "$name" "$declared" $run --seeds "$seeds" "$@"
}

finding gfsl G1_next_chunk_never_unlocked --spin-bound 2000
finding gfsl G2_delete_keeps_bottom_lock --spin-bound 2000
finding gfsl G6_raised_key_deleted_meanwhile
finding stadium S1_failed_reservation_clears_access_bit --spin-bound 2000
finding stadium S5_clstash_push_overwrites_queued_jobs
# The zombie detector's catch: a lateral step that does not skip a zombie
# (the run of the structure tests' TheZombieDetectorNamesTheChunkAndBothEvents).
folder zombie "zombie detector" stress --structure gfsl --variant paper --fixes \
  unlock_next_after_split,unlock_on_vanished_key,reread_next_after_split,raise_locked_key,zombie_stays_locked,sync_lanes_between_writes,acquire_reads,release_writes,down_ptr_to_found_chunk,unlock_last_chunk \
  --chunk 16 --keys 30 \
  --ops-per-lane 4 --teams 4 --mix insert=40,erase=30,contains=30 --mutant no_zombie_skip --seeds 200
grep -q "a zombie" "$dir/zombie.check" || { cat "$dir/zombie.check"; fail "zombie: the record does not say zombie"; }
echo "failure folders: 6 of 6 tell their failure on their own"
