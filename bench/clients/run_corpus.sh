#!/usr/bin/env bash
# Runs the client corpus on a GPU machine, from the bundle that
# bench/clients/build.sh filled: every row of runs.txt, seed after seed;
# each history is checked there (warpcheck check) to steer the run, and
# brought back to be checked again here (bench/clients/check_corpus.sh).
# A row's first failing seed is shrunk: the same seed with fewer blocks,
# threads and operations, keeping the smallest launch that still fails.
#   OUT=DIR [RUNS=FILE] [SHRINK_SEEDS=N] bash bench/clients/run_corpus.sh [BUNDLE]
# BUNDLE defaults to .clients-bundle; RUNS to the bundle's runs.txt;
# SHRINK_SEEDS (default 2) is how many seeds a smaller launch gets to fail
# before the shrink stops (raise it for rare failures).
# Writes DIR/results.jsonl (a line a run: the row, seed, launch, driver's
# line, on-device verdict) and DIR/histories.tar.xz.part-* (.gz where xz is missing; parts of 15 MB:
# each row's first seed, its first two failing seeds and its shrunk
# launch; check_corpus.sh joins them).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(realpath -m "${OUT:?set OUT to the folder the results go to}")
runs=$(realpath -m "${RUNS:-${1:-.clients-bundle}/runs.txt}")
bundle=$(cd "${1:-.clients-bundle}" && pwd) || exit 2
[ -r "$runs" ] || { echo "run_corpus: no runs file $runs" >&2; exit 2; }
[ -x "$bundle/warpcheck" ] || { echo "run_corpus: $bundle/warpcheck missing (bench/clients/build.sh fills the bundle)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "run_corpus: python3 is needed (it trims each check to its summary)" >&2; exit 2; }
export LD_LIBRARY_PATH="$bundle${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
work=$(mktemp -d)
keep="$work/keep"
mkdir -p "$keep" "$out"
results="$out/results.jsonl"
: > "$results"
max_seeds=${MAX_SEEDS:-1000}

# One run: run_one ROW SEED FILE ARGS... -> its verdict (LINEARIZABLE,
# VIOLATION, UNKNOWN from warpcheck's exit code; HANG: a kernel outran the
# driver's --deadline; ERROR: the driver failed otherwise).
run_one() {
  local row=$1 seed=$2 file=$3; shift 3
  local line json verdict rc
  # The driver's one JSON line (whatever else it printed is left out).
  timeout 120 "$bundle/$args_client" "$@" --seed "$seed" --out "$file" > "$work/out" 2> "$work/err"
  rc=$?
  line=$(grep '^{' "$work/out" | tail -n 1)
  if [ $rc = 5 ]; then  # the driver's line says which kernel, and after how long
    verdict=HANG
    json=null
    rm -f "$file"
  elif [ $rc -ne 0 ] && [ $rc -ne 3 ]; then  # 3: written, marked incomplete (checked: UNKNOWN)
    verdict=ERROR
    json="{\"error\":\"driver exit $rc: $(head -c 300 "$work/err" | tr -d '"\\' | tr -c '[:print:]' ' ')\"}"
    line=null
  else
    json=$(timeout 300 "$bundle/warpcheck" check "$file" --json --quiet --timeout 240 2>/dev/null)
    case $? in 0) verdict=LINEARIZABLE ;; 1) verdict=VIOLATION ;; *) verdict=UNKNOWN ;; esac
    json=$(printf '%s' "$json" | summary_of_check)
  fi
  printf '{"row":%d,"client":"%s","contract":"%s","kind":"%s","seed":%d,"args":"%s","verdict":"%s","run":%s,"check":%s}\n' \
    "$row" "$args_client" "$args_contract" "$run_kind" "$seed" "$*" "$verdict" "${line:-null}" "${json:-null}" >> "$results"
  echo "$verdict"
}

# What a results line keeps of `warpcheck check --json` (its witness and
# partial linearizations would make the file too large to bring back).
summary_of_check() {
  python3 -c 'import json, sys
try:
    c = json.load(sys.stdin)
except Exception:
    print("null"); sys.exit()
keep = {k: c[k] for k in ("verdict", "operations", "parts", "seconds", "reason") if k in c}
if c.get("counterexample"):
    keep["counterexample_ops"] = len(c["counterexample"].get("ops", []))
print(json.dumps(keep))'
}

