#!/usr/bin/env bash
# The installable package as a user meets it: `cmake --install` into a
# temporary prefix, then the examples as installed
# (share/doc/warpcheck/examples/), each its own CMake project, configured
# and built out of tree against that prefix alone.
#
#   package_test.sh BUILD_DIR SOURCE_DIR cpu
#     the layout (headers, libraries, warpcheck, the CMake configuration and
#     its version file, the guides and examples/ under share/doc); the
#     configuration's components (with Boost hidden: recorder, checker,
#     core and the program found, team refused, saying why); the guide's
#     host-thread program, taken from the installed guide's text, built
#     with the guide's CMakeLists.txt (Boost hidden) and run, its history
#     LINEARIZABLE by the installed warpcheck; the simulator example (examples/treiber-sim) proves
#     the correct stack on 20 seeds, catches its planted bug, replays it
#     from its seed and its schedule, and the installed warpcheck agrees on
#     the history it wrote; the drop-in recorder's host path
#     (examples/gpu-queue's host_queue) writes a history that warpcheck
#     check proves, and with too small buffers one marked incomplete
#     (UNKNOWN, with the size that holds it); bad settings are refused.
#   package_test.sh BUILD_DIR SOURCE_DIR cuda
#     the CUDA example (examples/gpu-queue's gpu_queue) built with nvcc for
#     sm_90, and run where there is a GPU (its history then checked); the
#     guide's plain-nvcc line, as the guide prints it, builds a recorded
#     kernel, whose history (from the GPU, or from host threads where there
#     is none) is checked; a CUDA project with no architecture set is
#     warned. Exits 77 (skipped) where there is no nvcc.
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
# snippet NAME: the code block that follows "<!-- byo-snippet: NAME -->"
# in the installed guide.
snippet() {
  awk -v name="$1" '$0 == "<!-- byo-snippet: " name " -->" { want = 1; next }
    want && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }' "$docdir/bring-your-own.md"
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
# The guides, and the examples they point to, as in the source tree.
docdir=$prefix/share/doc/warpcheck
[ -f "$docdir/bring-your-own.md" ] || fail "no share/doc/warpcheck/bring-your-own.md in the prefix"
diff -r -x 'build*' "$src/examples" "$docdir/examples" >"$tmp/examples.diff" 2>&1 || {
  cat "$tmp/examples.diff"
  fail "share/doc/warpcheck/examples is not examples/"
}
[ -n "$(snippet host_threads.cpp)" ] && [ -n "$(snippet CMakeLists.txt)" ] && [ -n "$(snippet nvcc-link)" ] ||
  fail "the installed guide lacks a byo-snippet (host_threads.cpp, CMakeLists.txt, nvcc-link)"
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
# Components, with Boost hidden: team (the simulator) is refused, saying
# why; the rest needs no Boost; without COMPONENTS all but team are there.
find_package(warpcheck 0.1 CONFIG QUIET COMPONENTS team)
if(warpcheck_FOUND OR NOT warpcheck_NOT_FOUND_MESSAGE MATCHES "Boost")
  message(FATAL_ERROR "COMPONENTS team without Boost: found ${warpcheck_FOUND}, \"${warpcheck_NOT_FOUND_MESSAGE}\"")
endif()
find_package(warpcheck 0.1 CONFIG QUIET COMPONENTS recorder nonesuch)
if(warpcheck_FOUND OR NOT warpcheck_NOT_FOUND_MESSAGE MATCHES "no component \"nonesuch\"")
  message(FATAL_ERROR "COMPONENTS nonesuch: found ${warpcheck_FOUND}, \"${warpcheck_NOT_FOUND_MESSAGE}\"")
endif()
find_package(warpcheck 0.1 CONFIG REQUIRED COMPONENTS recorder checker core warpcheck OPTIONAL_COMPONENTS team)
if(warpcheck_team_FOUND OR NOT warpcheck_recorder_FOUND)
  message(FATAL_ERROR "COMPONENTS recorder ... OPTIONAL_COMPONENTS team: team ${warpcheck_team_FOUND}")
