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

std::map<std::string, std::string> values_of(const Args& args) {
  std::map<std::string, std::string> v = args.run_values();
  v.erase("backend");
  return v;
}

// The first structure a line without --structure runs.
std::string first_structure() { return "the first one (" + registry().structures.front().spec.name + ")"; }

int stress_or_repro(int argc, char** argv, bool repro) {
  const Registry& reg = registry();
  const Structure* named = structure_named(reg, argc, argv);
  const Structure& s = named ? *named : reg.structures.front();
  const CommandSpec& spec = repro ? repro_command() : stress_command();
  const Args args = parse_line(argc, argv, s, spec);
  if (args.help()) {
    print_stress_help(reg, named, std::cout);
    std::cout << "\nwarpcheck " << spec.name << "'s own options:\n";
    print_option_help(spec.options, {Backend::Sim}, std::cout);
    return 0;
  }
  const Options& own = args.options();
  if (own.flag("list-mutants")) {
    print_catalogue(reg, named, own.flag("json"), std::cout);
    return 0;
  }
  if (own.flag("json")) throw UsageError("--json goes with --list-mutants");
  const auto backend = args.run_values().count("backend") ? std::optional<std::string>(args.run_values().at("backend")) : std::nullopt;
  try {
    StressRequest request;
    if (repro) {
      if (args.positional().size() != 1) throw args.usage();
      const std::string& what = args.positional()[0];
      if (std::filesystem::exists(what)) {
        if (named)
          throw UsageError("a history holds its structure and configuration: give only session options (--out, --quiet, --times, "
                           "--in-simulator, --tries, --unguided)");
        const std::string path = std::filesystem::is_directory(what) ? what + "/history.bin" : what;
        return run_stress_request(request_from_history(reg, path, values_of(args), args.run_flags()), std::cout, std::cerr);
      }
      const std::optional<uint64_t> seed = whole_number(what);
      if (!seed) throw UsageError("SEED must be a whole number (or a history file or failure folder), got '" + what + "'");
      request = make_request(s, resolve_backend(s, backend, reg.probe_gpu()), values_of(args), args.run_flags());
      request.repro_seed = *seed;
    } else {
      if (!args.positional().empty()) throw args.usage();
      request = make_request(s, resolve_backend(s, backend, reg.probe_gpu()), values_of(args), args.run_flags());
    }
    return run_stress_request(request, std::cout, std::cerr);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

// What stress and repro take besides the structure's options.
OptionTable stress_own_options() {
  return {structure_option(first_structure()), flag_option("list-mutants", "the structure's planted bugs (every structure's without --structure)"),
          flag_option("json", "with --list-mutants: as JSON")};
}

}  // namespace

const CommandSpec& stress_command() {
  static const CommandSpec spec{"stress", "", "Run a structure under many seeds; check every history, shrink and report a failure.",
                                stress_own_options(), "its structure's (warpcheck stress --structure S --help)"};
  return spec;
}

const CommandSpec& repro_command() {
  static const CommandSpec spec{"repro", "SEED|DIR/history.bin",
                                "One seed of a stress run again (with the run's stress options), or a failure again from its "
                                "history alone (with --in-simulator: a GPU run's failure in the simulator, guided by its order).",
                                stress_own_options(), "its structure's, or with a history only the session's (warpcheck repro --help)"};
  return spec;
}

int run_stress(int argc, char** argv) { return stress_or_repro(argc, argv, false); }
int run_repro(int argc, char** argv) { return stress_or_repro(argc, argv, true); }

const CommandSpec& suite_command() {
  static const CommandSpec spec{
      "suite", "", "Run the structures' declared stress suites (each run with the exit code it declares) and say which runs "
                   "did not end as declared; exit 1 if any.",
      {structure_option("every structure"),
       choice_option("tag", "which runs: main (every back-end), gpu, contended (many warps on few keys), sanitize (under "
                            "compute-sanitizer)", "main", {"main", "gpu", "contended", "sanitize"}),
       default_in_words("the GPU when there is one and the structure runs there, else sim", backend_option("where the runs go")),
       named_value("DIR", text_option("out", "each suite run's folder under DIR (S_I): its failure's files and the histories --keep "
                                             "names", Defaults{}, {})),
       choice_option("keep", "with --out: which runs' histories each suite run keeps as seed-K-VERDICT.bin", "unknown", kKeepChoices),
       default_in_words("the machine's cores", integer_option("jobs", "runs at a time, each its own process (a run on the GPU runs "
                                                                      "alone)", Defaults{}, 1, 1024))}};
  return spec;
}

// --scheduler of score: a registered scheduler's name, then options of its
// own ("pos --pos-unit lane"), which the run's own parse checks.
void check_scheduler_choice(const std::string& value) {
  const std::string name = value.substr(0, value.find(' '));
  std::string known;
  for (const sim::SchedulerInfo* each : sim::schedulers())
    if (each->chosen_by_name) {
      if (each->name == name) return;
      known += (known.empty() ? "" : ", ") + std::string(each->name);
    }
  throw std::invalid_argument("--scheduler must be one of " + known + ", got '" + name + "'");
}

const CommandSpec& score_command() {
  static const CommandSpec spec{
      "score", "", "The mutation score: every planted bug in each of its declared runs, which oracle catches it, in how many "
                   "seeds, and whether the catch replays; exit 1 if a row is not as declared.",
      {structure_option("every structure"), backend_option("where the runs go", "sim"),
       default_in_words("each mutant's declared seeds", integer_option("seeds", "each run's seeds", Defaults{}, 1, uint64_t(1) << 32)),
       default_in_words("each run's declared one",
                        named_value("S", text_option("scheduler", "the simulator's scheduler in every run instead of the one it "
                                                                  "declares, with options of its own if any ('pos --pos-unit lane'); "
                                                                  "a row whose run declares another says so",
                                                     Defaults{}, check_scheduler_choice))),
       flag_option("no-shrink", "report each catch as found, unshrunk")}};
  return spec;
}

int run_suite(int argc, char** argv) {
  const Registry& reg = registry();
  const auto args = command_args(argc, argv, suite_command());
  if (!args) return 0;
  const Options& given = args->options();
  SuiteOptions o;
  o.tag = given.text("tag");
  o.backend = given.backend_option_value();
  o.out_dir = given.text("out");
  o.keep = given.text("keep");
  const auto jobs = uint32_t(given.has_value("jobs") ? given.integer("jobs") : std::max(1u, std::thread::hardware_concurrency()));
  return run_suite_entries(suite_entries(reg, only_structure(reg, given), o), jobs, std::cout) ? 1 : 0;
}

int run_score(int argc, char** argv) {
  const Registry& reg = registry();
  const auto args = command_args(argc, argv, score_command());
  if (!args) return 0;
  const Options& given = args->options();
  ScoreOptions o;
  o.backend = *given.backend_option_value();
  if (o.backend == Backend::Gpu && !reg.probe_gpu().present) throw UsageError("--backend gpu: " + reg.probe_gpu().why_absent);
  if (given.has_value("seeds")) o.seeds = given.integer("seeds");
  o.shrink = !given.flag("no-shrink");
  if (given.has_value("scheduler")) o.scheduler = given.text("scheduler");
  const int off = print_mutation_score(reg, only_structure(reg, given), o, std::cout);
  if (off) std::cout << "\n" << off << " row(s) not as declared (not caught, caught by another oracle, or not replayed)\n";
  return off ? 1 : 0;
}

const CommandSpec& guided_bench_command() {
  static const CommandSpec spec{
      "guided-bench", "",
      "Guided against unguided simulator tries on failing runs relabeled as GPU histories: tries to reproduce, side by side.",
      {structure_option("none: it is required"),
       named_value("N", integer_option("histories", "failing runs to measure", std::to_string(GuidedBenchOptions{}.histories), 1, 1u << 20)),
       named_value("DIR", text_option("keep", "each GPU-like history written as DIR/seed-K/history.bin (for warpcheck repro "
                                              "--in-simulator)", Defaults{}, {}))},
      "those of a failing simulator run (warpcheck stress --structure S --help)",
      "The guided replay's measurement: the first N failing simulator runs from --seed K (1000001) on, within --seeds M (20000), "
      "each relabeled as a GPU run's history (no schedule, GPU timestamps, the GPU back-end's configuration), reproduced in the "
      "simulator by up to --tries T (100) guided tries (--scheduler guided) and as many unguided ones (the run's own scheduler), "
      "schedule seeds 1 to T: tries to reproduce, side by side."};
  return spec;
}

int run_guided_bench(int argc, char** argv) {
  const Registry& reg = registry();
  const Structure* named = structure_named(reg, argc, argv);
  const Args args = parse_line(argc, argv, named ? *named : reg.structures.front(), guided_bench_command());
  if (args.answered_help(std::cout)) return 0;
  if (!named) throw UsageError("--structure is required (warpcheck guided-bench --help)");
  if (!args.positional().empty()) throw args.usage();
  try {
    const StressRequest request = make_request(*named, Backend::Sim, values_of(args), args.run_flags());
    const Options& o = request.options;
    GuidedBenchOptions b;
    b.histories = args.options().integer("histories");
    if (o.given("seed")) b.first_seed = o.integer("seed");
    if (o.given("seeds")) b.max_seeds = o.integer("seeds");
    if (o.given("tries")) b.tries = o.integer("tries");
    b.check_timeout = o.real("timeout");
    b.keep_dir = args.options().text("keep");
    return print_guided_bench(request, b, std::cout, std::cerr);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, sep))
    if (!item.empty()) out.push_back(item);
  return out;
}

