// A structure is one plug-in. Its stress adapter (stress/<structure>/)
// declares it once: name, options, planted bugs (mutants), fixes of the
// paper's findings, model, invariants, and the back-ends it runs on; and
// runs a configured structure on a workload. Everything else (the CLI's
// help and validation, the reproduce line and the configuration stored in
// every history, --list-mutants, the mutation score, the test lists) is
// derived from that declaration.
//
// The adapter contract (checked by make_structure, which names what is
// missing):
//   using Config = ...;                        the structure's typed configuration
//   static StructureSpec declare();            the declaration
//   static Config configure(const Options&);   options -> Config; std::invalid_argument when impossible
//   static WorkloadShape workload(const Config&);
//   static ModelId model(const Config&);
//   static uint32_t sim_lanes(const Config&);  lanes a team in the simulator
//   static SeedRun run_sim(const Config&, const sim::SimConfig&, const Ops&);
//   static constexpr Named<M> mutants[] = {WC_NAMED(M::none), ...};
//                                              its mutant enum M by name, in enum order (named_values.hpp)
// for a structure with fixes of a paper:
//   static constexpr Named<uint32_t> fixes[] = {...};  its fix bits by name, bit i at entry i (fix_bits.hpp)
// and, for each further back-end it runs on:
//   static SeedRun run_threads(const Config&, uint64_t seed, const Ops&);
//   static SeedRun run_gpu(const Config&, const GpuRunSettings&, const Ops&);
#pragma once
#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "linearizability/failure_record.hpp"
#include "models/registry.hpp"
#include "stress/seam/recipe.hpp"
#include "stress/seam/options.hpp"
#include "stress/seam/stress_loop.hpp"
#include "stress/seam/workload.hpp"
#include "structures/core/sim/simulator.hpp"

