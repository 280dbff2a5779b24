// A perturbation recipe for GPU runs (--recipe): seeded delays at the
// team-and-memory layer's scheduling points, hammer warps on the
// structure's hot lines, a shuffled launch, an occupancy limit. A recipe is
// a small text token, stored in every history of the run (as the stress
// option --recipe), so a GPU failure can be re-run with the same
// perturbation. Grammar and meaning: docs/gpu-perturbation.md. Plain C++:
// parsed and printed without CUDA; the device side is
// structures/core/cuda/perturbation.cuh.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpcheck {

struct PerturbRecipe {
  enum class Dist : uint8_t { Fixed, Uniform, Exponential };
  enum class Wait : uint8_t { Sleep, Spin };
  enum class Hammer : uint8_t { Rmw, Load, Evict };
  // Points, as structures/core/cuda/perturb_params.hpp's perturb_point bits.
  enum Point : uint32_t { Load = 1, Store = 2, Rmw = 4, Fence = 8, Lock = 16, Spin = 32, AllPoints = 63 };
  static constexpr uint32_t kMillion = 1000000;

  // Delays: a point of `points` fires with probability p_ppm / 10^6 and
  // delays its team by a draw from `dist` (fixed: delay_ns; uniform: up to
  // delay_ns; exponential: mean delay_ns, capped at 8x).
  uint32_t p_ppm = 0;  // 0: no delays
  Dist dist = Dist::Fixed;
  uint32_t delay_ns = 0;
  Wait wait = Wait::Sleep;
  uint32_t points = 0;
  bool split = false;  // a firing load tears its team: some lanes load after the delay
  // Teams that take part: team_num of every team_den (by a hash of the
  // seed and the team), or one team.
  uint32_t team_num = 1, team_den = 1;
  bool one_team = false;
  // Hammer warps beside the workers, and the lines of each of the
  // structure's arrays they hit.
  uint32_t hammer = 0;
  Hammer hammer_mode = Hammer::Rmw;
  uint32_t lines = 0;  // 0: the default (8) when hammering
  bool shuffle = false;  // block-to-team permutation and threads a block, from the seed
  uint32_t occ = 0;      // at most this many resident blocks an SM (0: no limit)
  // Layout: every array of the structure starts this many bytes past the
  // end of the one before it (0: each its own cudaMalloc, as usual). The
  // H100 reorders unfenced message passing only between far apart words
  // (bench/RESULTS.md, "GPU perturbation", issue 15: the GPU table, final,
  // its litmus runs), so a missing fence between a lock and
  // the data it guards shows only when they are far apart.
  uint64_t apart = 0;
  uint64_t seed = 0;     // mixed with the run's seed

  bool delays() const { return p_ppm > 0; }
  // Whether the launch itself is perturbed (apart= alone moves arrays and
  // launches the plain kernel, every instruction between a store and an
  // atomic as it is unperturbed).
  bool perturbs_launch() const { return delays() || hammer != 0 || shuffle || occ != 0; }
  bool off() const { return !perturbs_launch() && apart == 0; }
  uint32_t hammer_lines() const { return lines ? lines : 8; }
  bool operator==(const PerturbRecipe&) const = default;
};

// Parses a recipe token ("off", "preset:NAME", or items like
// "p=0.05,delay=exp:2000,at=load+store,split,hammer=8,shuffle,occ=2");
// throws std::invalid_argument naming what is wrong and what is valid.
PerturbRecipe parse_recipe(std::string_view text);
// The canonical token: items in a fixed order, defaults left out; "off"
// when nothing is on. parse_recipe(format_recipe(r)) == r.
std::string format_recipe(const PerturbRecipe& r);
// The canonical form of a token (presets expanded); throws like parse_recipe.
std::string canonical_recipe(std::string_view text);

struct RecipePreset {
  std::string name, recipe, what;
};
const std::vector<RecipePreset>& recipe_presets();

// The sim's nearest analogue of a recipe's delays, as stress options
// (" --delays P --delay-steps N [--delay-loads]"; empty when it delays
// nothing). Hammer warps, shuffles and occupancy have none.
std::string simulator_analogue(const PerturbRecipe& r);

}  // namespace warpcheck
