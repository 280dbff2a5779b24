// Hand-written histories with known verdicts (tests/data/known, file names
// start with lin_ or viol_), checked from JSON lines or EDN and again after
// conversion to the binary format.
#include <gtest/gtest.h>

#include <sstream>

#include "linearizability/checker.hpp"
#include "linearizability/formats.hpp"
#include "linearizability/witness.hpp"
#include "support/test_data.hpp"

using namespace warpcheck;
using namespace warpcheck::testing;

TEST(KnownAnswers, EveryFileGivesItsVerdictInEveryFormat) {
  const auto files = files_in("known");
  ASSERT_GE(files.size(), 40u);
  std::set<ModelId> models_with_lin, models_with_viol;
  for (const auto& path : files) {
    SCOPED_TRACE(path.filename().string());
    const bool expect_lin = path.filename().string().rfind("lin_", 0) == 0;
    const std::optional<ModelId> model = path.extension() == ".edn" ? model_in_name(path) : std::nullopt;
    const History h = load_history(path.string(), model);
    const History from_binary = read_binary(encode_binary(h), "in-memory");
    for (const History* version : {&h, &from_binary}) {
      const CheckResult r = check_history(*version);
      EXPECT_EQ(r.verdict, expect_lin ? Verdict::Linearizable : Verdict::Violation) << r.reason;
      if (r.verdict == Verdict::Linearizable) {
        EXPECT_FALSE(witness_error(*version, r.witness).has_value());
      }
      if (r.verdict == Verdict::Violation) {
        ASSERT_TRUE(r.counterexample.has_value());
        EXPECT_EQ(check_history(r.counterexample->history).verdict, Verdict::Violation);
      }
    }
    (expect_lin ? models_with_lin : models_with_viol).insert(h.meta.model);
  }
  EXPECT_EQ(models_with_lin.size(), std::size(kModels)) << "every model needs a linearizable known answer";
  EXPECT_EQ(models_with_viol.size(), std::size(kModels)) << "every model needs a violating known answer";
}

TEST(KnownAnswers, CounterexampleOfStaleReadIsTheInsertAndTheRead) {
  const History h = load_history((test_data_dir() / "known/viol_set_one_bad_key_among_many.jsonl").string());
  const CheckResult r = check_history(h);
  ASSERT_EQ(r.verdict, Verdict::Violation);
  const Counterexample& cx = *r.counterexample;
  EXPECT_EQ(cx.key, 7);
  EXPECT_TRUE(cx.minimal);
  // insert(7) then two successful erases: none of them can be dropped.
  ASSERT_EQ(cx.history.ops.size(), 3u);
  EXPECT_EQ(cx.history.ops[0].id, 7u);
  EXPECT_EQ(cx.history.ops[1].id, 100u);
  EXPECT_EQ(cx.history.ops[2].id, 101u);
  ASSERT_EQ(cx.longest_with.size(), 3u);
  EXPECT_EQ(cx.longest_with[1].size(), 2u);  // insert, erase: then the second erase is stuck
  EXPECT_TRUE(cx.longest_with[2].empty());   // real time puts it after the first erase
}

// Histories the client corpus recorded on an H200 from public libraries
// (bench/clients, docs/clients.md), each its row's smallest failing launch:
// the counterexample the write-up quotes stays the one the checker gives.
TEST(KnownAnswers, TheClientCorpusFindingsKeepTheirCounterexamples) {
  struct Finding {
    const char* file;
    const char* client;  // the recording's header names the driver
    int64_t key;
    size_t ops;
    const char* reason;
  };
  const Finding findings[] = {
      {"viol_map_cuco_static_map_cg4_find_reads_an_erased_slot.bin", "cuco_static_map_cg4", 5, 1,
       "find(5) -> -1 returned a value never written"},
      {"viol_map_cuco_static_map_insert_after_erase_duplicates_a_key.bin", "cuco_static_map", 45, 2,
       "insert(45,109) -> true needs the key absent after insert(45,76) -> true returned"},
      {"viol_set_cuco_static_set_phases_insert_after_erase_duplicates_a_key.bin", "cuco_static_set", 33, 2, ""},
      {"viol_map_mvgpubtree_erase_misses_an_upserted_key.bin", "mvgpubtree_blink", 55, 2,
       "erase(55) -> false needs the key absent after upsert(55,175) returned"},
  };
  for (const Finding& f : findings) {
    SCOPED_TRACE(f.file);
    const History h = load_history((test_data_dir() / "known" / f.file).string());
    EXPECT_NE(h.meta.config.find(std::string("\"client\":\"") + f.client + "\""), std::string::npos) << h.meta.config;
    const CheckResult r = check_history(h);
    ASSERT_EQ(r.verdict, Verdict::Violation);
    ASSERT_TRUE(r.counterexample.has_value());
    EXPECT_EQ(r.counterexample->key, f.key);
    EXPECT_EQ(r.counterexample->history.ops.size(), f.ops);
    EXPECT_TRUE(r.counterexample->minimal);
    EXPECT_NE(r.reason.find(f.reason), std::string::npos) << r.reason;
  }
  // The set's: one insert(33) -> true, then, after a launch of erases, another.
  const History set = load_history((test_data_dir() / "known" / findings[2].file).string());
  const CheckResult r = check_history(set);
  ASSERT_EQ(r.verdict, Verdict::Violation);
  for (const Operation& op : r.counterexample->history.ops) {
    EXPECT_EQ(op.data.kind, OpKind::Insert);
    EXPECT_EQ(op.data.result, 1);
    EXPECT_EQ(op.data.key, 33);
  }
}
