// warpcheck stress | repro | score: parse the command line against the
// option table the structure's declaration gives, and hand the run to
// stress/ (stress_session.hpp). Nothing here names a structure.
#include <filesystem>
#include <algorithm>
#include <iostream>
#include <sstream>
#include <thread>

#include "stress/seam/catalogue.hpp"
#include "stress/commands/guided_bench.hpp"
#include "stress/commands/mutation_score.hpp"
#include "stress/commands/recipe_table.hpp"
#include "stress/run/stress_session.hpp"
#include "stress/commands/suite.hpp"
#include "structures/core/sim/schedulers/registry.hpp"
#include "tools/cli_args.hpp"
#include "tools/commands.hpp"
#include "tools/stress_line.hpp"
#include "tools/suite_runner.hpp"

namespace warpcheck::cli {

namespace {

// --structure S of the suite and score commands: one structure, or every one.
const Structure* only_structure(const Registry& reg, const Args& args) {
  auto name = args.value("structure");
  if (!name) return nullptr;
  if (const Structure* s = reg.find(*name)) return s;
  throw UsageError("--structure must be one of " + reg.names() + ", got '" + *name + "'");
}

std::map<std::string, std::string> values_of(const Args& args) {
  std::map<std::string, std::string> v = args.values();
  v.erase("structure");
  v.erase("backend");
  return v;
}

int stress_or_repro(int argc, char** argv, bool repro) {
  const Registry& reg = registry();
  const Structure* named = structure_named(reg, argc, argv);
  const Structure& s = named ? *named : reg.structures.front();
  const Args args = parse_line(argc, argv, s, {"list-mutants", "json", "help"});
  if (args.flag("help")) {
    print_stress_help(reg, named, std::cout);
    return 0;
  }
  if (args.flag("list-mutants")) {
    print_catalogue(reg, named, args.flag("json"), std::cout);
    return 0;
  }
  if (args.flag("json")) throw UsageError("--json goes with --list-mutants");
  try {
    StressRequest request;
    if (repro) {
      if (args.positional().size() != 1)
        throw UsageError("usage: warpcheck repro SEED [the stress options of the run] | warpcheck repro DIR/history.bin "
                         "[--in-simulator [--tries N] [--unguided]] [--out DIR]");
      const std::string& what = args.positional()[0];
      if (std::filesystem::exists(what)) {
        if (named)
          throw UsageError("a history holds its structure and configuration: give only session options (--out, --quiet, --times, "
                           "--in-simulator, --tries, --unguided)");
        const std::string path = std::filesystem::is_directory(what) ? what + "/history.bin" : what;
        std::set<std::string> flags = args.flags();
        flags.erase("help");
        return run_stress_request(request_from_history(reg, path, values_of(args), flags), std::cout, std::cerr);
      }
      uint64_t seed = 0;
      try {
        size_t used = 0;
        seed = std::stoull(what, &used);
        if (used != what.size()) throw std::invalid_argument(what);
      } catch (const std::exception&) {
        throw UsageError("SEED must be a whole number (or a history file or failure folder), got '" + what + "'");
      }
      request = make_request(s, resolve_backend(s, args.value("backend"), reg.probe_gpu()), values_of(args), args.flags());
      request.repro_seed = seed;
    } else {
      if (!args.positional().empty()) throw UsageError("stress takes no positional arguments");
      request = make_request(s, resolve_backend(s, args.value("backend"), reg.probe_gpu()), values_of(args), args.flags());
    }
    return run_stress_request(request, std::cout, std::cerr);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

}  // namespace

int run_stress(int argc, char** argv) { return stress_or_repro(argc, argv, false); }
int run_repro(int argc, char** argv) { return stress_or_repro(argc, argv, true); }

const CommandSpec& suite_command() {
  static const CommandSpec spec{
      "suite", "", "Run the structures' declared stress suites (each run with the exit code it declares) and say which runs "
                   "did not end as declared; exit 1 if any.",
      {{"structure", "S", "one structure (" + registry().names() + ")", "every structure"},
       {"tag", "main|gpu|contended|sanitize", "which runs: main (every back-end), gpu, contended (many warps on few keys), "
                                              "sanitize (under compute-sanitizer)", "main"},
       {"backend", "sim|threads|gpu", "where the runs go", "the GPU when there is one and the structure runs there, else sim"},
       {"out", "DIR", "each suite run's folder under DIR (S_I): its failure's files and the histories --keep names", ""},
       {"keep", join(kKeepChoices, "|"), "with --out: which runs' histories each suite run keeps as seed-K-VERDICT.bin", "unknown"},
       {"jobs", "N", "runs at a time, each its own process (a run on the GPU runs alone)", "the machine's cores"}}};
  return spec;
}

const CommandSpec& score_command() {
  static const CommandSpec spec{
      "score", "", "The mutation score: every planted bug in each of its declared runs, which oracle catches it, in how many "
                   "seeds, and whether the catch replays; exit 1 if a row is not as declared.",
      {{"structure", "S", "one structure (" + registry().names() + ")", "every structure"},
       {"backend", "sim|gpu", "where the runs go", "sim"},
       {"seeds", "N", "each run's seeds", "each mutant's declared seeds"},
       {"scheduler", "S", "the simulator's scheduler in every run instead of the one it declares, with options of its own "
                          "if any ('pos --pos-unit lane'); a row whose run declares another says so", "each run's declared one"},
       {"no-shrink", "", "report each catch as found, unshrunk", ""}}};
  return spec;
}

int run_suite(int argc, char** argv) {
  const Registry& reg = registry();
  Args args(argc, argv, 2, suite_command());
  if (args.answered_help(std::cout)) return 0;
  if (!args.positional().empty()) throw args.usage();
  const Structure* only = only_structure(reg, args);
  SuiteOptions o;
  o.tag = args.text("tag");
  if (auto b = args.value("backend")) {
    o.backend = parse_backend(*b);
    if (!o.backend) throw UsageError("--backend must be sim, threads or gpu, got '" + *b + "'");
  }
  o.out_dir = args.value("out").value_or("");
  o.keep = args.text("keep");
  if (std::find(kKeepChoices.begin(), kKeepChoices.end(), o.keep) == kKeepChoices.end())
    throw UsageError("--keep must be one of " + join(kKeepChoices, ", ") + ", got '" + o.keep + "'");
  const auto jobs = uint32_t(args.integer("jobs", std::max(1u, std::thread::hardware_concurrency()), 1, 1024));
  return run_suite_entries(suite_entries(reg, only, o), jobs, std::cout) ? 1 : 0;
}

int run_score(int argc, char** argv) {
  const Registry& reg = registry();
  Args args(argc, argv, 2, score_command());
  if (args.answered_help(std::cout)) return 0;
  if (!args.positional().empty()) throw args.usage();
  const Structure* only = only_structure(reg, args);
  ScoreOptions o;
  if (auto b = args.value("backend")) {
    const auto parsed = parse_backend(*b);
    if (!parsed) throw UsageError("--backend must be sim, threads or gpu, got '" + *b + "'");
    o.backend = *parsed;
    if (o.backend == Backend::Gpu && !reg.probe_gpu().present) throw UsageError("--backend gpu: " + reg.probe_gpu().why_absent);
  }
  if (args.value("seeds")) o.seeds = args.integer("seeds", 200, 1, uint64_t(1) << 32);
  o.shrink = !args.flag("no-shrink");
  if (auto s = args.value("scheduler")) {
    // "pos --pos-unit lane": the name, then options of its own.
    const std::string name = s->substr(0, s->find(' '));
    std::string known;
    bool found = false;
    for (const sim::SchedulerInfo* each : sim::schedulers())
      if (each->chosen_by_name) {
        known += (known.empty() ? "" : ", ") + std::string(each->name);
        found |= each->name == name;
      }
    if (!found) throw UsageError("--scheduler must be one of " + known + ", got '" + name + "'");
    o.scheduler = *s;
  }
  const int off = print_mutation_score(reg, only, o, std::cout);
  if (off) std::cout << "\n" << off << " row(s) not as declared (not caught, caught by another oracle, or not replayed)\n";
  return off ? 1 : 0;
}

int run_guided_bench(int argc, char** argv) {
  static constexpr const char* kUsage =
      "usage: warpcheck guided-bench --structure S [the stress options of a failing simulator run] [--histories N]\n"
      "                              [--tries T] [--seed K] [--seeds M] [--keep DIR]\n"
      "The guided replay's measurement: the first N (20) failing simulator runs from seed K (1000001) on, within M\n"
      "(20000) seeds, each relabeled as a GPU run's history (no schedule, GPU timestamps, the GPU back-end's\n"
      "configuration), reproduced in the simulator by up to T (100) guided tries (--scheduler guided) and as many\n"
      "unguided ones (the run's own scheduler), schedule seeds 1 to T: tries to reproduce, side by side.\n"
      "--keep DIR: each GPU-like history written as DIR/seed-K/history.bin (for warpcheck repro --in-simulator).\n";
  const Registry& reg = registry();
  const Structure* named = structure_named(reg, argc, argv);
  const Args args = parse_line(argc, argv, named ? *named : reg.structures.front(), {"help"}, {"histories", "keep"});
  if (args.flag("help")) {
    std::cout << kUsage;
    return 0;
  }
  if (!named) throw UsageError(std::string("--structure is required\n") + kUsage);
  if (!args.positional().empty()) throw UsageError(std::string("takes no positional arguments\n") + kUsage);
  std::map<std::string, std::string> values = values_of(args);
  values.erase("histories");
  values.erase("keep");
  try {
    const StressRequest request = make_request(*named, Backend::Sim, values, args.flags());
    const Options& o = request.options;
    GuidedBenchOptions b;
    b.histories = args.integer("histories", b.histories, 1, 1u << 20);
    if (o.given("seed")) b.first_seed = o.integer("seed");
    if (o.given("seeds")) b.max_seeds = o.integer("seeds");
    if (o.given("tries")) b.tries = o.integer("tries");
    b.check_timeout = o.real("timeout");
    b.keep_dir = args.value("keep").value_or("");
    return print_guided_bench(request, b, std::cout, std::cerr);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

int run_recipes(int argc, char** argv) {
  static constexpr const char* kRecipesUsage =
      "usage: warpcheck recipes [--structure S] [--mutants NAME,...|none] [--no-correct] [--recipes R;R;...]\n"
      "                         [--runs N] [--enough N] [--budget S] [--timeout S] [--seed N]\n"
      "                         [--sim-seeds N] [--sim-budget S] [--append DIR]\n"
      "Every planted bug of every structure with a GPU back-end (or of --structure S; --mutants picks some,\n"
      "'none' only the correct rows), each in its declared runs (the simulator's own options left out), under\n"
      "each recipe (default 'off;preset:delays;preset:tear;preset:storm'): the recipes take turns, a seed each,\n"
      "until each has run --runs (100) seeds, or caught the bug and run --enough (20), or the row's --budget\n"
      "(20 s, all recipes together) is spent. Time to first catch counts from the start of the row. The first\n"
      "GPU failure's workload is then run in the simulator until a run fails as it did, guided by its history's\n"
      "order and unguided (--sim-seeds 20 schedules each, --sim-budget 10 s each; the recipe's delays as the\n"
      "simulator's --delays). Each structure unmutated runs the same recipes: false\n"
      "alarms, and the slowdown (kernel time against 'off'). --timeout: the checker's seconds a history (5).\n"
      "--append DIR: rows appended to DIR/by_recipe.md, by_mutant.md, correct.md (one table from many runs).\n"
      "--plan: print, without running anything, one line a structure with a GPU back-end: its name and its\n"
      "planted bugs (those the simulator does not await), from the declarations (tools/gpu_mutant_table.sh reads it).\n"
      "Exit code: 0 when every planted bug (benign ones aside) was caught, 1 otherwise. docs/gpu-perturbation.md\n";
  const Registry& reg = registry();
  Args args(argc, argv, 2,
            {"structure", "mutants", "recipes", "runs", "enough", "budget", "timeout", "seed", "sim-seeds", "sim-budget", "append"},
            {"no-correct", "help", "plan"});
  if (args.flag("help")) {
    std::cout << kRecipesUsage;
    return 0;
  }
  if (!args.positional().empty()) throw UsageError(std::string("takes no positional arguments\n") + kRecipesUsage);
  const Structure* only = only_structure(reg, args);
  if (only && !only->supports(Backend::Gpu)) throw UsageError(only->spec.name + " has no GPU back-end");
  RecipeTableOptions o;
  if (auto r = args.value("recipes")) {
    o.recipes.clear();
    std::string item;
    std::istringstream in(*r);
    while (std::getline(in, item, ';'))
      if (!item.empty()) o.recipes.push_back(item);
    if (o.recipes.empty()) throw UsageError("--recipes takes recipes separated by ';'");
    for (const std::string& x : o.recipes)
      if (x != "off") {
        try {
          parse_recipe(x);
        } catch (const std::invalid_argument& e) {
          throw UsageError(e.what());
        }
      }
  }
  if (auto m = args.value("mutants")) {
    if (*m == "none") {
      o.mutants = false;
    } else {
      std::string item;
      std::istringstream in(*m);
      while (std::getline(in, item, ','))
        if (!item.empty()) o.only_mutants.push_back(item);
      for (const std::string& name : o.only_mutants) {
        bool known = false;
        for (const Structure& s : reg.structures)
          if ((!only || &s == only) && std::any_of(s.spec.mutants.begin(), s.spec.mutants.end(), [&](const MutantSpec& x) { return x.name == name; }))
            known = true;
        if (!known) throw UsageError("--mutants: no planted bug '" + name + "'" + (only ? " in " + only->spec.name : std::string()));
      }
      o.correct = false;
    }
  }
  if (args.flag("no-correct")) o.correct = false;
  o.runs = args.integer("runs", o.runs, 1, uint64_t(1) << 32);
  o.enough = args.integer("enough", o.enough, 1, uint64_t(1) << 32);
  o.budget = args.number("budget", o.budget, 0.001, 1e7);
  o.timeout = args.number("timeout", o.timeout, 0.001, 1e7);
  o.first_seed = args.integer("seed", o.first_seed, 0, UINT64_MAX);
  o.sim_seeds = args.integer("sim-seeds", o.sim_seeds, 0, uint64_t(1) << 32);
  o.sim_budget = args.number("sim-budget", o.sim_budget, 0, 1e7);
  o.append_dir = args.value("append").value_or("");
  if (args.flag("plan")) {
    for (const Structure& s : reg.structures) {
      if ((only && &s != only) || !s.supports(Backend::Gpu)) continue;
      std::cout << s.spec.name;
      for (const MutantSpec& m : s.spec.mutants)
        if (m.awaits.empty()) std::cout << " " << m.name;
      std::cout << "\n";
    }
    return 0;
  }
  if (!reg.probe_gpu().present) throw UsageError("recipes runs on the GPU: " + reg.probe_gpu().why_absent);
  return print_recipe_table(reg, only, o, std::cout, std::cerr) ? 1 : 0;
}

}  // namespace warpcheck::cli
