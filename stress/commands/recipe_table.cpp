#include "stress/commands/recipe_table.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "models/base/median.hpp"
#include "stress/run/guided_replay.hpp"
#include "stress/run/stress_session.hpp"
#include "stress/run/team_batches.hpp"

namespace warpcheck {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string seconds_text(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", s);
  return b;
}

using detail::median;

// One (row, recipe): its configured target and what its runs found.
struct Cell {
  std::string recipe;  // as given
  std::optional<Options> options;
  Target target;
  std::string error;
  uint64_t runs = 0, caught = 0, unknown = 0, operations = 0;
  double run_seconds = 0;
  std::optional<double> first_s;  // from the start of the row's campaign
  uint64_t first_seed = 0;
  std::optional<History> first_history;  // the first failing run's: the guide of its simulator tries
  GpuFailure first_failure;              // how it failed: its oracles, the key of its violation
  std::vector<double> kernel_ms;
  bool active = true;
  std::string simulator = "-";
};

struct Row {
  const Structure* s = nullptr;
  std::string mutant;          // empty: the structure unmutated
  std::string gpu_flags;       // what runs on the GPU (without --mutant)
  std::string elsewhere;       // the declared run's options the GPU lacks (the simulator's)
  Oracles expected = 0;
  bool benign = false;
};

std::string shown(const std::string& flags) {
  std::string f = flags;
  while (!f.empty() && f.front() == ' ') f.erase(f.begin());
  return f.empty() ? "-" : f;
}

// A markdown table's rows: appended to a file as they come (its header
// first when the file is new), or kept and written whole to a stream at
// the end (the tables would interleave otherwise).
class Sink {
 public:
  Sink(const std::string& dir, const std::string& name, std::string header) : header_(std::move(header)) {
    if (dir.empty()) return;
    std::filesystem::create_directories(dir);
    const std::string path = dir + "/" + name;
    const bool fresh = !std::filesystem::exists(path) || std::filesystem::file_size(path) == 0;
    file_.open(path, std::ios::app);
    if (!file_) throw std::invalid_argument(path + ": cannot write");
    if (fresh) file_ << header_ << std::flush;
  }
  std::ostream& row() {
    rows_ = true;
    if (file_.is_open()) return file_;
    return kept_;
  }
  void finish(std::ostream& out) {
    if (file_.is_open()) file_.flush();
    else if (rows_) out << "\n" << header_ << kept_.str();
  }

