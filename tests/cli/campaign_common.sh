# Shared by the campaign tests (sourced): the campaign's run, its
# one-process baseline, and how counts are read from a report.
# Needs: w (the warpcheck binary) and dir (a scratch folder).

fail() { echo "FAIL: $*"; exit 1; }

# A planted bug that fails a few percent of the seeds, so that failures and
# their replay lines are merged too; 300 seeds take a few seconds.
run=(--structure slab_hash --mode map --mutant torn_read --backend sim)
seeds=300

# The first table row's first eight cells: runs, operations, the three
# verdicts, faults, invariants broken, failing runs (what must not depend
# on how the seeds were sharded).
counts() { grep -m1 -A2 '^| runs | operations' "$1" | tail -1 | cut -d'|' -f2-9 | tr -d ' '; }

# The counts of one `warpcheck stress` process over the same seeds.
one_process_counts() {
  "$w" stress "${run[@]}" --seeds "$seeds" --keep-going --no-shrink --quiet >"$dir/one.txt" 2>&1
  [ $? = 1 ] || { cat "$dir/one.txt"; fail "the one-process baseline found no failure"; }
  counts "$dir/one.txt"
}

# Every finished shard's result file: name, modification time and inode
# (a rewrite, even of the same bytes, changes the inode: results are renamed into place).
finished_shards() { stat -c '%n %Y %i' "$1"/shards/*.json; }

# The report's failing runs match its count, and the first replay line reproduces its failure.
check_failures_listed() {  # CAMPAIGN_DIR
  local failing listed line seed
  failing=$(counts "$1/report.md" | cut -d'|' -f8)
  listed=$(grep -c '^| [0-9]* | .* | `warpcheck repro ' "$1/report.md")
  [ "$failing" -gt 0 ] && [ "$listed" = "$failing" ] || fail "report.md lists $listed failing runs of $failing"
  line=$(grep -m1 -o '`warpcheck repro [^`]*`' "$1/report.md" | tr -d '`')
  seed=$(awk '{print $3}' <<<"$line")
  # shellcheck disable=SC2086
  "$w" ${line#warpcheck } --no-shrink --quiet >"$dir/replay.txt" 2>&1
  [ $? = 1 ] && grep -q "^FAILED at seed $seed:" "$dir/replay.txt" || { cat "$dir/replay.txt"; fail "the replay line does not reproduce seed $seed"; }
}
