#include "stress/commands/guided_bench.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "linearizability/formats.hpp"
#include "stress/run/guided_replay.hpp"
#include "stress/run/progress_line.hpp"

namespace warpcheck {

namespace {

// A GPU clock: nanoseconds since some epoch, a step of the simulator a few of them.
constexpr uint64_t kEpochNs = 1'700'000'000'000'000'000ull, kNsAStep = 37;

// The producing run's options on the GPU back-end (the simulator's own left out).
Options gpu_options_of(const Structure& s, const Options& sim_options) {
  return request_from_flags(s, Backend::Gpu, sim_options.run_flags_for(Backend::Gpu)).options;
}

std::string tries_text(const SimulatorReplay& r) { return r.found ? std::to_string(r.tries) : "-"; }

struct Tally {
  uint64_t reproduced = 0, tries = 0;  // tries: all spent, a miss counting every try it ran
  std::vector<uint64_t> to_reproduce;
  void add(const SimulatorReplay& r) {
    tries += r.tries;
    if (r.found) {
      ++reproduced;
      to_reproduce.push_back(r.tries);
    }
  }
  std::string median() const {
    if (to_reproduce.empty()) return "-";
    std::vector<uint64_t> v = to_reproduce;
    std::sort(v.begin(), v.end());
    return std::to_string(v[v.size() / 2]);
  }
  std::string per_reproduction() const {
    if (!reproduced) return "-";
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", double(tries) / double(reproduced));
    return b;
  }
};

}  // namespace

History gpu_like_history(const Structure& s, const Options& sim_options, const Ops* workload, const History& sim_history) {
  History h = sim_history;
  h.meta.config = run_configuration(s, gpu_options_of(s, sim_options), workload);
  for (Operation& op : h.ops) {
    op.call = kEpochNs + kNsAStep * op.call;
    if (!op.pending()) op.ret = kEpochNs + kNsAStep * op.ret;
    if (op.has_hint) op.hint = kEpochNs + kNsAStep * op.hint;
  }
  return h;
}

int print_guided_bench(const StressRequest& request, const GuidedBenchOptions& o, std::ostream& out, std::ostream& err) {
  const Structure& s = *request.structure;
  if (o.first_seed <= o.tries)
    throw std::invalid_argument("the failing runs' seeds (from --seed " + std::to_string(o.first_seed) +
                                ") must lie past the tries' schedule seeds 1 to " + std::to_string(o.tries) +
                                ": an unguided try would otherwise be the producing run itself");
  const SeedRunner producer(request);
  const Options gpu_options = gpu_options_of(s, producer.options());  // the options a GPU run of this request has
  const std::string unguided_flags = split_flags(s, producer.options().run_flags(), Backend::Gpu).elsewhere;
  CheckOptions check;
  check.timeout_seconds = o.check_timeout;
  check.shrink = false;
  SimulatorTries tries;
  tries.tries = o.tries;
  tries.check_timeout = o.check_timeout;

  out << "guided-bench: " << s.spec.name << "," << producer.options().run_flags() << "\n"
      << "failing runs from seed " << o.first_seed << " on (at most " << o.max_seeds << " seeds), each as a GPU run's history; "
      << "up to " << o.tries << " tries each, schedule seeds 1 to " << o.tries << "\n"
      << "unguided: the producing run's own simulator options (" << (unguided_flags.empty() ? std::string(" none") : unguided_flags)
      << "); guided: the same, under --scheduler guided\n\n"
      << "| seed | operations | GPU-like history | guided: tries to reproduce | unguided: tries to reproduce | guided's first try: results as on the GPU |\n"
      << "|---|---|---|---|---|---|\n";
  const auto start = std::chrono::steady_clock::now();
  Tally guided_tally, unguided_tally;
  uint64_t found = 0, scanned = 0;
  ProgressLine progress(err);
  for (uint64_t seed = o.first_seed; found < o.histories && scanned < o.max_seeds; ++seed, ++scanned) {
    const SeedRun run = producer.run(seed);
    if (!caught_by(run, check_history(run.history, check), producer.options().flag("require-points"))) continue;
    ++found;
    const Ops ops = producer.workload(seed);
    const History gpu = gpu_like_history(s, producer.options(), request.workload ? &ops : nullptr, run.history);
    const CheckResult gpu_check = check_history(gpu, check);
    const GpuFailure expected = gpu_failure(gpu_check);
    if (!o.keep_dir.empty()) {
      const std::string dir = o.keep_dir + "/seed-" + std::to_string(seed);
      std::filesystem::create_directories(dir);
      save_history(gpu, dir + "/history.bin", HistoryFormat::Binary);
    }
    StressRequest guided = simulator_request(s, gpu_options, ops, guided_flags(s, unguided_flags));
    guided.guide = guide_from_history(gpu);
    const SimulatorReplay g = reproduce_in_simulator(guided, expected, tries);
    const SimulatorReplay u = reproduce_in_simulator(simulator_request(s, gpu_options, ops, unguided_flags), expected, tries);
    guided_tally.add(g);
    unguided_tally.add(u);
    // The guided run of schedule seed 1, replayed: how closely its results followed the GPU's.
    const SeedRun first = SeedRunner(guided).run(1);
    out << "| " << seed << " | " << gpu.ops.size() << " | " << verdict_name(gpu_check.verdict) << " | " << tries_text(g) << " | "
        << tries_text(u) << " | "
        << (first.guidance ? std::to_string(first.guidance->equal) + " of " + std::to_string(first.guidance->compared) +
                                 (first.guidance->forced ? ", " + std::to_string(first.guidance->forced) + " forced" : "")
                           : "-")
        << " |\n"
        << std::flush;
    progress.show(std::to_string(found) + "/" + std::to_string(o.histories) + " failing runs measured (" + std::to_string(scanned + 1) +
                      " seeds scanned)",
                  found == o.histories);
  }
  progress.end();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out << "\n| | reproduced within " << o.tries << " tries | median tries to reproduce | tries spent a reproduction |\n|---|---|---|---|\n"
      << "| guided | " << guided_tally.reproduced << " of " << found << " | " << guided_tally.median() << " | "
      << guided_tally.per_reproduction() << " |\n"
      << "| unguided | " << unguided_tally.reproduced << " of " << found << " | " << unguided_tally.median() << " | "
      << unguided_tally.per_reproduction() << " |\n"
      << "\n" << found << " failing runs in " << scanned << " seeds; " << uint64_t(seconds) << " s\n";
  if (found < o.histories) {
    out << "only " << found << " of the " << o.histories << " failing runs asked for within " << o.max_seeds << " seeds\n";
    return 2;
  }
  return 0;
}

}  // namespace warpcheck
