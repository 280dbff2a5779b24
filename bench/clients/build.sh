#!/usr/bin/env bash
# Builds the client corpus (bench/clients/clients.txt) for sm_90 into a
# bundle folder that the GPU machine runs (bench/clients/run_corpus.sh):
# every client binary, the warpcheck program that checks their histories,
# the shared libraries the device image may lack, and the libraries'
# .source lines. Needs the fetched copies (.ext/<library>, from
# bench/clients/fetch.sh), nvcc, and a build of this repository holding the
# recorder's libraries and warpcheck (WARPCHECK_BUILD, default build-cpu,
# else build). The GPU machine's image has nvcc but not Abseil, which the
# recorder links, so the binaries are built where the package builds.
#   bash bench/clients/build.sh [BUNDLE]          (default .clients-bundle)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
bundle=${1:-.clients-bundle}
wc_build=${WARPCHECK_BUILD:-build-cpu}
[ -f "$wc_build/stress/libwarpcheck_recorder.a" ] || wc_build=build
libs=("$wc_build/stress/libwarpcheck_recorder.a" "$wc_build/linearizability/libwarpcheck_linearizability.a")
for f in "${libs[@]}" "$wc_build/tools/warpcheck"; do
  [ -f "$f" ] || { echo "build.sh: $f missing: build the recorder and warpcheck first" >&2; exit 2; }
done
nvcc=${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
mkdir -p "$bundle"
# shellcheck disable=SC2046
link_flags=($(pkg-config --libs absl_flat_hash_map absl_btree | sed 's/-Wl,/-Xlinker /g') -Xcompiler -fopenmp)

# What a library's drivers compile and link with, beyond the recorder.
library_flags() {
  case $1 in
    cuCollections) echo "-I.ext/cuCollections/include" ;;
    BGHT) echo "-I.ext/BGHT/include" ;;
    MVGpuBTree) echo "-I.ext/MVGpuBTree/include" ;;
    stdgpu) bash bench/clients/stdgpu_build.sh .ext/stdgpu .ext/stdgpu-build ;;
    *) echo "build.sh: no flags for library $1" >&2; return 2 ;;
  esac
}

# Each library's flags once, before the parallel builds (stdgpu's are a
# library build of its own, which two clients must not race on).
declare -A flags_of
while read -r binary driver library defs; do
  [ -n "$binary" ] && [ "${binary:0:1}" != "#" ] || continue
  [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $binary "* ]] || continue
  [ -n "${flags_of[$library]+set}" ] && continue
  [ -d ".ext/$library" ] || { echo "build.sh: .ext/$library missing (bash bench/clients/fetch.sh)" >&2; exit 2; }
  flags_of[$library]=$(library_flags "$library") || exit 2
done < bench/clients/clients.txt

build_one() {
  local binary=$1 driver=$2 library=$3; shift 3
  local flags=${flags_of[$library]}
  # shellcheck disable=SC2086
  nice "$nvcc" -std=c++20 -O3 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr -w -I. -Itools/package/include \
    $flags "$@" "bench/clients/$driver/driver.cu" -o "$bundle/$binary" "${libs[@]}" "${link_flags[@]}" &&
    echo "built $bundle/$binary"
}

jobs=${JOBS:-2}
failed="$bundle/.failed"
rm -f "$failed"
while read -r binary driver library defs; do
  [ -n "$binary" ] && [ "${binary:0:1}" != "#" ] || continue
  [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $binary "* ]] || continue
  # shellcheck disable=SC2086
  { build_one "$binary" "$driver" "$library" $defs || echo "$binary" >> "$failed"; } &
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
done < bench/clients/clients.txt
wait
status=0
if [ -s "$failed" ]; then
  echo "build.sh: not built: $(tr '\n' ' ' < "$failed")" >&2
  status=1
fi
rm -f "$failed"
cp "$wc_build/tools/warpcheck" "$bundle/"
cp .ext/*.source "$bundle/" 2>/dev/null || true
cp bench/clients/runs.txt bench/clients/run_corpus.sh bench/clients/check_corpus.sh "$bundle/"
for f in "$bundle"/*; do case $f in *.sh | *.txt | *.source) ;; *) strip --strip-unneeded "$f" 2>/dev/null || true ;; esac; done
bash tools/bundle_libs.sh "$bundle"
# A bundle inside the checkout stays out of git (and travels when carried).
rel=$(realpath --relative-to=. "$bundle")
if [ "${rel#..}" = "$rel" ]; then
  exclude=$(git rev-parse --git-path info/exclude)
  grep -qx "/$rel/" "$exclude" 2>/dev/null || echo "/$rel/" >> "$exclude"
fi
du -sh "$bundle"
exit $status
