#!/usr/bin/env bash
# Checks what bench/clients/run_corpus.sh brought back from the GPU
# machine, here (no GPU needed): every kept history again with warpcheck
# check, and prints the corpus's table (markdown): a row of runs.txt a
# line, with its contract, contention, operations, verdicts, check time
# and counterexample size; then every kept VIOLATION with its
# counterexample, as `warpcheck check` prints it.
#   bash bench/clients/check_corpus.sh DIR [WARPCHECK]   (DIR holds results.jsonl, histories.tar.xz.part-*)
# With NO_RECHECK=1 only the table, from results.jsonl (run_corpus.sh
# prints it so on the GPU machine).
set -euo pipefail
dir=${1:?usage: check_corpus.sh DIR [WARPCHECK]}
wc=${2:-build-cpu/tools/warpcheck}
command -v python3 >/dev/null || { echo "check_corpus.sh: python3 is needed (it reads results.jsonl)" >&2; exit 2; }
[ -x "$wc" ] || { echo "check_corpus.sh: $wc is not a program (build warpcheck, or name it)" >&2; exit 2; }
[ -f "$dir/results.jsonl" ] || { echo "check_corpus.sh: $dir/results.jsonl missing" >&2; exit 2; }
recheck="$dir/recheck.jsonl"
: > "$recheck"
if [ -z "${NO_RECHECK:-}" ]; then
rm -rf "$dir/histories"
mkdir -p "$dir/histories"
if compgen -G "$dir/histories.tar.xz.part-*" >/dev/null && ! command -v xz >/dev/null; then
  echo "check_corpus.sh: the histories are xz-compressed and xz is not installed" >&2
  exit 2
fi
if compgen -G "$dir/histories.tar.xz.part-*" >/dev/null; then cat "$dir"/histories.tar.xz.part-* | tar -xJf - -C "$dir/histories"; fi
if compgen -G "$dir/histories.tar.gz.part-*" >/dev/null; then cat "$dir"/histories.tar.gz.part-* | tar -xzf - -C "$dir/histories"; fi
for f in "$dir"/histories/*.bin; do
  [ -e "$f" ] || continue
  start=$(date +%s%N)
  json=$("$wc" check "$f" --json --quiet --timeout 240 2>/dev/null) || true
  ms=$((($(date +%s%N) - start) / 1000000))
  printf '{"file":"%s","wall_ms":%d,"check":%s}\n' "$(basename "$f")" "$ms" "${json:-null}" >> "$recheck"
done
fi
python3 - "$dir/results.jsonl" "$recheck" <<'PY'
import json, sys, re, statistics
runs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
rechecks = {}
for l in open(sys.argv[2]):
    if l.strip():
        r = json.loads(l)
        rechecks[r["file"]] = r
def opt(args, name, default):
    m = re.search(r"%s (\S+)" % re.escape(name), args)
    return m.group(1) if m else default
rows = {}
for r in runs:
    rows.setdefault(r["row"], []).append(r)
print("| client | contract | mix | keys | blocks x threads | seeds | operations a run | verdicts (GPU machine) | check s (max) | counterexample ops | smallest failing launch |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for row, rs in sorted(rows.items()):
    first = rs[0]
    args = first["args"]
    shrunk = [r for r in rs if r.get("kind") == "shrink"]
    first_failing = next((r["verdict"] for r in rs if r.get("kind") != "shrink" and r["verdict"] != "LINEARIZABLE"), None)
    plain = [r for r in rs if r not in shrunk]
    verdicts = {}
    for r in plain:
        verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
    ops = [r["run"]["operations"] for r in plain if isinstance(r.get("run"), dict) and "operations" in r["run"]]
    secs = [r["check"]["seconds"] for r in plain if isinstance(r.get("check"), dict) and "seconds" in r["check"]]
    cex = [r["check"]["counterexample_ops"] for r in rs if first_failing == "VIOLATION"
           and isinstance(r.get("check"), dict) and "counterexample_ops" in r["check"]]
    blocks, threads = int(opt(args, "--blocks", 64)), int(opt(args, "--threads", 128))
    teams = "%d x %d" % (blocks, threads) if "bulk" not in args else "bulk %s" % opt(args, "--bulk-size", 16384)
    small = ""
    failing_shrunk = [r for r in shrunk if r["verdict"] == first_failing]
    if failing_shrunk:
        s = failing_shrunk[-1]
        small = "%s (seed %d)%s" % (s["args"], s["seed"], ": hangs" if s["verdict"] == "HANG" else "")
    print("| %s | %s | %s | %s | %s | %d | %s | %s | %s | %s | %s |" % (
        first["client"], first["contract"], ("(phases)" if "phases" in args else "(bulk)" if "bulk" in args else opt(args, "--mix", "insert=40,erase=20,find=40")),
        opt(args, "--keys", 64), teams, len(plain),
        ("%d" % statistics.median(ops)) if ops else "-",
        ", ".join("%s %d" % kv for kv in sorted(verdicts.items())),
        ("%.3f" % max(secs)) if secs else "-", (str(min(cex))) if cex else "-", small))
disagree = []
for f, r in rechecks.items():
    here = (r.get("check") or {}).get("verdict")
    there = [x for x in runs if ((x.get("run") or {}).get("history") or "").endswith(f)]
    if there and there[0]["verdict"] != (here or "UNKNOWN"):
        disagree.append((f, there[0]["verdict"], here))
if not rechecks:
    sys.exit()
print()
print("Kept histories re-checked here: %d; verdicts differing from the GPU machine's: %d" % (len(rechecks), len(disagree)))
for d in disagree:
    print("  %s: there %s, here %s" % d)
sys.exit(1 if disagree else 0)
PY
