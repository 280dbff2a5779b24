#!/usr/bin/env bash
# stdgpu_build.sh STDGPU_DIR OUT_DIR
#
# Builds what the stdgpu client driver (bench/clients/stdgpu/, the map and
# the set) needs from a fetched copy of
# stotko/stdgpu, with plain nvcc and no CMake or network:
#   OUT_DIR/include/stdgpu/config.h  the header stdgpu's CMake would configure
#                                    from src/stdgpu/config.h.in, for the CUDA
#                                    backend (STDGPU_BACKEND_CUDA, directory and
#                                    namespace `cuda`), stdgpu's defaults for a
#                                    Release build: contract checks off
#                                    (STDGPU_CONTRACT_CHECKS=1 in the
#                                    environment turns them on), 32-bit index_t
#   OUT_DIR/libstdgpu.a              the library's compiled sources, the ones
#                                    src/stdgpu/CMakeLists.txt and
#                                    src/stdgpu/cuda/CMakeLists.txt list:
#                                    impl/{device,iterator,memory}.cpp and
#                                    cuda/impl/{device,memory}.cpp, compiled as
#                                    CUDA (nvcc -x cu): they are host code, but
#                                    impl/iterator.cpp and impl/memory.cpp
#                                    include thrust, and CCCL 3's thrust/cub
#                                    headers no longer parse under a plain host
#                                    compiler (__cvta_*, <<<>>>, threadIdx);
#                                    stdgpu's CMake does the same for its HIP
#                                    backend (src/stdgpu/CMakeLists.txt)
# Nothing is written inside STDGPU_DIR. OUT_DIR should be outside the tracked
# tree (.ext/stdgpu-build, under the ignored .ext/, or /tmp/...). An
# up-to-date library is not rebuilt.
#
# On success it prints one line and nothing else: the paths, as the flags
# a driver's nvcc line takes (bench/clients/build.sh splices them in):
#   -ISTDGPU_DIR/src -IOUT_DIR/include -LOUT_DIR -lstdgpu
# (absolute paths; nvcc puts -l after the objects, so one line that
# compiles and links works too). By hand:
#   f=$(bash bench/clients/stdgpu_build.sh .ext/stdgpu .ext/stdgpu-build)
#   nvcc -std=c++20 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr -w -I. -Itools/package/include \
#        $f -c bench/clients/stdgpu/driver.cu -o X.o
#   nvcc -arch=sm_90 X.o $f -o X <the recorder's libraries ...>
# Environment: NVCC (default $CUDACXX, else /usr/local/cuda/bin/nvcc), STDGPU_ARCH (sm_90),
# STDGPU_CONTRACT_CHECKS (0).
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 STDGPU_DIR OUT_DIR" >&2
  exit 2
fi
stdgpu_dir=$(cd "$1" && pwd)
mkdir -p "$2"
out_dir=$(cd "$2" && pwd)
nvcc=${NVCC:-${CUDACXX:-/usr/local/cuda/bin/nvcc}}
checks=${STDGPU_CONTRACT_CHECKS:-0}
arch=${STDGPU_ARCH:-sm_90}
src=$stdgpu_dir/src
template=$src/stdgpu/config.h.in

for f in "$template" "$stdgpu_dir/CMakeLists.txt" "$src/stdgpu/impl/memory.cpp" "$src/stdgpu/cuda/impl/memory.cpp"; do
  [[ -f $f ]] || { echo "$0: $f missing: is $stdgpu_dir a copy of stdgpu?" >&2; exit 1; }
done
[[ $checks == 0 || $checks == 1 ]] || { echo "$0: STDGPU_CONTRACT_CHECKS must be 0 or 1" >&2; exit 2; }

# The version, from `project(stdgpu VERSION x.y.z` in the top CMakeLists.txt.
version=$(sed -n 's/^project(stdgpu VERSION \([0-9]*\.[0-9]*\.[0-9]*\).*/\1/p' "$stdgpu_dir/CMakeLists.txt" | head -n1)
[[ -n $version ]] || { echo "$0: no project(stdgpu VERSION ...) in $stdgpu_dir/CMakeLists.txt" >&2; exit 1; }
IFS=. read -r major minor patch <<<"$version"

# config.h, as configure_file(... @ONLY) would write it for the CUDA backend.
mkdir -p "$out_dir/include/stdgpu"
config=$out_dir/include/stdgpu/config.h
sed -e "s/@stdgpu_VERSION_MAJOR@/$major/" \
    -e "s/@stdgpu_VERSION_MINOR@/$minor/" \
    -e "s/@stdgpu_VERSION_PATCH@/$patch/" \
    -e "s/@stdgpu_VERSION@/$version/" \
    -e "s/@STDGPU_BACKEND@/STDGPU_BACKEND_CUDA/" \
    -e "s/@STDGPU_BACKEND_DIRECTORY@/cuda/" \
    -e "s/@STDGPU_BACKEND_NAMESPACE@/cuda/" \
    -e "s/@STDGPU_BACKEND_MACRO_NAMESPACE@/CUDA/" \
    -e "s/^#cmakedefine01 STDGPU_ENABLE_CONTRACT_CHECKS$/#define STDGPU_ENABLE_CONTRACT_CHECKS $checks/" \
    -e "s/^#cmakedefine01 STDGPU_USE_32_BIT_INDEX$/#define STDGPU_USE_32_BIT_INDEX 1/" \
    "$template" >"$config.new"
if grep -Eq '@[A-Za-z_]+@|^#cmakedefine' "$config.new"; then
  echo "$0: $template has a placeholder this script does not know:" >&2
  grep -En '@[A-Za-z_]+@|^#cmakedefine' "$config.new" >&2
  rm -f "$config.new"
  exit 1
fi
if cmp -s "$config.new" "$config"; then rm -f "$config.new"; else mv "$config.new" "$config"; fi

# The compiled sources (object name <- source).
sources=(
  "impl_device.o:$src/stdgpu/impl/device.cpp"
  "impl_iterator.o:$src/stdgpu/impl/iterator.cpp"
  "impl_memory.o:$src/stdgpu/impl/memory.cpp"
  "cuda_device.o:$src/stdgpu/cuda/impl/device.cpp"
  "cuda_memory.o:$src/stdgpu/cuda/impl/memory.cpp"
)
lib=$out_dir/libstdgpu.a
stale=0
if [[ ! -f $lib || $config -nt $lib || $0 -nt $lib ]]; then
  stale=1
else
  # Any header or source of the copy newer than the library.
  if [[ -n $(find "$src/stdgpu" -newer "$lib" \( -name '*.h' -o -name '*.cuh' -o -name '*.cpp' \) -print -quit) ]]; then
    stale=1
  fi
fi
if [[ $stale == 1 ]]; then
  mkdir -p "$out_dir/obj"
  objects=()
  for entry in "${sources[@]}"; do
    obj=$out_dir/obj/${entry%%:*}
    "$nvcc" -x cu -std=c++20 -arch="$arch" -O3 -w -I"$src" -I"$out_dir/include" -c "${entry#*:}" -o "$obj" >&2
    objects+=("$obj")
  done
  rm -f "$lib.new"
  ar rcs "$lib.new" "${objects[@]}"
  mv "$lib.new" "$lib"
fi

echo "-I$src -I$out_dir/include -L$out_dir -lstdgpu"
