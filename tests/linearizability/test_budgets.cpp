// Budgets are honoured inside long steps: a batch of a million keys, the
// cache's growth, the whole process's resident memory. The in-process
// tests are exact (an expired deadline must stop the very first step); the
// command-line ones check the promises users see, with wide margins.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "linearizability/checker.hpp"
#include "linearizability/formats.hpp"
#include "linearizability/synthetic/synthetic_history.hpp"
#include "support/run_cli.hpp"

using namespace warpcheck;
using namespace warpcheck::testing;

namespace {

// The issue's reproduction: one push of `keys` keys, then a pop whose
// result is wrong (5 is not the smallest).
History huge_push_then_wrong_pop(uint32_t keys) {
  History h;
  h.meta.model = ModelId::PriorityQueue;
  h.key_pool.resize(keys + 1);
  for (uint32_t i = 0; i < keys; ++i) h.key_pool[i] = i;
  h.key_pool[keys] = 5;
  Operation push;
  push.id = 0;
  push.call = 0;
  push.ret = 10;
  push.data.kind = OpKind::Push;
  push.data.keys_count = keys;
  Operation pop;
  pop.id = 1;
  pop.call = 20;
  pop.ret = 30;
  pop.data.kind = OpKind::Pop;
  pop.data.value = 1;
  pop.data.result_kind = ResultKind::Keys;
  pop.data.out_begin = keys;
  pop.data.out_count = 1;
  h.ops = {push, pop};
  validate_history(h, "huge push");
  return h;
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("warpcheck_budget_" + std::to_string(getpid()) + "_" + name)).string();
}

}  // namespace

TEST(Budgets, AnExpiredDeadlineStopsTheFirstStepInsideItsBatch) {
  // Two operations: the search's own periodic checks never come round. Only
  // a check inside the push's batch can see that the time is up.
  const History h = huge_push_then_wrong_pop(1000000);
  CheckOptions opt;
  opt.timeout_seconds = 1e-9;
  const CheckResult r = check_history(h, opt);
  EXPECT_EQ(r.verdict, Verdict::Unknown) << r.reason;
  EXPECT_NE(r.reason.find("time budget ran out"), std::string::npos) << r.reason;
}

TEST(Budgets, ResidentMemoryLimitStopsTheFirstStepInsideItsBatch) {
  const History h = huge_push_then_wrong_pop(1000000);
  CheckOptions opt;
  opt.resident_limit_bytes = 1;  // already spent before the search starts
  const CheckResult r = check_history(h, opt);
  EXPECT_EQ(r.verdict, Verdict::Unknown) << r.reason;
  EXPECT_NE(r.reason.find("memory budget ran out"), std::string::npos) << r.reason;
}

TEST(Budgets, TimeoutHoldsOnTheIssuesHugeBatch) {
  const std::string path = temp_path("huge_batch.bin");
  save_history(huge_push_then_wrong_pop(1000000), path, HistoryFormat::Binary);
  const CliRun run = run_cli({"check", path, "--timeout", "5"}, 30);
  std::filesystem::remove(path);
  EXPECT_FALSE(run.killed) << "ran past 30 s";
  EXPECT_LE(run.seconds, 5.5);
  EXPECT_TRUE(run.exit_code == 1 || run.exit_code == 2) << run.exit_code << "\n" << run.output.substr(0, 400);
}

// Reading polls from the first byte: the checksum of a mapped file reads it
// from disk (a 2.9 GB history once took 35 s against --timeout 1), and the
// duplicate-id scan of 30M operations takes seconds; each polls as the
// records' parse and validation do.
TEST(Budgets, ReadingABinaryFilePollsFromItsFirstBytes) {
  const SyntheticHistorySpec spec{.model = ModelId::Set, .operations = 400000};
  const std::string path = temp_path("polled.bin");
  save_history(make_linearizable_history(spec), path, HistoryFormat::Binary);
  const size_t bytes = std::filesystem::file_size(path);
  size_t polls = 0;
  {
    const detail::ScopedLongStepPoller counting([](void* n) { ++*static_cast<size_t*>(n); }, nullptr, &polls);
    load_history(path);
  }
  std::filesystem::remove(path);
  const size_t per_pass = spec.operations / 65536;
  // Every 16 MB of the checksum, and every 65,536 records in each of the
  // three passes (parse, validate, duplicate ids).
  EXPECT_GE(polls, (bytes >> 24) + 3 * per_pass) << bytes << " bytes";
}

TEST(Budgets, MemoryBoundsThePeakResidentSizeOfTheProcess) {
  // A register history whose search fills its cache fast (the search
  // itself: the distinct-value register checker would decide it at once):
  // the budget must stop it before the process passes the limit, not at
  // twice the limit.
  const SyntheticHistorySpec spec{.model = ModelId::Register, .operations = 2000, .overlap = 100, .pending = 0.3};
  const std::string path = temp_path("register.bin");
  save_history(make_linearizable_history(spec), path, HistoryFormat::Binary);
  const CliRun run = run_cli({"check", path, "--algo", "search", "--memory", "96", "--timeout", "30"}, 60);
  std::filesystem::remove(path);
  EXPECT_EQ(run.exit_code, 2) << run.output.substr(0, 400);
  EXPECT_NE(run.output.find("memory budget ran out"), std::string::npos) << run.output.substr(0, 400);
  EXPECT_LE(run.peak_rss_kb, 96u * 1024 * 11 / 10) << "peak RSS " << run.peak_rss_kb / 1024 << " MB under --memory 96";
}
