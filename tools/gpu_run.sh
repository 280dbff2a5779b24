#!/usr/bin/env bash
# The whole GPU session in one command, for the device machine: the SASS of
# the recorded kernels, compute-sanitizer, every structure's declared stress
# suite on the GPU (its "main" and "gpu" runs, and its "sanitize" runs
# under compute-sanitizer), the mutation score on the GPU, and every GPU
# benchmark program. Nothing here names a structure: the declarations do.
# Writes its logs under $OUT (or ./gpu-out).
#
# The device image has no Boost, GoogleTest or RapidCheck, so the programs
# are built on the development machine (sm_90) and carried in a bundle:
#   bash tools/gpu_run.sh --bundle        # here: build and fill .gpu-bundle/
#                                         # (with each structure's bench/<structure>_gpu_bundle.sh:
#                                         # its comparisons, when told where a fetched copy is)
#   bash tools/gpu_run.sh [SECTION...]    # there: run from .gpu-bundle/
# Sections: sass memcheck stress contended score sanitize bench examples
# (default: all, in that order), and recipes (only when named: every planted bug under
# perturbation recipes, tools/gpu_mutant_table.sh, about 10 minutes; it
# takes RECIPE_STRUCTURES="s1 s2" to run some structures only).
# GPU_BENCH_ARGS are passed to every benchmark program (so only what all
# take: --quick).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source tools/gpu_rows.sh
bundle=.gpu-bundle

