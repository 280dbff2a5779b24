// warpcheck campaign: a stress run's seed range cut into shards, run by
// child processes (--local P), one a GPU (--gpus) or as a Slurm job array
// (--slurm), then merged into one report. --resume runs only the shards
// without a result, --merge and --status read a folder, and --run-shard
// is what every process and every Slurm task runs.
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <thread>

#include "stress/campaign/campaign_report.hpp"
#include "stress/campaign/shard_run.hpp"
#include "tools/campaign/child_process.hpp"
#include "tools/campaign/local_launcher.hpp"
#include "tools/campaign/slurm_launcher.hpp"
#include "tools/commands.hpp"
#include "tools/stress_line.hpp"

namespace warpcheck::cli {

namespace {

using namespace warpcheck::campaign;

// How each mode's line reads: in errors, and in --help.
constexpr const char* kUsage =
    "usage: warpcheck campaign --structure S [stress options] --seeds N [--seed FIRST] --out DIR [--shards K]\n"
    "         [--local P | --gpus | --slurm [--sbatch-args \"...\"] [--max-parallel M] [--no-submit]] [--deadline SECONDS] [--quiet]\n"
    "       warpcheck campaign --resume DIR [--local P | --gpus | --slurm ...] [--deadline SECONDS] [--quiet]\n"
    "       warpcheck campaign --merge DIR | --status DIR\n"
    "       warpcheck campaign --run-shard DIR I      (what each process or Slurm task runs)\n";

// What a kill, a resume beside live shards and a damaged result do: said in --help.
constexpr const char* kLifecycle =
    "stopping: SIGINT or SIGTERM stops the shards (--slurm: scancel of the job), merges what finished and exits 2;\n"
    "  a second one ends the launcher at once. Local shards die with the launcher however it ends (SIGKILL too);\n"
    "  a Slurm job outlives a launcher killed outright or a lost terminal (--resume refuses while it is queued).\n"
    "live shards: each running shard holds DIR/shards/shard-NNNN.lock until its process ends; --resume skips\n"
    "  a shard whose lock is held (said, never run twice) and --status shows it running.\n"
    "damaged results: a shard result cut short or not adding up (runs and verdicts, failing runs listed with\n"
    "  seeds of the shard's range, the plan's shard) is named in a warning, counted as not finished, and run\n"
    "  again by --resume (the damaged file kept as shard-NNNN.json.damaged).\n"
    "exit codes: 1 a failing run; 2 a shard not finished or an undecided check; 0 otherwise; 3 bad input\n";

// Runs every folder mode takes: DIR, nothing more.
OptionSpec folder_option(std::string name, std::string help) { return named_value("DIR", text_option(std::move(name), std::move(help), Defaults{}, {})); }

}  // namespace

// The campaign's own options (the line's others are the structure's
// stress options): the parser and --help both read this.
const CommandSpec& campaign_command() {
  static const CommandSpec spec{
      "campaign", "", "Cuts one stress run's seed range into shards, runs each in its own process and merges their results.",
      {structure_option("the plan's, with --resume"),
       folder_option("out", "the new campaign's folder: its plan, shard results, logs and merged report"),
       default_in_words("4 a local process or GPU, 100 on Slurm", named_value("K", integer_option("shards", "seed ranges, one process each",
                                                                                                   Defaults{}, 1, 100000))),
       default_in_words("the cores", named_value("P", integer_option("local", "P processes at a time on this machine; the launch "
                                                                               "without --gpus or --slurm", Defaults{}, 1, 4096))),
       flag_option("gpus", "one process a GPU of this host, each seeing its device alone (CUDA_VISIBLE_DEVICES)"),
       flag_option("slurm", "a job array, one shard a task: DIR/campaign.sbatch, submitted with sbatch and waited for"),
       named_value("A", text_option("sbatch-args", "one more #SBATCH line (--partition, --time, --gres=gpu:1, ...)", Defaults{},
                                    [](const std::string& v) {
                                      if (v.find('\n') != std::string::npos)
                                        throw std::invalid_argument("--sbatch-args: one line (it becomes one #SBATCH line)");
                                    })),
       named_value("M", integer_option("max-parallel", "Slurm tasks at a time (0: as many as Slurm runs)", "0", 0, 100000)),
       flag_option("no-submit", "write DIR/campaign.sbatch only; submit it yourself, then --merge DIR"),
       named_value("S", real_option("deadline", "stop waiting after S seconds: local shards are stopped, a Slurm job is left", "86400",
                                    1, 30.0 * 86400)),
       flag_option("quiet", "no progress line on stderr"),
       folder_option("resume", "run the shards without a sound result, skipping those still running"),
       folder_option("merge", "merge the finished shards into DIR/report.md and DIR/summary.json, and print the summary"),
       folder_option("status", "print the summary of what finished, what runs and what did not"),
       folder_option("run-shard", "DIR I: run shard I of DIR's plan in this process (what each process or Slurm task runs)")},
      "warpcheck stress's (warpcheck stress --structure S --help); --backend sim unless --gpus",
      "modes:\n" + std::string(kUsage) + kLifecycle};
  return spec;
}

namespace {

// Test hook: the shard of this index kills itself (SIGKILL) instead of
// writing its result, as a node lost mid-shard would leave it.
constexpr const char* kKillShardVariable = "WARPCHECK_CAMPAIGN_TEST_KILL_SHARD";

// Stress options that replay one run or report one failure: not a campaign's.
const std::set<std::string> kNotForCampaigns = {"workload", "schedule", "times", "shrink-tries", "keep-going", "no-shrink"};

enum class Launch { Local, Gpus, Slurm };

// The value of --NAME wherever it is on the line (the mode decides how the rest is read).
std::optional<std::string> value_on_line(int argc, char** argv, const std::string& name) {
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--" + name && i + 1 < argc) return std::string(argv[i + 1]);
    if (a.rfind("--" + name + "=", 0) == 0) return a.substr(name.size() + 3);
  }
  return std::nullopt;
}

uint32_t cores() { return std::max(1u, std::thread::hardware_concurrency()); }

// One launcher at a time on a folder: two would run the same shards.
class FolderLock {
 public:
  explicit FolderLock(const CampaignDir& dir) : fd_(::open((dir.root + "/launch.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ >= 0 && ::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;
    if (fd_ >= 0) ::close(fd_);
    throw UsageError(dir.root + ": another warpcheck campaign is running shards of this folder");
  }
  ~FolderLock() { ::close(fd_); }
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_;
};

Launch launch_of(const Options& args) {
  const int modes = int(args.has_value("local")) + int(args.flag("gpus")) + int(args.flag("slurm"));
  if (modes > 1) throw UsageError("--local, --gpus and --slurm are three ways to run the shards: give one");
  for (const char* o : {"sbatch-args", "max-parallel"})
    if (args.given(o) && !args.flag("slurm")) throw UsageError(std::string("--") + o + " goes with --slurm");
  if (args.flag("no-submit") && !args.flag("slurm")) throw UsageError("--no-submit goes with --slurm");
  return args.flag("gpus") ? Launch::Gpus : args.flag("slurm") ? Launch::Slurm : Launch::Local;
}

// --backend as asked; else the GPU with --gpus and the simulator otherwise
// (a campaign's default does not depend on the machine that plans it).
Backend campaign_backend(const Structure& s, const Args& args, Launch launch) {
  std::optional<Backend> b;
  const auto asked = args.run_values().find("backend");
  if (asked != args.run_values().end()) b = backend_value(asked->second);
  if (launch == Launch::Gpus) {
    if (b && *b != Backend::Gpu) throw UsageError("--gpus runs the GPU back-end, one process a device: not --backend " + asked->second);
    b = Backend::Gpu;
  }
  if (!b) b = Backend::Sim;
  if (!s.supports(*b))
    throw UsageError(s.spec.name + " runs on " + s.backend_list() + ", not on --backend " + std::string(backend_name(*b)));
  return *b;
}

// The plan the line asks for: its run options, seeds and shards.
CampaignPlan plan_from_line(const Structure& s, const Args& args, Launch launch, uint32_t default_shards) {
  std::map<std::string, std::string> values = args.run_values();
  const std::set<std::string>& flags = args.run_flags();
  for (const std::string& o : kNotForCampaigns)
    if (values.count(o) || flags.count(o))
      throw UsageError("--" + o + " is not a campaign's: a campaign runs every seed of its range, unshrunk (replay lines reproduce one)");
  values.erase("backend");
  const StressRequest request = make_request(s, campaign_backend(s, args, launch), values, flags);
  const uint64_t seeds = request.options.integer("seeds");
  const uint64_t shards = args.options().has_value("shards") ? args.options().integer("shards") : std::min<uint64_t>(default_shards, seeds);
  return make_plan(request, uint32_t(shards));
}

// Whether the line gives run options (then, with --resume, they must be the plan's).
bool gives_run_options(const Args& args) { return !args.run_values().empty() || !args.run_flags().empty(); }

// Each file not merged, one line: a damaged result is never a silent wrong total.
void print_warnings(const CampaignState& state) {
  for (const std::string& w : state.warnings) std::cerr << "warpcheck campaign: warning: " << w << "\n";
}

void print_summary(const CampaignState& state, const CampaignDir& dir, std::ostream& out) {
  write_report(state, {dir.root, 5, false}, out);
}

// Merges what finished into DIR/report.md and DIR/summary.json; prints the summary.
int merge_and_report(const CampaignDir& dir, std::ostream& out) {
  const CampaignState state = read_campaign(registry(), dir);
  print_warnings(state);
  std::ostringstream full;
  write_report(state, {dir.root, SIZE_MAX, true}, full);
  write_atomically(dir.report(), full.str());
  write_atomically(dir.summary(), summary_json(state));
  print_summary(state, dir, out);
  out << "\nreport: " << dir.report() << ", " << dir.summary() << "\n";
  return campaign_exit_code(state);
}

int run_shard_command(const CampaignDir& dir, const std::string& index) {
  const std::optional<uint64_t> shard = whole_number(index);
  if (!shard) throw UsageError("--run-shard DIR I: I must be a shard's index, got '" + index + "'");
  const CampaignPlan plan = read_plan(dir);
  if (*shard >= plan.shards.size())
    throw UsageError("--run-shard: " + dir.root + " has shards 0 to " + std::to_string(plan.shards.size() - 1) + ", not " + index);
  const auto i = uint32_t(*shard);
  // Held until this process ends: no one starts the shard beside it. Taken
  // before the result is looked for, so that a shard that just finished is not rerun.
  std::string holder;
  const std::optional<ShardLock> lock = ShardLock::take(dir, i, &holder);
  if (!lock) {
    std::cerr << "warpcheck campaign: shard " << i << " is running already (" << holder << "): not run a second time\n";
    return 2;
  }
  if (const std::string damaged = set_aside_damaged_result(dir, plan, i); !damaged.empty())
    std::cerr << "warpcheck campaign: warning: " << dir.result(i) << ": " << damaged << "; set aside as " << dir.result(i)
              << ".damaged, the shard runs again\n";
  if (std::filesystem::exists(dir.result(i))) {  // a requeued task, or a second launcher
    std::cout << "shard " << i << " has its result already (" << dir.result(i) << "): nothing to run\n";
    return 0;
  }
  const StressRequest request = shard_request(registry(), plan, dir.plan());
  forget_attempt(dir, i);
  write_atomically(dir.progress(i), progress_text({0, 0}));
  const ShardResult r = run_shard(plan, request, i, [&](const StressProgress& p) {
    write_atomically(dir.progress(i), progress_text({p.done, p.failures}));
  }, dir.histories());
  if (const char* kill = std::getenv(kKillShardVariable); kill && index == kill) ::raise(SIGKILL);
  write_atomically(dir.result(i), shard_result_json(r));
  std::filesystem::remove(dir.progress(i));
  std::cout << "shard " << i << ": seeds " << r.first_seed << " to " << r.first_seed + r.seeds - 1 << ", " << r.counts.runs << " runs, "
            << r.counts.failing_runs << " failing, " << (r.finished_ms - r.started_ms) / 1000.0 << " s on " << r.host
            << (r.devices.empty() ? "" : ", CUDA_VISIBLE_DEVICES=" + r.devices) << "\n";
  return 0;
}

struct LaunchSettings {
  Launch launch = Launch::Local;
  WaitLimits limits;
  std::vector<LocalSlot> slots;  // --local, --gpus
  SlurmOptions slurm;
  bool submit = true;
};

// How the line asks the shards to run, checked before anything is
// written: the devices for --gpus, sbatch for --slurm.
LaunchSettings launch_settings(const Options& args) {
  LaunchSettings l;
  l.launch = launch_of(args);
  l.limits.deadline_seconds = args.real("deadline");
  l.limits.quiet = args.flag("quiet");
  l.slurm.sbatch_args = args.text("sbatch-args");
  l.slurm.max_parallel = uint32_t(args.integer("max-parallel"));
  l.submit = !args.flag("no-submit");
  switch (l.launch) {
    case Launch::Local: l.slots = process_slots(uint32_t(args.has_value("local") ? args.integer("local") : cores()), cores()); break;
    case Launch::Gpus: {
      const GpuProbe gpu = registry().probe_gpu();
      if (!gpu.present) throw UsageError("--gpus: " + gpu.why_absent);
      l.slots = gpu_slots(visible_devices(gpu.devices, std::getenv("CUDA_VISIBLE_DEVICES")), cores());
      break;
    }
    case Launch::Slurm:
      if (l.submit && !run_command({"sbatch", "--version"}, 60).started)
        throw UsageError("--slurm: sbatch is not on PATH (is this a Slurm login node?); --no-submit writes the batch script only");
      break;
  }
  return l;
}

// Clears what earlier attempts at the shards left: exit notes, progress,
// and damaged results (set aside: a wait must not take one for a new result).
void prepare_attempts(const CampaignDir& dir, const CampaignPlan& plan, const std::vector<uint32_t>& todo) {
  for (uint32_t s : todo) {
    forget_attempt(dir, s);
    set_aside_damaged_result(dir, plan, s);
  }
}

// Runs the shards that have no result, until they end, the deadline or a
// stop signal (each said when it ends the wait).
void launch_shards(const CampaignDir& dir, const CampaignPlan& plan, const std::vector<uint32_t>& todo, const LaunchSettings& l) {
  const StopSignals stop_signals;
  if (l.launch == Launch::Slurm) {
    if (const std::string job = active_job(dir); !job.empty())
      throw UsageError("Slurm job " + job + " of " + dir.root + " is still queued or running: wait for it (--status), or scancel " + job);
    const std::string root = std::filesystem::absolute(dir.root).lexically_normal().string();
    if (root.find_first_of(" \t\n") != std::string::npos) throw UsageError("--slurm: the campaign folder's path must have no spaces (#SBATCH lines)");
    const CampaignDir abs{root};
    write_atomically(abs.sbatch_script(), sbatch_script(abs, self_executable(), todo, l.slurm));
    if (!l.submit) {
      std::cout << "wrote " << abs.sbatch_script() << " (" << todo.size() << " shards, tasks " << array_spec(todo, 0)
                << "): submit it with `sbatch " << abs.sbatch_script() << "`, then `warpcheck campaign --merge " << root << "`\n";
      return;
    }
    prepare_attempts(abs, plan, todo);
    const std::string job = submit_job(abs);
    if (!l.limits.quiet) std::cerr << "campaign: shards to run: " << todo.size() << ", as Slurm job " << job << " (tasks " << array_spec(todo, l.slurm.max_parallel) << ")\n";
    CampaignProgress progress(abs, plan, l.limits.quiet, std::cerr);
    const WaitEnd end = wait_for_job(abs, job, todo, l.limits, progress);
    progress.finish();
    if (end == WaitEnd::Deadline)
      std::cerr << "campaign: deadline (" << l.limits.deadline_seconds << " s) reached; Slurm job " << job
                << " is left running: `warpcheck campaign --merge " << root << "` later, or `scancel " << job << "`\n";
    if (end == WaitEnd::Stopped) {
      const std::string failed = cancel_job(job);
      std::cerr << "campaign: " << signal_name(stop_signal()) << ": "
                << (failed.empty() ? "Slurm job " + job + " cancelled (scancel)" : failed + "; the job may still run: `scancel " + job + "`")
                << "; `warpcheck campaign --resume " << root << " --slurm` runs the shards without a result\n";
    }
    return;
  }
  const FolderLock lock(dir);
  prepare_attempts(dir, plan, todo);
  if (!l.limits.quiet) std::cerr << "campaign: shards to run: " << todo.size() << ", on " << l.slots.size() << (l.launch == Launch::Gpus ? " GPUs\n" : " processes\n");
  CampaignProgress progress(dir, plan, l.limits.quiet, std::cerr);
  const WaitEnd end = run_local(dir, todo, l.slots, l.limits, progress);
  progress.finish();
  if (end == WaitEnd::Deadline) std::cerr << "campaign: deadline (" << l.limits.deadline_seconds << " s) reached; the shards still running were stopped\n";
  if (end == WaitEnd::Stopped)
    std::cerr << "campaign: " << signal_name(stop_signal()) << ": the shards still running were stopped; `warpcheck campaign --resume "
              << dir.root << "` runs them again\n";
}

// --merge, --status, --run-shard: a folder, nothing more.
int folder_mode(int argc, char** argv, const std::string& mode, const CampaignDir& dir) {
  // The mode's own option alone.
  CommandSpec spec{"campaign", "", "", {}};
  for (const OptionSpec& o : campaign_command().options)
    if (o.name == mode) spec.options.push_back(o);
  Args args(argc, argv, 2, spec);
  if (mode == "run-shard") {
    if (args.positional().size() != 1) throw UsageError("usage: warpcheck campaign --run-shard DIR I");
    return run_shard_command(dir, args.positional()[0]);
  }
  if (!args.positional().empty()) throw UsageError("usage: warpcheck campaign --" + mode + " DIR");
  if (mode == "merge") return merge_and_report(dir, std::cout);
  const CampaignState state = read_campaign(registry(), dir);
  print_warnings(state);
  print_summary(state, dir, std::cout);
  return campaign_exit_code(state);
}

// The folder and plan of a new campaign (its folder made and its plan
// written) or of the one --resume names (the line, when it gives run
// options, must ask for the same).
std::pair<CampaignDir, CampaignPlan> campaign_folder(const Args& args, const Structure& s, const std::optional<CampaignPlan>& stored,
                                                     const LaunchSettings& l) {
  if (stored) {
    const CampaignDir dir{args.options().text("resume")};
    if (args.options().has_value("out")) throw UsageError("--resume DIR names the folder: no --out");
    if (gives_run_options(args) || args.options().has_value("shards")) {
      // The stored configuration as this version writes it: a plan written
      // under a structure's former name asks for the same campaign.
      CampaignPlan was = *stored;
      was.configuration = make_plan(shard_request(registry(), *stored, dir.plan()), 1).configuration;
      const auto diff = plan_differences(was, plan_from_line(s, args, l.launch, uint32_t(stored->shards.size())));
      if (!diff.empty()) {
        std::string why;
        for (const std::string& d : diff) why += "\n  " + d;
        throw UsageError("--resume " + dir.root + ": the line asks for another campaign than the folder's plan:" + why +
                         "\n(--resume DIR alone resumes the folder's)");
      }
    }
    return {dir, *stored};
  }
  if (!args.options().has_value("out")) throw UsageError(std::string("--out DIR: where the campaign's plan, shards and report go\n") + kUsage);
  const CampaignDir dir{args.options().text("out")};
  if (std::filesystem::exists(dir.plan()))
    throw UsageError(dir.root + " holds a campaign already: --resume " + dir.root + " finishes it, or choose another --out");
  // A few shards a process (Slurm: 100): the slow ones even out, and a resume reruns little.
  const uint32_t default_shards = l.launch == Launch::Slurm ? 100 : 4 * uint32_t(l.slots.size());
  const CampaignPlan plan = plan_from_line(s, args, l.launch, default_shards);
  create_campaign_dir(dir);
  write_atomically(dir.plan(), plan_json(plan));
  return {dir, plan};
}

int campaign(int argc, char** argv) {
  const Registry& reg = registry();
  if (argc < 3) throw UsageError(kUsage);
  for (const char* mode : {"run-shard", "merge", "status"})
    if (const auto folder = value_on_line(argc, argv, mode)) return folder_mode(argc, argv, mode, CampaignDir{*folder});

  // A new campaign, or one resumed: the line's run options are its structure's.
  std::optional<CampaignPlan> stored;
  const Structure* s = structure_named(reg, argc, argv);
  if (const auto resume = value_on_line(argc, argv, "resume")) {
    stored = read_plan(CampaignDir{*resume});
    if (!s) s = shard_request(reg, *stored, *resume + "/plan.json").structure;
  }
  const Args args = parse_line(argc, argv, s ? *s : reg.structures.front(), campaign_command());
  if (args.answered_help(std::cout)) return 0;
  if (!args.positional().empty()) throw UsageError(std::string("campaign takes no positional arguments\n") + kUsage);
  const LaunchSettings l = launch_settings(args.options());
  const auto [dir, plan] = campaign_folder(args, s ? *s : reg.structures.front(), stored, l);
  const CampaignState state = read_campaign(reg, dir);
  print_warnings(state);
  // A shard still running (an orphan of a killed launcher, a task started by hand) is never started beside itself.
  for (const UnfinishedShard& u : state.unfinished)
    if (u.running)
      std::cerr << "campaign: shard " << u.shard << " is still " << u.why << ": not started again; `warpcheck campaign --merge " << dir.root
                << "` once it ends\n";
  const std::vector<uint32_t> todo = state.shards_to_run();
  if (!todo.empty()) launch_shards(dir, plan, todo, l);
  else if (!l.limits.quiet && state.unfinished.empty())
    std::cerr << "campaign: every shard of " << dir.root << " has its result: nothing to run\n";
  else if (!l.limits.quiet) std::cerr << "campaign: nothing to start: the shards without a result are running\n";
  if (l.launch == Launch::Slurm && !l.submit) return 0;
  return merge_and_report(dir, std::cout);
}

}  // namespace

int run_campaign(int argc, char** argv) {
  try {
    return campaign(argc, argv);
  } catch (const std::invalid_argument& e) {  // bad options, a damaged folder, sbatch's refusal: said in one line, exit 3
    throw UsageError(e.what());
  }
}

}  // namespace warpcheck::cli
