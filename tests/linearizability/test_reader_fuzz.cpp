// Each history reader fuzzed in the test suite, bounded and deterministic:
// the project's known-answer files in the reader's format (binary: each
// one converted), mutated a few bytes at a time (flips, cuts, repeats, the
// bytes readers trip on), each input run through the fuzzer's own entry
// point: it parses or is refused with an InputError, and what parses
// round-trips exactly (else abort). The long runs are libFuzzer's
// (tools/fuzz.sh SECONDS binary|jsonl|edn).
#include <gtest/gtest.h>

#include <random>

#include "fuzz/fuzz_one_input.hpp"
#include "support/test_data.hpp"

using namespace warpcheck;
using warpcheck::testing::FuzzedReader;

namespace {

constexpr int kCasesPerReader = 5000;

std::vector<std::string> seeds_for(FuzzedReader reader) {
  std::vector<std::string> seeds;
  for (const auto& path : warpcheck::testing::files_in("known")) {
    const std::string ext = path.extension().string();
    if (reader == FuzzedReader::Edn && ext == ".edn") seeds.push_back(warpcheck::testing::read_file(path));
    if (reader == FuzzedReader::JsonLines && ext == ".jsonl") seeds.push_back(warpcheck::testing::read_file(path));
    if (reader == FuzzedReader::Binary && ext != ".edn") {
      // Without its checksum: the sealed selector adds one (mutated records
      // reach record validation), the plain one meets a missing checksum.
      const std::string bin = encode_binary(load_history(path.string(), warpcheck::testing::model_in_name(path)));
      seeds.push_back(bin.substr(0, bin.size() - 8));
    }
  }
  return seeds;
}

// A few of the bytes and tokens the readers' grammars turn on.
const char* const kTokens[] = {"\\", "\"", "{", "}", "[", "]", ":", ",", "\n", "-", "\\u", "\\uD83D", "\\ud800",
                               "9223372036854775808", "1e999", "nil", ":ok", ":fail", "#{", "\xC3", "\xFF", "\0"};

std::string mutate(std::string s, std::mt19937_64& rng) {
  const int edits = 1 + int(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    const size_t at = s.empty() ? 0 : rng() % s.size();
    switch (rng() % 5) {
      case 0:
        if (!s.empty()) s[at] = char(s[at] ^ char(1u << (rng() % 8)));
        break;
      case 1: s.erase(at, 1 + rng() % 16); break;
      case 2: s.insert(at, s.substr(at, 1 + rng() % 32)); break;
      case 3: {
        const std::string token = kTokens[rng() % std::size(kTokens)];
        s.insert(at, token.empty() ? std::string(1, '\0') : token);
        break;
      }
      default: s.resize(at); break;  // cut short
    }
  }
  return s;
}

void fuzz(FuzzedReader reader) {
  const std::vector<std::string> seeds = seeds_for(reader);
  ASSERT_GE(seeds.size(), 5u) << "too few known-answer files to seed the reader";
  std::mt19937_64 rng(0x5eed0000 + uint64_t(reader));
  for (int i = 0; i < kCasesPerReader; ++i) {
    const std::string input = char(rng() % 256) + mutate(seeds[rng() % seeds.size()], rng);
    fuzz_reader_input(reader, reinterpret_cast<const uint8_t*>(input.data()), input.size());
  }
}

TEST(ReaderFuzz, Binary) { fuzz(FuzzedReader::Binary); }
TEST(ReaderFuzz, JsonLines) { fuzz(FuzzedReader::JsonLines); }
TEST(ReaderFuzz, Edn) { fuzz(FuzzedReader::Edn); }

}  // namespace
