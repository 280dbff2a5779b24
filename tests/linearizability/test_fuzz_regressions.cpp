// Inputs the parser fuzzer kept (tests/data/fuzz_regressions), replayed
// through the fuzzer's own entry point: each must parse or be rejected with
// an InputError, and round-trip exactly when it parses.
#include <gtest/gtest.h>

#include "fuzz/fuzz_one_input.hpp"
#include "support/test_data.hpp"

using namespace warpcheck::testing;

TEST(FuzzRegressions, EveryKeptInputIsHandled) {
  const auto files = files_in("fuzz_regressions");
  ASSERT_FALSE(files.empty()) << "the regression corpus is missing";
  for (const auto& path : files) {
    SCOPED_TRACE(path.filename().string());
    const std::string data = read_file(path);
    EXPECT_NO_THROW(fuzz_one_input(reinterpret_cast<const uint8_t*>(data.data()), data.size()));
  }
}
