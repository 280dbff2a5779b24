#include "stress/run/stress_session.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "linearizability/formats.hpp"
#include "models/base/median.hpp"
#include "stress/run/progress_line.hpp"
#include "stress/run/repro_in_simulator.hpp"
#include "stress/run/stress_report.hpp"

namespace warpcheck {

std::optional<ShrunkFailure> shrink_failure(const Target& t, const sim::SimConfig& s, uint64_t seed, FailureOracle kind,
                                            const CheckOptions& check, bool points_must_hold, size_t max_tries) {
  auto fails_so = [&](const SeedRun& run, const CheckResult& c) { return run.failed(c, points_must_hold) && first_oracle(run, c) == kind; };
  // Removing an operation changes every later choice of the scheduler, so
  // one seed alone rarely fails again: a few schedule seeds are tried.
  constexpr uint64_t kSeedsPerTry = 8;
  CheckOptions quick = check;
  quick.shrink = false;
  uint64_t failing_seed = seed;
  ShrunkFailure out;
  out.shrink = shrink_workload(
      t.shape, seed,
      [&](const Ops& ops) {
        for (uint64_t k = 0; k < kSeedsPerTry; ++k) {
          sim::SimConfig cfg = s;
          cfg.seed = seed + k * 1000003;
          SeedRun run = t.sim(cfg, ops);
          if (fails_so(run, check_history(run.history, quick))) {
            failing_seed = cfg.seed;
            return true;
          }
        }
        return false;
      },
      max_tries);
  out.ops = materialize(t.shape, out.shrink.slots);
  sim::SimConfig cfg = s;
  cfg.seed = out.shrink.accepted ? failing_seed : seed;
  out.failure.seed = cfg.seed;
  out.failure.run = t.sim(cfg, out.ops);
  out.failure.check = check_history(out.failure.run.history, check);
  if (!fails_so(out.failure.run, out.failure.check)) return std::nullopt;
  return out;
}

void report_perturbation(const Options& o, const std::string& launch, const std::vector<double>& perturbed_ms,
                         const std::function<double(uint64_t seed)>& unperturbed_ms, uint64_t first_seed, std::ostream& out) {
  // The same seeds' first few runs again without the recipe, timed only.
  const size_t n = std::min<size_t>(perturbed_ms.size(), 5);
  std::vector<double> base, same;
  out << "recipe: " << o.text("recipe") << "\n";
  if (!launch.empty()) out << "perturbed launch (first run): " << launch << "\n";
  try {
    for (size_t i = 0; i < n; ++i) {
      base.push_back(unperturbed_ms(first_seed + i));
      same.push_back(perturbed_ms[i]);
    }
  } catch (const std::exception& e) {  // a run that broke the device: the failure's report still comes
    out << "perturbation: the slowdown was not measured: " << e.what() << "\n";
    return;
  }
  const double p = detail::median(perturbed_ms), b = detail::median(base);
  char line[256];
  std::snprintf(line, sizeof line, "perturbation: kernel time a run, median %.3f ms perturbed (%zu runs) vs %.3f ms unperturbed (%zu runs of the same seeds): %.2fx\n",
                p, perturbed_ms.size(), b, base.size(), b > 0 ? detail::median(same) / b : 0.0);
  out << line;
}

std::function<void(uint64_t, const SeedRun&, const CheckResult&, bool)> run_keeper(const std::string& dir, const std::string& keep) {
  return [dir, keep](uint64_t seed, const SeedRun& run, const CheckResult& check, bool failed) {
    const bool kept = keep == "all" || (keep != "none" && failed) || (keep == "unknown" && check.verdict == Verdict::Unknown);
    if (!kept) return;
    std::filesystem::create_directories(dir);
    const std::string verdict = failed && check.verdict != Verdict::Violation ? "FAILED" : std::string(verdict_name(check.verdict));
    const std::string path = (std::filesystem::path(dir) / ("seed-" + std::to_string(seed) + "-" + verdict + ".bin")).string();
    // A failing run's history says what failed (warpcheck check exits 4 on it, not 0).
    if (failed) save_history(with_failure_record(run, check, "warpcheck repro " + path), path, HistoryFormat::Binary);
    else save_history(run.history, path, HistoryFormat::Binary);
  };
}

int run_stress_request(const StressRequest& req, std::ostream& out, std::ostream& err) {
  if (req.options.flag("in-simulator")) return run_repro_in_simulator(req, out, err);
  for (const char* name : {"tries", "unguided"})
    if (req.options.given(name))
      throw std::invalid_argument("--" + std::string(name) + " goes with warpcheck repro DIR/history.bin --in-simulator");
  const Structure& st = *req.structure;
  const SeedRunner runner(req);
  const Options& o = runner.options();
  const Target& target = runner.target();
  const Backend backend = o.backend();
  const bool repro = req.repro_seed.has_value();
  const bool judge_points = runner.judges_points();

  StressOptions loop = repro ? runner.loop_options(*req.repro_seed, backend == Backend::Gpu ? o.integer("times") : 1)
                             : runner.loop_options(o.integer("seed"), o.integer("seeds"));
  loop.keep_going = loop.keep_going || (repro && backend == Backend::Gpu);
  ProgressLine progress(err);
  if (!o.flag("quiet"))
    loop.progress = [&progress](const StressProgress& p) {
      progress.show(std::to_string(p.done) + "/" + std::to_string(p.total) + " runs, " + std::to_string(p.failures) + " failing, " +
                        std::to_string(int(p.seconds)) + " s",
                    p.done == p.total);
    };
  if (o.has_value("out")) loop.on_run = run_keeper(o.text("out"), o.text("keep"));
  std::vector<double> kernel_ms;  // GPU: each run's kernel time (the slowdown of a perturbed run)
  std::string first_launch;
  // Replaying a recorded simulator run: its rerun's history, passing or not
  // (a kept passing run reruns as well as a failure).
  std::optional<std::string> rerun;
  auto configured = [&](uint64_t seed) {
    SeedRun r = runner.run(repro ? *req.repro_seed : seed);  // repro on the GPU: the same seed every time
    kernel_ms.push_back(r.kernel_ms);
    if (first_launch.empty()) first_launch = r.launch;
    if (req.original && backend == Backend::Sim) rerun = encode_binary(r.history);
    return r;
  };

  out << (repro ? "repro: seed " + std::to_string(*req.repro_seed) + ", " : std::string("stress: ")) << st.spec.name << ", "
      << describe_target(target) << "," << o.run_flags() << "\n";
  if (req.recorded_failure)
    out << "the history records: RUN FAILED: " << failure_oracle_name(req.recorded_failure->oracle) << ": " << req.recorded_failure->message << "\n";
  StressSummary sum = run_stress(configured, loop);
  if (!judge_points) sum.first_unexplained.reset();  // points that are not judged are not reported either
  print_summary(sum, backend, judge_points, out);
  if (!judge_points)
    out << "proof's points: not judged " << (backend == Backend::Sim ? "in relaxed memory" : "on this back-end") << ": "
        << st.spec.points_only_in_simulator << "\n";
  if (backend == Backend::Gpu && !gpu_settings(o, 0).recipe.off())
    report_perturbation(o, first_launch, kernel_ms, [&](uint64_t seed) {
      GpuRunSettings g = gpu_settings(o, repro ? *req.repro_seed : seed);
      g.recipe = {};
      return target.gpu(g, runner.workload(g.seed)).kernel_ms;
    }, loop.first_seed, out);
  if (repro && backend == Backend::Gpu) {
    out << "the failure recurred in " << sum.failed_runs << " of " << sum.runs << " reruns (GPU runs are not deterministic)\n";
    if (!req.history_path.empty())
      out << "in the simulator, guided by its history: warpcheck repro " << req.history_path << " --in-simulator\n";
  }
  if (repro && backend == Backend::Sim && sum.first_failure && !sum.first_failure->run.schedule.empty() &&
      sum.first_failure->run.schedule.size() <= 2000)
    out << "schedule: " << sum.first_failure->run.schedule << "\n";
  if (req.original && backend == Backend::Sim) {
    // Replaying a recorded simulator run: the history must come back byte for byte.
    const bool same = rerun == *req.original;
    out << (same ? "reproduced bit for bit: the history is identical to the recorded one\n"
                 : "NOT reproduced: the rerun's history differs from the recorded one\n");
    if (!same) return 1;
  }
  if (req.recorded_failure && sum.first_failure) {
    const FailureOracle again = first_oracle(sum.first_failure->run, sum.first_failure->check);
    out << (again == req.recorded_failure->oracle ? "the same failure as recorded: " : "a DIFFERENT failure from the recorded one (")
        << failure_oracle_name(again)
        << (again == req.recorded_failure->oracle ? "" : ", recorded: " + std::string(failure_oracle_name(req.recorded_failure->oracle)) + ")")
        << "\n";
  }

  std::optional<ShrunkFailure> shrunk;
  if (sum.first_failure && backend == Backend::Sim && !req.workload && req.schedule.empty() && !req.original &&
      !o.flag("no-shrink")) {
    if (!o.flag("quiet")) err << "  shrinking the failing workload (at most " << o.integer("shrink-tries") << " runs, --no-shrink skips)\n";
    shrunk = shrink_failure(target, runner.simulator(), sum.first_failure->seed,
                            first_oracle(sum.first_failure->run, sum.first_failure->check), loop.check, loop.points_must_hold,
                            o.integer("shrink-tries"));
    if (shrunk) {
      shrunk->failure.run.history.meta.config = run_configuration(st, o, &shrunk->ops);
      const ShrinkResult& r = shrunk->shrink;
      out << "\nshrunk the failing workload: " << r.active_after << " of " << r.active_before << " operations left ("
          << r.accepted << " shrinks kept of " << r.tries << " tried), failing under schedule seed " << shrunk->failure.seed
          << "\n";
    } else {
      out << "\nthe shrunk workload no longer fails: reporting the original\n";
    }
  }
  FailureFiles files;
  files.out_dir = o.has_value("out") ? o.text("out") : "";
  files.workload = shrunk ? &shrunk->ops : req.workload ? &*req.workload : nullptr;
  files.reproduce_flags = "--structure " + st.spec.name + o.run_flags();
  files.history_path = req.history_path;
  if (o.has_value("workload")) files.workload_flag = "--workload " + o.text("workload");
  return report_failures(sum, shrunk ? &shrunk->failure : nullptr, files, out);
}

}  // namespace warpcheck
