// Perturbation recipes (--recipe, stress/seam/recipe.hpp): the token's
// parser and canonical printer round-trip, bad tokens are refused saying
// what is wrong, presets expand, the option applies on the GPU only and is
// stored canonically in the run configuration a history holds, and a
// history's recipe comes back when the history is replayed. No GPU needed.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "linearizability/formats.hpp"
#include "stress/seam/recipe.hpp"
#include "stress/commands/recipe_table.hpp"
#include "stress/run/stress_session.hpp"
#include "support/property.hpp"

namespace warpcheck {
namespace {

PerturbRecipe random_recipe() {
  PerturbRecipe r;
  if (*rc::gen::arbitrary<bool>()) {
    r.p_ppm = *rc::gen::inRange<uint32_t>(1, PerturbRecipe::kMillion + 1);
    r.dist = *rc::gen::element(PerturbRecipe::Dist::Fixed, PerturbRecipe::Dist::Uniform, PerturbRecipe::Dist::Exponential);
    r.delay_ns = *rc::gen::inRange<uint32_t>(1, 10000001);
    r.wait = *rc::gen::element(PerturbRecipe::Wait::Sleep, PerturbRecipe::Wait::Spin);
    r.points = *rc::gen::inRange<uint32_t>(1, PerturbRecipe::AllPoints + 1);
    r.split = (r.points & PerturbRecipe::Load) && *rc::gen::arbitrary<bool>();
    switch (*rc::gen::inRange(0, 3)) {
      case 0: break;
      case 1: r.one_team = true; break;
      default:
        r.team_den = *rc::gen::inRange<uint32_t>(2, 1025);
        r.team_num = *rc::gen::inRange<uint32_t>(1, r.team_den);
    }
  }
  if (*rc::gen::arbitrary<bool>()) {
    r.hammer = *rc::gen::inRange<uint32_t>(1, 1025);
    r.hammer_mode = *rc::gen::element(PerturbRecipe::Hammer::Rmw, PerturbRecipe::Hammer::Load, PerturbRecipe::Hammer::Evict);
    if (r.hammer_mode != PerturbRecipe::Hammer::Evict) r.lines = *rc::gen::inRange<uint32_t>(1, 4097);
  }
  r.shuffle = *rc::gen::arbitrary<bool>();
  r.occ = *rc::gen::inRange<uint32_t>(0, 33);
  r.apart = *rc::gen::arbitrary<bool>() ? 256 * uint64_t(*rc::gen::inRange<uint32_t>(1, (1u << 20) + 1)) : 0;
  r.seed = *rc::gen::arbitrary<uint64_t>();
  if (r.off()) r.shuffle = true;
  return r;
}

WC_PROP(Recipe, PrintedRecipesParseBackToThemselves, 2000, ()) {
  const PerturbRecipe r = random_recipe();
  const std::string text = format_recipe(r);
  RC_ASSERT(parse_recipe(text) == r);
  RC_ASSERT(canonical_recipe(text) == text);
}

TEST(Recipe, OffAndPresets) {
  EXPECT_TRUE(parse_recipe("off").off());
  EXPECT_EQ(format_recipe(PerturbRecipe{}), "off");
  ASSERT_GE(recipe_presets().size(), 3u);
  for (const RecipePreset& p : recipe_presets()) {
    SCOPED_TRACE(p.name);
    EXPECT_EQ(canonical_recipe("preset:" + p.name), canonical_recipe(p.recipe));
    EXPECT_FALSE(parse_recipe("preset:" + p.name).off());
  }
  EXPECT_EQ(canonical_recipe("preset:tear"), "p=0.2,delay=uniform:4000,at=load,split");
}

TEST(Recipe, DefaultsAreFilledInAndPrinted) {
  // Delays default to loads, stores and atomics; hammers to 8 lines.
  EXPECT_EQ(canonical_recipe("delay=fixed:100,p=0.5"), "p=0.5,delay=fixed:100,at=load+store+rmw");
  EXPECT_EQ(canonical_recipe("hammer=4"), "hammer=4,lines=8");
  EXPECT_EQ(canonical_recipe("hammer=4:evict"), "hammer=4:evict");
  EXPECT_EQ(canonical_recipe("p=1,delay=exp:5,at=spin+lock+fence+rmw+store+load,teams=all"), "p=1,delay=exp:5,at=all");
  EXPECT_EQ(canonical_recipe("p=0.000001,delay=uniform:7,teams=3/8,wait=spin,seed=9"),
            "p=0.000001,delay=uniform:7,wait=spin,at=load+store+rmw,teams=3/8,seed=9");
  const PerturbRecipe r = parse_recipe("p=0.25,delay=fixed:1000,at=load+lock,split,teams=one,occ=2,shuffle");
  EXPECT_EQ(r.p_ppm, 250000u);
  EXPECT_EQ(r.points, uint32_t(PerturbRecipe::Load | PerturbRecipe::Lock));
  EXPECT_TRUE(r.split && r.one_team && r.shuffle);
  EXPECT_EQ(r.occ, 2u);
}

TEST(Recipe, ApartTakesBytesAndPrintsTheLargestExactUnit) {
  EXPECT_EQ(parse_recipe("apart=4M").apart, uint64_t(4) << 20);
  EXPECT_EQ(parse_recipe("apart=256K").apart, uint64_t(256) << 10);
  EXPECT_EQ(parse_recipe("apart=768").apart, 768u);
  EXPECT_EQ(canonical_recipe("apart=4194304"), "apart=4M");
  EXPECT_EQ(canonical_recipe("apart=1536"), "apart=1536");
  EXPECT_EQ(canonical_recipe("apart=256M"), "apart=256M");
  // A layout alone is a perturbation; it comes after occ= in the stored form.
  EXPECT_FALSE(parse_recipe("apart=4M").off());
  EXPECT_EQ(canonical_recipe("apart=1M,occ=2,shuffle"), "shuffle,occ=2,apart=1M");
}

TEST(Recipe, BadTokensAreRefusedSayingWhy) {
  const std::pair<const char*, const char*> bad[] = {
      {"", "empty"},
      {"p=0.5", "p= needs delay="},
      {"delay=exp:100", "delay= needs p="},
      {"p=0,delay=fixed:1", "probability in (0, 1]"},
      {"p=1.5,delay=fixed:1", "probability in (0, 1]"},
      {"p=0.1234567,delay=fixed:1", "at most six decimals"},
      {"p=.5,delay=fixed:1", "probability"},
      {"p=0.5,delay=gauss:1", "fixed:NS, uniform:NS or exp:NS"},
      {"p=0.5,delay=fixed:0", "delay=fixed:"},
      {"p=0.5,delay=fixed:10000001", "[1, 10000000]"},
      {"p=0.5,delay=fixed:1,at=loads", "at= takes points"},
      {"p=0.5,delay=fixed:1,at=load+load", "twice"},
      {"p=0.5,delay=fixed:1,at=all+load", "at=all stands alone"},
      {"p=0.5,delay=fixed:1,at=store,split", "split tears loads"},
      {"split", "needs p= and delay="},
      {"teams=1/2", "needs p= and delay="},
      {"p=0.5,delay=fixed:1,teams=2/2", "teams= K"},
      {"p=0.5,delay=fixed:1,teams=half", "all, one or K/N"},
      {"hammer=0", "hammer="},
      {"hammer=4:store", "rmw, load or evict"},
      {"lines=4", "needs hammer="},
      {"hammer=4:evict,lines=4", "no meaning"},
      {"occ=0", "occ="},
      {"occ=33", "occ="},
      {"shuffle=1", "takes no value"},
      {"shuffle,,occ=2", "empty item"},
      {"shuffle,", "empty item"},
      {"shuffle,shuffle", "given twice"},
      {"seed=3", "perturbs nothing"},
      {"off,shuffle", "stands alone"},
      {"preset:nope", "no preset 'nope'"},
      {"jitter=5", "unknown item 'jitter=5'"},
      {"occ", "needs a value"},
      {"apart=0", "apart="},
      {"apart=300", "multiples of 256"},
      {"apart=257M", "apart="},
      {"apart=4G", "apart="},
      {"apart", "needs a value"},
  };
  for (auto [token, why] : bad) {
    SCOPED_TRACE(token);
    try {
      parse_recipe(token);
      ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("--recipe"), std::string::npos) << e.what();
    }
  }
}

TEST(Recipe, TheSimulatorsAnalogueIsItsDelays) {
  EXPECT_EQ(simulator_analogue(parse_recipe("hammer=8,shuffle")), "");
  EXPECT_EQ(simulator_analogue(parse_recipe("p=0.05,delay=exp:2000,at=load+store")), " --delays 0.05 --delay-steps 2000 --delay-loads");
  EXPECT_EQ(simulator_analogue(parse_recipe("p=0.5,delay=uniform:100,at=store")), " --delays 0.5 --delay-steps 100");
}

TEST(RecipeOption, AppliesOnTheGpuOnly) {
  const Structure& s = *registry().find("sorted_set");
  try {
    request_from_flags(s, Backend::Sim, "--recipe preset:tear");
    ADD_FAILURE() << "--recipe accepted with --backend sim";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--recipe applies only with --backend gpu"), std::string::npos) << e.what();
  }
  try {
    request_from_flags(s, Backend::Gpu, "--recipe p=0.5");
    ADD_FAILURE() << "a bad recipe accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("p= needs delay="), std::string::npos) << e.what();
  }
  // Without --recipe a GPU run is not perturbed, and says nothing of it.
  const StressRequest plain = request_from_flags(s, Backend::Gpu, "");
  EXPECT_FALSE(plain.options.has_value("recipe"));
  EXPECT_TRUE(gpu_settings(plain.options, 1).recipe.off());
  EXPECT_EQ(run_configuration(s, plain.options, nullptr).find("recipe"), std::string::npos);
}

TEST(RecipeOption, IsStoredCanonicallyAndComesBackFromTheHistory) {
  const Structure& s = *registry().find("slab_hash");
  const StressRequest r = request_from_flags(s, Backend::Gpu, "--mode multimap --recipe preset:storm --mutant torn_read");
  const std::string canonical = canonical_recipe("preset:storm");
  EXPECT_EQ(r.options.text("recipe"), canonical);
  EXPECT_EQ(gpu_settings(r.options, 7).recipe, parse_recipe(canonical));
  EXPECT_NE(r.options.run_flags().find(" --recipe " + canonical), std::string::npos) << r.options.run_flags();
  const std::string config = run_configuration(s, r.options, nullptr);
  EXPECT_NE(config.find("\"recipe\":\"" + canonical + "\""), std::string::npos) << config;

  // A GPU run's history (as the stress session writes it: the configuration
  // in its header) replays with the same recipe.
  const auto dir = std::filesystem::temp_directory_path() / ("warpcheck_recipe_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  History h;
  h.meta.model = ModelId::Multimap;
  h.meta.seed = 42;
  h.meta.config = config;
  save_history(h, (dir / "history.bin").string(), HistoryFormat::Binary);
  const StressRequest again = request_from_history(registry(), (dir / "history.bin").string(), {}, {"quiet"});
  EXPECT_EQ(again.options.backend(), Backend::Gpu);
  EXPECT_EQ(again.options.text("recipe"), canonical);
  EXPECT_EQ(again.options.text("mutant"), "torn_read");
  EXPECT_EQ(*again.repro_seed, 42u);
  std::filesystem::remove_all(dir);
}

TEST(RecipeTable, TheSimulatorsOwnOptionsAreSplitOff) {
  const Structure& s = *registry().find("slab_hash");
  const SplitFlags f = split_flags(s, "--mode multimap --scheduler pct --delay-loads --keys 4", Backend::Gpu);
  EXPECT_EQ(f.here, " --mode multimap --keys 4");
  EXPECT_EQ(f.elsewhere, " --scheduler pct --delay-loads");
  const SplitFlags g = split_flags(s, "", Backend::Gpu);
  EXPECT_EQ(g.here, "");
  EXPECT_EQ(g.elsewhere, "");
}

}  // namespace
}  // namespace warpcheck

