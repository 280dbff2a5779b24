// Benchmarks of the general checker (issue 2), run as build/bench/checker_bench and
// recorded in bench/RESULTS.md ("The checker", issues 2 and 3). Each builds its history once, outside the
// timed loop, and reports operations checked and model steps per second.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>

#include "linearizability/checker.hpp"
#include "linearizability/formats.hpp"
#include "linearizability/synthetic/synthetic_history.hpp"

using namespace warpcheck;

namespace {

const History& cached_history(ModelId model, size_t ops, int64_t keys, uint64_t overlap, bool hints = false,
                              uint32_t warp_batch = 0, double pending = 0) {
  static std::map<std::tuple<ModelId, size_t, int64_t, uint64_t, bool, uint32_t, double>, History> cache;
  auto key = std::make_tuple(model, ops, keys, overlap, hints, warp_batch, pending);
  auto it = cache.find(key);
  if (it == cache.end()) {
    SyntheticHistorySpec spec;
    spec.model = model;
    spec.operations = ops;
    spec.keys = keys;
    spec.overlap = overlap;
    spec.seed = 2026;
    spec.hints = hints;
    spec.warp_batch = warp_batch;
    spec.batch = warp_batch ? 1 : spec.batch;
    spec.pending = pending;
    it = cache.emplace(key, make_linearizable_history(spec)).first;
  }
  return it->second;
}

// Mean number of other operations each operation overlaps, measured.
double mean_overlap(const History& h) {
  std::vector<uint64_t> calls, rets;
  for (const Operation& op : h.ops) {
    calls.push_back(op.call);
    rets.push_back(op.ret);
  }
  std::sort(calls.begin(), calls.end());
  std::sort(rets.begin(), rets.end());
  double total = 0;
  for (const Operation& op : h.ops) {
    // Others invoked no later than op returns, minus those that returned before op was invoked.
    const auto invoked = std::upper_bound(calls.begin(), calls.end(), op.ret) - calls.begin();
    const auto finished = std::lower_bound(rets.begin(), rets.end(), op.call) - rets.begin();
    total += double(invoked - finished - 1);
  }
  return total / double(h.ops.size());
}

void run_check(benchmark::State& state, const History& h, CheckOptions opt) {
  uint64_t steps = 0;
  Verdict verdict = Verdict::Unknown;
  for (auto _ : state) {
    const CheckResult r = check_history(h, opt);
    steps += r.steps;
    verdict = r.verdict;
    benchmark::DoNotOptimize(r.witness.data());
  }
  state.counters["ops/s"] = benchmark::Counter(double(h.ops.size()) * double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["steps/s"] = benchmark::Counter(double(steps), benchmark::Counter::kIsRate);
  state.counters["overlap"] = mean_overlap(h);
  state.counters["linearizable"] = verdict == Verdict::Linearizable;
  state.counters["unknown"] = verdict == Verdict::Unknown;
}

// 1,000,000 set operations over 100,000 keys, each overlapping ~1,000 others.
void BM_SetManyKeys(benchmark::State& state) {
  run_check(state, cached_history(ModelId::Set, 1000000, 100000, 1000), {});
}
BENCHMARK(BM_SetManyKeys)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

// The same size over 16 hot keys: exponential for the general search; the
// budget (argument, seconds) bounds it and UNKNOWN is reported as such.
void BM_SetHotKeys(benchmark::State& state) {
  CheckOptions opt;
  opt.timeout_seconds = double(state.range(0));
  run_check(state, cached_history(ModelId::Set, 1000000, 16, 1000), opt);
}
BENCHMARK(BM_SetHotKeys)->Arg(60)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

// Raw search speed: model steps per second on one core, on key-value
// histories checked without partitioning (the whole history is one search),
// under a fixed budget (argument: keys).
void BM_KvSearchSpeed(benchmark::State& state) {
  CheckOptions opt;
  opt.algorithm = Algorithm::Search;  // the distinct-value register checker would decide it without searching
  opt.partition = false;
  opt.threads = 1;
  opt.timeout_seconds = 10;
  opt.memory_limit_bytes = size_t(12) << 30;
  run_check(state, cached_history(ModelId::Kv, 1000000, state.range(0), 16), opt);
}
BENCHMARK(BM_KvSearchSpeed)->Arg(1)->Arg(4)->Arg(8)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

// Issue 3's targets, each with the pruned search (argument 1) and the plain
// search (argument 0) side by side, under a 30 s budget.
void BM_HotKeysPrunedVsPlain(benchmark::State& state) {
  CheckOptions opt;
  opt.prune = state.range(0);
  opt.timeout_seconds = 30;
  run_check(state, cached_history(ModelId::Set, 1000000, 16, 1000), opt);
}
BENCHMARK(BM_HotKeysPrunedVsPlain)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

// Priority queue, operations in warp batches of 32 that overlap each other
// (argument 1: ops in thousands).
void BM_PqWarpBatchesPrunedVsPlain(benchmark::State& state) {
  CheckOptions opt;
  opt.prune = state.range(0);
  opt.timeout_seconds = 30;
  run_check(state, cached_history(ModelId::PriorityQueue, size_t(state.range(1)) * 1000, 1000000000, 0, false, 32), opt);
}
BENCHMARK(BM_PqWarpBatchesPrunedVsPlain)->Args({1, 100})->Args({0, 100})->Args({1, 1000})
    ->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

// Linearization-point replay of 10,000,000 operations carrying hints (issue
// 3's target: under 10 s), against the search on the same history.
void BM_HintReplay(benchmark::State& state) {
  CheckOptions opt;
  opt.algorithm = state.range(0) ? Algorithm::HintReplay : Algorithm::Search;
  run_check(state, cached_history(ModelId::Map, 10000000, 100000, 1000, /*hints=*/true), opt);
}
BENCHMARK(BM_HintReplay)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

// Multimap histories with a value of their own per insert, 64 keys,
// overlap 64, 1% pending (issue 15): the distinct-value multimap checker
// (argument 1; auto) against the search (0) under a 20 s budget
// (argument 2: ops in thousands).
void BM_DistinctMultimap(benchmark::State& state) {
  CheckOptions opt;
  opt.algorithm = state.range(0) ? Algorithm::Auto : Algorithm::Search;
  opt.timeout_seconds = 20;
  run_check(state, cached_history(ModelId::Multimap, size_t(state.range(1)) * 1000, 64, 64, false, 0, 0.01), opt);
}
BENCHMARK(BM_DistinctMultimap)->Args({1, 1000})->Args({0, 1000})->Args({1, 10000})
    ->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

// One hot key, overlap 512 (issue 27): map, register, cas-register and kv
// histories with a value of their own per write, decided by their
// distinct-value checkers (argument 2: 1, auto) against the search (0)
// under a 20 s budget (argument 1: ops in thousands).
constexpr ModelId kSingleValueModels[] = {ModelId::Map, ModelId::Register, ModelId::CasRegister, ModelId::Kv};
void BM_DistinctSingleValue(benchmark::State& state) {
  const ModelId model = kSingleValueModels[state.range(0)];
  state.SetLabel(std::string(model_info(model).name));
  CheckOptions opt;
  opt.algorithm = state.range(2) ? Algorithm::Auto : Algorithm::Search;
  opt.timeout_seconds = 20;
  run_check(state, cached_history(model, size_t(state.range(1)) * 1000, 1, 512), opt);
}
BENCHMARK(BM_DistinctSingleValue)
    ->ArgsProduct({{0, 1, 2, 3}, {1000}, {1, 0}})
    ->ArgsProduct({{0, 1, 2, 3}, {10000}, {1}})
    ->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

// Parsing and writing 1,000,000 operations (both formats), for context.
void BM_ReadWrite(benchmark::State& state) {
  const History& h = cached_history(ModelId::Set, 1000000, 100000, 1000);
  const std::string b = encode_binary(h), j = encode_jsonl(h);
  for (auto _ : state) {
    if (state.range(0) == 0) benchmark::DoNotOptimize(read_binary(b, "bench").ops.data());
    else benchmark::DoNotOptimize(read_jsonl(j, "bench", std::nullopt).ops.data());
  }
  state.counters["ops/s"] = benchmark::Counter(double(h.ops.size()) * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ReadWrite)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
