#!/usr/bin/env bash
# Issue 31: the schedulers side by side on the whole mutation table. Runs
# `warpcheck score --seeds N --no-shrink` once as declared and once under
# each scheduler given (--scheduler S replaces every run's own), one after
# another, and joins the rows: for each mutant and run, the first seed
# that catches it (seeds start at 1) and how many of the N seeds do, then
# the totals (mutants caught, median seeds to the first catch).
# Usage: [JOBS=N] bench/scheduler_compare.sh WARPCHECK SEEDS OUTDIR [SCHEDULER...]
# (JOBS: that many scores at once, one a column and structure; default 1)
# (default schedulers: random pct targeted pos; one with options of its own
# is one argument, 'pos --pos-unit lane'). OUTDIR keeps each score's own
# table (OUTDIR/S.md, spaces as _) and the joined one (OUTDIR/compare.md).
set -u
wc=$1
seeds=$2
out=$3
shift 3
schedulers=("$@")
[ ${#schedulers[@]} -gt 0 ] || schedulers=(random pct targeted pos)
mkdir -p "$out"
columns=(declared "${schedulers[@]}")
# One score: a column (declared, or a scheduler), all structures or one.
score() {  # COLUMN [STRUCTURE]
  local args=(score --seeds "$seeds" --no-shrink)
  [ "$1" = declared ] || args+=(--scheduler "$1")
  [ -n "${2:-}" ] && args+=(--structure "$2")
  nice "$wc" "${args[@]}" 2>&1
}
if [ "${JOBS:-1}" -gt 1 ]; then
  # JOBS processes at once, one a (column, structure); each column's
  # structures joined in the registry's order (warpcheck stress --help).
  structures=$("$wc" stress --help | sed -n 's/^structures: \(.*\) (default.*/\1/p' | tr -d ,)
  start=$(date +%s)
  running=0
  for s in "${columns[@]}"; do
    for st in $structures; do
      score "$s" "$st" > "$out/part.${s// /_}.$st.md" &
      running=$((running + 1))
      if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
    done
  done
  wait
  for s in "${columns[@]}"; do
    for st in $structures; do cat "$out/part.${s// /_}.$st.md"; done > "$out/${s// /_}.md"
  done
  rm -f "$out"/part.*.md
  echo "all columns, $JOBS at once: $(( $(date +%s) - start )) s" >> "$out/times.txt"
else
  for s in "${columns[@]}"; do
    start=$(date +%s)
    score "$s" > "$out/${s// /_}.md"
    echo "$s: $(( $(date +%s) - start )) s" >> "$out/times.txt"
  done
fi
files=()
for s in "${columns[@]}"; do files+=("$out/${s// /_}.md"); done
# Rows "| structure | run | mutant | expected | first caught by | caught / seeds | first seed | ...": the
# run without the "(declared ..., run under ...)" note is the key.
names=$(printf '%s;' "${columns[@]}")
awk -F' \\| ' -v cols="${names%;}" '
  BEGIN { n = split(cols, name, ";") }
  FNR == 1 { file++ }
  /^\| [a-z]/ && $5 !~ /^awaits/ && $1 != "| structure" {
    run = $2; sub(/ \(declared [a-z]+, run under [^)]+\)$/, "", run)
    if (match(run, /--fixes [^ ]+/)) {  # a long list of fixes, counted
      k = split(substr(run, RSTART + 8, RLENGTH - 8), parts, ",")
      run = substr(run, 1, RSTART - 1) "--fixes (" k ")" substr(run, RSTART + RLENGTH)
    }
    key = substr($1, 3) " | " $3 " | " run
    if (!(key in seen)) { seen[key] = 1; order[++rows] = key }
    split($6, c, " / ")
    first[key, file] = $7; caught[key, file] = c[1]
  }
  END {
    printf "| structure | mutant | run |"
    for (i = 1; i <= n; i++) printf " %s: first seed, caught |", name[i]
    printf "\n|---|---|---|"
    for (i = 1; i <= n; i++) printf "---|"
    printf "\n"
    for (r = 1; r <= rows; r++) {
      k = order[r]; printf "| %s |", k
      for (i = 1; i <= n; i++) {
        f = first[k, i]; printf " %s, %s |", (f == "" ? "?" : f), (caught[k, i] == "" ? "?" : caught[k, i])
        if (f != "-" && f != "") { hits[i]++; firsts[i, hits[i]] = f }
      }
      printf "\n"
    }
    printf "| **total** | %d mutant runs | |", rows
    for (i = 1; i <= n; i++) {
      m = hits[i]
      for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) if (firsts[i, b] + 0 < firsts[i, a] + 0) { t = firsts[i, a]; firsts[i, a] = firsts[i, b]; firsts[i, b] = t }
      med = m == 0 ? "-" : (m % 2 ? firsts[i, (m + 1) / 2] : (firsts[i, m / 2] + firsts[i, m / 2 + 1]) / 2)
      printf " %d caught, median first %s |", m, med
    }
    printf "\n"
  }' "${files[@]}" > "$out/compare.md"