 private:
  std::string header_;
  std::ofstream file_;
  std::ostringstream kept_;
  bool rows_ = false;
};

Cell make_cell(const Row& row, const std::string& recipe) {
  Cell c;
  c.recipe = recipe;
  try {
    std::string flags = row.gpu_flags;
    if (!row.mutant.empty()) flags += " --mutant " + row.mutant;
    if (recipe != "off") flags += " --recipe " + recipe;
    StressRequest req = request_from_flags(*row.s, Backend::Gpu, flags);
    c.options = req.options;
    c.target = row.s->configure(*c.options);
  } catch (const std::exception& e) {
    c.error = e.what();
    c.active = false;
  }
  return c;
}

Ops seed_ops(const Target& t, uint64_t seed) { return materialize(t.shape, generate_slots(t.shape, seed)); }

void run_once(Cell& c, const RecipeTableOptions& o, Clock::time_point start) {
  const uint64_t seed = o.first_seed + c.runs;
  try {
    const Ops ops = seed_ops(c.target, seed);
    const auto t0 = Clock::now();
    SeedRun run = c.target.gpu(gpu_settings(*c.options, seed), ops);
    stamp_as_recorded(*c.options, run.history);
    c.run_seconds += since(t0);
    c.kernel_ms.push_back(run.kernel_ms);
    c.operations += ops.size();
    CheckOptions check;
    check.timeout_seconds = o.timeout;
    check.shrink = false;
    const CheckResult result = check_history(run.history, check);
    ++c.runs;
    if (result.verdict == Verdict::Unknown) ++c.unknown;
    if (const Oracles by = caught_by(run, result, false)) {
      ++c.caught;
      if (!c.first_s) {
        c.first_s = since(start);
        c.first_seed = seed;
        c.first_failure = gpu_failure(result);
        c.first_failure.oracles = by;
        c.first_history = std::move(run.history);
      }
    }
  } catch (const std::exception& e) {
    c.error = e.what();
    c.active = false;
  }
}

// The recipe's cell runs a seed a turn, each in turn, until every cell is
// done (--runs, or --enough after a catch) or the row's budget is spent.
void run_row_campaign(const Row& row, std::vector<Cell>& cells, const RecipeTableOptions& o) {
  const auto start = Clock::now();
  for (;;) {
    bool ran = false;
    for (Cell& c : cells) {
      if (!c.active) continue;
      if (since(start) >= o.budget) return;
      run_once(c, o, start);
      if (c.runs >= o.runs || (!row.mutant.empty() && c.caught && c.runs >= o.enough)) c.active = false;
      ran = true;
    }
    if (!ran) return;
  }
}

// The GPU failure's workload in the simulator, its shape and options
// (the GPU's defaults differ), with the declared run's simulator options
// and the recipe's delays as the simulator's (when the declared run sets
// none): under schedules guided by the failure's history, and unguided (the
// declared run's scheduler), each up to --sim-seeds tries until one fails
// as the GPU run did (caught by an oracle that caught it there).
std::string replay_in_simulator(const Row& row, const Cell& c, const RecipeTableOptions& o) {
  if (!o.sim_seeds) return "-";
  try {
    const Structure& s = *row.s;
    const std::string flags = with_recipe_delays(row.elsewhere, *c.options);
    const Ops ops = seed_ops(c.target, c.first_seed);  // the GPU run's workload
    StressRequest guided = simulator_request(s, *c.options, ops, guided_flags(s, flags));
    guided.guide = guide_from_history(*c.first_history);
    const StressRequest unguided = simulator_request(s, *c.options, ops, flags);
    SimulatorTries tries;
    tries.tries = o.sim_seeds;
    tries.check_timeout = o.timeout;
    tries.budget_seconds = o.sim_budget;
    auto said = [&](const SimulatorReplay& r) {
      if (r.found) return "yes (try " + std::to_string(r.tries) + ", " + oracle_names(r.by) + ")";
      return "no (" + std::to_string(r.tries) + " tries" + (r.out_of_budget ? ", out of time" : "") + ")";
    };
    const SimulatorReplay g = reproduce_in_simulator(guided, c.first_failure, tries);
    std::string text = "guided " + said(g);
    if (!g.found && g.closest) text += " [closest: " + std::to_string(g.closest->equal) + "/" + std::to_string(g.closest->compared) + " results as on the GPU]";
    return text + "; unguided " + said(reproduce_in_simulator(unguided, c.first_failure, tries));
  } catch (const std::exception& e) {
    return std::string("not tried: ") + e.what();
  }
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

}  // namespace

int print_recipe_table(const Registry& reg, const Structure* only, const RecipeTableOptions& o, std::ostream& out,
                       std::ostream& err) {
  for (const std::string& r : o.recipes)
    if (r != "off") parse_recipe(r);  // a bad recipe: say so before any device time is spent
  Sink by_recipe(o.append_dir, "by_recipe.md",
                 "| structure | mutant | run (GPU) | recipe | caught / runs | UNKNOWN | first caught by | time to first catch (s) "
                 "| first failure in the simulator |\n|---|---|---|---|---|---|---|---|---|\n");
  Sink by_mutant(o.append_dir, "by_mutant.md",
                 "| structure | mutant | run (GPU) | expected oracle | caught (runs, all recipes) | first catch: recipe "
                 "| time to first catch (s) | first failure in the simulator |\n|---|---|---|---|---|---|---|---|\n");
  Sink correct(o.append_dir, "correct.md",
               "| structure | run (GPU) | recipe | failing / runs | UNKNOWN | kernel time a run, median (ms) | slowdown vs off "
               "| runs/s |\n|---|---|---|---|---|---|---|---|\n");
  int missed = 0;
  uint64_t mutants = 0, caught_mutants = 0;
  std::vector<double> firsts;
  for (const Structure& s : reg.structures) {
    if ((only && &s != only) || !s.supports(Backend::Gpu)) continue;
    std::vector<Row> rows;
    std::set<std::string> correct_runs;
    for (const MutantSpec& m : s.spec.mutants) {
      std::set<std::string> seen;
      for (const std::string& run : m.runs) {
        const SplitFlags f = split_flags(s, run, Backend::Gpu);
        correct_runs.insert(f.here);
        if (!seen.insert(f.here).second || !m.awaits.empty()) continue;
        if (!o.mutants) continue;
        if (!o.only_mutants.empty() && std::find(o.only_mutants.begin(), o.only_mutants.end(), m.name) == o.only_mutants.end())
          continue;
        rows.push_back({&s, m.name, f.here, f.elsewhere, m.caught_by, !m.benign.empty()});
      }
    }
    if (o.correct)
      for (const std::string& f : correct_runs.empty() ? std::set<std::string>{""} : correct_runs) rows.push_back({&s, "", f, "", 0, false});

    for (const Row& row : rows) {
      std::vector<Cell> cells;
      for (const std::string& r : o.recipes) cells.push_back(make_cell(row, r));
      const auto start = Clock::now();
      run_row_campaign(row, cells, o);
      const double spent = since(start);
      uint64_t runs = 0;
      for (const Cell& c : cells) runs += c.runs;
      err << s.spec.name << " " << (row.mutant.empty() ? "(correct)" : row.mutant) << " " << shown(row.gpu_flags) << ": " << runs
          << " runs in " << seconds_text(spent) << " s\n"
          << std::flush;
      if (row.mutant.empty()) {
        const Cell* off = nullptr;
        for (const Cell& c : cells)
          if (c.recipe == "off" && c.runs) off = &c;
        for (const Cell& c : cells) {
          std::ostream& line = correct.row();
          line << "| " << s.spec.name << " | " << shown(row.gpu_flags) << " | " << c.recipe << " | ";
          if (!c.error.empty() && !c.runs) {
            line << "error: " << first_line(c.error) << " | - | - | - | - |\n";
            continue;
          }
          const double ms = median(c.kernel_ms);
          line << c.caught << " / " << c.runs << (c.error.empty() ? "" : " (then: " + first_line(c.error) + ")") << " | " << c.unknown
               << " | " << seconds_text(ms) << " | "
               << (off && &c != off && median(off->kernel_ms) > 0 ? seconds_text(ms / median(off->kernel_ms)) + "x" : "-") << " | "
               << seconds_text(c.runs / std::max(c.run_seconds, 1e-9)) << " |\n"
               << std::flush;
        }
        continue;
      }
      // The first catch of the campaign, replayed in the simulator.
      Cell* first = nullptr;
      for (Cell& c : cells)
        if (c.first_s && (!first || *c.first_s < *first->first_s)) first = &c;
      if (first) first->simulator = replay_in_simulator(row, *first, o);
      uint64_t caught = 0;
      for (const Cell& c : cells) {
        caught += c.caught;
        std::ostream& line = by_recipe.row();
        line << "| " << s.spec.name << " | " << row.mutant << " | " << shown(row.gpu_flags) << " | " << c.recipe << " | ";
        if (!c.error.empty() && !c.runs) {
          line << "error: " << first_line(c.error) << " | - | - | - | - |\n";
          continue;
        }
        line << c.caught << " / " << c.runs << (c.error.empty() ? "" : " (then: " + first_line(c.error) + ")") << " | " << c.unknown
             << " | " << (c.caught ? oracle_names(c.first_failure.oracles) : "-") << " | " << (c.first_s ? seconds_text(*c.first_s) : "-") << " | "
             << c.simulator << " |\n"
             << std::flush;
      }
      if (!row.benign) {
        ++mutants;
        if (first) {
          ++caught_mutants;
          firsts.push_back(*first->first_s);
        } else {
          ++missed;
        }
      }
      by_mutant.row() << "| " << s.spec.name << " | " << row.mutant << " | " << shown(row.gpu_flags) << " | "
                      << (row.benign ? "none (benign)" : oracle_names(row.expected)) << " | " << caught << " (" << runs << ") | "
                      << (first ? first->recipe : "-") << " | " << (first ? seconds_text(*first->first_s) : "-") << " | "
                      << (first ? first->simulator : "-") << " |\n"
                      << std::flush;
    }
  }
  by_mutant.finish(out);
  by_recipe.finish(out);
  correct.finish(out);
  if (mutants)
    out << "\nplanted bugs caught on the GPU: " << caught_mutants << " of " << mutants << " (benign ones aside); median time to first catch "
        << (firsts.empty() ? std::string("-") : seconds_text(median(firsts)) + " s") << "\n";
  return missed;
}

}  // namespace warpcheck