endif()
find_package(warpcheck 0.1 CONFIG REQUIRED)
foreach(target recorder checker core team warpcheck)
  if(NOT TARGET warpcheck::${target})
    message(FATAL_ERROR "no warpcheck::${target}")
  endif()
endforeach()
if(warpcheck_team_FOUND OR NOT warpcheck_checker_FOUND OR NOT EXISTS "${warpcheck_EXECUTABLE}")
  message(FATAL_ERROR "without COMPONENTS: team ${warpcheck_team_FOUND}, checker ${warpcheck_checker_FOUND}")
endif()
CMAKE
expect 0 "$tmp/version.log" -- cmake -S "$tmp/version" -B "$tmp/version/build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON
has "$tmp/version.log" "warpcheck::team is not usable: Boost.Context"
grep -q 'set(PACKAGE_VERSION "0.1' "$config_dir/warpcheckConfigVersion.cmake" || fail "the version file is not 0.1.x"
echo "installed: $(find "$prefix" -type f | wc -l) files in $prefix, version 0.1, examples under share/doc; without Boost: all but team ($((SECONDS - started)) s)"

# Small and quick: the examples are tiny, -O1 is plenty to run them here.
common=(-DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1)

if [ "$part" = cuda ]; then
  expect 0 "$tmp/configure.log" -- cmake -S "$docdir/examples/gpu-queue" -B "$tmp/gpu-queue" "${common[@]}" \
    -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=90
  has "$tmp/configure.log" "Build files have been written"
  ! grep -q "CMAKE_CUDA_ARCHITECTURES is not set" "$tmp/configure.log" || fail "warned with the architecture set"
  # Beside gpu_queue's build (nvcc is one core's work): a project with no
  # architecture set, which the package's configuration warns about (CMake
  # alone would build for nvcc's default, sm_75, without a word); and the
  # guide's plain-nvcc line, as printed, on a small kernel recorded with
  # the drop-in recorder (run on the GPU where there is one, on host
  # threads otherwise), its history checked.
  mkdir -p "$tmp/arch" "$tmp/nvcc"
  cat >"$tmp/arch/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.24)
project(arch_check LANGUAGES CXX)
find_package(warpcheck 0.1 CONFIG REQUIRED COMPONENTS recorder)
enable_language(CUDA)
CMAKE
  cat >"$tmp/nvcc/app.cu" <<'CUDA'
#include <cstdio>
#include <memory>

#include <warpcheck/record.cuh>
using namespace warpcheck;

__global__ void enqueue_ids(record::log_view log) {
  const record::op_handle op = log.begin(OpKind::Enqueue, threadIdx.x + 1);
  log.end(op);
}

