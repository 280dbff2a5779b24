// The stress session end to end, in process: a failure found, shrunk and
// written; its history alone replays it bit for bit; a history that holds
// no run configuration, or a damaged one, is refused clearly.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>

#include "linearizability/formats.hpp"
#include "stress/harness/seed_runs.hpp"
#include "stress/seam/registry.hpp"
#include "stress/run/stress_session.hpp"
#include "support/temp_dir.hpp"

namespace warpcheck {
namespace {

std::filesystem::path fresh_dir(const std::string& name) { return testing::fresh_temp_dir("session", name); }

TEST(StressSession, AShrunkSimulatorFailureReplaysFromItsHistoryAlone) {
  const auto dir = fresh_dir("shrunk");
  const Structure& s = *registry().find("slab_hash");
  StressRequest r = request_from_flags(s, Backend::Sim, "--mode multimap --mutant delete_by_exchange --seeds 50 --quiet --out " + dir.string());
  std::ostringstream out, err;
  ASSERT_EQ(run_stress_request(r, out, err), 1) << out.str();
  ASSERT_NE(out.str().find("shrunk the failing workload"), std::string::npos) << out.str();
  const History recorded = load_history((dir / "history.bin").string());
  EXPECT_NE(recorded.meta.config.find("\"workload\":"), std::string::npos) << "a shrunk workload is not the seed's: it is stored";
  EXPECT_NE(recorded.meta.config.find("\"mutant\":\"delete_by_exchange\""), std::string::npos);

  std::ostringstream again, again_err;
  const StressRequest replay = request_from_history(registry(), (dir / "history.bin").string(), {{"out", (dir / "again").string()}}, {"quiet"});
  EXPECT_EQ(run_stress_request(replay, again, again_err), 1) << again.str();
  EXPECT_NE(again.str().find("reproduced bit for bit"), std::string::npos) << again.str();
  // The same run and the same failure; only the record's reproduce line names its own folder.
  History rerun = load_history((dir / "again" / "history.bin").string()), first = recorded;
  ASSERT_TRUE(rerun.meta.failure && first.meta.failure);
  EXPECT_EQ(rerun.meta.failure->oracle, first.meta.failure->oracle);
  EXPECT_EQ(rerun.meta.failure->message, first.meta.failure->message);
  EXPECT_EQ(rerun.meta.failure->reproduce, "warpcheck repro " + (dir / "again" / "history.bin").string());
  rerun.meta.failure.reset();
  first.meta.failure.reset();
  EXPECT_EQ(encode_binary(rerun), encode_binary(first));
  std::filesystem::remove_all(dir);
}

// Shrinking keeps the failure's kind: a deadlock shrinks into a deadlock,
// or not at all; asked to keep another kind, no shrink of a deadlocking
// workload is taken and the shrinker says it no longer fails that way.
TEST(StressSession, AShrinkKeepsTheOracleThatFiredFirst) {
  const Structure& s = *registry().find("sorted_set");
  const StressRequest r = request_from_flags(s, Backend::Sim, "--mutant keep_lock_on_miss --seeds 3 --quiet");
  const SeedRunner runner(r);
  uint64_t seed = 0;
  for (uint64_t k = 1; k <= 3 && !seed; ++k)
    if (runner.run(k).fault) seed = k;
  ASSERT_NE(seed, 0u) << "keep_lock_on_miss deadlocks within 3 seeds";
  CheckOptions check;
  const auto same = shrink_failure(runner.target(), runner.simulator(), seed, FailureOracle::Deadlock, check, false, 6);
  ASSERT_TRUE(same);
  EXPECT_TRUE(same->failure.run.fault);
  EXPECT_EQ(same->failure.run.fault_kind, FaultKind::SpinBound);
  const auto other = shrink_failure(runner.target(), runner.simulator(), seed, FailureOracle::Invariants, check, false, 6);
  EXPECT_FALSE(other) << "a deadlock was shrunk as if it were a broken invariant";
}

TEST(StressSession, AnUnshrunkFailureReplaysFromItsHistoryToo) {
  const auto dir = fresh_dir("unshrunk");
  const Structure& s = *registry().find("heap");
  StressRequest r = request_from_flags(s, Backend::Sim, "--variant td --seeds 50 --quiet --no-shrink --out " + dir.string());
  std::ostringstream out, err;
  ASSERT_EQ(run_stress_request(r, out, err), 1) << out.str();
  const History recorded = load_history((dir / "history.bin").string());
  EXPECT_EQ(recorded.meta.config.find("\"workload\":"), std::string::npos) << "the seed's own workload is not stored";
  std::ostringstream again;
  EXPECT_EQ(run_stress_request(request_from_history(registry(), (dir / "history.bin").string(), {}, {"quiet"}), again, err), 1);
  EXPECT_NE(again.str().find("reproduced bit for bit"), std::string::npos) << again.str();
  std::filesystem::remove_all(dir);
}

// The targeted scheduler's preemptions are drawn from the seed and live in
// the schedule's picks: its failure comes back bit for bit from the seed
// and, with preemptions off as in every replay, from the printed schedule.
TEST(StressSession, ATargetedScheduleFailureReplaysFromItsSeedAndItsSchedule) {
  const auto dir = fresh_dir("targeted");
  const Structure& s = *registry().find("slab_hash");
  StressRequest r = request_from_flags(s, Backend::Sim,
                                       "--mode multimap --variant paper --fixes compare_source_key,replace_cas_seen_pair,"
                                       "delete_cas_found_pair,delete_ends_source_only,value_from_key_load,initialize_fresh_slab,"
                                       "link_cas_release,relaxed_slab_loads --scheduler targeted --keys 1 --teams 3 "
                                       "--ops-per-lane 8 --mix insert=45,erase=45,contains=10 --seeds 200 --quiet --no-shrink --out " +
                                           dir.string());
  std::ostringstream out, err;
  ASSERT_EQ(run_stress_request(r, out, err), 1) << out.str();
  ASSERT_TRUE(std::filesystem::exists(dir / "schedule.txt")) << out.str();
  const std::string history = (dir / "history.bin").string();
  for (const std::map<std::string, std::string>& replay :
       {std::map<std::string, std::string>{}, {{"schedule", "@" + (dir / "schedule.txt").string()}}}) {
    std::ostringstream again;
    EXPECT_EQ(run_stress_request(request_from_history(registry(), history, replay, {"quiet"}), again, err), 1) << again.str();
    EXPECT_NE(again.str().find("reproduced bit for bit"), std::string::npos)
        << (replay.empty() ? "from the seed: " : "from the schedule: ") << again.str();
  }
  std::filesystem::remove_all(dir);
}

TEST(StressSession, HistoriesWithoutARunConfigurationAreRefused) {
  const auto dir = fresh_dir("refused");
  std::filesystem::create_directories(dir);
  History h;
  h.meta.model = ModelId::Set;
  save_history(h, (dir / "none.bin").string(), HistoryFormat::Binary);
  h.meta.config = "{\"structure\":\"no-such-structure\",\"options\":{}}";
  save_history(h, (dir / "unknown.bin").string(), HistoryFormat::Binary);
  h.meta.config = "{\"structure\":\"slab_hash\",\"options\":{\"backend\":\"sim\",\"keys\":\"-4\"}}";
  save_history(h, (dir / "bad_value.bin").string(), HistoryFormat::Binary);
  auto message = [&](const std::string& file) {
    try {
      request_from_history(registry(), (dir / file).string(), {}, {});
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_NE(message("none.bin").find("no run configuration"), std::string::npos);
  EXPECT_NE(message("unknown.bin").find("no structure 'no-such-structure'"), std::string::npos);
  EXPECT_NE(message("bad_value.bin").find("--keys"), std::string::npos);
  EXPECT_THROW(request_from_history(registry(), (dir / "unknown.bin").string(), {{"keys", "4"}}, {}), std::invalid_argument);
  std::filesystem::remove_all(dir);
}

// A GPU fault names its lane as the simulator's reports do, in the words
// of the structure's team (the Target passes them in GpuRunSettings).
TEST(GpuFaultReport, NamesTheFaultingLaneInTheStructuresWords) {
  cuda_backend::device_faults f{};
  f.count = 3;
  f.kind = uint32_t(cuda_backend::fault_kind::spin_bound);
  f.team = 2;
  f.lane = 7;
  EXPECT_NE(describe_gpu_faults(f, {}, {}, "warp").find("first: warp 2 lane 7, spin bound"), std::string::npos);
  EXPECT_NE(describe_gpu_faults(f, {}, {}, "block").find("first: block 2 thread 7, spin bound"), std::string::npos);
  f.lane = 0;
  EXPECT_NE(describe_gpu_faults(f, {}, {}, "thread").find("first: thread 2, spin bound"), std::string::npos);
  EXPECT_EQ(sim::lane_place("warp", 2, 7), sim::lane_place(sim::team_word_for(32), 2, 7));
}

}  // namespace
}  // namespace warpcheck
