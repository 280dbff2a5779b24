// warpcheck stress: run a structure under many seeds on the simulator, real
// threads or the GPU; record, check every history and the structure's
// invariants; summarize; on a failure write the history, the HTML report
// and the schedule, and print the command that reproduces it.
// warpcheck repro SEED: one seed again. In the simulator the run replays
// exactly (the schedule too, with --schedule); on the GPU the same workload
// is rerun --times times and the report says how often the failure recurs.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "linearizability/formats.hpp"
#include "linearizability/html_report.hpp"
#include "linearizability/report.hpp"
#include "tools/commands.hpp"
#include "tools/stress_targets.hpp"
#if WARPCHECK_HAVE_CUDA
#include "stress/gpu/gpu_runner.hpp"
#endif

namespace warpcheck::cli {

namespace {

const std::set<std::string> kValued = {"structure", "mode", "backend", "seeds", "seed", "teams", "ops-per-lane", "keys",
                                       "buckets", "mix", "mutant", "memory-blocks", "scheduler", "pct-depth",
                                       "pct-steps", "spin-bound", "schedule", "out", "timeout", "times", "hot-keys",
                                       "hot-fraction", "same-key", "churn", "workload", "shrink-tries", "variant",
                                       "block", "k", "ops-per-team", "full-batches", "narrow-keys", "capacity", "fixes", "prefill"};
const std::set<std::string> kFlags = {"list-mutants", "keep-going", "quiet", "no-shrink", "phases", "no-bit-reversal",
                                      "require-points"};

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

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
  std::istringstream in(read_file(v.substr(1)));
  std::string s;
  in >> s;
  return s;
}

void print_summary(const StressSummary& sum, Backend backend) {
  std::cout << "| runs | operations | LINEARIZABLE | VIOLATION | UNKNOWN | faults | invariants broken | failing runs | run ops/s | check ops/s |\n"
            << "|---|---|---|---|---|---|---|---|---|---|\n"
            << "| " << sum.runs << " | " << sum.operations << " | " << sum.linearizable << " | " << sum.violations
            << " | " << sum.unknown << " | " << sum.faults << " | " << sum.invariant_failures << " | " << sum.failed_runs << " | "
            << uint64_t(sum.operations / std::max(sum.run_seconds, 1e-9)) << " | "
            << uint64_t(sum.operations / std::max(sum.check_seconds, 1e-9)) << " |\n";
  if (sum.points_explained + sum.points_not_explained > 0) {
    // Structures that record a proof's linearization points: its three verdicts apart.
    const uint64_t checked = sum.runs - sum.faults;
    std::cout << "\n| runs | proof's points hold | linearizable | invariants hold | faults |\n|---|---|---|---|---|\n| "
              << sum.runs << " | " << sum.points_explained << " of " << sum.points_explained + sum.points_not_explained
              << " | " << sum.linearizable << " of " << sum.runs << " | " << checked - std::min(checked, sum.invariant_failures)
              << " of " << checked << " | " << sum.faults << " |\n";
  }
  if (backend == Backend::Sim)
    std::cout << "simulator: " << sum.steps << " steps, " << uint64_t(sum.steps / std::max(sum.run_seconds, 1e-9))
              << " steps/s (runs and recording)\n";
}

// Prints a failure, writes its files (and the workload, when it is not the
// seed's own), returns the exit code.
int report_failure(const StressSummary& sum, const SeedFailure* shrunk, const Ops* workload, const Args& args,
                   const std::string& repro) {
  if (sum.first_unexplained && (!sum.first_failure || sum.first_failure->seed != sum.first_unexplained->seed)) {
    const SeedFailure& u = *sum.first_unexplained;
    std::cout << "\nproof's points NOT explained at seed " << u.seed << " (" << verdict_name(u.check.verdict)
              << "): " << u.check.hint_replay->detail << "\n"
              << "reproduce: warpcheck repro " << u.seed << " " << repro << " --require-points\n";
  }
  if (!sum.first_failure) return sum.unknown ? 2 : 0;
  const SeedFailure& f = shrunk ? *shrunk : *sum.first_failure;
  std::cout << "\nFAILED at seed " << f.seed << ": ";
  if (f.run.fault) std::cout << f.run.fault_message << "\n";
  else if (!f.run.invariant_violations.empty()) std::cout << "invariant broken: " << f.run.invariant_violations[0] << "\n";
  else if (f.check.verdict == Verdict::Violation) std::cout << verdict_name(f.check.verdict) << ": " << f.check.reason << "\n";
  else std::cout << "proof's points NOT explained (" << verdict_name(f.check.verdict) << "): " << f.check.hint_replay->detail << "\n";
  if (!f.run.fault_details.empty()) std::cout << f.run.fault_details;
  for (size_t i = 1; i < f.run.invariant_violations.size(); ++i) std::cout << "  also: " << f.run.invariant_violations[i] << "\n";
  if (f.check.verdict == Verdict::Violation) write_text_report(f.run.history, f.check, std::cout);
  std::string replay;
  if (auto dir = args.value("out")) {
    std::filesystem::create_directories(*dir);
    save_history(f.run.history, *dir + "/history.bin", HistoryFormat::Binary);
    std::ofstream page(*dir + "/report.html");
    write_html_report(f.run.history, f.check, page);
    std::cout << "wrote " << *dir << "/history.bin, " << *dir << "/report.html";
    if (workload) {
      std::ofstream(*dir + "/workload.txt") << format_workload(*workload);
      std::cout << ", " << *dir << "/workload.txt";
      replay += " --workload @" + *dir + "/workload.txt";
    }
    if (!f.run.schedule.empty()) {
      std::ofstream(*dir + "/schedule.txt") << f.run.schedule << "\n";
      std::cout << ", " << *dir << "/schedule.txt";
      replay += " --schedule @" + *dir + "/schedule.txt";
    }
    std::cout << "\n";
  }
  std::cout << "reproduce: warpcheck repro " << f.seed << " " << repro << replay << "\n";
  return 1;
}

}  // namespace

