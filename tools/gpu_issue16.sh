#!/usr/bin/env bash
# Issue 16 in one GPU run: this project's slab hash (the earlier benchmark
# binary, the generic driver and the bulk driver, map and multimap,
# recording off, per operation and per warp batch) beside the public
# SlabHash on the same keys, with the ratios and the checks of the
# recorded histories. Writes $OUT/issue16.md (the joined tables) and the
# programs' outputs under $OUT (or ./gpu-out).
#
# Here (no GPU; nvcc, cmake, the fetched public copy):
#   SLABHASH_DIR=.ext/SlabHash bash tools/gpu_issue16.sh --bundle
#     builds slab_hash_gpu_bench (build/), the public comparison
#     (bench/ext/build_slabhash_bench.sh) and the earlier benchmark (from
#     BASE_REV, default: the commit before issue 16's; skipped with
#     BASE_REV=none), and fills build/issue16-bundle/ (ignored: the run
#     must carry it).
# There (the device machine):
#   bash tools/gpu_issue16.sh            # at most about 8 minutes on an H100
#   ISSUE16_QUICK=1 bash tools/gpu_issue16.sh   # 2^16 keys: a smoke test
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bundle=build/issue16-bundle  # build/ is ignored: carry it to the device

if [ "${1:-}" = --bundle ]; then
  dir=${SLABHASH_DIR:-.ext/SlabHash}
  base_rev=${BASE_REV:-150d5b2}
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build build -j"${JOBS:-2}" --target slab_hash_gpu_bench || exit 1
  rm -rf "$bundle" && mkdir -p "$bundle"
  cp build/bench/slab_hash_gpu_bench "$bundle"/ || exit 1
  bash bench/ext/build_slabhash_bench.sh "$dir" "$bundle/slabhash_public_bench" || exit 1
  if [ "$base_rev" != none ]; then
    base=build/base/slab_hash_gpu_bench_base
    if [ ! -x "$base" ]; then
      # The earlier benchmark, built from its own sources (a copy of the
      # revision, not a worktree) in build/base.
      rm -rf build/base/src && mkdir -p build/base/src &&
        git archive "$base_rev" | tar -x -C build/base/src &&
        cmake -S build/base/src -B build/base/build -DCMAKE_BUILD_TYPE=Release -DWARPCHECK_BUILD_TESTS=OFF >/dev/null &&
        cmake --build build/base/build -j"${JOBS:-2}" --target slab_hash_gpu_bench &&
        cp build/base/build/bench/slab_hash_gpu_bench "$base" || exit 1
    fi
    cp "$base" "$bundle"/slab_hash_gpu_bench_base
  fi
  for b in "$bundle"/*bench*; do ldd "$b"; done | awk '/=> \// {print $3}' | grep -E 'boost|gomp|cudart|absl' | sort -u |
    xargs -r -I{} cp -L {} "$bundle"/
  du -sh "$bundle"; ls -la "$bundle"
  exit 0
fi

out=${OUT:-gpu-out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/$bundle${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CUDA_MODULE_LOADING=EAGER
start=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem --format=csv | tee "$out/device.txt"
betas=${ISSUE16_BETAS:-0.2,0.5,1.0,2.0}
n=4194304
[ -n "${ISSUE16_QUICK:-}" ] && n=65536
ours="$bundle/slab_hash_gpu_bench"
common=(--elements "$n" --repeats 5 --warmup 1)
stamp() { echo "[$((SECONDS - start)) s] $*"; }
# The joined tables, rewritten after every step: a run cut short still
# leaves what it measured.
write_md() {
  cat "$out"/ours_off.txt "$out"/ours_batch.txt 2>/dev/null > "$out/ours_all.txt"
  {
    echo "# Issue 16: slab hash vs public SlabHash ($(sed -n 2p "$out/device.txt" 2>/dev/null))"
    echo
    echo "Command: bash tools/gpu_issue16.sh (bundle: SLABHASH_DIR=... bash tools/gpu_issue16.sh --bundle); $n keys;" \
      "medians of 5 tables after a warm-up; CUDA_MODULE_LOADING=EAGER; written at $((SECONDS - start)) s"
    echo
    bash bench/slabhash_compare.sh --join "$out/ours_all.txt" "$out/public.txt" "$out/base.txt"
  } > "$out/issue16.md" 2>&1
}

# A smoke test of every path first (2^16 keys: both drivers, both modes,
# every recording, each history checked): a crash shows here, and the
# larger runs below still run.
stamp "smoke: ours --quick"
timeout 60 "$ours" --quick > "$out/ours_quick.txt" 2>&1
echo "exit $?" >> "$out/ours_quick.txt"; grep -E '^\| (generic|bulk)|ERROR|exit' "$out/ours_quick.txt"

stamp "public SlabHash"
timeout 120 "$bundle/slabhash_public_bench" --elements "$n" --betas "$betas" --repeats 5 > "$out/public.txt" 2>&1
echo "exit $?" >> "$out/public.txt"; grep -E '^\||WRONG|error' "$out/public.txt"

# Round 2 (the slab hash at the public one's speed): a kernel a phase (the
# default, rows with no tag): the searches as read-only launches
# (slab_hash::kReadOnlyLaunch: search code only, plain L1-cacheable loads,
# no multimap guard), the build as an insert-only one (kInsertOnlyLaunch);
# beside round 1's one kernel for every phase (--kernels shared, rows
# tagged kernels=shared), K = 1 and 2, map and multimap, recording off, every
# utilization. Round 1's per-operation recording, free registers, K = 4 and
# 256-thread blocks were measured then and are not run again.
: > "$out/ours_off.txt"
for k in 1 2; do
  for kernels in phase shared; do
    stamp "ours, bulk, K=$k, kernels $kernels, recording off"
    timeout 100 "$ours" "${common[@]}" --betas "$betas" --drivers bulk --modes map,multimap --records off --invariants off \
      --per-lane $k --kernels $kernels >> "$out/ours_off.txt" 2>&1
    echo "exit $?" >> "$out/ours_off.txt"
  done
done
grep -E '^\| bulk|ERROR|exit' "$out/ours_off.txt"
write_md

# Recording per warp batch (K = 2, a kernel a phase), two
# utilizations; each history checked and the table's invariants after it.
: > "$out/ours_batch.txt"
for mode in map multimap; do
  stamp "ours, $mode recorded per warp batch"
  timeout 100 "$ours" "${common[@]}" --betas 0.5,1.0 --drivers bulk --modes $mode --records off,batch --per-lane 2 \
    --invariants on >> "$out/ours_batch.txt" 2>&1
  echo "exit $?" >> "$out/ours_batch.txt"
done
grep -E '^\| bulk|^CHECK|ERROR|exit' "$out/ours_batch.txt"
write_md

# Nsight Compute, when the image has it: the present search of ours (bulk,
# map) and of the public code (searchKey, then searchKeyBulk) at beta 1:
# instructions, memory, occupancy and stall reasons. Divide
# smsp__inst_executed by 2^22 for instructions an operation.
if command -v ncu >/dev/null && [ $((SECONDS - start)) -lt 400 ] && [ -z "${ISSUE16_QUICK:-}" ]; then
  stamp "Nsight Compute"
  sections=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section InstructionStats
    --section MemoryWorkloadAnalysis
    --metrics smsp__inst_executed.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_requests.sum,lts__t_sectors.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_sector_hit_rate.pct,dram__bytes_read.sum)
  # The present search (the second bulk launch: build, then search) of the
  # read-only kernel (K = 1 and 2) and of round 1's (K = 1).
  for v in "phase 1" "phase 2" "shared 1"; do
    set -- $v
    timeout 30 ncu "${sections[@]}" -k regex:bulk_kernel --launch-skip 1 --launch-count 1 \
      "$ours" --elements "$n" --betas 1.0 --drivers bulk --modes map --records off --repeats 1 --warmup 0 --invariants off \
      --kernels "$1" --per-lane "$2" > "$out/ncu_ours_search_$1_k$2.txt" 2>&1
  done
  timeout 40 ncu "${sections[@]}" -k regex:search_table --launch-count 2 \
    "$bundle/slabhash_public_bench" --elements "$n" --betas 1.0 --repeats 1 > "$out/ncu_public_search.txt" 2>&1
  grep -E "smsp__inst_executed.sum|lts__t_|l1tex__t_|L2 Cache Throughput|Registers Per|Achieved Occupancy|Duration" "$out"/ncu_*.txt
fi

# compute-sanitizer on the bulk driver's paths, small.
if command -v compute-sanitizer >/dev/null && [ $((SECONDS - start)) -lt 440 ] && [ -z "${ISSUE16_QUICK:-}" ]; then
  stamp "compute-sanitizer memcheck, bulk driver, 2^16 keys"
  timeout 45 compute-sanitizer --tool memcheck --error-exitcode 9 "$ours" --quick --drivers bulk --modes map,multimap \
    --records off,batch --warmup 0 > "$out/memcheck_bulk.txt" 2>&1
  echo "memcheck exit $?" | tee -a "$out/memcheck_bulk.txt"; tail -2 "$out/memcheck_bulk.txt"
fi

stamp "joining"
write_md
cat "$out/issue16.md"
stamp "done"
