#include "stress/seam/structure.hpp"


#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>

#include "structures/core/sim/schedulers/registry.hpp"

namespace warpcheck {

std::string oracle_names(Oracles o) {
  std::string s;
  for (FailureOracle f : kFailureOracles)
    if (o & oracle_bit(f)) s += (s.empty() ? "" : ", ") + std::string(failure_oracle_name(f));
  return s.empty() ? "-" : s;
}

Oracles caught_by(const SeedRun& run, const CheckResult& check, bool points_must_hold) {
  Oracles o = 0;
  if (run.fault) o |= oracle_bit(oracle_of(run.fault_kind));
  if (!run.invariant_violations.empty()) o |= kOracleInvariants;
  if (check.verdict == Verdict::Violation) o |= kOracleChecker;
  if (points_must_hold && SeedRun::points_not_explained(check)) o |= kOraclePoints;
  return o;
}

bool Structure::supports(Backend b) const { return std::find(backends.begin(), backends.end(), b) != backends.end(); }

std::string Structure::backend_list() const {
  std::string s;
  for (Backend b : backends) s += (s.empty() ? "" : ", ") + std::string(backend_name(b));
  return s;
}

namespace {

std::string preset_names() {
  std::string s;
  for (const RecipePreset& p : recipe_presets()) s += (s.empty() ? "" : ", ") + p.name;
  return s;
}

// --scheduler and every scheduler's options, from the schedulers' own
// declarations (structures/core/sim/schedulers/registry.hpp); an option
// that two schedulers share (guided uses targeted's) once.
OptionTable scheduler_options() {
  const std::vector<Backend> sim{Backend::Sim};
  std::vector<std::string> names;
  std::string help = "the simulator's schedule:";
  for (const sim::SchedulerInfo* s : sim::schedulers())
    if (s->chosen_by_name) {
      names.emplace_back(s->name);
      help += std::string(names.size() > 1 ? "; " : " ") + std::string(s->summary);
    }
  OptionTable out{only_on(sim, choice_option("scheduler", help, std::string(names.front()), names))};
  out.push_back(only_on(sim, named_value("FILE", text_option("guide", "guided: the GPU run's history whose order the run follows "
                                                                      "(an operation begins once those that responded before it "
                                                                      "there have here); its workload too (--workload)",
                                                             Defaults{}, {}))));
  std::set<std::string_view> seen;
  for (const sim::SchedulerInfo* s : sim::schedulers())
    for (const sim::SchedulerOption& o : s->options) {
      if (!seen.insert(o.name).second) continue;
      const std::string name(o.name), help(o.help);
      const Defaults d = o.default_value.empty() ? Defaults{} : Defaults(std::string(o.default_value));
      switch (o.type) {
        case sim::SchedulerOption::Type::integer:
          out.push_back(only_on(sim, integer_option(name, help, d, uint64_t(o.min), uint64_t(o.max))));
          break;
        case sim::SchedulerOption::Type::real: out.push_back(only_on(sim, real_option(name, help, d, o.min, o.max))); break;
        case sim::SchedulerOption::Type::choice:
          out.push_back(only_on(sim, choice_option(name, help, d, std::vector<std::string>(o.choices.begin(), o.choices.end()))));
          break;
      }
    }
  return out;
}

// The stress run's own options, shared by every structure.
OptionTable run_options() {
  const std::vector<Backend> sim{Backend::Sim};
  OptionTable out{
      backend_option("where to run: the simulator, real threads (for ThreadSanitizer) or the GPU "
                     "(default: the GPU when there is one)"),
      session_option(integer_option("seeds", "runs, one seed each", "100", 1, uint64_t(1) << 40)),
      session_option(integer_option("seed", "the first seed", "1", 0, UINT64_MAX)),
  };
  const OptionTable schedulers = scheduler_options();
  out.insert(out.end(), schedulers.begin(), schedulers.end());
  OptionTable rest{
      only_on(sim, real_option("delays", "the chance that a write, or a wide read's transaction, makes its team sit out --delay-steps steps (widens windows)",
                               "0", 0, 1)),
      only_on(sim, integer_option("delay-steps", "how many steps a delayed team sits out", "2000", 1, uint64_t(1) << 32)),
      only_on(sim, flag_option("delay-loads", "--delays also after a lane's load: a team's read of a slab, chunk or node, "
                                              "one load a lane, is torn by the writes of teams that run meanwhile")),
      only_on(sim, choice_option("memory-model", "sc: every load sees the newest store; relaxed: what PTX allows "
                                                 "(docs/relaxed-memory.md)", "sc", {"sc", "relaxed"})),
      only_on(sim, real_option("stale-reads", "relaxed memory: the chance that a load that may see an older store does", "0.5", 0, 1)),
      only_on(sim, integer_option("visibility-steps", "relaxed memory: steps after which a store is seen by every team",
                                  "4000", 1, uint64_t(1) << 32)),
      only_on(sim, integer_option("teams-per-block", "teams a thread block holds (cta scope spans them)", "1", 1, 1u << 16)),
      only_on({Backend::Sim, Backend::Gpu},
              integer_option("spin-bound", "iterations of one spin loop before it is reported as a deadlock",
                             Defaults{"20000", "", "1048576"}, 1, uint64_t(1) << 40)),
      only_on({Backend::Gpu},
              named_value("RECIPE|preset:NAME",
                          text_option("recipe", "seeded perturbation: delays at the layer's scheduling points, hammer warps, a shuffled "
                                                "launch, an occupancy limit (docs/gpu-perturbation.md; presets: " + preset_names() +
                                                "); off by default",
                                      Defaults{}, [](const std::string& v) { parse_recipe(v); }))),
      flag_option("require-points", "a history that the recorded linearization points do not explain fails the run"),
      choice_option("record", "how operations are stamped: op (each lane's operation its own invocation and response) or "
                              "batch (a warp's round shares one pair, its earliest invocation and latest response, as a warp-batch "
                              "recorder stamps it on the GPU: hundreds of overlapping operations a key)",
                    "op", {"op", "batch"}),
      session_option(named_value("wcs1:...|@FILE", only_on(sim, text_option("schedule", "replay this printed schedule", Defaults{}, {})))),
      session_option(named_value("@FILE", text_option("workload", "run this workload file instead of the seed's", Defaults{}, {}))),
      session_option(named_value("DIR", text_option("out", "write a failure's history, HTML report, workload and schedule here", Defaults{}, {}))),
      session_option(choice_option("keep", "with --out: the runs whose histories are kept as DIR/seed-K-VERDICT.bin, besides the "
                                           "first failure's files: failures, unknown (failures and the runs the checker left "
                                           "undecided), all, none",
                                   "unknown", kKeepChoices)),
      session_option(real_option("timeout", "seconds the checker may spend on one history", "60", 0.001, 1e7)),
      session_option(integer_option("times", "repro on the GPU: reruns of the seed", "20", 1, 1u << 20)),
      session_option(flag_option("in-simulator", "repro of a GPU run's history: reproduce it in the simulator, guided by the "
                                                 "history's order (--tries), and write a seed and schedule that replay it")),
      session_option(integer_option("tries", "repro --in-simulator: guided tries, schedule seeds 1 to N", "100", 1, 1u << 20)),
      session_option(flag_option("unguided", "repro --in-simulator: the tries under the run's declared simulator scheduler "
                                             "instead, not guided (a comparison)")),
      session_option(integer_option("shrink-tries", "runs the shrinker may spend on a failing workload", "200", 0, 1u << 20)),
      session_option(flag_option("keep-going", "run every seed, also after a failure")),
      session_option(flag_option("quiet", "no progress line")),
      session_option(flag_option("no-shrink", "report a failure as found, unshrunk")),
  };
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

}  // namespace

std::shared_ptr<const OptionTable> option_table(const Structure& s) {
  auto table = std::make_shared<OptionTable>(run_options());
  std::vector<std::string> mutants{"none"};
  for (const MutantSpec& m : s.spec.mutants) mutants.push_back(m.name);
  table->push_back(choice_option("mutant", "plant this bug (see --list-mutants)", "none", mutants));
  if (!s.spec.fixes.empty()) {
    std::vector<std::string> fixes;
    for (const FixSpec& f : s.spec.fixes) fixes.push_back(f.name);
    table->push_back(names_option("fixes", "apply these fixes of the paper's findings (see --list-mutants)", fixes));
  }
  for (const OptionSpec& o : s.spec.options) {
    if (std::any_of(table->begin(), table->end(), [&](const OptionSpec& t) { return t.name == o.name; }))
      throw std::logic_error(s.spec.name + " declares --" + o.name + ", an option of every stress run");
    table->push_back(o);
  }
  return table;
}

std::vector<FlagItem> flag_items(const Structure& s, const std::string& flags) {
  const auto table = option_table(s);
  std::vector<FlagItem> out;
  std::istringstream in(flags);
  std::string token;
  while (in >> token) {
    if (token.rfind("--", 0) != 0) throw std::invalid_argument("expected --option in '" + flags + "', got '" + token + "'");
    FlagItem item;
    item.name = token.substr(2);
    const auto it = std::find_if(table->begin(), table->end(), [&](const OptionSpec& o) { return o.name == item.name; });
    if (it != table->end()) item.backends = it->backends;
    item.flag = it != table->end() && it->kind == OptionKind::Flag;
    if (!item.flag && !(in >> item.value)) throw std::invalid_argument(token + " needs a value in '" + flags + "'");
    out.push_back(std::move(item));
  }
  return out;
}

std::string FlagItem::text() const { return " --" + name + (flag ? "" : " " + value); }

bool FlagItem::applies_on(Backend b) const {
  return backends.empty() || std::find(backends.begin(), backends.end(), b) != backends.end();
}

SplitFlags split_flags(const Structure& s, const std::string& flags, Backend b) {
  SplitFlags out;
  for (const FlagItem& f : flag_items(s, flags)) (f.applies_on(b) ? out.here : out.elsewhere) += f.text();
  return out;
}

size_t mutant_index(const StructureSpec& s, const Options& o) {
  const std::string& name = o.text("mutant");
  for (size_t i = 0; i < s.mutants.size(); ++i)
    if (s.mutants[i].name == name) return i + 1;
  return 0;
}

std::vector<std::string> chosen_fixes(const Options& o) { return o.declared("fixes") ? o.names("fixes") : std::vector<std::string>{}; }

namespace {

void check_applies(const std::string& what, const std::vector<Applies>& applies, const Options& o) {
  for (const Applies& a : applies) {
    const std::string& v = o.text(a.option);
    if (std::find(a.values.begin(), a.values.end(), v) != a.values.end()) continue;
    std::string where;
    for (const std::string& w : a.values) where += (where.empty() ? "" : " or ") + w;
    throw std::invalid_argument(what + " does not apply in " + v + " " + a.option + " (it applies in " + where + " " +
                                a.option + ")");
  }
}

}  // namespace

void check_applicability(const StructureSpec& s, const Options& o) {
  if (const size_t m = mutant_index(s, o)) check_applies("mutant " + s.mutants[m - 1].name, s.mutants[m - 1].applies, o);
  for (const std::string& name : chosen_fixes(o))
    for (const FixSpec& f : s.fixes)
      if (f.name == name) check_applies("fix " + f.name, f.applies, o);
}

}  // namespace warpcheck
