// Linearization-point replay: a pass is a proof with a witness; a failure is
// reported as a finding about the claimed points, apart from the verdict.
#include <gtest/gtest.h>

#include "linearizability/checker.hpp"
#include "linearizability/formats.hpp"
#include "linearizability/witness.hpp"
#include "linearizability/synthetic/synthetic_history.hpp"

using namespace warpcheck;

namespace {

History parse(const std::string& text) { return read_jsonl(text, "mem.jsonl", std::nullopt); }

// insert(5) -> true over [0, 10] and contains(5) -> true over [5, 20], with
// the given linearization-point hints.
std::string with_hints(int insert_hint, int contains_hint) {
  std::string s = "{\"model\":\"set\"}\n{\"id\":1,\"op\":\"insert\",\"key\":5,\"ret\":true,\"call\":0,\"return\":10,\"hint\":";
  s.append(std::to_string(insert_hint));
  s.append("}\n{\"id\":2,\"op\":\"contains\",\"key\":5,\"ret\":true,\"call\":5,\"return\":20,\"hint\":");
  s.append(std::to_string(contains_hint));
  s.append("}\n");
  return s;
}

}  // namespace

TEST(HintReplay, PointsThatExplainTheHistoryProveIt) {
  for (const ModelInfo& m : kModels) {
    SCOPED_TRACE(std::string(m.name));
    const SyntheticHistorySpec spec{.model = m.id, .operations = 20000, .keys = 4, .overlap = 64, .pending = 0.05, .hints = true};
    const History h = make_linearizable_history(spec);
    const CheckResult r = check_history(h);
    EXPECT_EQ(r.verdict, Verdict::Linearizable);
    EXPECT_EQ(r.algorithm, "linearization-point replay");
    ASSERT_TRUE(r.hint_replay.has_value());
    EXPECT_EQ(r.hint_replay->outcome, HintReplay::Outcome::Explained);
    EXPECT_FALSE(witness_error(h, r.witness).has_value());
  }
}

TEST(HintReplay, WrongPointsOnALinearizableHistoryAreAFindingNotAVerdict) {
  // The contains is claimed to take effect before the insert: the points are
  // wrong, but the history is linearizable (contains at time 10).
  const History h = parse(with_hints(8, 6));
  const CheckResult r = check_history(h);
  EXPECT_EQ(r.verdict, Verdict::Linearizable);
  EXPECT_NE(r.algorithm, "linearization-point replay");
  ASSERT_TRUE(r.hint_replay.has_value());
  EXPECT_EQ(r.hint_replay->outcome, HintReplay::Outcome::NotExplained);
  EXPECT_NE(r.hint_replay->detail.find("operation id 2"), std::string::npos) << r.hint_replay->detail;
}

TEST(HintReplay, ForcedReplayThatFailsIsUnknownNotViolation) {
  CheckOptions opt;
  opt.algorithm = Algorithm::HintReplay;
  const CheckResult r = check_history(parse(with_hints(8, 6)), opt);
  EXPECT_EQ(r.verdict, Verdict::Unknown);
  EXPECT_NE(r.reason.find("do not explain"), std::string::npos);
  EXPECT_EQ(check_history(parse(with_hints(6, 8)), opt).verdict, Verdict::Linearizable);
}

TEST(HintReplay, ViolationWithPointsReportsBoth) {
  const History h = parse(
      "{\"model\":\"set\"}\n"
      "{\"id\":1,\"op\":\"insert\",\"key\":5,\"ret\":true,\"call\":0,\"return\":10,\"hint\":5}\n"
      "{\"id\":2,\"op\":\"contains\",\"key\":5,\"ret\":false,\"call\":20,\"return\":30,\"hint\":25}\n");
  const CheckResult r = check_history(h);
  EXPECT_EQ(r.verdict, Verdict::Violation);
  EXPECT_EQ(r.hint_replay->outcome, HintReplay::Outcome::NotExplained);
}

TEST(HintReplay, MissingHintsFallBackToTheSearchOrAreRefusedWhenForced) {
  const History h = parse(
      "{\"model\":\"set\"}\n"
      "{\"id\":1,\"op\":\"insert\",\"key\":5,\"ret\":true,\"call\":0,\"return\":10,\"hint\":5}\n"
      "{\"id\":2,\"op\":\"contains\",\"key\":5,\"ret\":true,\"call\":20,\"return\":30}\n");
  const CheckResult r = check_history(h);
  EXPECT_EQ(r.verdict, Verdict::Linearizable);
  EXPECT_EQ(r.hint_replay->outcome, HintReplay::Outcome::NotApplicable);
  CheckOptions forced;
  forced.algorithm = Algorithm::HintReplay;
  EXPECT_THROW(check_history(h, forced), InputError);
}

TEST(HintReplay, IncompleteRunIsUnknownEvenWhenPointsExplainIt) {
  History h = parse(with_hints(6, 8));
  h.meta.incomplete = true;
  const CheckResult r = check_history(h);
  EXPECT_EQ(r.verdict, Verdict::Unknown);
  EXPECT_EQ(r.recorded_part, Verdict::Linearizable);
}