int main() {
  record::Settings s;
  s.model = "queue";
  s.teams = record::teams_for(s.team, dim3(1), dim3(2));
  s.ops_per_team = 1;
  int gpus = 0;
  record::Summary sum;
  if (cudaGetDeviceCount(&gpus) == cudaSuccess && gpus > 0) {
    record::Recorder rec(s);
    enqueue_ids<<<1, 2>>>(rec.view());
    sum = rec.write("app.bin");
  } else {
    record::HostRecorder rec(s);
    for (uint32_t id = 0; id < 2; ++id) rec.view().end(rec.view().begin_on(id, 0, OpKind::Enqueue, id + 1));
    sum = rec.write("app.bin");
  }
  std::printf("app: %llu operations\n", static_cast<unsigned long long>(sum.operations));
  return 0;
}
CUDA
  nvcc_line=$(snippet nvcc-link)
  (
    env -u CUDAARCHS cmake -S "$tmp/arch" -B "$tmp/arch/build" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_CUDA_COMPILER="$nvcc" >"$tmp/arch.log" 2>&1
    echo $? >"$tmp/arch.status"
    if command -v pkg-config >/dev/null; then
      (cd "$tmp/nvcc" && PATH=$(dirname "$nvcc"):$PATH P=$prefix bash -ec "$nvcc_line" && ./app) >"$tmp/nvcc.log" 2>&1
      echo $? >"$tmp/nvcc.status"
    fi
  ) &
  side=$!
  expect 0 "$tmp/build.log" -- cmake --build "$tmp/gpu-queue" --target gpu_queue
  wait $side
  [ "$(cat "$tmp/arch.status")" = 0 ] || {
    cat "$tmp/arch.log"
    fail "a CUDA project with no architecture set did not configure"
  }
  has "$tmp/arch.log" "CMAKE_CUDA_ARCHITECTURES is not set"
  echo "no CUDA architecture set: warned"
  if [ -f "$tmp/nvcc.status" ]; then
    [ "$(cat "$tmp/nvcc.status")" = 0 ] || {
      cat "$tmp/nvcc.log"
      fail "the guide's nvcc line did not build or run a recorded kernel (the line: $nvcc_line)"
    }
    has "$tmp/nvcc.log" "app: 2 operations"
    expect 0 "$tmp/nvcc_check.log" -- "$wc" check "$tmp/nvcc/app.bin"
    has "$tmp/nvcc_check.log" "LINEARIZABLE: model queue, 2 operations"
    echo "the guide's nvcc line: built a recorded kernel, ran it, its history LINEARIZABLE"
  else
    echo "the guide's nvcc line: SKIPPED (no pkg-config, which the line uses for Abseil)"
  fi
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

# The projects configured and built side by side: the installed examples,
# and the guide's host-thread program with its CMakeLists.txt, both taken
# from the installed guide. The recorder's projects see no Boost. No CUDA
# here: the CUDA part of examples/gpu-queue is the cuda test's.
mkdir -p "$tmp/host-threads"
snippet host_threads.cpp >"$tmp/host-threads/host_threads.cpp"
snippet CMakeLists.txt >"$tmp/host-threads/CMakeLists.txt"
(cmake -S "$docdir/examples/treiber-sim" -B "$tmp/treiber-sim" "${common[@]}" &&
  cmake --build "$tmp/treiber-sim") >"$tmp/treiber_build.log" 2>&1 &
treiber_build=$!
(cmake -S "$tmp/host-threads" -B "$tmp/host-threads/build" "${common[@]}" -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON &&
  cmake --build "$tmp/host-threads/build") >"$tmp/snippet_build.log" 2>&1 &
snippet_build=$!
(cmake -S "$docdir/examples/gpu-queue" -B "$tmp/gpu-queue" "${common[@]}" -DCMAKE_CUDA_COMPILER=NOTFOUND \
  -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON && cmake --build "$tmp/gpu-queue" --target host_queue) >"$tmp/queue_build.log" 2>&1
queue_status=$?
wait $treiber_build
treiber_status=$?
wait $snippet_build
snippet_status=$?
[ $queue_status = 0 ] || {
  cat "$tmp/queue_build.log"
  fail "examples/gpu-queue (host_queue) did not configure and build against the package"
}
[ $treiber_status = 0 ] || {
  cat "$tmp/treiber_build.log"
  fail "examples/treiber-sim did not configure and build against the package"
}
[ $snippet_status = 0 ] || {
  cat "$tmp/snippet_build.log"
  fail "the guide's host-thread program did not configure and build against the package without Boost"
}
echo "examples and the guide's host-thread program configured and built against the package ($((SECONDS - started)) s)"

# The guide's host-thread program: its history checked in process and by
# the installed warpcheck.
expect 0 "$tmp/snippet.log" -- "$tmp/host-threads/build/host_threads"
has "$tmp/snippet.log" "recorded 8000 operations"
has "$tmp/snippet.log" "LINEARIZABLE: model queue, 8000 operations"
expect 0 "$tmp/snippet_check.log" -- "$wc" check "$tmp/host_threads.bin"
has "$tmp/snippet_check.log" "LINEARIZABLE: model queue, 8000 operations"
echo "the guide's host-thread program: 8000 operations recorded, LINEARIZABLE in process and by warpcheck check"

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
