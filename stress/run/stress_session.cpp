#include "stress/run/stress_session.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "linearizability/formats.hpp"
#include "linearizability/json_cursor.hpp"
#include "linearizability/json_string.hpp"
#include "models/base/median.hpp"
#include "stress/run/guided_replay.hpp"
#include "stress/run/progress_line.hpp"
#include "stress/run/repro_in_simulator.hpp"
#include "stress/run/stress_report.hpp"
#include "stress/run/team_batches.hpp"
#include "structures/core/sim/schedulers/registry.hpp"

namespace warpcheck {

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A schedule as given: the printed form, or @FILE holding it.
std::string read_schedule(const std::string& v) {
  if (v.empty() || v[0] != '@') return v;
  std::istringstream in(read_text(v.substr(1)));
  std::string s;
  in >> s;
  return s;
}

}  // namespace

sim::SimConfig simulator_config(const Target& t, Options& o, const Ops& probe_workload, uint64_t probe_seed) {
  sim::SimConfig s;
  s.teams = t.shape.teams;
  s.lanes = t.sim_lanes;
  s.team_word = t.team;
  const sim::SchedulerInfo& scheduler = sim::scheduler_named(o.text("scheduler"));
  s.scheduler = sim::SchedulerKind{scheduler.name};
  s.spin_bound = o.integer("spin-bound");
  s.delay_probability = o.real("delays");
  s.delay_steps = o.integer("delay-steps");
  s.delay_after_loads = o.flag("delay-loads");
  s.memory_model = o.text("memory-model") == "relaxed" ? sim::MemoryModel::relaxed : sim::MemoryModel::sc;
  s.stale_chance = o.real("stale-reads");
  s.visibility_steps = o.integer("visibility-steps");
  s.teams_per_block = uint32_t(o.integer("teams-per-block"));
  // Every scheduler's options, each stored where its declaration says.
  for (const sim::SchedulerInfo* each : sim::schedulers())
    for (const sim::SchedulerOption& option : each->options)
      if (o.has_value(option.name)) sim::store_option(s, option, o.text(option.name));
  for (const sim::SchedulerOption& option : scheduler.options) {
    if (!option.measured || o.has_value(option.name)) continue;
    // The steps of one run (PCT's k), measured once with the random scheduler.
    sim::SimConfig probe = s;
    probe.scheduler = sim::SchedulerKind::Random;
    probe.seed = probe_seed;
    o.set(std::string(option.name), std::to_string(std::max<uint64_t>(t.sim(probe, probe_workload).steps, 1)));
    sim::store_option(s, option, o.text(option.name));
  }
  return s;
}

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

StressRequest request_from_flags(const Structure& s, Backend b, const std::string& flags) {
  std::map<std::string, std::string> values;  // a later value of an option replaces an earlier one
  std::set<std::string> set_flags;
  for (const FlagItem& f : flag_items(s, flags)) {
    if (f.flag) set_flags.insert(f.name);
    else values[f.name] = f.value;
  }
  if (values.count("backend")) {
    b = backend_value(values["backend"]);
    values.erase("backend");
  }
  return make_request(s, b, values, set_flags);
}

Backend resolve_backend(const Structure& s, const std::optional<std::string>& asked, const GpuProbe& gpu) {
  Backend b = gpu.present && s.supports(Backend::Gpu) ? Backend::Gpu : Backend::Sim;
  if (asked) {
    b = backend_value(*asked);
  }
  if (!s.supports(b))
    throw std::invalid_argument(s.spec.name + " runs on " + s.backend_list() + ", not on --backend " +
                                std::string(backend_name(b)));
  if (b == Backend::Gpu && !gpu.present) throw std::invalid_argument("--backend gpu: " + gpu.why_absent);
  return b;
}

