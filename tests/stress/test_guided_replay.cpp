// Guided replay of a GPU failure (issue 15), without a GPU: a simulator
// run's history relabeled as a GPU run's (gpu_like_history) guides
// simulated runs of the same workload. Known answers: every pair of
// operations the history orders keeps its order in a guided run (and not
// in unguided ones: the guidance is what orders them); a per-warp batch
// recording orders whole warps and nothing inside one; a planted bug's
// failure is found under guidance and replays bit for bit from its seed and
// from its schedule; what cannot be tried is refused, saying why.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>

#include "linearizability/formats.hpp"
#include "stress/commands/guided_bench.hpp"
#include "stress/run/guided_replay.hpp"
#include "stress/run/stress_session.hpp"
#include "support/temp_dir.hpp"

namespace warpcheck {
namespace {

std::filesystem::path fresh_dir(const std::string& name) { return testing::fresh_temp_dir("guided", name); }

const Structure& structure(const std::string& name) { return *registry().find(name); }

// A simulator run (seed) of a configuration, and its history as a GPU run's.
struct GpuLike {
  StressRequest request;  // the producing run's, in the simulator
  SeedRun run;
  Ops workload;
  History gpu;
};

GpuLike gpu_like(const Structure& s, const std::string& flags, uint64_t seed) {
  GpuLike g{request_from_flags(s, Backend::Sim, flags), {}, {}, {}};
  const SeedRunner runner(g.request);
  g.run = runner.run(seed);
  g.workload = runner.workload(seed);
  g.gpu = gpu_like_history(s, runner.options(), nullptr, g.run.history);
  return g;
}

// The first failing run of a configuration from `seed` on (within 200 seeds).
GpuLike failing_gpu_like(const Structure& s, const std::string& flags, uint64_t seed) {
  for (uint64_t k = seed; k < seed + 200; ++k) {
    GpuLike g = gpu_like(s, flags, k);
    if (caught_by(g.run, check_history(g.run.history), false)) return g;
  }
  ADD_FAILURE() << "no failing run of " << flags << " within 200 seeds from " << seed;
  return gpu_like(s, flags, seed);
}

Options gpu_options(const History& gpu) {
  return request_from_configuration(registry(), gpu.meta.config, "the GPU-like history", {}, {}).options;
}

// The GPU-like run's workload in the simulator, guided by its history (or
// not: `simulator_flags` alone).
StressRequest guided_request(const Structure& s, const GpuLike& g, const std::string& simulator_flags = "", bool guided = true) {
  StressRequest r = simulator_request(s, gpu_options(g.gpu), g.workload, guided ? guided_flags(s, simulator_flags) : simulator_flags);
  if (guided) r.guide = guide_from_history(g.gpu);
  return r;
}

// Operations by (team, job): one of each in runs of run_team_ops.
std::map<std::pair<uint32_t, uint32_t>, const Operation*> by_place(const History& h) {
  std::map<std::pair<uint32_t, uint32_t>, const Operation*> m;
  for (const Operation& op : h.ops) m[{op.team, op.lane}] = &op;
  return m;
}

// Pairs (a, b) the GPU history orders (a responded before b was invoked;
// with `invocations`, also a invoked before b) that `run` orders otherwise.
uint64_t pairs_out_of_order(const History& gpu, const History& run, bool invocations) {
  const auto there = by_place(gpu), here = by_place(run);
  uint64_t wrong = 0;
  for (const auto& [pa, a] : there)
    for (const auto& [pb, b] : there) {
      if (a == b) continue;
      const Operation* x = here.at(pa);
      const Operation* y = here.at(pb);
      if (!a->pending() && a->ret < b->call && !(!x->pending() && x->ret < y->call)) ++wrong;
      if (invocations && a->call < b->call && !(x->call < y->call)) ++wrong;
    }
  return wrong;
}

constexpr const char* kSortedSet = "--teams 4 --ops-per-lane 2 --keys 8";

TEST(GuidedReplay, EveryPairTheGpuHistoryOrdersKeepsItsOrderUnderGuidance) {
  const Structure& s = structure("sorted_set");
  const GpuLike g = gpu_like(s, kSortedSet, 7);
  ASSERT_FALSE(g.run.fault);
  uint64_t unguided_wrong = 0;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    for (const bool invocations : {true, false}) {
      const SeedRun run = SeedRunner(guided_request(s, g, invocations ? "" : "--guide-order real-time")).run(seed);
      ASSERT_FALSE(run.fault) << run.fault_message;
      ASSERT_TRUE(run.guidance);
      EXPECT_EQ(run.guidance->matched, g.gpu.ops.size());
      EXPECT_EQ(run.guidance->unmatched, 0u);
      EXPECT_EQ(run.guidance->forced, 0u) << sim::describe(*run.guidance);
      EXPECT_EQ(pairs_out_of_order(g.gpu, run.history, invocations), 0u) << "seed " << seed << (invocations ? "" : ", real-time only");
    }
    // The same workload unguided: the GPU's order is not what a random schedule keeps.
    const SeedRun random = SeedRunner(guided_request(s, g, "--scheduler random", false)).run(seed);
    EXPECT_FALSE(random.guidance);
    unguided_wrong += pairs_out_of_order(g.gpu, random.history, false);
  }
  EXPECT_GT(unguided_wrong, 0u) << "unguided runs keep the GPU's order by themselves: this test would not see guidance removed";
}

TEST(GuidedReplay, AGuidedRunReplaysFromItsSeedAndFromItsScheduleUnderGuidedOnly) {
  const Structure& s = structure("sorted_set");
  const GpuLike g = gpu_like(s, kSortedSet, 8);
  const StressRequest guided = guided_request(s, g);
  const SeedRun run = SeedRunner(guided).run(3);
  ASSERT_FALSE(run.schedule.empty());
  EXPECT_EQ(encode_binary(SeedRunner(guided).run(3).history), encode_binary(run.history)) << "from the seed";
  StressRequest replay = guided;
  replay.guide = nullptr;  // a schedule replays without the guide
  replay.schedule = run.schedule;
  const SeedRun again = SeedRunner(replay).run(3);
  EXPECT_FALSE(again.fault) << again.fault_message;
  EXPECT_EQ(encode_binary(again.history), encode_binary(run.history)) << "from the schedule";
  // Every begin of an operation is a point of a guided schedule: under another scheduler it does not fit.
  StressRequest other = request_from_flags(s, Backend::Sim, kSortedSet + std::string(" --scheduler random"));
  other.workload = g.workload;
  other.schedule = run.schedule;
  const SeedRun elsewhere = SeedRunner(other).run(3);
  EXPECT_TRUE(elsewhere.fault);
  EXPECT_NE(elsewhere.fault_message.find("replay mismatch"), std::string::npos) << elsewhere.fault_message;
}

// The GPU and the simulator run one workload alike: each team takes the
// same operations in the same order (the GPU's kernels slice the workload
// by team as the simulator's harnesses do; device_buffer.cuh, heap/gpu.cu,
// stadium/gpu.cu), prefills first. A simulator run's history as the guide
// of another run matches every operation, for every structure and driver,
// and is followed without force, but where clStash's queue finishes a job
// in a later round than the guide's run did (its outcomes differ): there a
// gate waits on a job its own warp has yet to reach, and is forced.
TEST(GuidedReplay, EveryStructuresOperationsMatchTheirPlacesInTheGuide) {
  struct Run {
    std::string name, flags;
    bool clstash_rounds = false;
  };
  const std::vector<Run> runs = {
      {"sorted_set", "--teams 3 --prefill 4"},
      {"slab_hash", "--mode multimap --teams 3 --prefill 4"},
      {"gfsl", "--variant fixed --chunk 16 --keys 30 --teams 3"},
      {"heap", "--variant td-fixed --teams 3 --prefill 2"},
      {"stadium", "--variant fixed --kernel stash --prefill 4"},
      {"stadium", "--variant fixed --kernel clstash --prefill 4", true},
      {"stadium", "--variant fixed --kernel hybrid --prefill 4", true},
  };
  for (const auto& [name, flags, clstash_rounds] : runs) {
    const Structure& s = structure(name);
    const GpuLike g = gpu_like(s, flags, 11);
    ASSERT_FALSE(g.run.fault) << name << " " << flags << ": " << g.run.fault_message;
    const SeedRun run = SeedRunner(guided_request(s, g)).run(1);
    ASSERT_TRUE(run.guidance) << name;
    const sim::GuidanceReport& r = *run.guidance;
    EXPECT_FALSE(run.fault) << name << " " << flags << ": " << run.fault_message;
    EXPECT_GT(r.matched, 0u) << name;
    EXPECT_EQ(r.unmatched, 0u) << name << " " << flags << ": " << sim::describe(r);
    if (!clstash_rounds) {
      EXPECT_EQ(r.forced, 0u) << name << " " << flags << ": " << sim::describe(r);
    }
  }
}

TEST(GuidedReplay, APlantedBugsFailureIsFoundUnderGuidanceAndReplaysBitForBit) {
  const Structure& s = structure("sorted_set");
  const std::string flags = "--mutant unlocked_contains --teams 8 --ops-per-lane 4 --keys 128 --buckets 4";
  const GpuLike g = failing_gpu_like(s, flags, 1000001);
  const GpuFailure failure = gpu_failure(check_history(g.gpu));
  ASSERT_EQ(failure.oracles, Oracles{kOracleChecker});
  ASSERT_TRUE(failure.key);
  SimulatorTries tries;
  tries.tries = 60;
  const StressRequest guided = guided_request(s, g);
  const SimulatorReplay r = reproduce_in_simulator(guided, failure, tries);
  ASSERT_TRUE(r.found) << "not found in " << r.tries << " guided tries";
  EXPECT_TRUE(r.by & kOracleChecker);
  EXPECT_TRUE(fails_the_same_way(failure, r.by, r.found->run.history, {}));
  ASSERT_TRUE(r.found->run.guidance);
  EXPECT_EQ(r.found->run.guidance->unmatched, 0u);
  const std::string bytes = encode_binary(r.found->run.history);
  EXPECT_EQ(encode_binary(SeedRunner(guided).run(r.found->seed).history), bytes);
  StressRequest replay = guided;
  replay.schedule = r.found->run.schedule;
  EXPECT_EQ(encode_binary(SeedRunner(replay).run(r.found->seed).history), bytes);
}

TEST(GuidedReplay, AViolationOnAnotherKeyIsNotTheSameFailure) {
  const Structure& s = structure("sorted_set");
  const GpuLike g = failing_gpu_like(s, "--mutant unlocked_contains --teams 3 --keys 8", 1000001);
  const CheckResult check = check_history(g.gpu);
  const GpuFailure failure = gpu_failure(check);
  ASSERT_TRUE(failure.key);
  EXPECT_TRUE(fails_the_same_way(failure, kOracleChecker, g.run.history, {}));
  GpuFailure elsewhere = failure;
  elsewhere.key = *failure.key + 1000;  // no operation there: nothing refuted
  EXPECT_FALSE(fails_the_same_way(elsewhere, kOracleChecker, g.run.history, {}));
  EXPECT_FALSE(fails_the_same_way(failure, kOracleInvariants, g.run.history, {})) << "another oracle";
  EXPECT_TRUE(fails_the_same_way(GpuFailure{}, kOracleInvariants, g.run.history, {})) << "unknown: any oracle";
  EXPECT_FALSE(fails_the_same_way(GpuFailure{}, 0, g.run.history, {})) << "a run that passed";
}

// warpcheck repro DIR/history.bin --in-simulator, in process: the failure,
// its files, its seed and schedule, both replays on the spot; the written
// history reruns bit for bit from the seed (its --guide) and from its schedule.
TEST(GuidedReplay, ReproInTheSimulatorWritesASeedAndScheduleThatReplay) {
  const auto dir = fresh_dir("repro");
  const Structure& s = structure("sorted_set");
  const GpuLike g = failing_gpu_like(s, "--mutant unlocked_contains --teams 8 --ops-per-lane 4 --keys 128 --buckets 4", 1000001);
  std::filesystem::create_directories(dir / "gpu");
  const std::string gpu_path = (dir / "gpu" / "history.bin").string();
  save_history(g.gpu, gpu_path, HistoryFormat::Binary);
  const std::string out_dir = (dir / "sim").string();
  std::ostringstream out, err;
  const int code = run_stress_request(request_from_history(registry(), gpu_path, {{"tries", "60"}, {"out", out_dir}}, {"in-simulator", "quiet"}),
                                      out, err);
  ASSERT_EQ(code, 1) << out.str();
  for (const char* said : {"reproduced in the simulator at try", "simulator seed: ",
                           "and its schedule: reproduced bit for bit", "alone (guided again): reproduced bit for bit"})
    EXPECT_NE(out.str().find(said), std::string::npos) << said << "\n" << out.str();
  for (const char* f : {"history.bin", "schedule.txt", "workload.txt", "report.html"})
    EXPECT_TRUE(std::filesystem::exists(dir / "sim" / f)) << f;
  const std::string written = (dir / "sim" / "history.bin").string();
  for (const std::map<std::string, std::string>& how :
       {std::map<std::string, std::string>{}, {{"schedule", "@" + out_dir + "/schedule.txt"}}}) {
    std::ostringstream again;
    EXPECT_EQ(run_stress_request(request_from_history(registry(), written, how, {"quiet"}), again, err), 1) << again.str();
    EXPECT_NE(again.str().find("reproduced bit for bit"), std::string::npos) << again.str();
  }
  std::filesystem::remove_all(dir);
}

// A GPU run's recipe comes along as its simulator analogue (delays), under guidance.
TEST(GuidedReplay, AGpuRunsRecipeComesAlongAsTheSimulatorsDelays) {
  const auto dir = fresh_dir("recipe");
  const Structure& s = structure("sorted_set");
  GpuLike g = failing_gpu_like(s, "--mutant unlocked_contains --teams 3 --keys 8", 1000001);
  Options gpu = gpu_options(g.gpu);
  gpu.set("recipe", canonical_recipe("preset:delays"));
  g.gpu.meta.config = run_configuration(s, gpu, nullptr);
  std::filesystem::create_directories(dir);
  save_history(g.gpu, (dir / "history.bin").string(), HistoryFormat::Binary);
  std::ostringstream out, err;
  const int code = run_stress_request(
      request_from_history(registry(), (dir / "history.bin").string(), {{"tries", "30"}, {"out", (dir / "sim").string()}}, {"in-simulator", "quiet"}),
      out, err);
  EXPECT_EQ(code, 1) << out.str();
  EXPECT_NE(out.str().find("--scheduler guided"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find(simulator_analogue(parse_recipe(canonical_recipe("preset:delays")))), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("alone (guided again): reproduced bit for bit"), std::string::npos) << out.str();
  std::filesystem::remove_all(dir);
}

TEST(GuidedReplay, NoFailureWithinTheTriesIsSaidPlainly) {
  const auto dir = fresh_dir("none");
  const Structure& s = structure("sorted_set");
  const GpuLike g = gpu_like(s, kSortedSet, 5);  // correct: nothing to reproduce
  ASSERT_FALSE(caught_by(g.run, check_history(g.run.history), false));
  std::filesystem::create_directories(dir);
  save_history(g.gpu, (dir / "history.bin").string(), HistoryFormat::Binary);
  std::ostringstream out, err;
  EXPECT_EQ(run_stress_request(request_from_history(registry(), (dir / "history.bin").string(), {{"tries", "3"}}, {"in-simulator", "quiet"}),
                               out, err),
            2);
  EXPECT_NE(out.str().find("NOT reproduced in the simulator: none of 3 guided tries"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("closest to the GPU's run: schedule seed"), std::string::npos) << out.str();
  // The comparison: the same tries under the run's own scheduler.
  std::ostringstream unguided;
  EXPECT_EQ(run_stress_request(request_from_history(registry(), (dir / "history.bin").string(), {{"tries", "3"}},
                                                    {"in-simulator", "unguided", "quiet"}),
                               unguided, err),
            2);
  EXPECT_NE(unguided.str().find("NOT reproduced in the simulator: none of 3 unguided tries"), std::string::npos) << unguided.str();
  EXPECT_EQ(unguided.str().find("--scheduler guided"), std::string::npos) << unguided.str();
  std::filesystem::remove_all(dir);
}

TEST(GuidedReplay, WhatCannotBeTriedIsRefusedSayingWhy) {
  const auto dir = fresh_dir("refused");
  std::filesystem::create_directories(dir);
  const Structure& s = structure("sorted_set");
  auto refused = [&](const std::function<void()>& f, const std::string& why) {
    try {
      f();
      ADD_FAILURE() << "not refused: " << why;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  // A simulator run's history is replayed as it is, not guided.
  const GpuLike g = gpu_like(s, kSortedSet, 5);
  const std::string sim_path = (dir / "sim.bin").string();
  History sim = g.run.history;
  sim.meta.config = run_configuration(s, SeedRunner(g.request).options(), nullptr);
  save_history(sim, sim_path, HistoryFormat::Binary);
  std::ostringstream out, err;
  refused([&] { run_stress_request(request_from_history(registry(), sim_path, {}, {"in-simulator"}), out, err); },
          "not a GPU run's");
  refused([&] { run_stress_request(request_from_history(registry(), sim_path, {{"tries", "4"}}, {}), out, err); },
          "--tries goes with warpcheck repro");
  // More lanes than the simulator takes.
  const Options big = request_from_flags(s, Backend::Gpu, "--teams 200").options;
  refused([&] { simulator_request(s, big, {}, " --scheduler guided"); }, "past the simulator's 4096");
  // A guided run needs its guide, and the guide's workload.
  refused([&] { SeedRunner(request_from_flags(s, Backend::Sim, "--scheduler guided")); }, "give it as --guide FILE");
  const std::string gpu_path = (dir / "gpu.bin").string();
  save_history(g.gpu, gpu_path, HistoryFormat::Binary);
  refused([&] { SeedRunner(request_from_flags(s, Backend::Sim, "--scheduler guided --guide " + gpu_path)); }, "--workload");
  StressRequest other = request_from_flags(s, Backend::Sim, "--scheduler guided --teams 4 --guide " + gpu_path);
  other.workload = SeedRunner(g.request).workload(6);  // another seed's
  refused([&] { SeedRunner r(other); }, "its workload differs");
  StressRequest shape = request_from_flags(s, Backend::Sim, "--scheduler guided --teams 5 --guide " + gpu_path);
  shape.repro_seed = 5;
  refused([&] { SeedRunner r(shape); }, "it ran 4 teams of 32 lanes");
  std::filesystem::remove_all(dir);
}

// A per-warp batch recording (batch_log) gives a warp's operations one
// interval: they order whole warps (a warp that responded before another
// was invoked; a warp's first operation, the one its invocation stamp
// proves began then, before a warp invoked later) and nothing inside a warp.
TEST(Guidance, ABatchRecordingOrdersWholeWarpsAndNothingInsideOne) {
  auto guide = std::make_shared<sim::Guide>();
  // Warps 0 [10, 20], 1 [30, 40], 2 [15, 35]: three operations each.
  const std::pair<uint64_t, uint64_t> warp[] = {{10, 20}, {30, 40}, {15, 35}};
  for (uint32_t w = 0; w < 3; ++w)
    for (uint32_t j = 0; j < 3; ++j) {
      sim::GuideOp o;
      o.stream = w;
      o.slot = j;
      o.job = j;
      o.kind = OpKind::Contains;
      o.call = warp[w].first;
      o.ret = warp[w].second;
      o.result_kind = ResultKind::Bool;
      o.result = 1;
      o.compare_result = true;
      guide->ops.push_back(o);
    }
  for (const bool invocations : {true, false}) {
    sim::Guidance g(guide, invocations);
    const void* log = nullptr;
    std::vector<uint32_t> op(9);
    for (uint32_t w = 0; w < 3; ++w)
      for (uint32_t j = 0; j < 3; ++j) op[3 * w + j] = g.arrive(log, w, j, j, OpKind::Contains);
    for (uint32_t j = 0; j < 3; ++j) {
      EXPECT_TRUE(g.may_begin(op[j])) << "warp 0 follows nothing";
      EXPECT_FALSE(g.may_begin(op[3 + j])) << "warp 1 follows warp 0's responses";
      EXPECT_EQ(g.may_begin(op[6 + j]), !invocations) << "warp 2 follows warp 0's invocations, when those count";
    }
    g.begins(op[0]);
    for (uint32_t j = 0; j < 3; ++j)
      EXPECT_TRUE(g.may_begin(op[6 + j])) << "warp 0's first operation began: its later ones are not proven to have begun by 15";
    for (uint32_t j = 1; j < 3; ++j) g.begins(op[j]);
    for (uint32_t j = 0; j < 2; ++j) g.end(log, 0, j, ResultKind::Bool, 1);
    EXPECT_FALSE(g.may_begin(op[3])) << "one of warp 0's operations has yet to respond";
    g.end(log, 0, 2, ResultKind::Bool, 0);
    EXPECT_EQ(g.may_begin(op[3]), !invocations) << "and warp 2's invocation comes before warp 1's";
    g.begins(op[6]);
    for (uint32_t j = 0; j < 3; ++j) EXPECT_TRUE(g.may_begin(op[3 + j]));
    EXPECT_EQ(g.report().compared, 3u);
    EXPECT_EQ(g.report().equal, 2u) << "one result unlike the guide's";
    EXPECT_NE(g.report().first_divergence.find("team 0 job 2 contains: true on the GPU, false here"), std::string::npos)
        << g.report().first_divergence;
  }
}

// A gate whose operations will not come (its team stopped) is opened by
// force, what it waited for released and counted: the run stays bounded.
TEST(Guidance, AForcedGateReleasesWhatItWaitedForAndSaysSo) {
  auto guide = std::make_shared<sim::Guide>();
  for (uint32_t w = 0; w < 2; ++w) {
    sim::GuideOp o;
    o.stream = w;
    o.call = 10 + 20 * w;
    o.ret = 20 + 20 * w;
    guide->ops.push_back(o);
  }
  sim::Guidance g(guide, true);
  const uint32_t late = g.arrive(nullptr, 1, 0, 0, OpKind::Insert);
  EXPECT_FALSE(g.may_begin(late));
  g.force(late);
  EXPECT_TRUE(g.may_begin(late));
  EXPECT_EQ(g.report().forced, 1u);
  EXPECT_FALSE(g.report().on_track());
  EXPECT_EQ(g.arrive(nullptr, 1, 7, 0, OpKind::Insert), sim::Guidance::kNone) << "past its stream: unmatched";
  EXPECT_EQ(g.report().conflicting, 0u);
  EXPECT_EQ(g.arrive(nullptr, 0, 0, 5, OpKind::Insert), sim::Guidance::kNone) << "another job at its place";
  EXPECT_EQ(g.report().conflicting, 1u);
}

}  // namespace
}  // namespace warpcheck