int run_stress_command(int argc, char** argv, bool repro_mode) {
  Args args(argc, argv, 2, kValued, kFlags);
  if (args.flag("list-mutants")) {
    print_mutants(std::cout);
    return 0;
  }
  uint64_t repro_seed = 0;
  if (repro_mode) {
    if (args.positional().size() != 1) throw UsageError("usage: warpcheck repro SEED [the stress options of the run]");
    try {
      repro_seed = std::stoull(args.positional()[0]);
    } catch (const std::exception&) {
      throw UsageError("SEED must be a whole number, got '" + args.positional()[0] + "'");
    }
  } else if (!args.positional().empty()) {
    throw UsageError("stress takes no positional arguments");
  }
  const Backend backend = parse_backend(args.value("backend"));
  const StressTarget target = make_stress_target(args, backend);

  sim::SimConfig s;
  s.teams = target.teams;
  s.lanes = target.lanes;
  const std::string scheduler = args.value("scheduler").value_or("random");
  if (scheduler == "pct") s.scheduler = sim::SchedulerKind::Pct;
  else if (scheduler != "random") throw UsageError("--scheduler must be random or pct, got '" + scheduler + "'");
  s.pct_depth = uint32_t(args.integer("pct-depth", 3, 1, 64));
  s.spin_bound = args.integer("spin-bound", backend == Backend::Gpu ? 1u << 20 : 20000, 1, uint64_t(1) << 40);
  const std::string schedule = read_schedule(args.value("schedule").value_or(""));
  if (!schedule.empty() && backend != Backend::Sim) throw UsageError("--schedule replays simulator runs: add --backend sim");

  StressOptions o;
  o.first_seed = repro_mode ? repro_seed : args.integer("seed", 1, 0, UINT64_MAX);
  o.seeds = repro_mode ? (backend == Backend::Gpu ? args.integer("times", 20, 1, 1u << 20) : 1)
                       : args.integer("seeds", 100, 1, uint64_t(1) << 40);
  o.keep_going = args.flag("keep-going") || (repro_mode && backend == Backend::Gpu);
  o.points_must_hold = args.flag("require-points");
  o.check.timeout_seconds = args.number("timeout", 60, 0.001, 1e7);
  if (!args.flag("quiet"))
    o.progress = [](const StressProgress& p) {
      std::cerr << "\r  " << p.done << "/" << p.total << " runs, " << p.failures << " failing, " << int(p.seconds)
                << " s" << (p.done == p.total ? "\n" : "") << std::flush;
    };
  // The workload: a file's, or the RapidCheck generator's for the seed.
  std::optional<Ops> fixed;
  if (auto w = args.value("workload")) {
    if (w->empty() || (*w)[0] != '@') throw UsageError("--workload takes @FILE");
    fixed = parse_workload(read_file(w->substr(1)), target.shape.slots());
  }
  auto ops_for = [&](uint64_t seed) { return fixed ? *fixed : materialize(target.shape, generate_slots(target.shape, seed)); };

  if (backend == Backend::Sim && s.scheduler == sim::SchedulerKind::Pct) {
    // PCT's k: the steps of one run, measured once with the random scheduler.
    sim::SimConfig probe = s;
    probe.scheduler = sim::SchedulerKind::Random;
    probe.seed = o.first_seed;
    const uint64_t steps = target.sim(probe, ops_for(o.first_seed)).steps;
    s.pct_steps = args.integer("pct-steps", std::max<uint64_t>(steps, 1), 1, uint64_t(1) << 40);
  }

  std::function<SeedRun(uint64_t)> run_one;
  switch (backend) {
    case Backend::Sim:
      run_one = [&](uint64_t seed) {
        sim::SimConfig cfg = s;
        cfg.seed = seed;
        cfg.replay = schedule;
        return target.sim(cfg, ops_for(seed));
      };
      break;
    case Backend::Threads:
      run_one = [&](uint64_t seed) { return target.threads(seed, ops_for(seed)); };
      break;
    case Backend::Gpu:
      if (!target.gpu) throw UsageError("--backend gpu: this build has no CUDA back-end");
      // repro on the GPU: the same seed (workload) every time.
      run_one = [&](uint64_t seed) {
        const uint64_t run_seed = repro_mode ? repro_seed : seed;
        return target.gpu(run_seed, s.spin_bound, ops_for(run_seed));
      };
      break;
  }

  std::string repro = target.flags + " --backend " + backend_name(backend);
  if (o.points_must_hold) repro += " --require-points";
  if (backend == Backend::Sim) {
    repro += " --scheduler " + scheduler + " --spin-bound " + std::to_string(s.spin_bound);
    if (scheduler == "pct") repro += " --pct-depth " + std::to_string(s.pct_depth) + " --pct-steps " + std::to_string(s.pct_steps);
  }
  std::cout << (repro_mode ? "repro: seed " + std::to_string(repro_seed) + ", " : "stress: ") << target.summary << ", on "
            << backend_name(backend) << (repro_mode && backend == Backend::Gpu ? ", " + std::to_string(o.seeds) + " reruns" : "")
            << "\n";
  const StressSummary sum = run_stress(run_one, o);
  print_summary(sum, backend);
  if (repro_mode && backend == Backend::Gpu) {
    std::cout << "the failure recurred in " << sum.failed_runs << " of " << sum.runs << " reruns (GPU runs are not deterministic)\n";
  }
  if (repro_mode && backend == Backend::Sim && sum.first_failure && !sum.first_failure->run.schedule.empty() &&
      sum.first_failure->run.schedule.size() <= 2000)
    std::cout << "schedule: " << sum.first_failure->run.schedule << "\n";
  // Shrink a simulator failure's workload: fewer and simpler operations,
  // kept when a run under one of a few schedule seeds (the failing seed
  // first) still fails. Removing an operation changes every later choice of
  // the scheduler, so one seed alone rarely fails again.
  std::optional<SeedFailure> shrunk;
  std::optional<Ops> shrunk_ops;
  if (sum.first_failure && backend == Backend::Sim && !fixed && schedule.empty() && !args.flag("no-shrink")) {
    const uint64_t seed = sum.first_failure->seed;
    constexpr uint64_t kSeedsPerTry = 8;
    CheckOptions quick = o.check;
    quick.shrink = false;
    uint64_t failing_seed = seed;
    const ShrinkResult r = shrink_workload(
        target.shape, seed,
        [&](const Ops& ops) {
          for (uint64_t k = 0; k < kSeedsPerTry; ++k) {
            sim::SimConfig cfg = s;
            cfg.seed = seed + k * 1000003;
            SeedRun run = target.sim(cfg, ops);
            if (run.failed(check_history(run.history, quick), o.points_must_hold)) {
              failing_seed = cfg.seed;
              return true;
            }
          }
          return false;
        },
        args.integer("shrink-tries", 200, 0, 1u << 20));
    shrunk_ops = materialize(target.shape, r.slots);
    sim::SimConfig cfg = s;
    cfg.seed = r.accepted ? failing_seed : seed;
    SeedRun run = target.sim(cfg, *shrunk_ops);
    CheckResult check = check_history(run.history, o.check);
    std::cout << "\nshrunk the failing workload: " << r.active_after << " of " << r.active_before << " operations left ("
              << r.accepted << " shrinks kept of " << r.tries << " tried), failing under seed " << cfg.seed << "\n";
    shrunk = SeedFailure{cfg.seed, std::move(run), std::move(check)};
    if (!shrunk->run.failed(shrunk->check, o.points_must_hold)) {  // cannot happen: the last kept shrink failed under that seed
      std::cout << "the shrunk workload no longer fails: reporting the original\n";
      shrunk.reset();
      shrunk_ops.reset();
    }
  }
  return report_failure(sum, shrunk ? &*shrunk : nullptr, shrunk_ops ? &*shrunk_ops : (fixed ? &*fixed : nullptr), args,
                        repro);
}

int run_stress(int argc, char** argv) { return run_stress_command(argc, argv, false); }
int run_repro(int argc, char** argv) { return run_stress_command(argc, argv, true); }

}  // namespace warpcheck::cli