// Every planted bug's name, and 'none' (only the correct rows).
std::vector<std::string> mutant_choices() {
  std::vector<std::string> names{"none"};
  for (const Structure& s : registry().structures)
    for (const MutantSpec& m : s.spec.mutants)
      if (std::find(names.begin(), names.end(), m.name) == names.end()) names.push_back(m.name);
  return names;
}

}  // namespace

const CommandSpec& recipes_command() {
  static const RecipeTableOptions d;
  static const CommandSpec spec{
      "recipes", "",
      "Every planted bug on the GPU under perturbation recipes: caught/runs, time to first catch; exit 1 if one was not caught.",
      {structure_option("every structure with a GPU back-end"),
       named_value("NAME,...|none", names_option("mutants", "only these planted bugs; none: only the correct rows", mutant_choices())),
       flag_option("no-correct", "no rows of the structures unmutated"),
       named_value("R;R;...", text_option("recipes", "the perturbation recipes, ';' between them", join(d.recipes, ";"),
                                          [](const std::string& v) {
                                            if (split(v, ';').empty()) throw std::invalid_argument("--recipes takes recipes separated by ';'");
                                            for (const std::string& x : split(v, ';'))
                                              if (x != "off") parse_recipe(x);
                                          })),
       integer_option("runs", "seeds a (row, recipe) at most", std::to_string(d.runs), 1, uint64_t(1) << 32),
       integer_option("enough", "seeds a recipe that caught the bug runs", std::to_string(d.enough), 1, uint64_t(1) << 32),
       named_value("S", real_option("budget", "seconds a row, its recipes together", number_text(d.budget), 0.001, 1e7)),
       named_value("S", real_option("timeout", "the checker's seconds a history", number_text(d.timeout), 0.001, 1e7)),
       integer_option("seed", "the first seed", std::to_string(d.first_seed), 0, UINT64_MAX),
       integer_option("sim-seeds", "the simulator's schedules a first GPU failure, guided and unguided each (0: not tried)",
                      std::to_string(d.sim_seeds), 0, uint64_t(1) << 32),
       named_value("S", real_option("sim-budget", "the simulator's seconds, guided and unguided each", number_text(d.sim_budget), 0, 1e7)),
       named_value("DIR", text_option("append", "rows appended to DIR/by_recipe.md, by_mutant.md, correct.md (one table from many "
                                                "runs)", Defaults{}, {})),
       flag_option("plan", "print, without running anything, one line a structure with a GPU back-end: its name and its planted "
                           "bugs (those the simulator does not await), from the declarations (tools/gpu_mutant_table.sh reads it)")},
      "",
      "Every planted bug of every structure with a GPU back-end (or of --structure S), each in its declared runs (the simulator's own "
      "options left out), under each recipe: the recipes take turns, a seed each, until each has run --runs seeds, or caught the bug "
      "and run --enough, or the row's --budget (all recipes together) is spent; caught/runs and time to first catch (from the start "
      "of the row). The first GPU failure's workload is then run in the simulator until a run fails as it did, guided by its "
      "history's order and unguided (the recipe's delays as the simulator's --delays). Each structure unmutated runs the same "
      "recipes: false alarms, and the slowdown (kernel time against 'off').\n"
      "exit codes: 0 when every planted bug (benign ones aside) was caught, 1 otherwise. docs/gpu-perturbation.md"};
  return spec;
}

