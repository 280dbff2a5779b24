// Inputs the parser fuzzer found (tests/data/fuzz_regressions): each must
// end in a parse or an InputError, in every format's reader.
#include <gtest/gtest.h>

#include "linearizability/formats.hpp"
#include "support/test_data.hpp"

using namespace warpcheck;
using namespace warpcheck::testing;

TEST(FuzzRegressions, EveryKeptInputIsHandled) {
  const auto files = files_in("fuzz_regressions");
  for (const auto& path : files) {
    SCOPED_TRACE(path.filename().string());
    const std::string data = read_file(path);
    for (int reader = 0; reader < 3; ++reader) {
      try {
        if (reader == 0) read_binary(data, path.string());
        if (reader == 1) read_jsonl(data, path.string(), std::nullopt);
        if (reader == 2) read_edn(data, path.string(), ModelId::Kv);
      } catch (const InputError&) {
      }
    }
  }
  SUCCEED() << files.size() << " regression inputs replayed";
}
