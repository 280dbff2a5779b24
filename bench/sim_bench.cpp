// Scheduling points per second of the simulator on one core: every shared
// access, atomic, fence, collective and spin iteration is one step (one
// scheduler decision and two context switches).
#include <benchmark/benchmark.h>

#include "stress/sorted_set/config.hpp"
#include "structures/core/sim/sim_team.hpp"

namespace warpcheck::sim {
namespace {

SimConfig config(uint32_t teams, uint32_t lanes, SchedulerKind k, uint64_t seed) {
  SimConfig c;
  c.teams = teams;
  c.lanes = lanes;
  c.scheduler = k;
  c.seed = seed;
  c.pct_steps = 100000;
  return c;
}

// Every lane loads and adds to shared words: pure scheduling points.
void BM_SharedAccesses(benchmark::State& state) {
  const SchedulerKind kind = state.range(0) ? SchedulerKind::Pct : SchedulerKind::Random;
  const uint32_t teams = static_cast<uint32_t>(state.range(1));
  uint64_t steps = 0, seed = 0;
  std::vector<uint64_t> words(64);
  for (auto _ : state) {
    Simulator sim(config(teams, 32, kind, ++seed));
    const RunReport r = sim.run([&](sim_team& t) {
      uint64_t* w = &words[t.global_lane() % words.size()];
      for (int i = 0; i < 200; ++i) t.fetch_add(w, t.load(w, core::order::relaxed, core::scope::gpu) & 1, core::order::relaxed, core::scope::gpu);
    });
    if (!r.ok()) state.SkipWithError(r.message.c_str());
    steps += r.steps;
  }
  state.counters["steps/s"] = benchmark::Counter(double(steps), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SharedAccesses)
    ->ArgsProduct({{0, 1}, {1, 4, 16}})
    ->ArgNames({"pct", "teams"})
    ->Unit(benchmark::kMillisecond);

// Collectives: a warp agreeing on ballots and broadcasts.
void BM_Collectives(benchmark::State& state) {
  uint64_t steps = 0, seed = 0;
  for (auto _ : state) {
    Simulator sim(config(4, 32, SchedulerKind::Random, ++seed));
    const RunReport r = sim.run([&](sim_team& t) {
      uint32_t x = t.lane();
      for (int i = 0; i < 100; ++i) x += t.shfl(x, (t.lane() + 1) % 32) + t.ballot(x & 1);
      benchmark::DoNotOptimize(x);
    });
    steps += r.steps;
  }
  state.counters["steps/s"] = benchmark::Counter(double(steps), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Collectives)->Unit(benchmark::kMillisecond);

// The whole thing: the sorted-array set recorded under the simulator (run
// only; no check).
void BM_SortedSetRun(benchmark::State& state) {
  SortedSetConfig c;
  c.teams = static_cast<uint32_t>(state.range(0));
  c.ops_per_lane = 2;
  c.keys = 64;
  c.buckets = 4;
  uint64_t steps = 0, ops = 0, seed = 0;
  for (auto _ : state) {
    SimConfig s = config(c.teams, 32, SchedulerKind::Random, ++seed);
    const TargetRun run = run_sorted_set_sim(c, s);
    steps += run.report.steps;
    ops += run.history.ops.size();
  }
  state.counters["steps/s"] = benchmark::Counter(double(steps), benchmark::Counter::kIsRate);
  state.counters["ops/s"] = benchmark::Counter(double(ops), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SortedSetRun)->Arg(2)->Arg(8)->ArgName("warps")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace warpcheck::sim

BENCHMARK_MAIN();