int run_recipes(int argc, char** argv) {
  const Registry& reg = registry();
  const auto args = command_args(argc, argv, recipes_command());
  if (!args) return 0;
  const Options& given = args->options();
  const Structure* only = only_structure(reg, given);
  if (only && !only->supports(Backend::Gpu)) throw UsageError(only->spec.name + " has no GPU back-end");
  RecipeTableOptions o;
  o.recipes = split(given.text("recipes"), ';');
  if (given.has_value("mutants")) {
    if (given.names("mutants") == std::vector<std::string>{"none"}) {
      o.mutants = false;
    } else {
      o.only_mutants = given.names("mutants");
      // Among the structure's own when --structure names one (the declaration holds every structure's).
      for (const std::string& name : o.only_mutants)
        if (only && std::none_of(only->spec.mutants.begin(), only->spec.mutants.end(), [&](const MutantSpec& x) { return x.name == name; }))
          throw UsageError("--mutants: no planted bug '" + name + "' in " + only->spec.name);
      o.correct = false;
    }
  }
  if (given.flag("no-correct")) o.correct = false;
  o.runs = given.integer("runs");
  o.enough = given.integer("enough");
  o.budget = given.real("budget");
  o.timeout = given.real("timeout");
  o.first_seed = given.integer("seed");
  o.sim_seeds = given.integer("sim-seeds");
  o.sim_budget = given.real("sim-budget");
  o.append_dir = given.text("append");
  if (given.flag("plan")) {
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
