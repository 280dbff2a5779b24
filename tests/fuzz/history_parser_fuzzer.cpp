// libFuzzer target for the three history readers. The first byte picks the
// reader (and the model for EDN); the rest is the file. Any input must end
// in a parsed history or an InputError. A parsed history must also survive
// writing and re-reading in both formats unchanged: a parser/writer
// disagreement is reported as a crash too.
#include <cstdlib>
#include <sstream>

#include "linearizability/formats.hpp"

using namespace warpcheck;

namespace {

std::string binary_of(const History& h) {
  std::ostringstream s;
  write_binary(h, s);
  return s.str();
}

void check_round_trip(const History& h) {
  const std::string bin = binary_of(h);
  std::ostringstream json;
  write_jsonl(h, json);
  if (binary_of(read_binary(bin, "fuzz-bin")) != bin) std::abort();
  if (binary_of(read_jsonl(json.str(), "fuzz-jsonl", std::nullopt)) != bin) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const ModelId edn_models[] = {ModelId::Register, ModelId::CasRegister, ModelId::Kv};
  try {
    History h;
    switch (data[0] % 4) {
      case 0: h = read_binary(text, "fuzz"); break;
      case 1: h = read_jsonl(text, "fuzz", std::nullopt); break;
      case 2: h = read_jsonl(text, "fuzz", ModelId::PriorityQueue); break;
      default: h = read_edn(text, "fuzz", edn_models[(data[0] / 4) % 3]); break;
    }
    check_round_trip(h);
  } catch (const InputError&) {
  }
  return 0;
}
