// libFuzzer target for the three history readers (see fuzz_one_input.hpp).
#include "fuzz/fuzz_one_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  warpcheck::testing::fuzz_one_input(data, size);
  return 0;
}
