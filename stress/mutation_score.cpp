#include "stress/mutation_score.hpp"

#include "stress/stress_session.hpp"

namespace warpcheck {

namespace {

// A run configured from its flags, ready to run seeds on the simulator.
struct SimRun {
  Options options;
  Target target;
  sim::SimConfig base;
  bool points = false;
  CheckOptions check;
  SimRun(const Structure& s, const std::string& flags) {
    options = request_from_flags(s, Backend::Sim, flags).options;
    target = s.configure(options);
    const uint64_t first = options.integer("seed");
    base = simulator_config(target, options, ops(first), first);
    points = options.flag("require-points");
    check.timeout_seconds = options.real("timeout");
    check.shrink = false;
  }
  Ops ops(uint64_t seed) const { return materialize(target.shape, generate_slots(target.shape, seed)); }
  SeedFailure run(uint64_t seed) const {
    sim::SimConfig cfg = base;
    cfg.seed = seed;
    SeedFailure f{seed, target.sim(cfg, ops(seed)), {}};
    f.check = check_history(f.run.history, check);
    return f;
  }
};

Hunt hunt_in(const SimRun& r, uint64_t seeds, bool stop_at_first) {
  Hunt h;
  h.seeds = seeds;
  const uint64_t first = r.options.integer("seed");
  for (uint64_t seed = first; seed < first + seeds; ++seed) {
    SeedFailure f = r.run(seed);
    const Oracles caught = caught_by(f.run, f.check, r.points);
    if (!caught) continue;
    ++h.caught;
    if (!h.first) {
      h.first_seed = seed;
      h.first_caught_by = caught;
      h.first = std::move(f);
      if (stop_at_first) break;
    }
  }
  if (h.first) {
    const SeedFailure again = r.run(*h.first_seed);
    h.replays = again.run.schedule == h.first->run.schedule && caught_by(again.run, again.check, r.points) == h.first_caught_by;
  }
  return h;
}

}  // namespace

Hunt hunt(const Structure& s, const std::string& flags, uint64_t seeds, bool stop_at_first) {
  return hunt_in(SimRun(s, flags), seeds, stop_at_first);
}

MutantScore score_mutant(const Structure& s, const MutantSpec& m, size_t run, const ScoreOptions& so) {
  MutantScore score;
  score.structure = s.spec.name;
  score.mutant = m.name;
  score.run = m.runs.at(run);
  score.expected = m.caught_by;
  score.seeds = so.seeds.value_or(m.seeds);
  const SimRun sim_run(s, score.run + " --mutant " + m.name);
  const Hunt h = hunt_in(sim_run, score.seeds, so.first_only);
  score.caught = h.caught;
  score.first_seed = h.first_seed;
  score.first_caught_by = h.first_caught_by;
  score.replays = h.replays;
  if (h.first && so.shrink) {
    CheckOptions full = sim_run.check;
    full.shrink = true;
    if (auto shrunk = shrink_failure(sim_run.target, sim_run.base, *h.first_seed, full, sim_run.points,
                                     sim_run.options.integer("shrink-tries"))) {
      score.shrunk_ops = shrunk->shrink.active_after;
      score.workload_ops = shrunk->shrink.active_before;
      if (shrunk->failure.check.counterexample) score.counterexample_ops = shrunk->failure.check.counterexample->history.ops.size();
    }
  }
  return score;
}

int print_mutation_score(const Registry& r, const Structure* only, const ScoreOptions& o, std::ostream& out) {
  out << "| structure | run | mutant | expected oracle | first caught by | seeds that catch it | first seed | shrunk workload (ops) | counterexample (ops) |\n"
      << "|---|---|---|---|---|---|---|---|---|\n";
  int off = 0;
  for (const Structure& s : r.structures) {
    if (only && &s != only) continue;
    for (const MutantSpec& m : s.spec.mutants)
      for (size_t run = 0; run < m.runs.size(); ++run) {
        const MutantScore sc = score_mutant(s, m, run, o);
        off += !sc.as_declared();
        out << "| " << sc.structure << " | " << (sc.run.empty() ? "-" : sc.run) << " | " << sc.mutant << " | "
            << oracle_names(sc.expected) << " | " << (sc.caught ? oracle_names(sc.first_caught_by) : "-")
            << (sc.caught && !sc.replays ? " (did not replay)" : "") << " | " << sc.caught << " / " << sc.seeds << " | "
            << (sc.first_seed ? std::to_string(*sc.first_seed) : "-") << " | "
            << (sc.workload_ops ? std::to_string(sc.shrunk_ops) + " of " + std::to_string(sc.workload_ops) : "-") << " | "
            << (sc.counterexample_ops ? std::to_string(sc.counterexample_ops) : "-") << " |\n"
            << std::flush;
      }
  }
  return off;
}

}  // namespace warpcheck