if [ "${1:-}" = --bundle ]; then
  # Only what the bundle carries: warpcheck (with the libraries the package
  # installs) and every GPU benchmark program; the tests are this machine's.
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null || exit 1
  programs=$(cmake --build build --target help | grep -oE '\b[a-z0-9_]+_gpu_bench\b' | sort -u)
  # shellcheck disable=SC2086
  cmake --build build -j"$(nproc)" --target warpcheck $programs || exit 1
  rm -rf "$bundle" && mkdir -p "$bundle"
  cp build/bench/*_gpu_bench build/tools/warpcheck "$bundle"/ 2>/dev/null
  # The drop-in recorder's CUDA example, built as a user builds it: against
  # the installed package.
  prefix=build/gpu-bundle-prefix
  rm -rf "$prefix" build/gpu-bundle-example
  cmake --install build --prefix "$prefix" >/dev/null &&
    cmake -S examples/gpu-queue -B build/gpu-bundle-example -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$PWD/$prefix" \
      -DCMAKE_CUDA_COMPILER="${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}" >/dev/null &&
    cmake --build build/gpu-bundle-example --target gpu_queue >/dev/null &&
    cp build/gpu-bundle-example/gpu_queue "$bundle"/ || exit 1
  # Each structure's programs beyond its benchmark (comparisons with public
  # code, built when a fetched copy is named): its own bench/<structure>_gpu_bundle.sh.
  for s in $(structures build/tools/warpcheck); do
    [ ! -f "bench/${s}_gpu_bundle.sh" ] || bash "bench/${s}_gpu_bundle.sh" "$bundle" || exit 1
  done
  bash tools/bundle_libs.sh "$bundle"  # shared libraries the device image may lack
  exclude="$(git rev-parse --git-dir)/info/exclude"
  mkdir -p "$(dirname "$exclude")"
  grep -qx "/$bundle/" "$exclude" 2>/dev/null || printf '/%s/\n/gpu-out/\n' "$bundle" >> "$exclude"
  ls -la "$bundle"
  exit 0
fi

out=${OUT:-gpu-out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/$bundle${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$out/device.txt"

sections=${*:-sass memcheck stress contended score sanitize bench examples}
want() { [[ " $sections " == *" $1 "* ]]; }

if want sass; then
echo "== SASS of the recorded warp kernels (not perturbing): memory and collective instructions"
for b in "$bundle"/*bench; do cuobjdump -sass "$b"; done > "$out/sass.txt" 2>&1
awk '/Function : / {on = ($0 ~ /team_ops_kernelILb1ELb0E/); if (on) print "-- " $0} on' "$out/sass.txt" |
  grep -oE '^-- .*|\b(ATOMG|ATOM|RED|LDG|STG|LD|ST|MEMBAR|FENCE|CCTL|VOTE|SHFL|NANOSLEEP|CS2R|S2UR|WARPSYNC|ERRBAR)[A-Z0-9._]*' |
  awk '/^-- / {if (n) for (i in c) print "  " c[i], i; delete c; n = 0; print; next} {c[$0]++; n++} END {for (i in c) print "  " c[i], i}' |
  tee "$out/sass_summary.txt"
fi

if want memcheck; then
echo "== compute-sanitizer memcheck on every benchmark's quick run"
for b in "$bundle"/*bench; do
  timeout 240 compute-sanitizer --tool memcheck --error-exitcode 9 "$b" --quick > "$out/memcheck_$(basename "$b").txt" 2>&1
  echo "$(basename "$b"): memcheck exit $?"
done
fi

if want stress; then
echo "== every structure's stress suite on the GPU (main and gpu runs)"
for tag in main gpu; do
  timeout 500 "$bundle/warpcheck" suite --tag $tag --backend gpu 2>&1 | grep -E '^(==|\| |FAILED|suite:)' | tee -a "$out/suite.txt"
done
fi

if want contended; then
echo "== full contention (issue 27): many warps on 4 keys, every history checked; rare planted bugs under it"
timeout 500 "$bundle/warpcheck" suite --tag contended --backend gpu 2>&1 | grep -E '^(==|\| |FAILED|suite:)' | tee "$out/contended.txt"
# The planted bugs (and findings) that were rare catches on the GPU, under
# the same contention: each structure's contended rows.
while IFS='|' read -r structure shape; do
  echo "== $structure $shape" | tee -a "$out/contended.txt"
  timeout 120 "$bundle/warpcheck" stress --structure $structure $shape --backend gpu --keep-going --no-shrink --timeout 20 2>&1 < /dev/null |
    grep -E '^\| ' | tail -n 1 | tee -a "$out/contended.txt"
done < <(structure_rows "$bundle/warpcheck" contended)
fi

if want score; then
echo "== the mutation score on the GPU (100 seeds a planted bug)"
timeout 580 "$bundle/warpcheck" score --backend gpu --seeds ${GPU_SCORE_SEEDS:-100} --no-shrink 2>&1 | tee "$out/score.txt"
fi

if want sanitize; then
echo "== compute-sanitizer on the declared sanitize runs (racecheck and synccheck mean something with shared memory)"
for tool in racecheck synccheck memcheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 "$bundle/warpcheck" suite --tag sanitize --backend gpu \
    > "$out/sanitize_$tool.txt" 2>&1
  echo "$tool exit $?"; tail -2 "$out/sanitize_$tool.txt"
done
fi

if want bench; then
for b in "$bundle"/*bench; do
  echo "== $(basename "$b")"
  timeout 540 "$b" ${GPU_BENCH_ARGS:-} 2>&1 | tee "$out/$(basename "$b").txt"
  echo "$(basename "$b") exit ${PIPESTATUS[0]}"
done
fi

if want recipes; then
echo "== planted bugs under perturbation recipes (docs/gpu-perturbation.md)"
# shellcheck disable=SC2086
OUT="$out" WARPCHECK="$bundle/warpcheck" bash tools/gpu_mutant_table.sh ${RECIPE_STRUCTURES:-}
fi

if want examples; then
echo "== the drop-in recorder's CUDA example (examples/gpu-queue): recording overhead, and its history checked"
for shape in "--blocks 32 --threads 128 --rounds 4" "--blocks 132 --threads 256 --rounds 2" "--blocks 132 --threads 256 --rounds 2 --clock ticket"; do
  # shellcheck disable=SC2086
  timeout 300 "$bundle/gpu_queue" $shape --reps 9 --out "$out/gpu_queue.bin" 2>&1 | tee -a "$out/gpu_queue.txt"
  echo "gpu_queue $shape exit ${PIPESTATUS[0]}" | tee -a "$out/gpu_queue.txt"
  timeout 300 "$bundle/warpcheck" check "$out/gpu_queue.bin" 2>&1 | head -3 | tee -a "$out/gpu_queue.txt"
done
fi
