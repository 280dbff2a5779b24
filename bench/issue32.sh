#!/usr/bin/env bash
# Issue 32 in GPU runs: each structure beside the public code a user would
# pick instead, like for like, each comparison from one run of both
# programs on the same GPU; the public code built from fetched copies in
# .ext/ (never committed): cuCollections and MVGpuBTree by
# bench/clients/fetch.sh, SlabHash (with SlabAlloc in SlabHash/SlabAlloc)
# and GpuBTree cloned by hand, each with a .ext/<name>.source line
# ("url commit date") that the tables quote.
#
# Here (no GPU; nvcc, cmake, the fetched copies in .ext/):
#   bash bench/issue32.sh --bundle
#     builds the four structures' benchmark programs (build/), the public
#     comparisons (bench/ext/*_build.sh) and fills .issue32-bundle/
#     (ignored: a device run must carry it).
# There (the device machine), sections in the order given (default all):
#   OUT=out bash bench/issue32.sh [slab] [heap] [stadium] [gfsl] [gfsl-fresh] [ncu]
#   slab    the slab hash against SlabHash (map: REPLACE vs insertPairUnique;
#           multimap: INSERT vs insertPair), the multimap's guard three ways
#           (fence, acquire loads, none), recorded per warp batch and checked
#   heap    Table 1 at the paper's 2^29 keys (random, no CPU heap)
#   stadium Stadium (in and out of core) beside cuCollections' static_map,
#           device and system scope
#   gfsl    GFSL's thesis table; GFSL in phases beside GpuBTree; MVGpuBTree
#           (its insert an upsert: shown, no ratio), on the thesis' keys
#   gfsl-fresh  every insert a new key: GFSL beside MVGpuBTree (concurrent,
#           where its upsert is an insert) and beside GpuBTree (phases)
#   ncu     Nsight Compute: GFSL's mix at 10K and 1M keys; the slab hash's
#           map mix, ours and the public insertPairUnique kernel; the
#           present finds in core, Stadium's and static_map's
# Writes $OUT/issue32-<section>.md (the joined tables) and
# $OUT/issue32-outputs.tar.gz (every program's output, kept in $WORK,
# default /tmp/issue32-work: the device tool brings back a few files only).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bundle=.issue32-bundle

