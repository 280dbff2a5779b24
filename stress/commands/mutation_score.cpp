#include "stress/commands/mutation_score.hpp"

#include <chrono>

#include "stress/run/stress_report.hpp"
#include "stress/run/stress_session.hpp"
#include "stress/run/team_batches.hpp"

namespace warpcheck {

namespace {

// A run configured from its flags, ready to run seeds.
struct ConfiguredRun {
  Options options;
  Target target;
  sim::SimConfig sim;  // the simulator's, on Backend::Sim
  bool points = false;
  CheckOptions check;
  ConfiguredRun(const Structure& s, Backend b, const std::string& flags) {
    options = request_from_flags(s, b, flags).options;
    target = s.configure(options);
    const uint64_t first = options.integer("seed");
    if (b == Backend::Sim) sim = simulator_config(target, options, ops(first), first);
    points = options.flag("require-points");
    check.timeout_seconds = options.real("timeout");
    check.shrink = false;
  }
  Backend backend() const { return options.backend(); }
  Ops ops(uint64_t seed) const { return materialize(target.shape, generate_slots(target.shape, seed)); }
  SeedFailure run(uint64_t seed) const {
    SeedFailure f{seed, {}, {}};
    switch (backend()) {
      case Backend::Sim: {
        sim::SimConfig cfg = sim;
        cfg.seed = seed;
        f.run = target.sim(cfg, ops(seed));
        break;
      }
      case Backend::Threads: f.run = target.threads(seed, ops(seed)); break;
      case Backend::Gpu: f.run = target.gpu(gpu_settings(options, seed), ops(seed)); break;
    }
    stamp_as_recorded(options, f.run.history);
    f.check = check_history(f.run.history, check);
    return f;
  }
};

Hunt hunt_in(const ConfiguredRun& r, uint64_t seeds, bool stop_at_first) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
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
      h.seconds_to_first = std::chrono::duration<double>(clock::now() - start).count();
      h.first = std::move(f);
      if (stop_at_first) break;
    }
  }
  if (h.first && r.backend() == Backend::Sim) {
    const SeedFailure again = r.run(*h.first_seed);
    h.replays = again.run.schedule == h.first->run.schedule && caught_by(again.run, again.check, r.points) == h.first_caught_by;
  }
  return h;
}

}  // namespace

Hunt hunt(const Structure& s, Backend b, const std::string& flags, uint64_t seeds, bool stop_at_first) {
  return hunt_in(ConfiguredRun(s, b, flags), seeds, stop_at_first);
}

MutantScore score_mutant(const Structure& s, const MutantSpec& m, size_t run, const ScoreOptions& so) {
  MutantScore score;
  score.structure = s.spec.name;
  score.mutant = m.name;
  score.run = m.runs.at(run);
  score.backend = so.backend;
  score.expected = m.caught_by;
  score.benign = !m.benign.empty();
  // Off the simulator, its own options (--scheduler pct, --memory-model relaxed) are left out.
  std::string flags = so.backend == Backend::Sim ? score.run : split_flags(s, score.run, so.backend).here;
  if (!so.scheduler.empty() && so.backend == Backend::Sim) {
    // A later --scheduler replaces the run's own; the row says which that was.
    const std::string declared = request_from_flags(s, so.backend, flags).options.text("scheduler");
    if (declared != so.scheduler.substr(0, so.scheduler.find(' '))) score.declared_scheduler = declared;
    flags += " --scheduler " + so.scheduler;
  }
  const ConfiguredRun configured(s, so.backend, flags + " --mutant " + m.name);
  score.hunt = hunt_in(configured, so.seeds.value_or(m.seeds), so.first_only);
  if (score.hunt.first_seed)
    score.reproduce = "warpcheck repro " + std::to_string(*score.hunt.first_seed) + " --structure " + s.spec.name +
                      configured.options.run_flags();
  if (score.hunt.first && so.shrink && so.backend == Backend::Sim) {
    CheckOptions full = configured.check;
    full.shrink = true;
    if (auto shrunk = shrink_failure(configured.target, configured.sim, *score.hunt.first_seed,
                                     first_oracle(score.hunt.first->run, score.hunt.first->check), full, configured.points,
                                     configured.options.integer("shrink-tries"))) {
      score.shrunk_ops = shrunk->shrink.active_after;
      score.workload_ops = shrunk->shrink.active_before;
      if (shrunk->failure.check.counterexample) score.counterexample_ops = shrunk->failure.check.counterexample->history.ops.size();
    }
  }
  return score;
}

int print_mutation_score(const Registry& r, const Structure* only, const ScoreOptions& o, std::ostream& out) {
  out << "| structure | run | mutant | expected oracle | first caught by | seeds that catch it | first seed | time to first catch (s) "
         "| shrunk workload (ops) | counterexample (ops) |\n"
      << "|---|---|---|---|---|---|---|---|---|---|\n";
  int off = 0;
  std::vector<std::string> reproduce;  // printed after the table, one a caught mutant
  for (const Structure& s : r.structures) {
    if ((only && &s != only) || !s.supports(o.backend)) continue;
    for (const MutantSpec& m : s.spec.mutants)
      for (size_t run = 0; run < m.runs.size(); ++run) {
        if (!m.awaits.empty()) {
          out << "| " << s.spec.name << " | " << (m.runs[run].empty() ? "-" : m.runs[run]) << " | " << m.name << " | "
              << oracle_names(m.caught_by) << " | awaits " << m.awaits << " | - | - | - | - | - |\n";
          continue;
        }
        const MutantScore sc = score_mutant(s, m, run, o);
        const Hunt& h = sc.hunt;
        off += !sc.as_declared();
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.2f", h.seconds_to_first);
        const std::string declared = sc.declared_scheduler.empty() ? "" : " (declared " + sc.declared_scheduler + ", run under " + o.scheduler + ")";
        out << "| " << sc.structure << " | " << (sc.run.empty() ? "-" : sc.run) << declared << " | " << sc.mutant << " | "
            << (sc.benign ? "none (benign)" : oracle_names(sc.expected)) << " | " << (h.caught ? oracle_names(h.first_caught_by) : "-")
            << (h.caught && o.backend == Backend::Sim && !h.replays ? " (did not replay)" : "") << " | " << h.caught << " / "
            << h.seeds << " | " << (h.first_seed ? std::to_string(*h.first_seed) : "-") << " | " << (h.caught ? seconds : "-")
            << " | " << (sc.workload_ops ? std::to_string(sc.shrunk_ops) + " of " + std::to_string(sc.workload_ops) : "-")
            << " | " << (sc.counterexample_ops ? std::to_string(sc.counterexample_ops) : "-") << " |\n"
            << std::flush;
        if (!sc.reproduce.empty())
          reproduce.push_back(sc.structure + " " + sc.mutant + (sc.run.empty() ? "" : " (" + sc.run + ")") + ", caught by " +
                              oracle_names(h.first_caught_by) + " at seed " + std::to_string(*h.first_seed) + ": " +
                              sc.reproduce);
      }
  }
  if (!reproduce.empty()) out << "\n";
  for (const std::string& line : reproduce) out << "reproduce " << line << "\n";
  return off;
}

}  // namespace warpcheck
