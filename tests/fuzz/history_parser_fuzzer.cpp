// libFuzzer target for the three history readers. The first byte picks the
// reader (and the model for EDN); the rest is the file. Selector 4 seals the
// rest with a valid checksum first, so that mutated binary records get past
// it and reach record validation. Any input must end
// in a parsed history or an InputError. A parsed history must also survive
// writing and re-reading in both formats unchanged: a parser/writer
// disagreement is reported as a crash too.
#include <cstdlib>

#include "linearizability/formats.hpp"

using namespace warpcheck;

namespace {

void check_round_trip(const History& h) {
  const std::string bin = encode_binary(h);
  if (encode_binary(read_binary(bin, "fuzz-bin")) != bin) std::abort();
  if (encode_binary(read_jsonl(encode_jsonl(h), "fuzz-jsonl", std::nullopt)) != bin) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const ModelId edn_models[] = {ModelId::Register, ModelId::CasRegister, ModelId::Kv};
  try {
    History h;
    switch (data[0] % 5) {
      case 0: h = read_binary(text, "fuzz"); break;
      case 1: h = read_jsonl(text, "fuzz", std::nullopt); break;
      case 2: h = read_jsonl(text, "fuzz", ModelId::PriorityQueue); break;
      case 3: h = read_edn(text, "fuzz", edn_models[(data[0] / 5) % 3]); break;
      default: h = read_binary(detail::seal_binary(text), "fuzz-sealed"); break;
    }
    check_round_trip(h);
  } catch (const InputError&) {
  }
  return 0;
}