if [ "${1:-}" = --bundle ]; then
  ext=${EXT:-.ext}
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build build -j"${JOBS:-2}" --target slab_hash_gpu_bench gfsl_gpu_bench stadium_gpu_bench heap_gpu_bench || exit 1
  rm -rf "$bundle" && mkdir -p "$bundle"
  cp build/bench/{slab_hash,gfsl,stadium,heap}_gpu_bench "$bundle"/ || exit 1
  bash bench/ext/slab_hash_public_build.sh "$ext/SlabHash" "$bundle/slab_hash_public_bench" &&
    bash bench/ext/build_cuco_bench.sh "$ext/cuCollections/include" "$bundle/cuco_static_map_gpu_bench" &&
    bash bench/ext/btree_bench_build.sh "$ext/MVGpuBTree" "$ext/GpuBTree" "$bundle/btree_bench" || exit 1
  for f in "$ext"/{SlabHash,cuCollections,MVGpuBTree,GpuBTree}; do  # the public code's commits, for the tables
    echo "$(basename "$f") $(cat "$f.source" 2>/dev/null || echo "unknown: no $f.source")"
  done > "$bundle/sources.txt"
  strip "$bundle"/*_bench  # host symbols only: the device code stays
  bash tools/bundle_libs.sh "$bundle"
  exclude="$(git rev-parse --git-dir)/info/exclude"
  grep -qx "/$bundle/" "$exclude" 2>/dev/null || echo "/$bundle/" >> "$exclude"
  du -sh "$bundle"
  exit 0
fi

dest=${OUT:-gpu-out}
out=${WORK:-/tmp/issue32-work}
mkdir -p "$dest" "$out"
export LD_LIBRARY_PATH="$PWD/$bundle${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CUDA_MODULE_LOADING=EAGER
start=$SECONDS
stamp() { echo "[$((SECONDS - start)) s] $*"; }
run() {  # run LIMIT_S OUTFILE PROGRAM ARGS...: appends, then the exit status
  local limit=$1 file=$2
  shift 2
  timeout "$limit" "$@" >> "$file" 2>&1
  echo "exit $? ($*)" >> "$file"
}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee "$out/device.txt"
cat "$bundle/sources.txt" | tee "$out/sources.txt"
header() { echo "# Issue 32: $1 ($(sed -n 2p "$out/device.txt"))"; echo; echo "Public code: $(tr '\n' ';' < "$out/sources.txt")"; echo; }

slab() {
  local n=4194304 betas=0.2,0.5,1.0,2.0 common=(--elements 4194304 --repeats 5 --warmup 1 --drivers bulk --per-lane 1 --tile 8)
  : > "$out/slab_public.txt"; : > "$out/slab_ours.txt"
  stamp "slab: public SlabHash"
  run 150 "$out/slab_public.txt" "$bundle/slab_hash_public_bench" --elements $n --betas $betas --repeats 5
  stamp "slab: ours, recording off (map, multimap; the multimap's guard by acquire loads, and without it)"
  run 120 "$out/slab_ours.txt" "$bundle/slab_hash_gpu_bench" "${common[@]}" --betas $betas --modes map,multimap --records off --invariants off
  for g in "--guard-order acquire" "--guard off"; do
    # shellcheck disable=SC2086
    run 120 "$out/slab_ours.txt" "$bundle/slab_hash_gpu_bench" "${common[@]}" --betas $betas --modes multimap --records off \
      --invariants off $g
  done
  stamp "slab: recorded per warp batch, each history checked, invariants after"
  for m in "map fence" "multimap fence" "multimap acquire"; do
    set -- $m
    run 150 "$out/slab_ours.txt" "$bundle/slab_hash_gpu_bench" "${common[@]}" --betas 0.5,1.0 --modes "$1" --records off,batch \
      --invariants on --guard-order "$2"
  done
  grep -E "^CHECK|ERROR|^exit" "$out/slab_ours.txt"
  { header "the slab hash against SlabHash"
    echo "Command: OUT=out bash bench/issue32.sh slab; $n keys, medians of 5 tables after a warm-up"
    echo
    bash bench/slab_hash_compare.sh --join "$out/slab_ours.txt" "$out/slab_public.txt"; } > "$out/issue32-slab.md" 2>&1
  # The guard's instructions, fence against acquire (cuobjdump, when the
  # image has it): each bulk kernel's fences, cache controls and global
  # loads by kind.
  if command -v cuobjdump >/dev/null; then
    cuobjdump -sass "$bundle/slab_hash_gpu_bench" 2>&1 | awk '
      /Function :/ { f = $3 }
      f ~ /bulk/ && /MEMBAR|FENCE|CCTL|LDG|LD\.E|ATOM|RED/ { for (i = 1; i <= NF; ++i) if ($i ~ /^(MEMBAR|FENCE|CCTL|LDG|LD|ATOM|ATOMG|RED)/) { sub(/;$/, "", $i); n[f " " $i]++ } }
      END { for (k in n) print n[k], k }' | sort -k2 > "$out/slab_sass_counts.txt"
    wc -l < "$out/slab_sass_counts.txt" | sed 's/^/kernel x instruction kinds counted: /'
  fi
}

heap() {
  stamp "heap: Table 1 at 2^29 random keys"
  : > "$out/heap.txt"
  # HEAP_ARGS: more options (--spin-bound N: starvation or deadlock?)
  # shellcheck disable=SC2086
  run 300 "$out/heap.txt" "$bundle/heap_gpu_bench" --keys 536870912 --table1-only --orders random --cpu off ${HEAP_ARGS:-}
  { header "the heap at 2^29 keys"; cat "$out/heap.txt"; } > "$out/issue32-heap.md"
}

stadium() {
  : > "$out/stadium.txt"; : > "$out/cuco.txt"
  stamp "stadium: in core (rows 1-8) and out of core (33-40), load 0.8, 4- and 8-byte pairs"
  run 200 "$out/stadium.txt" "$bundle/stadium_gpu_bench" --rows 1-8
  run 200 "$out/stadium.txt" "$bundle/stadium_gpu_bench" --rows 33-40
  stamp "stadium: cuCollections' static_map, device and system scope"
  run 200 "$out/cuco.txt" "$bundle/cuco_static_map_gpu_bench"
  { header "Stadium hashing against cuCollections' static_map"; cat "$out/stadium.txt"; echo; cat "$out/cuco.txt"; } > "$out/issue32-stadium.md"
}

# gfsl: the thesis' workload (uniform keys), GFSL's table, then GFSL in
# phases beside GpuBTree, and MVGpuBTree (an upsert: no ratio there);
# gfsl-fresh: every insert a new key, where MVGpuBTree's upsert is
# GFSL's insert, concurrent beside MVGpuBTree and in phases beside GpuBTree.
gfsl_rows() {  # gfsl_rows NAME GFSL_ARGS... -- BTREE_RUNS (each "IMPL [ARGS]")
  local name=$1
  shift
  : > "$out/$name.txt"; : > "$out/$name-btree.txt"
  while [ $# -gt 0 ] && [ "$1" != -- ]; do
    stamp "$name: gfsl_gpu_bench $1"
    # shellcheck disable=SC2086
    run 300 "$out/$name.txt" "$bundle/gfsl_gpu_bench" --ranges 10000,100000,1000000 $1
    shift
  done
  shift
  for b in "$@"; do
    stamp "$name: btree_bench --impls $b"
    # shellcheck disable=SC2086
    run 200 "$out/$name-btree.txt" "$bundle/btree_bench" --ranges 10000,100000,1000000 --impls $b
  done
  { header "GFSL against the public GPU B-Trees ($name)"
    grep -E "^\||^fault|^runs judged|^device|^thesis|^a spin" "$out/$name.txt"; echo
    bash bench/gfsl_vs_btree.sh "$out/$name.txt" -- "$out/$name-btree.txt"; } > "$out/issue32-$name.md" 2>&1
}
gfsl() { gfsl_rows gfsl "" "--off-only --phases" -- gpubtree mvgpubtree; }
gfsl_fresh() {
  gfsl_rows gfsl-fresh "--off-only --fresh-inserts" "--off-only --phases --fresh-inserts" -- \
    "mvgpubtree --fresh-inserts" "gpubtree --fresh-inserts"
}

ncu_section() {
  command -v ncu >/dev/null || { echo "ncu: not in this image"; return; }
  local sections=(--section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis
    --metrics smsp__inst_executed.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,dram__bytes_read.sum,smsp__sass_inst_executed_op_global_atom.sum)
  for range in 10000 1000000; do
    stamp "ncu: GFSL [10,10,80] on $range keys, the mix launch"
    timeout 120 ncu "${sections[@]}" -k regex:team_ops_kernel --launch-skip 1 --launch-count 1 \
      "$bundle/gfsl_gpu_bench" --mixes 10 --ranges $range --off-only > "$out/ncu_gfsl_$range.txt" 2>&1
  done
  # The slab hash's map mix .5/.5/0/0 at beta 1 (the fourth bulk launch:
  # build, two searches, then the mixes), ours against the public
  # insertPairUnique kernel.
  stamp "ncu: the slab hash's map mix .5/.5/0/0, beta 1, ours and the public code's"
  timeout 120 ncu "${sections[@]}" -k regex:bulk_kernel --launch-skip 3 --launch-count 1 "$bundle/slab_hash_gpu_bench" \
    --elements 4194304 --betas 1.0 --drivers bulk --modes map --records off --repeats 1 --warmup 0 --invariants off \
    --tile 8 --per-lane 1 > "$out/ncu_slab_ours_mix.txt" 2>&1
  timeout 120 ncu "${sections[@]}" -k regex:batched_unique --launch-count 1 "$bundle/slab_hash_public_bench" \
    --elements 4194304 --betas 1.0 --repeats 1 > "$out/ncu_slab_public_mix.txt" 2>&1
  # Stadium's present find in core (clStash, 4-byte pairs, load 0.8: row 2's
  # second launch) and static_map's (its first find kernel: the same row).
  stamp "ncu: present finds in core, Stadium (clStash) and static_map"
  timeout 120 ncu "${sections[@]}" -k regex:stadium_ops_kernel --launch-skip 1 --launch-count 1 "$bundle/stadium_gpu_bench" \
    --rows 2-2 > "$out/ncu_stadium_find.txt" 2>&1
  timeout 120 ncu "${sections[@]}" -k regex:find --launch-count 1 "$bundle/cuco_static_map_gpu_bench" > "$out/ncu_cuco_find.txt" 2>&1
  grep -E "smsp__inst_executed.sum|global_atom|lts__t_sectors_op|dram__bytes|Duration|Warp Cycles Per Issued|Achieved Occupancy|L2 Cache Throughput|Registers Per" \
    "$out"/ncu_*.txt
}

sections=("$@")
[ ${#sections[@]} -gt 0 ] || sections=(slab heap stadium gfsl gfsl-fresh ncu)
for s in "${sections[@]}"; do
  case $s in
    slab|heap|stadium|gfsl) $s ;;
    gfsl-fresh) gfsl_fresh ;;
    ncu) ncu_section ;;
    *) echo "unknown section: $s (slab heap stadium gfsl gfsl-fresh ncu)"; exit 2 ;;
  esac
done
cp "$out"/issue32-*.md "$dest"/ 2>/dev/null
cat "$dest"/issue32-*.md 2>/dev/null
tar -czf "$dest/issue32-outputs.tar.gz" -C "$out" . 2>/dev/null
stamp "done"
