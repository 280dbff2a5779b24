#!/usr/bin/env bash
# Same configuration and seed, same picks: a fingerprint of simulator runs
# under every scheduler, to compare two builds (issue 31: the schedulers
# moved into plug-ins and had to pick exactly as before). For each
# structure, scheduler (random, pct, targeted) and memory model (sc,
# relaxed) it runs `warpcheck stress` over a few seeds with the access
# trace on (WARPCHECK_TRACE: every load, store, read-modify-write and fence
# with its step, lane and value) and prints the hash of the trace and of
# the verdict lines; a few declared mutant runs (failing seeds, shrinking
# off) and a guided repro are hashed the same way.
# Usage: bench/scheduler_identity.sh WARPCHECK [SEEDS] > fingerprints.txt
# then diff two builds' files.
set -u
wc=$1
seeds=${2:-4}
fingerprint() {  # LABEL ARGS...: one line, LABEL and the hashes
  local label=$1
  shift
  local trace verdicts
  trace=$(WARPCHECK_TRACE=1 "$wc" stress --backend sim --seeds "$seeds" --keep-going --no-shrink --quiet "$@" 2>&1 >/dev/null |
    grep '^T ' | sha256sum | cut -c1-16)
  # The outcome: the table's counts (not its rates), the steps, the failing seeds.
  verdicts=$("$wc" stress --backend sim --seeds "$seeds" --keep-going --no-shrink --quiet "$@" 2>/dev/null |
    awk -F'|' '/^\| [0-9]/ {print $2,$3,$4,$5,$6,$7,$8,$9} /^simulator:/ {split($0, w, " "); print w[2]} /^FAILED at seed/ {print}' |
    sha256sum | cut -c1-16)
  echo "$label trace=$trace verdicts=$verdicts"
}
for structure in slab_hash sorted_set heap gfsl stadium; do
  for scheduler in random pct targeted; do
    for memory in sc relaxed; do
      fingerprint "$structure $scheduler $memory" --structure "$structure" --scheduler "$scheduler" --memory-model "$memory"
    done
  done
  fingerprint "$structure pct-depth-2 delays" --structure "$structure" --scheduler pct --pct-depth 2 --delays 0.05
done
# Declared catches: failing runs, their reports and schedules.
fingerprint "slab_hash torn_read targeted" --structure slab_hash --mode map --scheduler targeted --mutant torn_read
fingerprint "heap B3 targeted" --structure heap --variant bu-fixed --block 1 --k 2 --ops-per-team 6 --teams 4 \
  --mix insert=70,delete=30 --prefill 3 --scheduler targeted
fingerprint "heap deep pct" --structure heap --block 1 --k 1 --ops-per-team 4 --prefill 6 --full-batches 1 --scheduler pct \
  --pct-steps 3000
# Guided: failing runs relabeled as GPU histories, reproduced by guided tries.
guided=$("$wc" guided-bench --structure slab_hash --mode map --mutant torn_read --histories 2 --tries 5 --seeds 300 2>&1 |
  grep -E '^\| ([0-9]|guided|unguided)' | sha256sum | cut -c1-16)
guided_trace=$(WARPCHECK_TRACE=1 "$wc" guided-bench --structure slab_hash --mode map --mutant torn_read --histories 2 --tries 5 \
  --seeds 300 2>&1 >/dev/null | grep '^T ' | sha256sum | cut -c1-16)
echo "guided-bench slab_hash torn_read trace=$guided_trace output=$guided"
