// The perturbation table (docs/gpu-perturbation.md): every planted bug of
// every structure that runs on the GPU, each under a few recipes, up to
// --runs runs a recipe within a time budget a mutant; caught/runs, time to
// the first catch (from the start of the mutant's campaign: its recipes
// take turns, a seed each), and whether the first GPU failure's workload
// fails in the simulator too, as it did on the GPU (the recipe's delays as
// the simulator's): under schedules guided by its history, and unguided.
// And each structure unmutated, under the same recipes: false alarms, and
// the slowdown (kernel time a run against the recipe `off`).
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "stress/seam/registry.hpp"

namespace warpcheck {

struct RecipeTableOptions {
  std::vector<std::string> recipes = {"off", "preset:delays", "preset:tear", "preset:storm"};
  uint64_t runs = 100;       // at most, a (row, recipe)
  uint64_t enough = 20;      // a recipe that has caught the mutant stops after this many runs
  double budget = 20;        // seconds a row (a mutant in one of its runs, or a correct run), its recipes together
  double timeout = 5;        // checker seconds a history
  uint64_t first_seed = 1;
  bool mutants = true, correct = true;
  std::vector<std::string> only_mutants;  // empty: all
  // The first GPU failure of a mutant, in the simulator: its workload under
  // up to sim_seeds guided schedules and as many unguided ones, each within
  // sim_budget seconds (0 seeds: not tried).
  uint64_t sim_seeds = 20;
  double sim_budget = 10;
  // Where the rows go: DIR/by_recipe.md, DIR/by_mutant.md, DIR/correct.md,
  // appended (a header when the file is new), so that separate runs (one
  // process a mutant) make one table. Empty: the tables go to `out`.
  std::string append_dir;
};

// The rows of `only` (or of every structure with a GPU back-end). Progress
// to `err`. Returns the number of mutants (not benign) that no recipe caught.
int print_recipe_table(const Registry& r, const Structure* only, const RecipeTableOptions& o, std::ostream& out, std::ostream& err);

}  // namespace warpcheck
