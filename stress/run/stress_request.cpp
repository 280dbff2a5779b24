#include "stress/run/stress_request.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "linearizability/formats.hpp"
#include "linearizability/json_cursor.hpp"
#include "linearizability/json_string.hpp"
#include "stress/run/guide_from_history.hpp"
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

std::string shape_text(const Target& t) {
  return std::to_string(t.shape.teams) + " teams of " + std::to_string(t.sim_lanes) + " lanes, " + std::to_string(t.shape.per_lane) +
         " operations a lane";
}

bool same_shape(const Target& a, const Target& b) {
  return a.shape.teams == b.shape.teams && a.shape.lanes == b.shape.lanes && a.shape.per_lane == b.shape.per_lane &&
         a.sim_lanes == b.sim_lanes;
}

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

std::shared_ptr<const sim::Guide> guide_of(const StressRequest& req, const Target& target, const Ops& workload) {
  if (req.guide) return req.guide;
  const Options& o = req.options;
  if (!o.has_value("guide"))
    throw std::invalid_argument("--scheduler guided follows a GPU run's history: give it as --guide FILE (with its --workload), "
                                "or replay a guided run with its --schedule");
  if (!req.workload && !req.repro_seed)
    throw std::invalid_argument("--scheduler guided runs the guide's workload: give it as --workload @FILE (warpcheck repro "
                                "--in-simulator writes it), or repro the GPU run's seed");
  const std::string& path = o.text("guide");
  const History h = load_history(path);
  if (h.meta.config.empty()) throw std::invalid_argument("--guide " + path + ": it holds no run configuration (not a stress run's history)");
  const std::string unfit = "--guide " + path + " is not this run's: ";
  Registry one;
  one.structures = {*req.structure};
  StressRequest gpu;
  try {
    gpu = request_from_configuration(one, h.meta.config, path, {}, {});
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(unfit + e.what());
  }
  const Target gpu_target = req.structure->configure(gpu.options);
  if (!same_shape(gpu_target, target))
    throw std::invalid_argument(unfit + "it ran " + shape_text(gpu_target) + ", this run has " + shape_text(target));
  const Ops guide_workload = gpu.workload ? *gpu.workload : materialize(gpu_target.shape, generate_slots(gpu_target.shape, h.meta.seed));
  if (format_workload(guide_workload) != format_workload(workload))
    throw std::invalid_argument(unfit + "its workload differs (give the --workload repro --in-simulator wrote, or the GPU run's seed)");
  return guide_from_history(h);
}

}  // namespace warpcheck
