// The GPU run of the team-and-memory layer: the sorted-array set on the
// device with recording, in one program that prints a short table.
//  1. %globaltimer resolution;
//  2. correctness: many small, contended recorded runs, each history checked
//     (a correct structure must never be judged a violation), and the
//     unlocked_contains mutant for comparison;
//  3. throughput: the same kernel with recording off, on (%globaltimer) and
//     on (ticket), side by side in one run; records per second.
// Exits 77 (skipped) when there is no CUDA device.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "linearizability/checker.hpp"
#include "models/base/median.hpp"
#include "stress/gpu/device_info.hpp"
#include "stress/recorder/recorded_history.hpp"
#include "stress/sorted_set/gpu.hpp"

using namespace warpcheck;

namespace {

using warpcheck::detail::median;

struct Tally {
  int runs = 0, linearizable = 0, violation = 0, unknown = 0, faults = 0;
  uint64_t ops = 0;
};

Tally check_runs(SortedSetConfig c, uint64_t seeds, core::clock_kind clock) {
  Tally t;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    gpu::SortedSetBenchSpec spec;
    spec.set = c;
    spec.seed = seed;
    spec.clock = clock;
    auto run = gpu::run_sorted_set_bench(spec);
    HistoryMeta meta;
    meta.model = ModelId::Set;
    meta.seed = seed;
    History h = history_from_log(*run.log, meta);
    const CheckResult r = check_history(h);
    ++t.runs;
    t.ops += h.ops.size();
    t.faults += run.faults.count != 0;
    if (r.verdict == Verdict::Linearizable) ++t.linearizable;
    else if (r.verdict == Verdict::Violation) ++t.violation;
    else ++t.unknown;
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const gpu::DeviceInfo dev = gpu::device_info();
  if (!dev.present) {
    std::printf("SKIP: no CUDA device (%s): the GPU run needs one\n", dev.why_absent.c_str());
    return 77;
  }
  std::printf("device: %s, %d SMs, %.0f GiB\n", dev.name.c_str(), dev.sms, dev.memory_gib);

  const gpu::TimerResolution res = gpu::measure_globaltimer(quick ? 1 << 16 : 1 << 22);
  std::printf("globaltimer: %lu reads, %lu changes, smallest step %lu ns, mean step %.1f ns\n", res.reads,
              res.changes, res.min_step_ns, res.mean_step_ns);

  // Correctness: one block of 8 warps on one or few buckets, 4 ops per lane.
  SortedSetConfig small;
  small.teams = 8;
  small.ops_per_lane = 4;
  small.keys = 16;
  small.buckets = 1;
  SortedSetConfig wide = small;
  wide.teams = 64;
  wide.keys = 64;
  wide.buckets = 4;
  const uint64_t seeds = quick ? 20 : 300;
  struct Row {
    const char* name;
    SortedSetConfig c;
    core::clock_kind clock;
  };
  SortedSetConfig mutant = small;
  mutant.mutant = structures::sorted_set_mutant::unlocked_contains;
  const Row rows[] = {{"8 warps, 1 bucket, globaltimer", small, core::clock_kind::global_timer},
                      {"8 warps, 1 bucket, ticket", small, core::clock_kind::ticket},
                      {"64 warps, 4 buckets, globaltimer", wide, core::clock_kind::global_timer},
                      {"MUTANT unlocked_contains, 8 warps", mutant, core::clock_kind::global_timer}};
  std::printf("\n| recorded runs | runs | ops | LINEARIZABLE | VIOLATION | UNKNOWN | faults |\n|---|---|---|---|---|---|---|\n");
  int correct_violations = 0;
  for (const Row& r : rows) {
    const Tally t = check_runs(r.c, seeds, r.clock);
    std::printf("| %s | %d | %lu | %d | %d | %d | %d |\n", r.name, t.runs, t.ops, t.linearizable, t.violation,
                t.unknown, t.faults);
    if (r.c.mutant == structures::sorted_set_mutant::none) correct_violations += t.violation + t.faults;
  }

  // Throughput: recording off / on, same kernel, same workload, one run.
  SortedSetConfig big;
  big.teams = static_cast<uint32_t>(dev.sms) * 16;
  big.ops_per_lane = quick ? 8 : 64;
  big.buckets = 1 << 16;
  big.keys = int64_t(big.buckets) * 16;
  SortedSetConfig hot = big;
  hot.buckets = 256;
  hot.keys = 256 * 16;
  std::printf("\n| throughput (median of 7) | ops | off ms | on ms (globaltimer) | on ms (ticket) | slowdown gt | slowdown ticket | records/s (gt) |\n|---|---|---|---|---|---|---|---|\n");
  int big_violations = 0;
  for (auto [name, c] : {std::pair{"65,536 buckets", big}, std::pair{"256 buckets (contended)", hot}}) {
    gpu::SortedSetBenchSpec spec;
    spec.set = c;
    spec.seed = 7;
    spec.repeats = 7;
    spec.record = false;
    const auto off = gpu::run_sorted_set_bench(spec);
    spec.record = true;
    const auto on = gpu::run_sorted_set_bench(spec);
    spec.clock = core::clock_kind::ticket;
    const auto tk = gpu::run_sorted_set_bench(spec);
    const double m_off = median(off.kernel_ms), m_on = median(on.kernel_ms), m_tk = median(tk.kernel_ms);
    std::printf("| %s | %lu | %.3f | %.3f | %.3f | %.2fx | %.2fx | %.3g |\n", name, on.operations, m_off, m_on, m_tk,
                m_on / m_off, m_tk / m_off, double(on.operations) / (m_on / 1e3));
    HistoryMeta meta;
    meta.model = ModelId::Set;
    const auto t0 = std::chrono::steady_clock::now();
    const CheckResult r = check_history(history_from_log(*on.log, meta));
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("|  check of the recorded %s run | %lu | %s in %.2f s | | | | | |\n", name, r.operations,
                std::string(verdict_name(r.verdict)).c_str(), sec);
    big_violations += r.verdict == Verdict::Violation || on.faults.count;
  }
  std::printf("\ncorrect structure judged a violation (or faulted): %d times\n", correct_violations + big_violations);
  return correct_violations + big_violations ? 1 : 0;
}
