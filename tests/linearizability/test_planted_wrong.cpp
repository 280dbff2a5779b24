// Wrong answers planted by warpcheck gen --wrong (linearizability/synthetic/planted_wrong.hpp):
// in every model, small histories of every shape are refuted once one is
// planted (by the exhaustive search and by the default checker), are
// linearizable without, and a history with no sure spot is an error.
#include <gtest/gtest.h>

#include <filesystem>

#include "linearizability/checker.hpp"
#include "linearizability/formats.hpp"
#include "linearizability/synthetic/planted_wrong.hpp"
#include "linearizability/synthetic/synthetic_history.hpp"
#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace warpcheck;
using namespace warpcheck::testing;

namespace {

struct Shape {
  size_t operations;
  int64_t keys;
  uint64_t overlap;
};

const std::vector<Shape> kShapes = {{60, 1, 2}, {100, 1, 4}, {120, 2, 8}, {160, 3, 12}, {200, 4, 16}};
// Warp batches (8 operations overlapping each other and none outside):
// one key of a set has no sure spot in 60 operations most of the time.
const std::vector<Shape> kWarpBatchShapes = {{120, 2, 0}, {200, 4, 0}, {200, 8, 0}};
// The exhaustive search on one queue or stack of 160 operations overlapping
// 12 others takes up to 15 s here: it goes to overlap 8, the default
// checker (the distinct-value one) to 16. Batched queues have only the
// search.
constexpr uint64_t kSearchedSequencesUpToOverlap = 8;
const std::vector<Shape> kBatchedQueueShapes = {{60, 1, 2}, {100, 1, 4}, {120, 2, 8}, {160, 3, 6}};

Verdict verdict_of(const History& h, Algorithm algorithm) {
  CheckOptions opt;
  opt.algorithm = algorithm;
  opt.threads = 1;
  opt.timeout_seconds = 20;
  return check_history(h, opt).verdict;
}

// Every shape and seed: linearizable as generated, refuted with one wrong
// answer, by the search and by whichever checker decides by default.
void expect_one_wrong_answer_refuted(SyntheticHistorySpec spec, const std::vector<Shape>& shapes = kShapes) {
  const bool sequence = spec.model == ModelId::Queue || spec.model == ModelId::Stack;
  for (const Shape& shape : shapes)
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      spec.operations = shape.operations;
      spec.keys = shape.keys;
      spec.overlap = shape.overlap;
      spec.seed = seed;
      History h = make_linearizable_history(spec);
      const std::string where = std::string(h.model().name) + ", " + std::to_string(shape.operations) + " ops, " +
                                std::to_string(shape.keys) + " keys, overlap " + std::to_string(shape.overlap) + ", seed " +
                                std::to_string(seed);
      ASSERT_EQ(verdict_of(h, Algorithm::Auto), Verdict::Linearizable) << where;
      std::vector<PlantedAnswer> planted;
      try {
        planted = plant_wrong_answers(h, 1);
      } catch (const std::runtime_error& e) {
        FAIL() << where << ": " << e.what();
      }
      ASSERT_EQ(planted.size(), 1u);
      ASSERT_NO_THROW(validate_history(h, where)) << planted[0].what;
      if (!sequence || shape.overlap <= kSearchedSequencesUpToOverlap) {
        EXPECT_EQ(verdict_of(h, Algorithm::Search), Verdict::Violation) << where << ": " << planted[0].what;
      }
      EXPECT_EQ(verdict_of(h, Algorithm::Auto), Verdict::Violation) << where << ": " << planted[0].what;
    }
}

class PlantedWrong : public ::testing::TestWithParam<ModelId> {};

}  // namespace

TEST_P(PlantedWrong, OneWrongAnswerIsRefutedInEveryShape) {
  const SyntheticHistorySpec spec{.model = GetParam()};
  expect_one_wrong_answer_refuted(spec);
}

INSTANTIATE_TEST_SUITE_P(EveryModel, PlantedWrong,
                         ::testing::Values(ModelId::Set, ModelId::Map, ModelId::Multimap, ModelId::PriorityQueue, ModelId::Register,
                                           ModelId::CasRegister, ModelId::Kv, ModelId::Queue, ModelId::Stack),
                         [](const ::testing::TestParamInfo<ModelId>& info) {
                           std::string name(model_info(info.param).name);
                           std::erase(name, '-');
                           return name;
                         });

TEST(PlantedWrongBatches, BatchedQueuesAndFullPriorityQueueBatchesToo) {
  SyntheticHistorySpec spec{.model = ModelId::Queue, .full_batches = true};
  expect_one_wrong_answer_refuted(spec, kBatchedQueueShapes);
  spec.model = ModelId::PriorityQueue;
  expect_one_wrong_answer_refuted(spec);
}

TEST(PlantedWrongBatches, WarpBatchesToo) {
  for (ModelId model : {ModelId::Set, ModelId::Kv, ModelId::Multimap, ModelId::Stack}) {
    const SyntheticHistorySpec spec{.model = model, .warp_batch = 8};
    expect_one_wrong_answer_refuted(spec, kWarpBatchShapes);
  }
}

TEST(PlantedWrongSpots, SeveralAreSpreadOverTheHistory) {
  const SyntheticHistorySpec spec{.model = ModelId::Kv, .operations = 4000};
  History h = make_linearizable_history(spec);
  const std::vector<PlantedAnswer> planted = plant_wrong_answers(h, 4);
  ASSERT_EQ(planted.size(), 4u);
  for (size_t c = 0; c < planted.size(); ++c) {  // each near the middle of its quarter
    EXPECT_GT(planted[c].op, c * 1000) << planted[c].what;
    EXPECT_LT(planted[c].op, (c + 1) * 1000) << planted[c].what;
  }
}

TEST(PlantedWrongSpots, NoSureSpotIsAnErrorNotALinearizableHistory) {
  const SyntheticHistorySpec spec{.model = ModelId::Register, .operations = 2};
  History h = make_linearizable_history(spec);
  EXPECT_THROW(plant_wrong_answers(h, 1), std::runtime_error);

  const auto dir = fresh_temp_dir("planted_wrong", "cli");
  std::filesystem::create_directories(dir);
  const std::string tiny = (dir / "tiny.bin").string(), planted = (dir / "planted.bin").string();
  const CliRun refused = run_cli({"gen", "--model", "register", "--ops", "2", "--wrong", "1", "--out", tiny}, 30);
  EXPECT_NE(refused.exit_code, 0) << refused.output;
  EXPECT_NE(refused.output.find("found sure spots for only 0 of 1"), std::string::npos) << refused.output;
  EXPECT_FALSE(std::filesystem::exists(tiny));

  const CliRun made = run_cli({"gen", "--model", "map", "--ops", "2000", "--wrong", "3", "--out", planted}, 30);
  ASSERT_EQ(made.exit_code, 0) << made.output;
  EXPECT_NE(made.output.find("planted 3 wrong answer(s)"), std::string::npos) << made.output;
  const CliRun checked = run_cli({"check", planted}, 60);
  EXPECT_EQ(checked.exit_code, 1) << checked.output;
  std::filesystem::remove_all(dir);
}
