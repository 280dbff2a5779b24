// The simulator's memory models against the litmus tests: sequentially
// consistent memory never shows a weak outcome; the relaxed mode shows
// every one that PTX allows and it can produce (load buffering it cannot:
// docs/relaxed-memory.md), and never one that PTX forbids. (bench/litmus.cpp
// runs 10^5 seeds a test; here enough for each allowed outcome to show.)
#include <gtest/gtest.h>

#include "stress/litmus/litmus.hpp"

namespace warpcheck {
namespace {

constexpr uint64_t kSeeds = 2000;

class Litmus : public testing::TestWithParam<LitmusTest> {};

TEST_P(Litmus, SequentiallyConsistentMemoryNeverShowsTheWeakOutcome) {
  EXPECT_EQ(run_litmus(GetParam(), sim::MemoryModel::sc, kSeeds).weak, 0u) << GetParam().weak_text;
}

TEST_P(Litmus, RelaxedMemoryShowsItExactlyWhenPtxAllowsIt) {
  const LitmusTest& t = GetParam();
  const LitmusCount c = run_litmus(t, sim::MemoryModel::relaxed, kSeeds);
  if (t.model_produces) {
    EXPECT_GT(c.weak, 0u) << t.name << " (" << t.variant << "): " << t.weak_text << " is allowed but never seen";
  } else {
    EXPECT_EQ(c.weak, 0u) << t.name << " (" << t.variant << "): " << t.weak_text << " seen at seed " << c.first_weak_seed
                          << (t.allowed_by_ptx ? " (allowed, but the model is not meant to produce it)" : ", which PTX forbids");
  }
  RecordProperty("weak_outcomes", std::to_string(c.weak));
}

// The interleaved outcome (the GPU harness's evidence that the roles met)
// is one sequential consistency gives, but only by interleaving the teams:
// no serial order of them gives it.
TEST_P(Litmus, TheInterleavedOutcomeIsOneSequentialConsistencyGivesOnlyByInterleaving) {
  const LitmusTest& t = GetParam();
  const LitmusCount c = run_litmus(t, sim::MemoryModel::sc, kSeeds);
  EXPECT_GT(c.interleaved, 0u) << t.name << " (" << t.variant << "): " << t.interleaved_text << " never seen";
  EXPECT_LT(c.interleaved, c.runs) << t.interleaved_text << " in every run: it says nothing";
  const LitmusCount serial = run_litmus(t, sim::MemoryModel::sc, kSeeds, 1, /*serial=*/true);
  EXPECT_EQ(serial.interleaved, 0u) << t.name << " (" << t.variant << "): " << t.interleaved_text
                                    << " came from a run of the teams one after another";
}

std::string case_name(const testing::TestParamInfo<LitmusTest>& i) {
  std::string n = i.param.name + "_" + i.param.variant;
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Shapes, Litmus, testing::ValuesIn(litmus_tests()), case_name);

}  // namespace
}  // namespace warpcheck
