#!/usr/bin/env bash
# The whole GPU session in one command, for the device machine: the
# recorder benchmark (timer resolution, recorded runs checked, throughput
# with recording off and on), stress runs of every structure and mutant on
# the GPU, the slab hash benchmark, the SASS of the recorded kernels, and
# compute-sanitizer on a quick run. Writes its logs under $OUT (or ./gpu-out).
#
# The device image has no Boost, GoogleTest or RapidCheck, so the programs
# are built on the development machine (sm_90) and carried in a bundle:
#   bash tools/gpu_run.sh --bundle        # here: build and fill .gpu-bundle/
#   bash tools/gpu_run.sh [SECTION...]    # there: run from .gpu-bundle/
# Sections: sass memcheck stress heapstress sanitize slab heap recorder
# (default: all, in that order).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bundle=.gpu-bundle

if [ "${1:-}" = --bundle ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build build -j"$(nproc)" --target gpu_recorder_bench slab_hash_gpu_bench heap_gpu_bench warpcheck || exit 1
  rm -rf "$bundle" && mkdir -p "$bundle"
  cp build/bench/gpu_recorder_bench build/bench/slab_hash_gpu_bench build/bench/heap_gpu_bench build/tools/warpcheck "$bundle"/
  # Shared libraries the device image may lack (glibc and the driver excepted).
  ldd build/bench/gpu_recorder_bench | awk '/=> \// {print $3}' | grep -E 'boost|gomp|cudart' | xargs -r -I{} cp -L {} "$bundle"/
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

sections=${*:-sass memcheck stress heapstress sanitize slab heap recorder}
want() { [[ " $sections " == *" $1 "* ]]; }

if want sass; then
echo "== SASS of the recorded kernels (one per structure): memory and collective instructions"
for b in gpu_recorder_bench slab_hash_gpu_bench; do cuobjdump -sass "$bundle/$b"; done > "$out/sass.txt" 2>&1
for kernel in sorted_array_set 9slab_hash; do
  echo "-- team_ops_kernel<true, ...$kernel>"
  awk -v k="$kernel" '/Function : / {on = ($0 ~ /team_ops_kernelILb1/ && $0 ~ k)} on' "$out/sass.txt" |
    grep -oE '\b(ATOMG|ATOM|RED|LDG|STG|LD|ST|MEMBAR|FENCE|CCTL|VOTE|SHFL|NANOSLEEP|CS2R|S2UR|WARPSYNC|ERRBAR)[A-Z0-9._]*' |
    sort | uniq -c | sort -rn | head -25 | tee -a "$out/sass_summary.txt"
done

fi

if want memcheck; then
echo "== compute-sanitizer memcheck, quick run (the warp kernel uses no shared memory, so racecheck has nothing to see)"
timeout 240 compute-sanitizer --tool memcheck --error-exitcode 9 "$bundle/gpu_recorder_bench" --quick > "$out/memcheck.txt" 2>&1
echo "memcheck exit $?"; tail -3 "$out/memcheck.txt"

fi

stress() { timeout 120 "$bundle/warpcheck" stress --backend gpu --quiet "$@" 2>&1 | grep -E '^(stress|\| [0-9]|FAILED)' | tee -a "$out/stress.txt"; }
if want stress; then
echo "== stress on the GPU: the correct structures, then each planted bug (mutants: --keep-going)"
stress --structure sorted-set --seeds 300
stress --structure sorted-set --mutant unlocked_contains --seeds 300 --keep-going
for mode in map multimap; do
  stress --structure slabhash --mode $mode --seeds 300
  stress --structure slabhash --mode $mode --teams 512 --keys 1000 --buckets 8 --ops-per-lane 4 --seeds 100
done
for m in slab_local_uniqueness torn_read link_leak link_free_winner no_reread_after_failed_cas; do
  stress --structure slabhash --mode map --mutant $m --seeds 100 --keep-going
done
for m in delete_by_exchange torn_read link_leak link_free_winner unguarded_absent; do
  stress --structure slabhash --mode multimap --mutant $m --seeds 100 --keep-going
done

fi

heap_stress() {
  timeout 150 "$bundle/warpcheck" stress --structure heap --backend gpu --quiet "$@" 2>&1 |
    grep -E '^(stress|\| [0-9]|FAILED|proof)' | tee -a "$out/heap_stress.txt"
}
if want heapstress; then
echo "== heap stress on the GPU: corrected variants, the paper's, and each planted bug (--keep-going)"
[ -n "${HEAP_STRESS_SKIP_CORRECT:-}" ] || for v in td-fixed bu-fixed; do
  heap_stress --variant $v --seeds 200
  heap_stress --variant $v --teams 128 --block 64 --k 32 --ops-per-team 8 --prefill 64 --seeds 50
  heap_stress --variant $v --teams 64 --block 32 --k 8 --ops-per-team 16 --narrow-keys 16 --seeds 50
done
# A deadlocked run waits out its spin bound in every block: few seeds.
for v in td bu; do heap_stress --variant $v --seeds 20 --keep-going; done
for m in early_root_release skip_partial_merge no_marked_wait; do heap_stress --variant td-fixed --mutant $m --seeds 30 --keep-going; done
for m in early_root_release skip_partial_merge ignore_parked_parent; do heap_stress --variant bu-fixed --mutant $m --seeds 30 --keep-going; done

fi

if want sanitize; then
echo "== compute-sanitizer on the heap (shared-memory merges: racecheck and synccheck mean something here)"
for tool in racecheck synccheck memcheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 "$bundle/warpcheck" stress --structure heap --variant td-fixed \
    --backend gpu --teams 8 --block 64 --k 64 --ops-per-team 4 --seeds 2 --quiet > "$out/sanitize_$tool.txt" 2>&1
  echo "$tool exit $?"; tail -2 "$out/sanitize_$tool.txt"
done

fi

if want slab; then
echo "== slab hash benchmark"
timeout 400 "$bundle/slab_hash_gpu_bench" 2>&1 | tee "$out/slab_bench.txt"
echo "slab bench exit ${PIPESTATUS[0]}"

fi

if want heap; then
echo "== heap benchmark"
timeout 540 "$bundle/heap_gpu_bench" ${HEAP_BENCH_ARGS:-} 2>&1 | tee "$out/heap_bench.txt"
echo "heap bench exit ${PIPESTATUS[0]}"

fi

if want recorder; then
echo "== recorder benchmark"
for run in 1; do
  timeout 120 "$bundle/gpu_recorder_bench" 2>&1 | tee "$out/bench$run.txt"
  echo "bench exit ${PIPESTATUS[0]}"
done
fi