StressRequest make_request(const Structure& s, Backend b, const std::map<std::string, std::string>& values,
                           const std::set<std::string>& flags) {
  StressRequest r;
  r.structure = &s;
  std::map<std::string, std::string> given = values;
  given["backend"] = std::string(backend_name(b));
  r.options = parse_options(option_table(s), b, given, flags);
  check_applicability(s.spec, r.options);
  // A recipe is stored as its canonical token (presets expanded), so the
  // history reruns what ran even if a preset changes later.
  if (r.options.has_value("recipe")) r.options.set("recipe", canonical_recipe(r.options.text("recipe")));
  if (r.options.has_value("workload")) {
    const std::string& w = r.options.text("workload");
    if (w.empty() || w[0] != '@') throw std::invalid_argument("--workload takes @FILE");
    r.workload = parse_workload(read_text(w.substr(1)), s.configure(r.options).shape.slots());
  }
  if (r.options.has_value("schedule")) r.schedule = read_schedule(r.options.text("schedule"));
  return r;
}

GpuRunSettings gpu_settings(const Options& o, uint64_t seed) {
  GpuRunSettings g;
  g.seed = seed;
  g.spin_bound = o.integer("spin-bound");
  if (o.declared("recipe") && o.has_value("recipe")) g.recipe = parse_recipe(o.text("recipe"));
  return g;
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

std::string run_configuration(const Structure& s, const Options& o, const Ops* workload) {
  std::string c = "{\"structure\":";
  append_json_string(c, s.spec.name);
  c += ",\"team\":\"" + s.configure(o).team + "\"";  // what its teams are, for reports' words
  c += ",\"options\":" + o.run_json();
  if (workload) {
    c += ",\"workload\":";
    append_json_string(c, format_workload(*workload));
  }
  return c + "}";
}

StressRequest request_from_configuration(const Registry& reg, const std::string& configuration, const std::string& where,
                                         const std::map<std::string, std::string>& session_values,
                                         const std::set<std::string>& session_flags) {
  std::string structure, workload;
  std::map<std::string, std::string> values;
  try {
    detail::JsonCursor c(configuration);
    c.parse_object([&](const std::string& key) {
      if (key == "structure") structure = c.parse_string();
      else if (key == "workload") workload = c.parse_string();
      else if (key == "options") c.parse_object([&](const std::string& name) { values[name] = c.parse_string(); });
      else c.skip_value();
    });
  } catch (const detail::JsonCursor::Error& e) {
    throw std::invalid_argument(where + ": the run configuration is not what a stress run writes: " + e.message);
  }
  const Structure* s = reg.find(structure);
  if (!s) throw std::invalid_argument(where + ": no structure '" + structure + "' here (known: " + reg.names() + ")");
  std::set<std::string> flags = session_flags;
  const auto table = option_table(*s);
  for (auto it = values.begin(); it != values.end();) {  // flags are stored as "true"
    const bool flag = std::any_of(table->begin(), table->end(), [&](const OptionSpec& o) {
      return o.name == it->first && o.kind == OptionKind::Flag;
    });
    if (flag) {
      flags.insert(it->first);
      it = values.erase(it);
    } else {
      ++it;
    }
  }
  const std::optional<Backend> backend = parse_backend(values.count("backend") ? values["backend"] : "");
  if (!backend) throw std::invalid_argument(where + ": the run configuration names no back-end");
  // A history is data from elsewhere: it holds its workload itself, never
  // names a file for a rerun to open (@FILE is the user's to give), and
  // holds only its run's options (where to write, how long: the user's).
  auto is_run_option = [&](const std::string& name) {
    return std::any_of(table->begin(), table->end(), [&](const OptionSpec& o) { return o.name == name && o.run; });
  };
  auto refuse_unless_run_option = [&](const std::string& name) {
    if (!is_run_option(name)) throw std::invalid_argument(where + ": the run configuration holds --" + name + ", which is not a run's option");
  };
  for (const auto& [k, v] : values) {
    if (!v.empty() && v[0] == '@')
      throw std::invalid_argument(where + ": the run configuration's --" + k +
                                  " names a file; a history holds its workload itself and opens nothing it names");
    refuse_unless_run_option(k);
  }
  for (const std::string& k : flags)
    if (!session_flags.count(k)) refuse_unless_run_option(k);
  for (const auto& [k, v] : session_values) {
    if (values.count(k)) throw std::invalid_argument("--" + k + " is the history's to say: it holds the run's configuration");
    values[k] = v;
  }
  values.erase("backend");
  StressRequest r = make_request(*s, *backend, values, flags);
  if (!workload.empty()) r.workload = parse_workload(workload, s->configure(r.options).shape.slots());
  return r;
}

StressRequest request_from_history(const Registry& reg, const std::string& path,
                                   const std::map<std::string, std::string>& session_values,
                                   const std::set<std::string>& session_flags) {
  History h = load_history(path);
  if (h.meta.config.empty()) throw std::invalid_argument(path + ": the history holds no run configuration (not a stress run's)");
  StressRequest r = request_from_configuration(reg, h.meta.config, path, session_values, session_flags);
  // A guided run's guide is read only from the history's own folder, where
  // its failure folder keeps it (guide.bin): never from the path it names.
  if (r.options.has_value("guide")) {
    const std::filesystem::path kept = std::filesystem::path(path).parent_path() / "guide.bin";
    if (!std::filesystem::is_regular_file(kept))
      throw std::invalid_argument(path + ": the history's run follows a guide that its folder does not hold (guide.bin); "
                                  "a history opens nothing it names");
    r.options.set("guide", kept.string());
  }
  // Compared as rerun: the configuration as this version writes it (a
  // history written before a key was added still reruns bit for bit).
  h.meta.config = run_configuration(*r.structure, r.options, r.workload ? &*r.workload : nullptr);
  r.repro_seed = h.meta.seed;
  // The rerun records what ran; what failed is the record's, compared apart.
  r.recorded_failure = std::move(h.meta.failure);
  h.meta.failure.reset();
  r.original = encode_binary(h);
  r.history_path = path;
  return r;
}

SeedRunner::SeedRunner(const StressRequest& req)
    : request_(req), options_(req.options), target_(req.structure->configure(options_)) {
  const Structure& st = *req.structure;
  const Backend backend = options_.backend();
  if (!req.schedule.empty() && backend != Backend::Sim) throw std::invalid_argument("--schedule replays simulator runs: add --backend sim");
  judge_points_ = (backend == Backend::Sim && options_.text("memory-model") == "sc") || st.spec.points_only_in_simulator.empty();
  if (options_.flag("require-points") && !judge_points_)
    throw std::invalid_argument("--require-points: " + st.spec.name + "'s points are judged in sequentially consistent simulator runs only: " +
                                st.spec.points_only_in_simulator);
  const uint64_t first = req.repro_seed ? *req.repro_seed : options_.integer("seed");
  if (backend == Backend::Sim) {
    const Ops ops = workload(first);
    sim_ = simulator_config(target_, options_, ops, first);
    if (sim_.scheduler == sim::SchedulerKind::Guided && req.schedule.empty()) sim_.guide = guide_of(req, target_, ops);
  }
  config_ = run_configuration(st, options_, req.workload ? &*req.workload : nullptr);
}

Ops SeedRunner::workload(uint64_t seed) const {
  return request_.workload ? *request_.workload : materialize(target_.shape, generate_slots(target_.shape, seed));
}

SeedRun SeedRunner::run(uint64_t seed) const {
  SeedRun r;
  switch (options_.backend()) {
    case Backend::Sim: {
      sim::SimConfig cfg = sim_;
      cfg.seed = seed;
      cfg.replay = request_.schedule;
      r = target_.sim(cfg, workload(seed));
      break;
    }
    case Backend::Threads: r = target_.threads(seed, workload(seed)); break;
    case Backend::Gpu: r = target_.gpu(gpu_settings(options_, seed), workload(seed)); break;
  }
  stamp_as_recorded(options_, r.history);
  r.history.meta.config = config_;
  return r;
}

StressOptions SeedRunner::loop_options(uint64_t first_seed, uint64_t seeds) const {
  StressOptions loop;
  loop.first_seed = first_seed;
  loop.seeds = seeds;
  loop.keep_going = options_.flag("keep-going");
  loop.points_must_hold = options_.flag("require-points");
  loop.check.timeout_seconds = options_.real("timeout");
  return loop;
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
  auto configured = [&](uint64_t seed) {
    SeedRun r = runner.run(repro ? *req.repro_seed : seed);  // repro on the GPU: the same seed every time
    kernel_ms.push_back(r.kernel_ms);
    if (first_launch.empty()) first_launch = r.launch;
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
    const SeedFailure* again = sum.first_failure ? &*sum.first_failure : nullptr;
    const bool same = again && encode_binary(again->run.history) == *req.original;
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
