#!/usr/bin/env bash
# Perturbed GPU runs end to end (docs/gpu-perturbation.md): a tiny run of
# each structure under each preset passes (no false alarm), prints its
# slowdown and stores its recipe; the history of a perturbed failure
# replays with the same recipe; the recipe table runs one planted bug.
# Skips (exit 77) where there is no CUDA device.
# Usage: gpu_perturb_test.sh WARPCHECK
set -uo pipefail
w=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

if ! "$w" stress --structure sorted_set --backend gpu --seeds 1 --quiet >"$dir/probe" 2>&1; then
  if grep -q -- "--backend gpu:" "$dir/probe"; then
    echo "SKIP: no CUDA device here ($(grep -o -- '--backend gpu:.*' "$dir/probe" | head -1))"
    exit 77
  fi
  cat "$dir/probe"; fail "an unperturbed GPU run failed"
fi

structures=$("$w" recipes --plan | cut -d' ' -f1)
for s in $structures; do
  for recipe in preset:delays preset:tear preset:hammer preset:storm "p=0.1,delay=fixed:500,at=all,wait=spin,teams=one,hammer=2:evict"; do
    "$w" stress --structure "$s" --backend gpu --teams 8 --seeds 2 --quiet --no-shrink --recipe "$recipe" >"$dir/out" 2>&1
    rc=$?
    # A structure whose default variant is the paper's may fail by its own findings: the run must still end and report.
    grep -q "^recipe: " "$dir/out" || { cat "$dir/out"; fail "$s with $recipe: no recipe line (exit $rc)"; }
    grep -q "^perturbation: kernel time a run" "$dir/out" || { cat "$dir/out"; fail "$s with $recipe: no slowdown line"; }
    echo "$s $recipe: exit $rc, $(grep '^perturbation:' "$dir/out")"
  done
done

# A perturbed failure's history replays with its recipe.
"$w" stress --structure sorted_set --backend gpu --mutant unlocked_contains --recipe preset:tear --seeds 50 --quiet --no-shrink \
  --out "$dir/f" >"$dir/out" 2>&1
if [ -s "$dir/f/history.bin" ]; then
  "$w" repro "$dir/f/history.bin" --times 3 --quiet >"$dir/repro" 2>&1
  grep -q "^recipe: p=0.2,delay=uniform:4000,at=load,split" "$dir/repro" || { cat "$dir/repro"; fail "repro lost the recipe"; }
else
  echo "note: unlocked_contains not caught in 50 perturbed seeds; repro not exercised"
fi

"$w" recipes --structure sorted_set --mutants unlocked_contains --runs 5 --budget 20 --sim-seeds 2 --append "$dir/t" >"$dir/out" 2>&1
[ -s "$dir/t/by_recipe.md" ] && [ -s "$dir/t/by_mutant.md" ] || { cat "$dir/out"; fail "no recipe table"; }
grep -c "unlocked_contains" "$dir/t/by_recipe.md" | grep -q 4 || { cat "$dir/t/by_recipe.md"; fail "not one row a recipe"; }
echo "PASS"
