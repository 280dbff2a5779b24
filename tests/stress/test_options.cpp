// Options declared once: parsed and validated from the table, defaults per
// back-end, the reproduce line and the JSON configuration written from the
// same table, and read back to the same values.
#include <gtest/gtest.h>

#include <sstream>

#include "stress/seam/catalogue.hpp"
#include "stress/run/stress_session.hpp"

namespace warpcheck {
namespace {

std::shared_ptr<const OptionTable> small_table() {
  return std::make_shared<OptionTable>(OptionTable{
      integer_option("teams", "teams", Defaults{"3", "3", "64"}, 1, 100),
      real_option("churn", "churn", "0", 0, 1),
      choice_option("mode", "mode", "map", {"map", "multimap"}),
      names_option("fixes", "fixes", {"a", "b"}),
      flag_option("phases", "phases"),
      only_on({Backend::Sim}, choice_option("scheduler", "scheduler", "random", {"random", "pct"})),
      session_option(integer_option("seeds", "seeds", "100", 1, 1000)),
  });
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Options, DefaultsComeFromTheBackEnd) {
  const Options sim = parse_options(small_table(), Backend::Sim, {}, {});
  const Options gpu = parse_options(small_table(), Backend::Gpu, {}, {});
  EXPECT_EQ(sim.integer("teams"), 3u);
  EXPECT_EQ(gpu.integer("teams"), 64u);
  EXPECT_EQ(sim.text("mode"), "map");
  EXPECT_FALSE(sim.flag("phases"));
  EXPECT_TRUE(sim.names("fixes").empty());
  EXPECT_TRUE(sim.has_value("scheduler"));
  EXPECT_FALSE(gpu.has_value("scheduler")) << "a simulator-only option has no value on the GPU";
}

TEST(Options, BadValuesAreRefusedSayingWhatIsValid) {
  auto parse = [](std::map<std::string, std::string> v, std::set<std::string> f = {}, Backend b = Backend::Sim) {
    return [=] { parse_options(small_table(), b, v, f); };
  };
  EXPECT_NE(message_of(parse({{"teams", "0"}})).find("[1, 100]"), std::string::npos);
  EXPECT_NE(message_of(parse({{"teams", "12x"}})).find("an integer"), std::string::npos);
  EXPECT_NE(message_of(parse({{"churn", "1.5"}})).find("[0, 1]"), std::string::npos);
  EXPECT_NE(message_of(parse({{"mode", "set"}})).find("map, multimap"), std::string::npos);
  EXPECT_NE(message_of(parse({{"fixes", "a,c"}})).find("'c'"), std::string::npos);
  EXPECT_NE(message_of(parse({{"nope", "1"}})).find("unknown option --nope"), std::string::npos);
  EXPECT_NE(message_of(parse({{"phases", "1"}})).find("takes no value"), std::string::npos);
  EXPECT_NE(message_of(parse({}, {"teams"})).find("needs a value"), std::string::npos);
  EXPECT_NE(message_of(parse({{"scheduler", "pct"}}, {}, Backend::Gpu)).find("only with --backend sim"), std::string::npos);
  EXPECT_EQ(message_of(parse({{"teams", "100"}, {"churn", "0.25"}, {"fixes", "b,a"}}, {"phases"})), "(no error)");
}

TEST(Options, TheReproduceLineAndTheJsonCarryEveryRunOptionAndReadBack) {
  const Options o = parse_options(small_table(), Backend::Sim, {{"teams", "7"}, {"fixes", "a"}, {"seeds", "5"}}, {"phases"});
  const std::string flags = o.run_flags();
  EXPECT_NE(flags.find("--teams 7"), std::string::npos) << flags;
  EXPECT_NE(flags.find("--mode map"), std::string::npos) << "defaults are written out too: " << flags;
  EXPECT_NE(flags.find("--phases"), std::string::npos) << flags;
  EXPECT_EQ(flags.find("--seeds"), std::string::npos) << "a session option is not part of the run: " << flags;
  EXPECT_EQ(o.run_json(), "{\"teams\":\"7\",\"churn\":\"0\",\"mode\":\"map\",\"fixes\":\"a\",\"phases\":\"true\",\"scheduler\":\"random\"}");
  // The run's values, parsed again, give the same run.
  std::map<std::string, std::string> values = o.run_values();
  std::set<std::string> flags_set;
  for (auto it = values.begin(); it != values.end();)
    if (it->second == "true" && it->first == "phases") {
      flags_set.insert(it->first);
      it = values.erase(it);
    } else {
      ++it;
    }
  EXPECT_EQ(parse_options(small_table(), Backend::Sim, values, flags_set).run_flags(), flags);
}

// The real tables: a structure's help lists each of its options, and its
// reproduce flags parse back to the same configuration.
TEST(Options, EveryStructuresHelpAndReproduceFlagsComeFromItsTable) {
  for (const Structure& s : registry().structures) {
    std::ostringstream help;
    print_stress_help(registry(), &s, help);
    const auto table = option_table(s);
    for (const OptionSpec& o : *table) EXPECT_NE(help.str().find("--" + o.name), std::string::npos) << s.spec.name << " --" << o.name;
    const StressRequest r = request_from_flags(s, Backend::Sim, "");
    const std::string flags = r.options.run_flags();
    EXPECT_EQ(request_from_flags(s, Backend::Sim, flags).options.run_flags(), flags) << s.spec.name;
  }
}

// --backend is declared once: every command's parse and message come from it.
TEST(Options, BackendIsOneDeclaration) {
  EXPECT_EQ(backend_value("threads"), Backend::Threads);
  EXPECT_NE(message_of([] { backend_value("cpu"); }).find("--backend must be one of sim, threads, gpu; got 'cpu'"), std::string::npos);
  const auto table = std::make_shared<const OptionTable>(OptionTable{backend_option("where", "sim")});
  EXPECT_EQ(parse_options(table, Backend::Sim, {}, {}).backend_option_value().value(), Backend::Sim);
  EXPECT_EQ(parse_options(table, Backend::Sim, {{"backend", "gpu"}}, {}).backend_option_value().value(), Backend::Gpu);
  EXPECT_NE(message_of([&] { parse_options(table, Backend::Sim, {{"backend", "cpu"}}, {}); }).find("sim, threads, gpu"), std::string::npos);
}

// A default the command works out is said in words, not as a value.
TEST(Options, DefaultInWordsIsShown) {
  std::ostringstream help;
  print_option_help({default_in_words("the cores", integer_option("jobs", "runs at a time", Defaults{}, 1, 8))}, {Backend::Sim}, help);
  EXPECT_NE(help.str().find("--jobs N"), std::string::npos);
  EXPECT_NE(help.str().find("(default: the cores)"), std::string::npos);
}

}  // namespace
}  // namespace warpcheck
