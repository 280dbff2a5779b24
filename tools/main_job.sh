#!/usr/bin/env bash
# The main job: every structure's stress suite (on the GPU when there is
# one, on the simulator otherwise), every history checked; planted bugs
# caught and their reproductions printed; then the checker on generated
# histories of the models. Exits non-zero when a verdict is not the
# expected one.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Only the program it runs (the test command builds the rest). Without a
# GPU, in its own folder (build-main/, the test build's configuration
# untouched) and for speed of building: no CUDA back-end (nvcc's minutes
# spared), WARPCHECK_QUICK_BUILD (a unity build at -O1: CMakeLists.txt)
# and Ninja (a library's files start before the libraries it links are
# done). On the 2-core machine that builds in under 2 minutes where a plain
# -O3 build takes 5; its runs are about 10% slower (bench/RESULTS.md, "Build
# and test-phase times", issue 28).
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  bash tools/setup.sh warpcheck >/dev/null
  warpcheck=build/tools/warpcheck
else
  WARPCHECK_BUILD=build-main WARPCHECK_CMAKE_ARGS="-G Ninja -DWARPCHECK_ENABLE_CUDA=OFF -DWARPCHECK_QUICK_BUILD=ON" \
    bash tools/setup.sh warpcheck >/dev/null
  warpcheck=build-main/tools/warpcheck
fi
out=${WARPCHECK_OUT:-$(dirname "$(dirname "$warpcheck")")/main-job}
mkdir -p "$out"

status=0
run() {  # run NAME WANTED_EXIT WARPCHECK_ARGS...
  local name=$1 want=$2
  shift 2
  echo "== $name"
  set +e
  "$warpcheck" "$@"
  local got=$?
  set -e
  if [ $got != "$want" ]; then
    echo "main job: $name: exit $got, expected $want" >&2
    status=1
  fi
}

# Every structure's declared stress suite (the "main" runs of each
# declaration: the correct structures, a planted bug and a finding of the
# paper's pseudocode caught), on the GPU when there is one, else the
# simulator; each run must give its declared exit code.
run "stress suite of every structure" 0 suite --tag main --out "$out/suite"
"$warpcheck" gen --model set --ops 200000 --keys 5000 --overlap 200 --seed 1 --out "$out/set.bin"
run "set, 200k operations" 0 check "$out/set.bin"
"$warpcheck" gen --model map --ops 100000 --keys 64 --overlap 16 --pending 0.001 --seed 2 --out "$out/map.jsonl"
run "map, 100k operations, some pending" 0 check "$out/map.jsonl"
"$warpcheck" gen --model pq --ops 5000 --keys 100000 --overlap 16 --batch 8 --seed 3 --out "$out/pq.bin"
run "priority queue, 5k batched operations" 0 check "$out/pq.bin"
run "a stale read (known violation)" 1 check tests/data/known/viol_set_one_bad_key_among_many.jsonl
echo "main job: histories in $out"
exit $status
