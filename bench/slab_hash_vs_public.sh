#!/usr/bin/env bash
# Issue 16 in one GPU run: this project's slab hash (the earlier benchmark
# binary, the generic driver and the bulk driver, map and multimap,
# recording off, per operation and per warp batch) beside the public
# SlabHash on the same keys, with the ratios and the checks of the
# recorded histories. Writes $OUT/issue16.md (the joined tables) and the
# programs' outputs under $OUT (or ./gpu-out).
#
# Here (no GPU; nvcc, cmake, the fetched public copy):
#   SLAB_HASH_DIR=.ext/SlabHash bash bench/slab_hash_vs_public.sh --bundle
#     builds slab_hash_gpu_bench (build/), the public comparison
#     (bench/ext/slab_hash_public_build.sh) and, with BASE_REV=<commit>, an
#     earlier benchmark binary from that commit (none by default: round 2's
#     serving is measured by this binary's --serve each), and fills
#     build/issue16-bundle/ (ignored: the run must carry it).
# There (the device machine):
#   bash bench/slab_hash_vs_public.sh            # at most about 8 minutes on an H100
#   ISSUE16_QUICK=1 bash bench/slab_hash_vs_public.sh   # 2^16 keys: a smoke test
#   ISSUE16_PROFILE=0 bash bench/slab_hash_vs_public.sh # without Nsight Compute and compute-sanitizer
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bundle=build/issue16-bundle  # build/ is ignored: carry it to the device

if [ "${1:-}" = --bundle ]; then
  dir=${SLAB_HASH_DIR:-.ext/SlabHash}
  base_rev=${BASE_REV:-none}
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build build -j"${JOBS:-2}" --target slab_hash_gpu_bench || exit 1
  rm -rf "$bundle" && mkdir -p "$bundle"
  cp build/bench/slab_hash_gpu_bench "$bundle"/ || exit 1
  bash bench/ext/slab_hash_public_build.sh "$dir" "$bundle/slab_hash_public_bench" || exit 1
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
  bash tools/bundle_libs.sh "$bundle"
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
    echo "Command: bash bench/slab_hash_vs_public.sh (bundle: SLAB_HASH_DIR=... bash bench/slab_hash_vs_public.sh --bundle); $n keys;" \
      "medians of 5 tables after a warm-up; CUDA_MODULE_LOADING=EAGER; written at $((SECONDS - start)) s"
    echo
    bash bench/slab_hash_compare.sh --join "$out/ours_all.txt" "$out/public.txt" "$out/base.txt"
  } > "$out/issue16.md" 2>&1
}

# A smoke test of every path first (2^16 keys: both drivers, both modes,
# every recording, each history checked): a crash shows here, and the
# larger runs below still run.
stamp "smoke: ours --quick"
timeout 60 "$ours" --quick > "$out/ours_quick.txt" 2>&1
echo "exit $?" >> "$out/ours_quick.txt"
timeout 60 "$ours" --quick --drivers bulk --tile 16 >> "$out/ours_quick.txt" 2>&1
echo "exit $?" >> "$out/ours_quick.txt"; grep -E '^\| (generic|bulk)|ERROR|exit' "$out/ours_quick.txt"

stamp "public SlabHash"
timeout 120 "$bundle/slab_hash_public_bench" --elements "$n" --betas "$betas" --repeats 5 > "$out/public.txt" 2>&1
echo "exit $?" >> "$out/public.txt"; grep -E '^\||WRONG|error' "$out/public.txt"

# Round 3: rounds served by tiles (slab_hash::serve_round): of 8 lanes,
# four operations a warp step (the default; K = 1 and 2, and K = 1 with
# the compiler's choice of registers), and of 16, two (--tile 16, rows
# tagged tile=16; K = 1), beside round 2's one operation a warp step
# (--tile none, rows tagged tile=none; K = 1), map and multimap, recording
# off, a kernel a phase, every utilization.
: > "$out/ours_off.txt"
for v in "1 8 32" "2 8 32" "1 8 free" "1 16 32" "1 none 32"; do
  set -- $v
  stamp "ours, bulk, K=$1, tile $2, registers $3, recording off"
  timeout 100 "$ours" "${common[@]}" --betas "$betas" --drivers bulk --modes map,multimap --records off --invariants off \
    --per-lane "$1" --tile "$2" --regs "$3" >> "$out/ours_off.txt" 2>&1
  echo "exit $?" >> "$out/ours_off.txt"
