// One fuzz input, exactly as the libFuzzer target runs it; the regression
// test replays kept inputs through this same function. The first byte picks
// the reader (and the model for EDN); the rest is the file. Selector 4 seals
// the rest with a valid checksum first, so that mutated binary records get
// past it and reach record validation. Selector 5 reads EDN with the import
// options (a starting value, nil reads unknown, failed CAS false) for the
// model picked by the byte's high bits. Any input must end in a parsed
// history or an InputError; a parsed history must survive writing and
// re-reading in both formats unchanged (else abort: a crash to the fuzzer).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

#include "linearizability/formats.hpp"

namespace warpcheck::testing {

inline void fuzz_one_input(const uint8_t* data, size_t size) {
  if (size == 0) return;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  // The import options are for the first three (queues and stacks refuse them).
  const ModelId edn_models[] = {ModelId::Register, ModelId::CasRegister, ModelId::Kv, ModelId::Queue, ModelId::Stack};
  try {
    History h;
    switch (data[0] % 6) {
      case 0: h = read_binary(text, "fuzz"); break;
      case 1: h = read_jsonl(text, "fuzz", std::nullopt); break;
      case 2: h = read_jsonl(text, "fuzz", ModelId::PriorityQueue); break;
      case 3: h = read_edn(text, "fuzz", edn_models[(data[0] / 6) % 5]); break;
      case 4: h = read_binary(detail::seal_binary(text), "fuzz-sealed"); break;
      default: {
        ImportOptions peer;
        peer.initial = (data[0] / 6) % 2 ? "\"\"" : "0";
        peer.nil_reads_unknown = true;
        peer.failed_cas_returns_false = true;
        h = read_edn(text, "fuzz", edn_models[(data[0] / 12) % 3], peer);
        break;
      }
    }
    const std::string bin = encode_binary(h);
    if (encode_binary(read_binary(bin, "fuzz-bin")) != bin) std::abort();
    if (encode_binary(read_jsonl(encode_jsonl(h), "fuzz-jsonl", std::nullopt)) != bin) std::abort();
  } catch (const InputError&) {
  }
}

// The three readers, one fuzz target each (tests/fuzz/CMakeLists.txt).
enum class FuzzedReader { Binary, JsonLines, Edn };

// One input for one reader: the first byte's reader choice is forced to
// the reader's own two selectors (binary: as is or sealed; JSON lines: any
// model or the priority queue's; EDN: plain or with the import options),
// its model choice kept.
inline void fuzz_reader_input(FuzzedReader reader, const uint8_t* data, size_t size) {
  if (size == 0) return;
  static constexpr uint8_t kSelectors[3][2] = {{0, 4}, {1, 2}, {3, 5}};
  std::string input(reinterpret_cast<const char*>(data), size);
  const uint8_t model = uint8_t((data[0] / 6) % 42);  // 41 * 6 + 5 < 256
  input[0] = char(model * 6 + kSelectors[int(reader)][model % 2]);
  fuzz_one_input(reinterpret_cast<const uint8_t*>(input.data()), input.size());
}

}  // namespace warpcheck::testing
