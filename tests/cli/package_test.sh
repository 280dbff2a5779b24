#!/usr/bin/env bash
# The installable package as a user meets it: `cmake --install` into a
# temporary prefix, then the examples (examples/), each its own CMake
# project, configured and built out of tree against that prefix alone.
#
#   package_test.sh BUILD_DIR SOURCE_DIR cpu
#     the layout (headers, libraries, warpcheck, the CMake configuration and
#     its version file); the simulator example (examples/treiber-sim) proves
#     the correct stack on 20 seeds, catches its planted bug, replays it
#     from its seed and its schedule, and the installed warpcheck agrees on
#     the history it wrote; the drop-in recorder's host path
#     (examples/gpu-queue's host_queue) writes a history that warpcheck
#     check proves, and with too small buffers one marked incomplete
#     (UNKNOWN, with the size that holds it); bad settings are refused.
#   package_test.sh BUILD_DIR SOURCE_DIR cuda
#     the CUDA example (examples/gpu-queue's gpu_queue) built with nvcc for
#     sm_90, and run where there is a GPU (its history then checked).
#     Exits 77 (skipped) where there is no nvcc.
set -u
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) part=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1  # whatever a program writes by default lands here
fail() {
  echo "FAIL: $*"
  exit 1
}
started=$SECONDS

# expect WANTED_EXIT LOG -- COMMAND...: runs it, its output in LOG (and
# shown when it fails).
expect() {
  local want=$1 log=$2
  shift 3
  "$@" >"$log" 2>&1
  local got=$?
  if [ "$got" != "$want" ]; then
    cat "$log"
    fail "$* exited $got, expected $want"
  fi
}
# has LOG TEXT: the output holds TEXT.
has() {
  grep -qF -- "$2" "$1" || {
    cat "$1"
    fail "$(basename "$1"): no \"$2\""
  }
}

nvcc=""
if [ "$part" = cuda ]; then
  for c in "${CUDACXX:-}" "$(command -v nvcc 2>/dev/null)" /usr/local/cuda/bin/nvcc; do
    if [ -n "$c" ] && [ -x "$c" ]; then
      nvcc=$c
      break
    fi
  done
  if [ -z "$nvcc" ]; then
    echo "SKIPPED: the CUDA example (no nvcc: neither CUDACXX, PATH nor /usr/local/cuda/bin has one)"
    exit 77
  fi
fi

prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || {
  cat "$tmp/install.log"
  fail "cmake --install $build (is everything built?)"
}
wc=$prefix/bin/warpcheck
[ -x "$wc" ] || fail "no bin/warpcheck in the prefix"
for h in record.cuh recorded_history.hpp checker.hpp team.hpp; do
  [ -f "$prefix/include/warpcheck/$h" ] || fail "no include/warpcheck/$h in the prefix"
done
config_dir=$(dirname "$(find "$prefix" -name warpcheckConfig.cmake | head -1)")
[ -f "$config_dir/warpcheckConfigVersion.cmake" ] || fail "no warpcheckConfigVersion.cmake beside warpcheckConfig.cmake"
for lib in recorder linearizability sim; do
  [ -n "$(find "$prefix" -name "libwarpcheck_$lib.a")" ] || fail "no libwarpcheck_$lib.a in the prefix"
done
# The version file: 0.1 is this package; a later minor or major is not.
mkdir -p "$tmp/version"
cat >"$tmp/version/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.24)
project(version_check LANGUAGES CXX)
foreach(wanted 0.2 1.0)
  find_package(warpcheck ${wanted} CONFIG QUIET)
  if(warpcheck_FOUND)
    message(FATAL_ERROR "warpcheck ${warpcheck_VERSION} accepted for ${wanted}")
  endif()
endforeach()
find_package(warpcheck 0.1 CONFIG REQUIRED)
CMAKE
expect 0 "$tmp/version.log" -- cmake -S "$tmp/version" -B "$tmp/version/build" -DCMAKE_PREFIX_PATH="$prefix"
grep -q 'set(PACKAGE_VERSION "0.1' "$config_dir/warpcheckConfigVersion.cmake" || fail "the version file is not 0.1.x"
echo "installed: $(find "$prefix" -type f | wc -l) files in $prefix, version 0.1 ($((SECONDS - started)) s)"

# Small and quick: the examples are tiny, -O1 is plenty to run them here.
common=(-DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1)