namespace warpcheck {
namespace {

// The recipe table's bookkeeping, without a GPU: the sorted set with its GPU
// run replaced by a stand-in that "catches" unlocked_contains on even seeds
// when a recipe is on, and never anything else; its simulator run fails
// under the same mutant.
Registry fake_gpu_registry() {
  Structure s = *registry().find("sorted_set");
  const auto real = s.configure;
  s.configure = [real](const Options& o) {
    Target t = real(o);
    const bool planted = o.text("mutant") == "unlocked_contains";
    t.gpu = [planted](const GpuRunSettings& g, const Ops&) {
      SeedRun r;
      r.fault = planted && !g.recipe.off() && g.seed % 2 == 0;
      r.fault_message = "stand-in";
      r.kernel_ms = g.recipe.off() ? 1.0 : 3.0;
      return r;
    };
    t.sim = [planted](const sim::SimConfig&, const Ops&) {
      SeedRun r;
      r.fault = planted;
      return r;
    };
    return t;
  };
  Registry r;
  r.structures.push_back(std::move(s));
  return r;
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(RecipeTable, CountsCatchesAndSlowdownRecipeByRecipe) {
  const Registry reg = fake_gpu_registry();
  RecipeTableOptions o;
  o.recipes = {"off", "preset:delays"};
  o.runs = 6;
  o.enough = 3;
  o.budget = 60;
  o.sim_seeds = 2;
  std::ostringstream out, err;
  EXPECT_EQ(print_recipe_table(reg, nullptr, o, out, err), 1) << "keep_lock_on_miss is never caught by the stand-in";
  const std::string t = out.str();
  // Off never catches (6 runs); delays catches seeds 2, 4 (and stops at --enough 3 runs once caught... after its 3rd run).
  EXPECT_NE(t.find("| sorted_set | unlocked_contains | - | off | 0 / 6 | 0 | - | - | - |"), std::string::npos) << t;
  EXPECT_NE(t.find("| sorted_set | unlocked_contains | - | preset:delays | 1 / 3 | 0 | fault |"), std::string::npos) << t;
  // Its first catch in the simulator (the stand-in fails every run there), guided by its history and not.
  EXPECT_NE(t.find("| guided yes (try 1, fault); unguided yes (try 1, fault) |"), std::string::npos) << t;
  EXPECT_NE(t.find("| sorted_set | keep_lock_on_miss | - | preset:delays | 0 / 6 |"), std::string::npos) << t;
  EXPECT_NE(t.find("| sorted_set | unlocked_contains | - | checker | 1 (9) | preset:delays |"), std::string::npos) << t;
  // The unmutated set: no false alarm, kernel time 3x the recipe off's.
  EXPECT_NE(t.find("| sorted_set | - | off | 0 / 6 | 0 | 1.00 | - |"), std::string::npos) << t;
  EXPECT_NE(t.find("| sorted_set | - | preset:delays | 0 / 6 | 0 | 3.00 | 3.00x |"), std::string::npos) << t;
  EXPECT_NE(t.find("planted bugs caught on the GPU: 1 of 2"), std::string::npos) << t;
}

TEST(RecipeTable, AppendedRunsMakeOneTable) {
  const Registry reg = fake_gpu_registry();
  const auto dir = std::filesystem::temp_directory_path() / ("warpcheck_recipe_table_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  RecipeTableOptions o;
  o.recipes = {"off", "preset:tear"};
  o.runs = 2;
  o.sim_seeds = 0;
  o.append_dir = dir.string();
  std::ostringstream out, err;
  o.only_mutants = {"unlocked_contains"};
  o.correct = false;
  print_recipe_table(reg, nullptr, o, out, err);
  o.only_mutants = {"keep_lock_on_miss"};
  print_recipe_table(reg, nullptr, o, out, err);
  o.mutants = false;
  o.correct = true;
  o.only_mutants.clear();
  print_recipe_table(reg, nullptr, o, out, err);
  const std::string by_recipe = read_file(dir / "by_recipe.md"), by_mutant = read_file(dir / "by_mutant.md"),
                    correct = read_file(dir / "correct.md");
  auto count = [](const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count(by_recipe, "| structure |"), 1u) << by_recipe;
  EXPECT_EQ(count(by_recipe, "| sorted_set |"), 4u) << by_recipe;
  EXPECT_EQ(count(by_mutant, "| sorted_set |"), 2u) << by_mutant;
  EXPECT_EQ(count(correct, "| sorted_set |"), 2u) << correct;
  EXPECT_NE(by_recipe.find("| preset:tear | 1 / 2 |"), std::string::npos) << by_recipe;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace warpcheck
