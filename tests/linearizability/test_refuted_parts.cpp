// Which refuted keys a check reports: the first in key order, the same on
// every run whatever the threads' timing, and with all parts (--all-parts)
// every refuted key, in key order, each with its counterexample.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>

#include "linearizability/checker.hpp"
#include "linearizability/formats.hpp"
#include "linearizability/synthetic/planted_wrong.hpp"
#include "linearizability/synthetic/synthetic_history.hpp"
#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace warpcheck;
using namespace warpcheck::testing;

namespace {

constexpr int64_t kSmallKeysFrom = 100;

struct PlantedHistory {
  History history;
  std::set<int64_t> refuted_keys;  // the keys of the planted wrong answers
};

// A keyed history large enough for the check to use threads (40,000
// operations, past linearizability/detail/bulk.hpp's 32,768), with refuted parts of two
// sizes: keys 0-19 of about 1,000 operations each (2 wrong answers), then
// keys from 100 of about 10 (5 wrong answers). The first refuted key in
// key order is a large part, slower to refute than the small ones after it.
PlantedHistory large_and_small_keys(ModelId model) {
  SyntheticHistorySpec spec{.model = model, .operations = 20000, .keys = 20, .seed = 7};
  PlantedHistory out{make_linearizable_history(spec), {}};
  for (const PlantedAnswer& p : plant_wrong_answers(out.history, 2)) out.refuted_keys.insert(out.history.ops[p.op].data.key);
  spec.keys = 2000;
  spec.seed = 8;
  History small = make_linearizable_history(spec);
  for (const PlantedAnswer& p : plant_wrong_answers(small, 5)) out.refuted_keys.insert(small.ops[p.op].data.key + kSmallKeysFrom);
  const uint64_t ids_from = out.history.ops.size();
  for (Operation op : small.ops) {
    op.id += ids_from;
    op.data.key += kSmallKeysFrom;
    out.history.ops.push_back(op);
  }
  return out;
}

size_t key_count(const History& h) {
  std::set<int64_t> keys;
  for (const Operation& op : h.ops) keys.insert(op.data.key);
  return keys.size();
}

// A report with its timing masked: all that may differ between two runs.
std::string untimed(const std::string& report) {
  return std::regex_replace(std::regex_replace(report, std::regex(R"([0-9]+\.[0-9]{3} s)"), "T s"),
                            std::regex(R"("seconds":[0-9.e+-]+)"), R"("seconds":T)");
}

class RefutedParts : public ::testing::TestWithParam<ModelId> {};

}  // namespace

TEST_P(RefutedParts, TheReportedKeyIsTheFirstRefutedInKeyOrder) {
  const PlantedHistory planted = large_and_small_keys(GetParam());
  ASSERT_GE(planted.refuted_keys.size(), 3u);
  ASSERT_LT(*planted.refuted_keys.begin(), kSmallKeysFrom);
  for (unsigned threads : {0u, 2u, 4u, 8u}) {
    CheckOptions opt;
    opt.threads = threads;
    const CheckResult r = check_history(planted.history, opt);
    ASSERT_EQ(r.verdict, Verdict::Violation) << r.reason;
    ASSERT_TRUE(r.counterexample && r.counterexample->key);
    EXPECT_EQ(*r.counterexample->key, *planted.refuted_keys.begin()) << threads << " threads: " << r.reason;
    EXPECT_FALSE(r.all_parts);
    EXPECT_TRUE(r.more_counterexamples.empty());
  }
}

TEST_P(RefutedParts, AllPartsGivesEveryRefutedKeyInKeyOrder) {
  const PlantedHistory planted = large_and_small_keys(GetParam());
  CheckOptions opt;
  opt.all_parts = true;
  const CheckResult r = check_history(planted.history, opt);
  ASSERT_EQ(r.verdict, Verdict::Violation) << r.reason;
  EXPECT_TRUE(r.all_parts);
  ASSERT_EQ(r.refuted_parts(), planted.refuted_keys.size()) << r.reason;
  std::vector<int64_t> keys = {*r.counterexample->key};
  for (const Counterexample& cx : r.more_counterexamples) keys.push_back(*cx.key);
  EXPECT_EQ(keys, std::vector<int64_t>(planted.refuted_keys.begin(), planted.refuted_keys.end()));
  EXPECT_EQ(r.partitions, key_count(planted.history));
  EXPECT_EQ(r.partitions_linearizable, r.partitions - planted.refuted_keys.size());
}

TEST_P(RefutedParts, AllPartsOnALinearizableHistoryGivesAWitness) {
  const SyntheticHistorySpec spec{.model = GetParam(), .operations = 3000, .keys = 50};
  const History h = make_linearizable_history(spec);
  CheckOptions opt;
  opt.all_parts = true;
  const CheckResult r = check_history(h, opt);
  ASSERT_EQ(r.verdict, Verdict::Linearizable) << r.reason;
  EXPECT_EQ(r.refuted_parts(), 0u);
  EXPECT_EQ(r.partitions_linearizable, r.partitions);
  EXPECT_EQ(r.witness.size(), h.ops.size());  // nothing pending: every operation took effect
}

INSTANTIATE_TEST_SUITE_P(KeyedModels, RefutedParts, ::testing::Values(ModelId::Set, ModelId::Map, ModelId::Multimap, ModelId::Kv),
                         [](const ::testing::TestParamInfo<ModelId>& info) { return std::string(model_info(info.param).name); });

TEST(RefutedPartsCli, TwentyChecksOfOneFileGiveOneReportAndAllPartsEveryKey) {
  const PlantedHistory planted = large_and_small_keys(ModelId::Set);
  const auto dir = fresh_temp_dir("refuted_parts", "cli");
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "planted.bin").string();
  save_history(planted.history, path, HistoryFormat::Binary);

  const CliRun first = run_cli({"check", path}, 60);
  ASSERT_EQ(first.exit_code, 1) << first.output;
  EXPECT_NE(first.output.find("on key " + std::to_string(*planted.refuted_keys.begin()) + " "), std::string::npos) << first.output;
  for (int run = 1; run < 20; ++run) {
    const CliRun again = run_cli({"check", path}, 60);
    ASSERT_EQ(untimed(again.output), untimed(first.output)) << "run " << run;
  }

  const CliRun all = run_cli({"check", path, "--all-parts", "--json"}, 60);
  ASSERT_EQ(all.exit_code, 1) << all.output;
  EXPECT_NE(all.output.find("\"refuted_parts\":" + std::to_string(planted.refuted_keys.size()) + ","), std::string::npos) << all.output;
  const std::string listed = all.output.substr(all.output.find("\"counterexamples\":["));
  std::vector<int64_t> keys;
  const std::regex key(R"("key":(-?[0-9]+))");
  for (auto m = std::sregex_iterator(listed.begin(), listed.end(), key); m != std::sregex_iterator(); ++m) keys.push_back(std::stoll((*m)[1]));
  EXPECT_EQ(keys, std::vector<int64_t>(planted.refuted_keys.begin(), planted.refuted_keys.end())) << all.output;
  std::filesystem::remove_all(dir);
}
