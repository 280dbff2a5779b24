// warpcheck stress: run a structure under many seeds on the simulator, real
// threads or the GPU; record, check, summarize; on a failure write the
// history, the HTML report and the schedule, and print the command that
// reproduces it.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "linearizability/formats.hpp"
#include "linearizability/html_report.hpp"
#include "linearizability/report.hpp"
#include "stress/sorted_set_target.hpp"
#include "stress/stress_loop.hpp"
#include "stress/threads_harness.hpp"
#include "tools/cli_args.hpp"
#include "tools/commands.hpp"
#if WARPCHECK_HAVE_CUDA
#include "stress/gpu/gpu_runner.hpp"
#endif

namespace warpcheck::cli {

namespace {

enum class Backend { Sim, Threads, Gpu };

bool gpu_present() {
#if WARPCHECK_HAVE_CUDA
  return gpu::device_info().present;
#else
  return false;
#endif
}

Backend parse_backend(const std::optional<std::string>& v) {
  if (!v) return gpu_present() ? Backend::Gpu : Backend::Sim;
  if (*v == "sim") return Backend::Sim;
  if (*v == "threads") return Backend::Threads;
  if (*v == "gpu") {
#if WARPCHECK_HAVE_CUDA
    const auto info = gpu::device_info();
    if (!info.present) throw UsageError("--backend gpu: " + info.why_absent);
    return Backend::Gpu;
#else
    throw UsageError("--backend gpu: this build has no CUDA back-end (nvcc was not found)");
#endif
  }
  throw UsageError("--backend must be sim, threads or gpu, got '" + *v + "'");
}

const char* backend_name(Backend b) { return b == Backend::Sim ? "sim" : b == Backend::Threads ? "threads" : "gpu"; }

std::string read_schedule(const std::string& v) {
  if (v.empty() || v[0] != '@') return v;
  std::ifstream in(v.substr(1));
  if (!in) throw InputError(v.substr(1) + ": cannot open the schedule file");
  std::string s;
  in >> s;
  return s;
}

SeedRun from_sim(TargetRun&& t) {
  SeedRun r;
  r.fault = !t.report.ok();
  if (r.fault) r.fault_message = std::string(sim::outcome_name(t.report.outcome)) + ": " + t.report.message;
  r.fault_details = t.report.details;
  r.schedule = sim::encode_schedule(t.report.schedule);
  r.steps = t.report.steps;
  r.history = std::move(t.history);
  return r;
}

void print_mutants() {
  std::cout << "sorted-set mutants:\n";
  for (const auto& m : sorted_set_mutants()) std::cout << "  " << m.name << ": " << m.breaks << "\n";
}

}  // namespace

int run_stress(int argc, char** argv) {
  Args args(argc, argv, 2,
            {"structure", "backend", "seeds", "seed", "teams", "ops-per-lane", "keys", "buckets", "mix", "mutant",
             "scheduler", "pct-depth", "pct-steps", "spin-bound", "schedule", "out", "timeout"},
            {"list-mutants", "keep-going", "quiet"});
  if (!args.positional().empty()) throw UsageError("stress takes no positional arguments");
  if (args.flag("list-mutants")) {
    print_mutants();
    return 0;
  }
  const std::string structure = args.value("structure").value_or("sorted-set");
  if (structure != "sorted-set") throw UsageError("--structure: the structures are: sorted-set");
  const Backend backend = parse_backend(args.value("backend"));

  SortedSetConfig c;
  c.teams = uint32_t(args.integer("teams", backend == Backend::Gpu ? 64 : 3, 1, 1u << 20));
  c.ops_per_lane = uint32_t(args.integer("ops-per-lane", 2, 1, 1u << 16));
  c.keys = int64_t(args.integer("keys", 8, 1, INT32_MAX));
  c.buckets = uint32_t(args.integer("buckets", 1, 1, 1u << 26));
  if (auto m = args.value("mix")) c.mix = parse_op_mix(*m);
  c.mutant = parse_sorted_set_mutant(args.value("mutant").value_or("none"));
  validate(c);

  sim::SimConfig s;
  s.teams = c.teams;
  const std::string scheduler = args.value("scheduler").value_or("random");
  if (scheduler == "pct") s.scheduler = sim::SchedulerKind::Pct;
  else if (scheduler != "random") throw UsageError("--scheduler must be random or pct, got '" + scheduler + "'");
  s.pct_depth = uint32_t(args.integer("pct-depth", 3, 1, 64));
  s.spin_bound = args.integer("spin-bound", 20000, 1, uint64_t(1) << 40);
  const std::string schedule = read_schedule(args.value("schedule").value_or(""));

  StressOptions o;
  o.first_seed = args.integer("seed", 1, 0, UINT64_MAX);
  o.seeds = schedule.empty() ? args.integer("seeds", 100, 1, uint64_t(1) << 40) : 1;
  o.keep_going = args.flag("keep-going");
  o.check.timeout_seconds = args.number("timeout", 60, 0.001, 1e7);
  if (!args.flag("quiet"))
    o.progress = [](const StressProgress& p) {
      std::cerr << "\r  " << p.done << "/" << p.total << " seeds, " << p.failures << " failing, " << int(p.seconds)
                << " s" << (p.done == p.total ? "\n" : "") << std::flush;
    };
  if (backend == Backend::Sim && s.scheduler == sim::SchedulerKind::Pct) {
    // PCT's k: the steps of one run, measured once with the random scheduler.
    sim::SimConfig probe = s;
    probe.scheduler = sim::SchedulerKind::Random;
    probe.seed = o.first_seed;
    s.pct_steps = args.integer("pct-steps", std::max<uint64_t>(run_sorted_set_sim(c, probe).report.steps, 1), 1,
                               uint64_t(1) << 40);
  }

  std::function<SeedRun(uint64_t)> run_one;
  switch (backend) {
    case Backend::Sim:
      run_one = [&](uint64_t seed) {
        sim::SimConfig cfg = s;
        cfg.seed = seed;
        cfg.replay = schedule;
        return from_sim(run_sorted_set_sim(c, cfg));
      };
      break;
    case Backend::Threads:
      run_one = [&](uint64_t seed) {
        SortedSetMemory memory(c.buckets);
        const auto ops = make_workload({seed, uint64_t(c.teams) * 32 * c.ops_per_lane, c.keys, c.mix});
        HistoryMeta meta;
        meta.model = ModelId::Set;
        meta.seed = seed;
        meta.config = describe_config(c, s);
        ThreadsRun t = run_in_threads(memory.view(c.mutant), ops, c.teams, c.ops_per_lane, 32 * c.ops_per_lane, meta);
        SeedRun r;
        r.fault = !t.report.ok;
        r.fault_message = t.report.message;
        r.history = std::move(t.history);
        return r;
      };
      break;
    case Backend::Gpu:
#if WARPCHECK_HAVE_CUDA
      run_one = [&](uint64_t seed) {
        gpu::SortedSetGpuSpec spec;
        spec.set = c;
        spec.seed = seed;
        spec.spin_bound = s.spin_bound;
        auto g = gpu::run_sorted_set_gpu(spec);
        HistoryMeta meta;
        meta.model = ModelId::Set;
        meta.seed = seed;
        meta.config = describe_config(c, s);
        SeedRun r;
        r.history = history_from_log(*g.log, meta);
        r.fault = g.faults.count != 0;
        if (r.fault)
          r.fault_message = "GPU: " + std::to_string(g.faults.count) + " team(s) gave up; first: team " +
                            std::to_string(g.faults.team) + (g.faults.kind == 1 ? " spin bound" : " structure fault");
        return r;
      };
#endif
      break;
  }

  std::ostringstream repro;
  repro << "warpcheck stress --structure " << structure << " --backend " << backend_name(backend) << " --teams " << c.teams
        << " --ops-per-lane " << c.ops_per_lane << " --keys " << c.keys << " --buckets " << c.buckets << " --mix "
        << format_op_mix(c.mix) << " --mutant " << args.value("mutant").value_or("none");
  if (backend == Backend::Sim)
    repro << " --scheduler " << scheduler << (scheduler == "pct" ? " --pct-depth " + std::to_string(s.pct_depth) +
                                                                       " --pct-steps " + std::to_string(s.pct_steps)
                                                                 : "")
          << " --spin-bound " << s.spin_bound;

  std::cout << "stress: " << structure << " on " << backend_name(backend) << ", " << c.teams << " warps x 32 lanes x "
            << c.ops_per_lane << " ops, keys " << c.keys << ", buckets " << c.buckets << ", mix "
            << format_op_mix(c.mix) << ", mutant " << args.value("mutant").value_or("none") << "\n";
  const StressSummary sum = run_stress(run_one, o);
  std::cout << "| runs | operations | LINEARIZABLE | VIOLATION | UNKNOWN | faults | run ops/s | check ops/s |\n"
            << "|---|---|---|---|---|---|---|---|\n"
            << "| " << sum.runs << " | " << sum.operations << " | " << sum.linearizable << " | " << sum.violations << " | "
            << sum.unknown << " | " << sum.faults << " | " << uint64_t(sum.operations / std::max(sum.run_seconds, 1e-9))
            << " | " << uint64_t(sum.operations / std::max(sum.check_seconds, 1e-9)) << " |\n";
  if (backend == Backend::Sim)
    std::cout << "simulator: " << sum.steps << " steps, " << uint64_t(sum.steps / std::max(sum.run_seconds, 1e-9))
              << " steps/s (runs and recording)\n";

  if (!sum.first_failure) return sum.unknown ? 2 : 0;
  const SeedFailure& f = *sum.first_failure;
  std::cout << "\nFAILED at seed " << f.seed << ": "
            << (f.run.fault ? f.run.fault_message : std::string(verdict_name(f.check.verdict)) + ": " + f.check.reason)
            << "\n";
  if (!f.run.fault_details.empty()) std::cout << f.run.fault_details;
  if (f.check.verdict == Verdict::Violation) write_text_report(f.run.history, f.check, std::cout);
  std::string replay;
  if (auto dir = args.value("out")) {
    std::filesystem::create_directories(*dir);
    save_history(f.run.history, *dir + "/history.bin", HistoryFormat::Binary);
    std::ofstream page(*dir + "/report.html");
    write_html_report(f.run.history, f.check, page);
    std::cout << "wrote " << *dir << "/history.bin, " << *dir << "/report.html";
    if (!f.run.schedule.empty()) {
      std::ofstream(*dir + "/schedule.txt") << f.run.schedule << "\n";
      std::cout << ", " << *dir << "/schedule.txt";
      replay = " --schedule @" + *dir + "/schedule.txt";
    }
    std::cout << "\n";
  }
  std::cout << "reproduce: " << repro.str() << " --seed " << f.seed << " --seeds 1" << replay << "\n";
  return 1;
}

}  // namespace warpcheck::cli
