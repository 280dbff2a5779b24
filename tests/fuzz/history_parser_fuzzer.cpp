// libFuzzer targets for the history readers (see fuzz_one_input.hpp): all
// three behind the first byte, or one alone when WARPCHECK_FUZZ_READER
// names it (0 binary, 1 JSON lines, 2 EDN).
#include "fuzz/fuzz_one_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
#ifdef WARPCHECK_FUZZ_READER
  warpcheck::testing::fuzz_reader_input(warpcheck::testing::FuzzedReader(WARPCHECK_FUZZ_READER), data, size);
#else
  warpcheck::testing::fuzz_one_input(data, size);
#endif
  return 0;
}
