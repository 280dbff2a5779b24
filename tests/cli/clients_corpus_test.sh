#!/usr/bin/env bash
# The client corpus's scripts without a GPU: bench/clients/run_corpus.sh
# over a bundle whose "client" is a stand-in that writes a known-answer
# history (a violation when it runs on 4 blocks or more), then
# bench/clients/check_corpus.sh on what it left. Shown: every seed is run
# and checked, the failing row is shrunk to the smallest launch that still
# fails (4 blocks), kept histories are re-checked with the same verdicts,
# and the table says all of it.
#   bash tests/cli/clients_corpus_test.sh WARPCHECK SOURCE_DIR
set -uo pipefail
w=$(realpath "$1")
src=$(realpath "$2")
dir=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

bundle=$dir/bundle
mkdir -p "$bundle"
cp "$w" "$bundle/warpcheck"
cat > "$bundle/standin_map" <<STANDIN
#!/usr/bin/env bash
# Writes the violating history when --blocks is 4 or more, else the linearizable one.
[ "\$1" = --help ] && { printf '  --blocks     blocks (default 64)\n  --threads    threads (default 128)\n  --ops        operations (default 8)\n'; exit 0; }
blocks=64 out=
while ((\$#)); do case \$1 in --blocks) blocks=\$2 ;; --out) out=\$2 ;; esac; shift 2; done
if ((blocks >= 4)); then cp "$src/tests/data/known/viol_map_insert_if_absent_twice.jsonl" "\$out"
else cp "$src/tests/data/known/lin_map_insert_fails_when_present.jsonl" "\$out"; fi
echo "{\"client\":\"standin_map\",\"operations\":\$(wc -l < "\$out"),\"history\":\"\$out\"}"
STANDIN
chmod +x "$bundle/standin_map"
# A stand-in whose kernel "hangs" (the drivers' exit 5) on 8 blocks or more.
cat > "$bundle/standin_hang" <<'STANDIN'
#!/usr/bin/env bash
[ "$1" = --help ] && { printf '  --blocks     blocks (default 64)\n  --threads    threads (default 128)\n  --ops        operations (default 8)\n'; exit 0; }
blocks=64
while (($#)); do case $1 in --blocks) blocks=$2 ;; esac; shift 2; done
((blocks >= 8)) && { echo '{"client":"standin_hang","hang":"the mix'"'"'s kernel did not finish in 20 s"}'; exit 5; }
exit 2
STANDIN
chmod +x "$bundle/standin_hang"
cat > "$bundle/runs.txt" <<'RUNS'
# client      contract    seeds  arguments
standin_map   documented  3      --shape mix --keys 8 --blocks 2
standin_map   unstated    3      --shape mix --keys 8 --blocks 64 --threads 8 --ops 2
standin_hang  documented  2      --shape mix --blocks 64 --threads 8 --ops 2
RUNS

OUT=$dir/out bash "$src/bench/clients/run_corpus.sh" "$bundle" > "$dir/run.txt" 2>&1 || { cat "$dir/run.txt"; fail "run_corpus.sh failed"; }
grep -q 'row 1 standin_map documented: 0 of 3 seeds not LINEARIZABLE' "$dir/run.txt" || { cat "$dir/run.txt"; fail "row 1 not clean"; }
grep -q 'row 2 standin_map unstated: 3 of 3 seeds not LINEARIZABLE (first seed 1)' "$dir/run.txt" || { cat "$dir/run.txt"; fail "row 2's failures not counted"; }
grep -q 'row 2 shrunk (VIOLATION): .*--blocks 4 --threads 1 --ops 1 --seed 1$' "$dir/run.txt" || { cat "$dir/run.txt"; fail "row 2 not shrunk to 4 blocks, 1 thread, 1 operation"; }
grep -q 'row 3 standin_hang documented: 2 of 2 seeds not LINEARIZABLE (first seed 1)' "$dir/run.txt" || { cat "$dir/run.txt"; fail "row 3's hangs not counted"; }
grep -q 'row 3 shrunk (HANG): --shape mix --blocks 8 --threads 1 --ops 1 --seed 1$' "$dir/run.txt" || { cat "$dir/run.txt"; fail "row 3's hang not shrunk to 8 blocks"; }
[ "$(grep -c '"verdict":"LINEARIZABLE"' "$dir/out/results.jsonl")" -ge 3 ] || fail "results.jsonl lacks row 1's runs"
grep -q '^| standin_map | unstated | .* | VIOLATION 3 |' "$dir/run.txt" || { cat "$dir/run.txt"; fail "run_corpus.sh does not end with the table"; }

bash "$src/bench/clients/check_corpus.sh" "$dir/out" "$w" > "$dir/table.txt" 2>&1 || { cat "$dir/table.txt"; fail "check_corpus.sh failed"; }
grep -q '| standin_map | documented | .* | 8 | 2 x 128 | 3 | .* | LINEARIZABLE 3 |' "$dir/table.txt" || { cat "$dir/table.txt"; fail "row 1's line"; }
grep -q '| standin_map | unstated | .* | VIOLATION 3 | .* | 2 | --shape mix --keys 8 --blocks 4 --threads 1 --ops 1 (seed 1) |' "$dir/table.txt" ||
  { cat "$dir/table.txt"; fail "row 2's line (violations, counterexample of 2 operations, the smallest launch)"; }
grep -q '| standin_hang | documented | .* | HANG 2 | .* | --shape mix --blocks 8 --threads 1 --ops 1 (seed 1): hangs |' "$dir/table.txt" ||
  { cat "$dir/table.txt"; fail "row 3's line (hangs, the smallest launch that hangs)"; }
grep -q "verdicts differing from the GPU machine's: 0" "$dir/table.txt" || { cat "$dir/table.txt"; fail "re-check disagrees"; }
# The parts are xz where xz is installed, gzip otherwise (run_corpus.sh).
if compgen -G "$dir/out/histories.tar.xz.part-*" >/dev/null; then
  kept=$(cat "$dir"/out/histories.tar.xz.part-* | tar -tJf - | grep -c '\.bin$')
else
  kept=$(cat "$dir"/out/histories.tar.gz.part-* | tar -tzf - | grep -c '\.bin$')
fi
[ "$kept" = 4 ] || fail "kept $kept histories, expected 4 (row 1's first seed, row 2's first two failing seeds, its shrunk launch)"
# A driver that fails (exit 2) is an ERROR, said in the results with its
# message, and the run exits 1.
printf '#!/usr/bin/env bash\necho "standin_broken: no CUDA device" >&2\nexit 2\n' > "$bundle/standin_broken"
chmod +x "$bundle/standin_broken"
printf 'standin_broken documented 2 --shape mix\n' > "$dir/broken_runs.txt"
OUT=$dir/broken RUNS=$dir/broken_runs.txt bash "$src/bench/clients/run_corpus.sh" "$bundle" > "$dir/broken.txt" 2>&1
[ $? = 1 ] || { cat "$dir/broken.txt"; fail "a failing driver did not make run_corpus.sh exit 1"; }
grep -q '"verdict":"ERROR".*"error":"driver exit 2: standin_broken: no CUDA device' "$dir/broken/results.jsonl" ||
  { cat "$dir/broken/results.jsonl"; fail "the driver's failure is not in the results"; }
echo "clients corpus scripts: ok"