done
# What the multimap's delete guard costs: its mixes without it (the
# fix delete_guard left out; rows tagged guard=off, against the defaults).
stamp "ours, multimap, K=1, tile 8, without the delete guard (measurement only)"
timeout 100 "$ours" "${common[@]}" --betas "$betas" --drivers bulk --modes multimap --records off --invariants off \
  --per-lane 1 --tile 8 --guard off >> "$out/ours_off.txt" 2>&1
echo "exit $?" >> "$out/ours_off.txt"
grep -E '^\| bulk|ERROR|exit' "$out/ours_off.txt"
write_md

# Recording per warp batch (K = 1, tiles of 8 and of 16, a kernel a
# phase), two utilizations; each history checked and the table's
# invariants after it.
: > "$out/ours_batch.txt"
for tile in 8 16; do
  for mode in map multimap; do
    stamp "ours, $mode, tile $tile, recorded per warp batch"
    timeout 100 "$ours" "${common[@]}" --betas 0.5,1.0 --drivers bulk --modes $mode --records off,batch --per-lane 1 \
      --tile $tile --invariants on >> "$out/ours_batch.txt" 2>&1
    echo "exit $?" >> "$out/ours_batch.txt"
  done
done
grep -E '^\| bulk|^CHECK|ERROR|exit' "$out/ours_batch.txt"
write_md

# Nsight Compute, when the image has it: the present search of ours (bulk,
# map) and of the public code (searchKey, then searchKeyBulk) at beta 1:
# instructions, memory, occupancy and stall reasons. Divide
# smsp__inst_executed by 2^22 for instructions an operation.
if command -v ncu >/dev/null && [ $((SECONDS - start)) -lt 400 ] && [ -z "${ISSUE16_QUICK:-}" ] && [ "${ISSUE16_PROFILE:-1}" = 1 ]; then
  stamp "Nsight Compute"
  sections=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section InstructionStats
    --section MemoryWorkloadAnalysis
    --metrics smsp__inst_executed.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_requests.sum,lts__t_sectors.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_sector_hit_rate.pct,dram__bytes_read.sum)
  # The present search (the second bulk launch: build, then search) and
  # the mix .1/.1/.4/.4 (the sixth), K = 1, tiles of 8 and 16.
  for tile in 8 16; do
    for v in "search 1" "mix 5"; do
      set -- $v
      timeout 30 ncu "${sections[@]}" -k regex:bulk_kernel --launch-skip "$2" --launch-count 1 \
        "$ours" --elements "$n" --betas 1.0 --drivers bulk --modes map --records off --repeats 1 --warmup 0 --invariants off \
        --tile "$tile" --per-lane 1 > "$out/ncu_ours_${1}_tile$tile.txt" 2>&1
    done
  done
  timeout 40 ncu "${sections[@]}" -k regex:search_table --launch-count 2 \
    "$bundle/slab_hash_public_bench" --elements "$n" --betas 1.0 --repeats 1 > "$out/ncu_public_search.txt" 2>&1
  timeout 40 ncu "${sections[@]}" -k regex:batched_operations --launch-skip 2 --launch-count 1 \
    "$bundle/slab_hash_public_bench" --elements "$n" --betas 1.0 --repeats 1 > "$out/ncu_public_mix.txt" 2>&1
  grep -E "smsp__inst_executed.sum|L2 Cache Throughput|Registers Per|Achieved Occupancy|Duration|Warp Cycles Per Issued" "$out"/ncu_*.txt
fi

# compute-sanitizer on the bulk driver's paths, small.
if command -v compute-sanitizer >/dev/null && [ $((SECONDS - start)) -lt 440 ] && [ -z "${ISSUE16_QUICK:-}" ] && [ "${ISSUE16_PROFILE:-1}" = 1 ]; then
  stamp "compute-sanitizer memcheck, bulk driver, 2^16 keys"
  timeout 45 compute-sanitizer --tool memcheck --error-exitcode 9 "$ours" --quick --drivers bulk --modes map,multimap \
    --records off,batch --warmup 0 > "$out/memcheck_bulk.txt" 2>&1 &&
    timeout 45 compute-sanitizer --tool memcheck --error-exitcode 9 "$ours" --quick --drivers bulk --modes map,multimap \
      --records off,batch --warmup 0 --tile 16 >> "$out/memcheck_bulk.txt" 2>&1
  echo "memcheck exit $?" | tee -a "$out/memcheck_bulk.txt"; tail -2 "$out/memcheck_bulk.txt"
fi

stamp "joining"
write_md
cat "$out/issue16.md"
# Everything else in one archive (the device tool brings back a few files).
tar -czf "$out/issue16-outputs.tar.gz" -C "$out" --exclude issue16.md --exclude issue16-outputs.tar.gz . 2>/dev/null
stamp "done"