# The launch's arguments with one option replaced.
with_option() {
  local name=$1 value=$2; shift 2
  local a=() replaced=0
  while (($#)); do
    if [ "$1" = "$name" ]; then a+=("$1" "$value"); replaced=1; shift 2; else a+=("$1"); shift; fi
  done
  ((replaced)) || a+=("$name" "$value")
  printf '%s\n' "${a[@]}"
}
# An option's default, as the client's --help declares it ("(default N").
default_of() {  # CLIENT NAME
  timeout 20 "$bundle/$1" --help 2>/dev/null | grep -E "^  $2 " | grep -oE 'default [0-9]+' | head -n 1 | cut -d' ' -f2
}
option_value() {  # NAME DEFAULT args...
  local name=$1 def=$2; shift 2
  while (($#)); do [ "$1" = "$name" ] && { echo "$2"; return; }; shift; done
  echo "$def"
}

# What was kept goes back even when the run is cut short (TERM: a timeout;
# bash runs the trap once the run in progress has ended).
pack() {
  trap - TERM
  rm -f "$out"/histories.tar.*.part-*
  if command -v xz >/dev/null; then
    tar -cf - -C "$keep" . | xz -T0 -6 | split -b 15M - "$out/histories.tar.xz.part-"
  else
    tar -czf - -C "$keep" . | split -b 15M - "$out/histories.tar.gz.part-"
  fi
  ls -la "$out"
  rm -rf "$work"
  NO_RECHECK=1 bash "$here/check_corpus.sh" "$out" "$bundle/warpcheck" || true
}
trap 'echo "run_corpus: stopped (TERM) after row $row"; pack; exit 124' TERM

row=0 errors=0
while read -r client contract seeds args; do
  [ -n "$client" ] && [ "${client:0:1}" != "#" ] || continue
  row=$((row + 1))
  args_client=$client args_contract=$contract
  read -r -a argv <<< "$args"
  [[ $seeds =~ ^[1-9][0-9]*$ ]] || { echo "run_corpus: row $row: seeds \"$seeds\" is not a whole number" >&2; exit 2; }
  seeds=$((seeds < max_seeds ? seeds : max_seeds))
  first_fail=0 fails=0 hangs=0 first_verdict= run_kind=seed
  for ((seed = 1; seed <= seeds; seed++)); do
    f="$work/r${row}_${client}_${contract}_s${seed}.bin"
    v=$(run_one "$row" "$seed" "$f" "${argv[@]}")
    [ "$v" != ERROR ] || errors=$((errors + 1))
    if [ "$v" != LINEARIZABLE ]; then
      fails=$((fails + 1))
      ((first_fail)) || { first_fail=$seed; first_verdict=$v; }
    fi
    if ((seed == 1)) || { [ "$v" != LINEARIZABLE ] && ((fails <= 2)); }; then mv "$f" "$keep/" 2>/dev/null; else rm -f "$f"; fi
    [ "$v" = HANG ] && hangs=$((hangs + 1))
    ((hangs < 2)) || { seed=$((seed + 1)); break; }  # a hang costs its deadline: two make the point
  done
  seeds=$((seed - 1))
  echo "row $row $client $contract: $fails of $seeds seeds not LINEARIZABLE$( ((first_fail)) && echo " (first seed $first_fail)")"
  # Shrink the first failing seed's launch (a VIOLATION or a HANG): halve
  # blocks, then threads, then operations, while a smaller launch still
  # fails with the same verdict on the first failing seed or one of the
  # SHRINK_SEEDS - 1 after it (about 16 runs in all; a launch the driver
  # refuses, threads below its tile, ends that option's halving).
  ((first_fail)) || continue
  [ "$first_verdict" = VIOLATION ] || [ "$first_verdict" = HANG ] || continue
  cur=("${argv[@]}") tries=0 run_kind=shrink
  for opt in --blocks --threads --ops; do
    while ((tries < 16)); do
      v0=$(option_value "$opt" "$(default_of "$client" "$opt")" "${cur[@]}")
      [[ $v0 =~ ^[0-9]+$ ]] || { echo "run_corpus: $client --help gives no default for $opt: not shrunk by it" >&2; break; }
      ((v0 > 1)) || break
      next=$((v0 / 2))
      mapfile -t cand < <(with_option "$opt" "$next" "${cur[@]}")
      failed=0
      for ((s = first_fail; s < first_fail + ${SHRINK_SEEDS:-2}; s++)); do
        tries=$((tries + 1))
        f="$work/r${row}_${client}_${contract}_shrink${tries}_s${s}.bin"
        v=$(run_one "$row" "$s" "$f" "${cand[@]}")
        if [ "$v" = "$first_verdict" ]; then failed=1; last_shrunk="$f"; last_launch="${cand[*]} --seed $s"; break; fi
        rm -f "$f"
      done
      ((failed)) || break
      cur=("${cand[@]}")
    done
  done
  if [ -n "${last_shrunk:-}" ]; then
    [ ! -f "$last_shrunk" ] || mv "$last_shrunk" "$keep/"
    echo "row $row shrunk ($first_verdict): $last_launch"
  fi
  unset last_shrunk last_launch
done < "$runs"
pack
# Exit 1 when a driver failed on one of a row's seeds (the table counts
# them as ERROR; a smaller launch a driver refuses while shrinking is not
# a failure).
((errors == 0))
