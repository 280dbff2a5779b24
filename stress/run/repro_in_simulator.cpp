#include "stress/run/repro_in_simulator.hpp"

#include <filesystem>

#include "linearizability/formats.hpp"
#include "stress/run/guided_replay.hpp"
#include "stress/run/progress_line.hpp"
#include "stress/run/stress_report.hpp"

namespace warpcheck {

namespace {

// Reruns the found try from its seed alone (its scheduler again) and from
// its seed and schedule: each must give the history back byte for byte.
void replay_both_ways(const StressRequest& tried, const SeedFailure& found, std::ostream& out) {
  const std::string recorded = encode_binary(found.run.history);
  StressRequest with_schedule = tried;
  with_schedule.schedule = found.run.schedule;
  const bool by_schedule = encode_binary(SeedRunner(with_schedule).run(found.seed).history) == recorded;
  const bool by_seed = encode_binary(SeedRunner(tried).run(found.seed).history) == recorded;
  out << "replayed from seed " << found.seed << " and its schedule: "
      << (by_schedule ? "reproduced bit for bit: the history is identical to the recorded one" : "NOT reproduced: the history differs")
      << "\nreplayed from seed " << found.seed << " alone (" << tried.options.text("scheduler") << " again): "
      << (by_seed ? "reproduced bit for bit" : "NOT reproduced: the history differs") << "\n";
  if (!by_schedule || !by_seed)
    throw std::runtime_error("a simulator run did not replay: the simulator is not deterministic here (a bug in warpcheck)");
}

}  // namespace

int run_repro_in_simulator(const StressRequest& gpu, std::ostream& out, std::ostream& err) {
  if (gpu.history_path.empty() || !gpu.repro_seed)
    throw std::invalid_argument("--in-simulator goes with warpcheck repro DIR/history.bin of a GPU run");
  const std::string& path = gpu.history_path;
  const Structure& st = *gpu.structure;
  const Options& go = gpu.options;
  if (go.backend() != Backend::Gpu)
    throw std::invalid_argument(path + " is a " + std::string(backend_name(go.backend())) +
                                " run's history, not a GPU run's: warpcheck repro " + path + " replays it as it is");
  const History history = load_history(path);
  const Target gpu_target = st.configure(go);
  const Ops workload = gpu.workload ? *gpu.workload : materialize(gpu_target.shape, generate_slots(gpu_target.shape, *gpu.repro_seed));

  // The GPU run's options, the planted bug's declared simulator options,
  // the recipe's delays, under the guided scheduler with this history (or,
  // --unguided, the declared run's own scheduler: the comparison).
  const bool unguided = go.flag("unguided");
  const std::string declared = with_recipe_delays(declared_simulator_flags(st, go), go);
  StressRequest tried = simulator_request(st, go, workload, unguided ? declared : guided_flags(st, declared));
  if (!unguided) {
    tried.options.set("guide", std::filesystem::absolute(path).string());  // for the printed reproduce line
    tried.guide = guide_from_history(history);                               // read once, here: the tries need not read it again
  }
  const std::string kind = unguided ? "unguided" : "guided";

  CheckOptions check;
  check.timeout_seconds = go.real("timeout");
  check.shrink = false;
  const CheckResult gpu_check = check_history(history, check);
  const GpuFailure expected = gpu_failure(gpu_check);
  out << "repro in the simulator: " << st.spec.name << ", the GPU run of seed " << *gpu.repro_seed << " ("
      << describe_target(gpu_target) << "), " << history.ops.size() << " operations recorded"
      << (history.meta.incomplete ? " (incomplete: records were lost; the guide lacks them)" : "") << "\n"
      << "its history: " << verdict_name(gpu_check.verdict) << (gpu_check.reason.empty() ? "" : ": " + gpu_check.reason) << "\n"
      << "a try must fail the same way: " << expected.text() << "\n" << kind << " tries: schedule seeds 1 to " << go.integer("tries") << ","
      << tried.options.run_flags() << "\n";

  SimulatorTries tries;
  tries.tries = go.integer("tries");
  tries.check_timeout = check.timeout_seconds;
  ProgressLine progress(err);
  if (!go.flag("quiet"))
    tries.progress = [&progress](uint64_t done, uint64_t of) { progress.show(std::to_string(done) + "/" + std::to_string(of) + " tries", done == of); };
  const SimulatorReplay r = reproduce_in_simulator(tried, expected, tries);
  progress.end();
  if (!r.found) {
    out << "\nNOT reproduced in the simulator: none of " << r.tries << " " << kind << " tries (schedule seeds 1 to " << r.tries
        << ") failed as the GPU run did";
    if (r.failed_otherwise) out << "; " << r.failed_otherwise << " failed otherwise (not " << expected.text() << ")";
    out << "\n";
    if (r.closest) out << "closest to the GPU's run: schedule seed " << r.closest_seed << ": " << sim::describe(*r.closest) << "\n";
    return 2;
  }
  const SeedFailure& f = *r.found;
  out << "\nreproduced in the simulator at try " << r.tries << " of " << tries.tries << " (schedule seed " << f.seed
      << "), caught by " << oracle_names(r.by) << "\n";
  if (f.run.guidance) out << "guidance: " << sim::describe(*f.run.guidance) << "\n";
  StressSummary sum;
  sum.runs = r.tries;
  sum.first_failure = f;
  FailureFiles files;
  files.out_dir = go.has_value("out") ? go.text("out") : (std::filesystem::path(path).parent_path() / "in-simulator").string();
  files.workload = &workload;  // the GPU run's: a schedule seed names another
  files.reproduce_flags = "--structure " + st.spec.name + tried.options.run_flags();
  if (!unguided) files.guide = std::filesystem::absolute(path).string();
  report_failures(sum, nullptr, files, out);
  out << "simulator seed: " << f.seed << "\n";
  if (f.run.schedule.size() <= 2000) out << "schedule: " << f.run.schedule << "\n";
  replay_both_ways(tried, f, out);
  return 1;
}

}  // namespace warpcheck
