#!/usr/bin/env bash
# The mutation score on the simulator: for every planted bug, how many of
# SEEDS seeds catch it, which oracle caught the first (checker, invariant,
# shadow state, deadlock detector), and how small the shrunk workload and
# counterexample are. Prints a markdown table.
# Usage: tools/mutation_score.sh [SEEDS=200] [WARPCHECK=build/tools/warpcheck]
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seeds=${1:-200}
warpcheck=${2:-build/tools/warpcheck}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

row() {  # row STRUCTURE MODE|VARIANT MUTANT [MORE STRESS OPTIONS...]
  local structure=$1 mode=$2 mutant=$3 args
  shift 3
  args=(--structure "$structure" --mutant "$mutant" --backend sim --quiet "$@")
  if [ "$structure" = heap ]; then args+=(--variant "$mode"); elif [ "$mode" != - ]; then args+=(--mode "$mode"); fi
  "$warpcheck" stress "${args[@]}" --seeds "$seeds" --keep-going --no-shrink > "$tmp/all" 2>&1
  local caught first oracle shrunk cx
  caught=$(awk -F'|' '/^\| [0-9]/ {print $9}' "$tmp/all" | tr -d ' ')  # failing runs
  first=$(sed -n 's/^FAILED at seed \([0-9]*\).*/\1/p' "$tmp/all")
  "$warpcheck" stress "${args[@]}" --seeds "$seeds" > "$tmp/one" 2>&1
  case "$(grep -m1 '^FAILED' "$tmp/one")" in
    *VIOLATION*) oracle=checker ;;
    *"invariant broken"*) oracle=invariant ;;
    *shadow-state*) oracle="shadow state" ;;
    *"spin bound"*) oracle="deadlock detector" ;;
    *"lane error"*) oracle="structure check" ;;
    *) oracle="-" ;;
  esac
  shrunk=$(sed -n 's/^shrunk the failing workload: \([0-9]*\) of \([0-9]*\) operations.*/\1 of \2/p' "$tmp/one")
  cx=$(sed -n 's/^counterexample: \([0-9]*\) operation.*/\1/p' "$tmp/one" | head -1)
  echo "| $structure | $mode | $mutant | $oracle | ${caught:-0} / $seeds | ${first:--} | ${shrunk:--} | ${cx:--} |"
}

echo "| structure | mode | mutant | first caught by | seeds that catch it | first seed | shrunk workload (ops) | counterexample (ops) |"
echo "|---|---|---|---|---|---|---|---|"
for m in slab_local_uniqueness torn_read link_leak link_free_winner no_reread_after_failed_cas; do row slabhash map $m; done
for m in delete_by_exchange torn_read link_leak link_free_winner; do row slabhash multimap $m; done
row slabhash multimap unguarded_absent --scheduler pct
for m in unlocked_contains keep_lock_on_miss; do row sorted-set - $m; done
for m in early_root_release skip_partial_merge no_marked_wait; do row heap td-fixed $m; done
for m in early_root_release skip_partial_merge; do row heap bu-fixed $m; done
row heap bu-fixed ignore_parked_parent --block 1 --k 2 --ops-per-team 6 --teams 4 --mix insert=70,delete=30 --prefill 3
