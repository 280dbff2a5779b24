#!/usr/bin/env bash
# The whole GPU session in one command, for the device machine: the GPU
# recorder benchmark (timer resolution, recorded runs checked, throughput
# with recording off and on), the SASS of the recorded kernel, and
# compute-sanitizer on a quick run. Writes its logs under $OUT (or ./gpu-out).
#
# The device image has no Boost, GoogleTest or RapidCheck, so the programs
# are built on the development machine (sm_90) and carried in a bundle:
#   bash tools/gpu_run.sh --bundle        # here: build and fill .gpu-bundle/
#   bash tools/gpu_run.sh                 # there: run from .gpu-bundle/
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bundle=.gpu-bundle

if [ "${1:-}" = --bundle ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build build -j"$(nproc)" --target gpu_recorder_bench warpcheck || exit 1
  rm -rf "$bundle" && mkdir -p "$bundle"
  cp build/bench/gpu_recorder_bench build/tools/warpcheck "$bundle"/
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

echo "== SASS of the recorded kernel: memory and collective instructions"
cuobjdump -sass "$bundle/gpu_recorder_bench" > "$out/sass.txt" 2>&1
awk '/Function : .*sorted_set_kernelILb1/ {on=1} /Function : / && !/sorted_set_kernelILb1/ {on=0} on' "$out/sass.txt" |
  grep -oE '\b(ATOMG|ATOM|RED|LDG|STG|LD|ST|MEMBAR|FENCE|CCTL|VOTE|SHFL|NANOSLEEP|CS2R|S2UR|WARPSYNC|ERRBAR)[A-Z0-9._]*' |
  sort | uniq -c | sort -rn | tee "$out/sass_summary.txt"

echo "== compute-sanitizer memcheck, quick run (the warp kernel uses no shared memory, so racecheck has nothing to see)"
timeout 240 compute-sanitizer --tool memcheck --error-exitcode 9 "$bundle/gpu_recorder_bench" --quick > "$out/memcheck.txt" 2>&1
echo "memcheck exit $?"; tail -3 "$out/memcheck.txt"

echo "== stress on the GPU: the correct set, then a planted bug"
"$bundle/warpcheck" stress --backend gpu --seeds 300 --quiet 2>&1 | tee "$out/stress.txt"
"$bundle/warpcheck" stress --backend gpu --teams 64 --buckets 4 --keys 64 --ops-per-lane 8 --seeds 100 --quiet 2>&1 | tee -a "$out/stress.txt"
"$bundle/warpcheck" stress --backend gpu --mutant unlocked_contains --seeds 300 --keep-going --quiet 2>&1 | head -5 | tee -a "$out/stress.txt"

echo "== benchmark (twice: the spread between the two is the noise)"
for run in 1 2; do
  "$bundle/gpu_recorder_bench" 2>&1 | tee "$out/bench$run.txt"
  echo "bench exit ${PIPESTATUS[0]}"
done