namespace warpcheck {

using Ops = std::vector<core::workload_op>;

// What can catch a failing run, one bit an oracle (failure_record.hpp
// names them). A run can be caught by several at once.
constexpr uint32_t oracle_bit(FailureOracle o) { return uint32_t(1) << unsigned(o); }
enum Oracle : uint32_t {
  kOracleChecker = oracle_bit(FailureOracle::Checker),
  kOracleInvariants = oracle_bit(FailureOracle::Invariants),
  kOracleShadow = oracle_bit(FailureOracle::Shadow),
  kOracleDeadlock = oracle_bit(FailureOracle::Deadlock),
  kOracleStructureCheck = oracle_bit(FailureOracle::StructureCheck),
  kOraclePoints = oracle_bit(FailureOracle::Points),
  kOracleOther = oracle_bit(FailureOracle::Fault),
  kOracleZombie = oracle_bit(FailureOracle::Zombie),
};
using Oracles = uint32_t;

// What --keep may name (stress, repro, suite, campaign): the runs whose
// histories are kept (unknown: failures and undecided runs).
inline const std::vector<std::string> kKeepChoices = {"failures", "unknown", "all", "none"};
std::string oracle_names(Oracles o);  // "checker, invariants"
// The oracles that caught a run (0: it passed).
Oracles caught_by(const SeedRun& run, const CheckResult& check, bool points_must_hold);

// A constraint on where a mutant or fix can be used: the option's value
// must be one of `values`.
struct Applies {
  std::string option;
  std::vector<std::string> values;
};

struct MutantSpec {
  std::string name;
  std::string breaks;             // one line: what it breaks
  Oracles caught_by = 0;          // any of these is expected to catch it
  std::vector<Applies> applies;   // where it can be planted (empty: anywhere)
  // The runs that catch it, as stress options (each a row of the mutation
  // score and a case of the tests), within `seeds` seeds each.
  std::vector<std::string> runs = {""};
  uint64_t seeds = 200;
  // Not a bug after all: why the structure stays correct with it planted.
  // Its test asserts that no oracle fires within `seeds` seeds (caught_by 0).
  std::string benign;
  // What it needs that the simulator lacks yet; its test skips saying so.
  std::string awaits;
};

// A named fix: where our code departs from the printed pseudocode. Each is
// shown needed by a finding that names it, or declared benign (why the
// printed line does no harm), or awaits what the framework lacks to show it.
struct FixSpec {
  std::string name;
  std::string fixes;  // the printed line and what is wrong with it, in one line
  std::vector<Applies> applies;
  std::string benign;
  std::string awaits;
};

// A finding about the printed pseudocode, found again by `run` (the paper's
// variant without `fix`) within `seeds` seeds.
struct FindingSpec {
  std::string name;
  std::string run;
  Oracles caught_by = 0;
  uint64_t seeds = 200;
  std::string fix;  // the fix it shows needed
};

// A run of the structure's stress suite. Tags: "main" (the main job, on the
// GPU when there is one, else the simulator), "gpu" (the GPU session's
// larger runs), "sanitize" (GPU runs under compute-sanitizer).
struct SuiteRun {
  std::string what;          // one line
  std::string run;           // stress options
  int expect = 0;            // the exit code it must give: 1 for a planted bug or a finding, caught
  std::string tag = "main";
};

struct StructureSpec {
  std::string name;  // its folders' name too: structures/<name>/, stress/<name>/, ...
  // Names it had before: histories, failure folders and reproduce lines
  // written then name it so, and still run (Registry::find takes them).
  std::vector<std::string> former_names;
  std::string description;              // one line
  std::string team = "warp";            // what runs an operation: "warp" or "block" (one lane a team: a thread)
  OptionTable options;                  // its own, beyond the stress run's
  std::vector<MutantSpec> mutants;
  std::vector<FixSpec> fixes;
  std::vector<FindingSpec> findings;
  // The audit of the paper's printed lines against ours, from the source
  // root ("docs/papers/<name>.md"); its "## Fixes" table names every fix.
  std::string audit;
  std::string model;                    // the sequential model(s), in words
  std::vector<std::string> invariants;  // quiescent invariants checked after each run
  std::vector<SuiteRun> suite;
  // Why the recorded linearization points are judged only on the simulator
  // with sequentially consistent memory (empty: judged everywhere), e.g.
  // points that are loads: hardware stamps a load only with a clock read
  // after it, and in relaxed memory a load may return an older store.
  std::string points_only_in_simulator;
};

struct GpuRunSettings {
  uint64_t seed = 1;          // the workload's seed (the hash function's too)
  uint64_t spin_bound = 1u << 20;
  PerturbRecipe recipe;       // --recipe (off by default); its draws mix in the seed
  std::string team_word = "team";  // the Target's team: names a fault's lane ("warp 3 lane 7")
};

// One configured structure, ready to run workloads of its shape.
struct Target {
  std::string summary;  // one line
  WorkloadShape shape;
  uint32_t sim_lanes = 32;
  std::string team = "warp";  // what a team is, in reports: the structure's declared team, "thread" with one lane
  ModelId model = ModelId::Set;
  std::function<SeedRun(const sim::SimConfig&, const Ops&)> sim;
  std::function<SeedRun(uint64_t seed, const Ops&)> threads;  // empty: not supported
  std::function<SeedRun(const GpuRunSettings&, const Ops&)> gpu;
};

// A registered structure.
struct Structure {
  StructureSpec spec;
  std::vector<Backend> backends;                 // those it runs on
  // The names in its adapter's tables: the mutant enum's values (none
  // first) and the fix bits. Each but none is exactly one mutant or fix
  // of the declaration (Registry.EveryMutantAndFixIsOneValueOfItsTable).
  std::vector<std::string> mutant_values, fix_values;
  std::function<Target(const Options&)> configure;  // throws std::invalid_argument
  bool supports(Backend b) const;
  std::string backend_list() const;              // "sim, gpu"
};

// Every option a run of `s` takes: the stress run's, --mutant and --fixes
// from the catalogues, then the structure's own.
std::shared_ptr<const OptionTable> option_table(const Structure& s);
// A run's stress options ("--mode map --scheduler pct"), one item an
// option: its name, its value (none for a flag), its declaration (null for
// a name the table lacks). Throws std::invalid_argument for a token that
// is not an option, or an option without its value.
struct FlagItem {
  std::string name, value;
  bool flag = false;
  std::vector<Backend> backends;  // where it applies (empty: everywhere, or a name the table lacks)
  std::string text() const;       // " --name value"
  bool applies_on(Backend b) const;
};
std::vector<FlagItem> flag_items(const Structure& s, const std::string& flags);
// A run's stress options ("--mode map --scheduler pct") split by back-end:
// those that apply on `b`, and those that do not (the simulator's
// --scheduler, --memory-model, ... for the GPU), each as " --name value".
struct SplitFlags {
  std::string here, elsewhere;
};
SplitFlags split_flags(const Structure& s, const std::string& flags, Backend b);
// The mutant's index in the catalogue, 1-based; 0 for none.
size_t mutant_index(const StructureSpec& s, const Options& o);
// The fixes named by --fixes (names from the catalogue).
std::vector<std::string> chosen_fixes(const Options& o);
// Mutants and fixes used where they apply (their Applies constraints);
// throws std::invalid_argument ("mutant torn_read does not apply in map mode ...").
void check_applicability(const StructureSpec& s, const Options& o);

template <class A>
Structure make_structure() {
  static_assert(requires { typename A::Config; },
                "structure adapter: declare `using Config = ...;` (the structure's typed run configuration)");
  using C = typename A::Config;
  static_assert(requires { { A::declare() } -> std::same_as<StructureSpec>; },
                "structure adapter: needs `static StructureSpec declare()` (name, options, mutants, fixes, model, invariants)");
  static_assert(requires(const Options& o) { { A::configure(o) } -> std::same_as<C>; },
                "structure adapter: needs `static Config configure(const Options&)`");
  static_assert(requires(const C& c) { { A::workload(c) } -> std::same_as<WorkloadShape>; },
                "structure adapter: needs `static WorkloadShape workload(const Config&)`");
  static_assert(requires(const C& c) { { A::model(c) } -> std::same_as<ModelId>; },
                "structure adapter: needs `static ModelId model(const Config&)`");
  static_assert(requires(const C& c) { { A::sim_lanes(c) } -> std::same_as<uint32_t>; },
                "structure adapter: needs `static uint32_t sim_lanes(const Config&)` (lanes a team in the simulator)");
  static_assert(requires(const C& c, const sim::SimConfig& s, const Ops& ops) { { A::run_sim(c, s, ops) } -> std::same_as<SeedRun>; },
                "structure adapter: needs `static SeedRun run_sim(const Config&, const sim::SimConfig&, const Ops&)` "
                "(every structure runs in the simulator)");
  static_assert(requires { names_of(A::mutants); },
                "structure adapter: needs `static constexpr Named<M> mutants[] = {WC_NAMED(M::none), ...}` (its mutant enum M "
                "by name: --mutant is looked up there)");
  static_assert(in_enum_order(A::mutants) && A::mutants[0].name == "none",
                "structure adapter: `mutants` holds its enum's values in order, none (\"none\") first");
  constexpr bool fixes = requires { names_of(A::fixes); };
  if constexpr (fixes) static_assert(one_bit_each(A::fixes), "structure adapter: `fixes` holds fix bit i at entry i");
  constexpr bool threads = requires(const C& c, uint64_t seed, const Ops& ops) {
    { A::run_threads(c, seed, ops) } -> std::same_as<SeedRun>;
  };
  constexpr bool gpu = requires(const C& c, const GpuRunSettings& g, const Ops& ops) {
    { A::run_gpu(c, g, ops) } -> std::same_as<SeedRun>;
  };
  Structure s;
  s.spec = A::declare();
  s.mutant_values = names_of(A::mutants);
  if constexpr (fixes) s.fix_values = names_of(A::fixes);
  s.backends.push_back(Backend::Sim);
  if constexpr (threads) s.backends.push_back(Backend::Threads);
  if constexpr (gpu) s.backends.push_back(Backend::Gpu);
  s.configure = [team = s.spec.team](const Options& o) {
    const C c = A::configure(o);
    Target t;
    t.shape = A::workload(c);
    t.sim_lanes = A::sim_lanes(c);
    t.team = sim::team_word_for(t.sim_lanes, team);
    t.model = A::model(c);
    t.sim = [c](const sim::SimConfig& cfg, const Ops& ops) { return A::run_sim(c, cfg, ops); };
    if constexpr (threads) t.threads = [c](uint64_t seed, const Ops& ops) { return A::run_threads(c, seed, ops); };
    if constexpr (gpu)
      t.gpu = [c, word = t.team](GpuRunSettings g, const Ops& ops) {
        g.team_word = word;
        return A::run_gpu(c, g, ops);
      };
    return t;
  };
  return s;
}

}  // namespace warpcheck
