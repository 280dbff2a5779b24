#!/usr/bin/env bash
# Fuzzes the history parsers with libFuzzer (clang) for SECONDS (default 300):
# all three readers, or one (tools/fuzz.sh SECONDS binary|jsonl|edn). The
# test suite runs each reader's bounded share (ReaderFuzz in
# tests/linearizability/test_reader_fuzz.cpp); this is the long run.
# Seeds: the checked-in known-answer, bad-input and regression files. A
# crashing input lands in tests/data/fuzz_regressions/, which the test
# suite replays.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${1:-300}
target=history_parser_fuzzer
case "${2:-}" in
  "") ;;
  binary|jsonl|edn) target=${2}_reader_fuzzer ;;
  *) echo "usage: tools/fuzz.sh [SECONDS] [binary|jsonl|edn]" >&2; exit 3 ;;
esac
command -v clang++ >/dev/null || { sudo_=""; [ "$(id -u)" = 0 ] || sudo_=sudo; $sudo_ apt-get install -y -qq clang libclang-rt-dev >/dev/null; }
CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPCHECK_BUILD_FUZZ=ON \
  -DWARPCHECK_BUILD_BENCH=OFF >/dev/null
cmake --build build-fuzz --target "$target" -j"$(nproc)"
corpus=build-fuzz/corpus
mkdir -p "$corpus" tests/data/fuzz_regressions
# Seed the corpus: each file once per reader selector byte.
for f in tests/data/known/* tests/data/bad/* tests/data/fuzz_regressions/*; do
  [ -f "$f" ] || continue
  for selector in 0 1 2 3 5; do
    { printf "\\x0$selector"; cat "$f"; } >"$corpus/$(basename "$f").$selector"
  done
done
# Binary seeds for the sealed selector: a history without its checksum.
for model in pq multimap kv; do
  build/tools/warpcheck gen --model $model --ops 8 --pending 0.2 --out "$corpus/raw.bin" 2>/dev/null
  { printf '\x00'; cat "$corpus/raw.bin"; } >"$corpus/$model.bin.0"
  { printf '\x04'; head -c -8 "$corpus/raw.bin"; } >"$corpus/$model.bin.4"
  rm "$corpus/raw.bin"
done
build-fuzz/tests/fuzz/"$target" "$corpus" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
  -artifact_prefix=tests/data/fuzz_regressions/ -print_final_stats=1