if [ "$part" = cuda ]; then
  expect 0 "$tmp/configure.log" -- cmake -S "$src/examples/gpu-queue" -B "$tmp/gpu-queue" "${common[@]}" \
    -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=90
  has "$tmp/configure.log" "Build files have been written"
  expect 0 "$tmp/build.log" -- cmake --build "$tmp/gpu-queue" --target gpu_queue
  echo "gpu_queue: built with $nvcc for sm_90 ($((SECONDS - started)) s)"
  "$tmp/gpu-queue/gpu_queue" --blocks 8 --threads 64 --rounds 2 --reps 1 --out "$tmp/gpu.bin" >"$tmp/gpu.log" 2>&1
  got=$?
  if [ $got = 77 ]; then
    echo "gpu_queue: run SKIPPED ($(head -1 "$tmp/gpu.log")); the build above passed"
  else
    [ $got = 0 ] || {
      cat "$tmp/gpu.log"
      fail "gpu_queue exited $got"
    }
    has "$tmp/gpu.log" "recording overhead:"
    expect 0 "$tmp/gpu_check.log" -- "$wc" check "$tmp/gpu.bin"
    has "$tmp/gpu_check.log" "LINEARIZABLE"
    cat "$tmp/gpu.log"
    echo "gpu_queue: ran; its history is LINEARIZABLE"
  fi
  echo "package (CUDA example): passed in $((SECONDS - started)) s"
  exit 0
fi

# Both projects configured and built side by side. No CUDA here: the CUDA
# part of examples/gpu-queue is the cuda test's.
(cmake -S "$src/examples/treiber-sim" -B "$tmp/treiber-sim" "${common[@]}" &&
  cmake --build "$tmp/treiber-sim") >"$tmp/treiber_build.log" 2>&1 &
treiber_build=$!
(cmake -S "$src/examples/gpu-queue" -B "$tmp/gpu-queue" "${common[@]}" -DCMAKE_CUDA_COMPILER=NOTFOUND &&
  cmake --build "$tmp/gpu-queue" --target host_queue) >"$tmp/queue_build.log" 2>&1
queue_status=$?
wait $treiber_build
treiber_status=$?
[ $queue_status = 0 ] || {
  cat "$tmp/queue_build.log"
  fail "examples/gpu-queue (host_queue) did not configure and build against the package"
}
[ $treiber_status = 0 ] || {
  cat "$tmp/treiber_build.log"
  fail "examples/treiber-sim did not configure and build against the package"
}
echo "examples configured and built against the package ($((SECONDS - started)) s)"

# The simulator example: the correct stack holds on every seed; the planted
# bug is caught, its history written, and the seed and the schedule replay
# it byte for byte.
sim=$tmp/treiber-sim/treiber_sim
expect 0 "$tmp/correct.log" -- "$sim" --seeds 20
has "$tmp/correct.log" "20 run(s), 720 operations: every one LINEARIZABLE"
expect 1 "$tmp/bug.log" -- "$sim" --bug --out "$tmp/treiber_failure.bin"
has "$tmp/bug.log" "VIOLATION"
has "$tmp/bug.log" "counterexample:"
seed=$(sed -n 's/^caught at seed \([0-9]*\),.*/\1/p' "$tmp/bug.log")
[ -n "$seed" ] || fail "the planted bug was not caught in 200 seeds"
has "$tmp/bug.log" "replayed from seed $seed: the same history, byte for byte, and the same verdict"
has "$tmp/bug.log" "replayed from its schedule"
grep -q "replayed from its schedule.*: the same history, byte for byte" "$tmp/bug.log" || fail "the schedule did not replay it"
expect 1 "$tmp/again.log" -- "$sim" --bug --seed "$seed" --out "$tmp/again.bin"
has "$tmp/again.log" "caught at seed $seed, after 1 run(s)"
cmp -s "$tmp/treiber_failure.bin" "$tmp/again.bin" || fail "--seed $seed wrote a different history"
expect 1 "$tmp/cli_violation.log" -- "$wc" check "$tmp/treiber_failure.bin"
has "$tmp/cli_violation.log" "VIOLATION: model stack"
echo "treiber_sim: the correct stack holds on 20 seeds; the planted bug caught at seed $seed, replayed from its seed and schedule"

# The drop-in recorder's host path: the history file it writes is decided
# by the installed warpcheck.
queue=$tmp/gpu-queue/host_queue
expect 0 "$tmp/host.log" -- "$queue" --threads 4 --rounds 100 --out "$tmp/host.bin"
has "$tmp/host.log" "recorded 800 operations, 0 pending"
expect 0 "$tmp/host_check.log" -- "$wc" check "$tmp/host.bin"
has "$tmp/host_check.log" "LINEARIZABLE: model queue, 800 operations"
expect 0 "$tmp/small.log" -- "$queue" --threads 4 --rounds 100 --ops-per-team 50 --out "$tmp/small.bin"
has "$tmp/small.log" "make ops_per_team at least 200"
expect 2 "$tmp/small_check.log" -- "$wc" check "$tmp/small.bin"
has "$tmp/small_check.log" "UNKNOWN"
has "$tmp/small_check.log" "incomplete"
expect 3 "$tmp/zero.log" -- "$queue" --ops-per-team 0 --out "$tmp/zero.bin"
has "$tmp/zero.log" "no room for records (ops_per_team is 0)"
echo "host_queue: its history LINEARIZABLE; too small buffers: incomplete, UNKNOWN; no buffers: refused"

echo "package: passed in $((SECONDS - started)) s (the CUDA example is the package_cuda_example test)"
