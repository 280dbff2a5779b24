// --keep: which runs' histories a stress run writes beside its failure, and
// the first undecided run named in the summary. The runs here are made up
// (a linearizable history, an incomplete one the checker cannot decide, a
// violation), so each verdict is certain.
#include <gtest/gtest.h>

#include <filesystem>

#include "linearizability/checker.hpp"
#include "linearizability/formats.hpp"
#include "stress/seam/stress_loop.hpp"
#include "stress/run/stress_session.hpp"
#include "support/temp_dir.hpp"

using namespace warpcheck;
using namespace warpcheck::testing;

namespace {

// Seed 1: linearizable; seed 2: a log overflowed (UNKNOWN); seed 3: a
// contains that found a key nobody inserted (VIOLATION).
SeedRun made_up_run(uint64_t seed) {
  SeedRun r;
  r.history.meta.model = ModelId::Set;
  Operation op;
  op.data.kind = seed == 3 ? OpKind::Contains : OpKind::Insert;
  op.data.result_kind = ResultKind::Bool;
  op.data.result = 1;
  op.call = 1;
  op.ret = 2;
  r.history.ops.push_back(op);
  r.history.meta.incomplete = seed == 2;
  return r;
}

StressSummary run_keeping(const std::filesystem::path& dir, const std::string& keep) {
  StressOptions o;
  o.first_seed = 1;
  o.seeds = 3;
  o.keep_going = true;
  o.on_run = run_keeper(dir.string(), keep);
  return run_stress(made_up_run, o);
}

std::vector<std::string> kept(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  if (std::filesystem::exists(dir))
    for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST(KeepRuns, TheDefaultKeepsFailuresAndUndecidedRunsEachCheckableAlone) {
  const auto dir = fresh_temp_dir("keep", "unknown");
  const StressSummary s = run_keeping(dir, "unknown");
  EXPECT_EQ(kept(dir), (std::vector<std::string>{"seed-2-UNKNOWN.bin", "seed-3-VIOLATION.bin"}));
  EXPECT_EQ(check_history(load_history((dir / "seed-3-VIOLATION.bin").string())).verdict, Verdict::Violation);
  EXPECT_EQ(check_history(load_history((dir / "seed-2-UNKNOWN.bin").string())).verdict, Verdict::Unknown);
  ASSERT_TRUE(s.first_unknown.has_value());
  EXPECT_EQ(s.first_unknown->first, 2u);
  EXPECT_NE(s.first_unknown->second.find("incomplete"), std::string::npos) << s.first_unknown->second;
  std::filesystem::remove_all(dir);
}

TEST(KeepRuns, AllFailuresAndNone) {
  const auto all = fresh_temp_dir("keep", "all");
  run_keeping(all, "all");
  EXPECT_EQ(kept(all), (std::vector<std::string>{"seed-1-LINEARIZABLE.bin", "seed-2-UNKNOWN.bin", "seed-3-VIOLATION.bin"}));
  const auto failures = fresh_temp_dir("keep", "failures");
  run_keeping(failures, "failures");
  EXPECT_EQ(kept(failures), (std::vector<std::string>{"seed-3-VIOLATION.bin"}));
  const auto none = fresh_temp_dir("keep", "none");
  run_keeping(none, "none");
  EXPECT_TRUE(kept(none).empty());
  for (const auto& d : {all, failures, none}) std::filesystem::remove_all(d);
}
