#!/usr/bin/env bash
# A newcomer's path, end to end, with the commands the README and the guide
# give: a structure's stress suite, keeping its passing histories and
# checking one; a planted bug caught, its failure folder reproduced from
# the history file alone and drawn as HTML (its headline read back in
# headless Chromium where there is one); then bringing their own: the
# package installed and the guide's host-thread program built against it
# from the guide's own text (tests/cli/package_test.sh's cpu part).
# Usage: newcomer_test.sh BUILD_DIR SOURCE_DIR
set -u
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
w=$build/tools/warpcheck
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
# shellcheck source=tests/cli/expect.sh
source "$src/tests/cli/expect.sh"
step() { echo "newcomer: $*"; }

# 1. A suite, every run's history kept; a passing one checked on its own.
expect 0 suite --structure sorted_set --out suite --keep all
kept=$(ls suite/sorted_set_0/seed-*-LINEARIZABLE.bin 2>/dev/null | head -1)
[ -n "$kept" ] || { ls -R suite | head; fail "suite --keep all kept no passing history"; }
expect 0 check "$kept"
grep -q "^LINEARIZABLE: model set, " "$dir/out" || { cat "$dir/out"; fail "the kept history is not LINEARIZABLE"; }
step "suite run, its passing history $kept kept and checked"

# 2. A planted bug (the README's command): caught, its folder written.
expect 1 stress --structure slab_hash --mode map --mutant torn_read --backend sim --seeds 100 --out fail
for f in history.bin report.html workload.txt schedule.txt; do [ -s "fail/$f" ] || fail "the failure folder has no $f"; done
step "planted bug caught at $(sed -n 's/^FAILED at seed \([0-9]*\):.*/\1/p' "$dir/out" | head -1), folder written"

# 3. Reproduced from the history file alone: the same run, the same failure.
expect 1 repro fail/history.bin
grep -q "^reproduced bit for bit" "$dir/out" || { cat "$dir/out"; fail "repro of the history is not bit for bit"; }
grep -q "^the same failure as recorded: checker" "$dir/out" || { cat "$dir/out"; fail "repro did not fail as recorded"; }
step "reproduced from fail/history.bin alone"

# 4. The HTML: the folder's page and a page check draws, headlined by the failure.
expect 1 check fail/history.bin --html page.html
grep -q "^RUN FAILED: checker: VIOLATION" "$dir/out" || { cat "$dir/out"; fail "check does not say what failed"; }
# shellcheck source=tests/cli/browser.sh
source "$src/tests/cli/browser.sh"
if [ -n "$browser" ]; then
  for page in fail/report.html page.html; do
    render "$page" "$page.dom"
    grep -q '<span id="verdict" class="FAILED">RUN FAILED (checker)</span>' "$page.dom" ||
      fail "$page does not headline the failure"
  done
  step "report.html and check --html headline RUN FAILED (checker) in Chromium"
else
  [ -s page.html ] || fail "check --html wrote no page"
  step "pages written (no chromium here to read them back: tools/setup.sh installs it)"
fi

# 5. Bring your own: install, the guide's snippet built against the package and checked.
bash "$src/tests/cli/package_test.sh" "$build" "$src" cpu >"$dir/package.log" 2>&1 || {
  cat "$dir/package.log"
  fail "bringing their own: the package or the guide's program"
}
grep -q "^the guide's host-thread program: 8000 operations recorded, LINEARIZABLE" "$dir/package.log" ||
  { cat "$dir/package.log"; fail "the guide's host-thread program was not run"; }
step "package installed, the guide's host-thread program built against it and checked"
echo "newcomer: the path from the README and the guide holds end to end"
