// What each structure declares, checked against what it does: every
// planted bug caught by its declared oracle within its declared seeds, and
// replayed from its seed; every finding about the paper's pseudocode found
// again without its fix; every structure/back-end combination runs or is
// refused with the back-ends that exist; the declarations themselves
// consistent. The cases come from the registry: a new structure's
// mutants and findings are tested without an edit here.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "linearizability/formats.hpp"
#include "stress/seam/catalogue.hpp"
#include "stress/commands/mutation_score.hpp"
#include "stress/run/stress_report.hpp"
#include "stress/run/stress_session.hpp"

namespace warpcheck {
namespace {

// The failing run's history, as a failure folder keeps it, read back: it
// names an oracle that fired, and `check` never passes it (exit 4, or 1
// where the checker refutes it too).
void expect_history_tells_the_failure(const Hunt& h, const std::string& name) {
  ASSERT_TRUE(h.first) << name;
  const History kept = read_binary(encode_binary(with_failure_record(h.first->run, h.first->check, "warpcheck repro f/history.bin")), name);
  ASSERT_TRUE(kept.meta.failure) << name;
  EXPECT_TRUE(oracle_bit(kept.meta.failure->oracle) & h.first_caught_by)
      << name << ": the record names " << failure_oracle_name(kept.meta.failure->oracle) << ", caught by " << oracle_names(h.first_caught_by);
  const CheckResult again = check_history(kept, {});
  const int code = check_exit_code(kept, again.verdict);
  EXPECT_TRUE(code == kExitRunFailed || code == 1) << name << ": check exits " << code << " on its failure's history";
}

// Every planted bug is caught within this many simulator seeds of its
// declared run (issue 15), so each is hunted here in full.
constexpr uint64_t kMaxDeclaredSeeds = 200;

struct MutantCase {
  const Structure* structure;
  const MutantSpec* mutant;
  size_t run;
};

void PrintTo(const MutantCase& c, std::ostream* os) {
  *os << c.structure->spec.name << " --mutant " << c.mutant->name << " " << c.mutant->runs[c.run];
}

std::vector<MutantCase> declared_mutants() {
  std::vector<MutantCase> out;
  for (const Structure& s : registry().structures)
    for (const MutantSpec& m : s.spec.mutants)
      for (size_t r = 0; r < m.runs.size(); ++r) out.push_back({&s, &m, r});
  return out;
}

std::string case_name(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

std::string mutant_case_name(const testing::TestParamInfo<MutantCase>& i) {
  const MutantCase& c = i.param;
  return case_name(c.structure->spec.name + "_" + c.mutant->name +
                   (c.mutant->runs.size() > 1 ? "_" + std::to_string(c.run) : ""));
}

class DeclaredMutant : public testing::TestWithParam<MutantCase> {};

TEST_P(DeclaredMutant, IsCaughtByItsOracleAndReplaysFromItsSeed) {
  const MutantCase& c = GetParam();
  if (!c.mutant->awaits.empty()) GTEST_SKIP() << c.mutant->name << " awaits " << c.mutant->awaits;
  ASSERT_LE(c.mutant->seeds, kMaxDeclaredSeeds) << c.mutant->name << " is declared to need more seeds than every planted bug may";
  ScoreOptions o;
  o.first_only = true;
  o.shrink = false;
  const MutantScore s = score_mutant(*c.structure, *c.mutant, c.run, o);
  const Hunt& h = s.hunt;
  if (s.benign) {  // declared no bug: nothing may catch it
    EXPECT_EQ(h.caught, 0u) << c.mutant->name << " is declared benign (" << c.mutant->benign << ") but seed "
                            << h.first_seed.value_or(0) << " was caught by " << oracle_names(h.first_caught_by);
    return;
  }
  ASSERT_GT(h.caught, 0u) << c.mutant->name << " (" << s.run << ") survived " << h.seeds << " seeds";
  EXPECT_TRUE(h.first_caught_by & s.expected) << c.mutant->name << " at seed " << *h.first_seed << " was caught by "
                                              << oracle_names(h.first_caught_by) << ", declared: " << oracle_names(s.expected);
  EXPECT_TRUE(h.replays) << "seed " << *h.first_seed << " did not give the same run again";
  expect_history_tells_the_failure(h, c.mutant->name);
  RecordProperty("first_seed", std::to_string(*h.first_seed));
}

INSTANTIATE_TEST_SUITE_P(Registry, DeclaredMutant, testing::ValuesIn(declared_mutants()), mutant_case_name);

// A mutant caught only in relaxed memory (a missing fence or release) must
// be invisible to sequentially consistent memory: what catches it is the
// memory model, not a schedule.
constexpr const char* kRelaxed = "--memory-model relaxed";

std::vector<MutantCase> relaxed_memory_mutants() {
  std::vector<MutantCase> out = declared_mutants();
  out.erase(std::remove_if(out.begin(), out.end(),
                           [](const MutantCase& c) { return c.mutant->runs[c.run].find(kRelaxed) == std::string::npos; }),
            out.end());
  return out;
}

class RelaxedMemoryMutant : public testing::TestWithParam<MutantCase> {};

TEST_P(RelaxedMemoryMutant, IsNeverCaughtInSequentiallyConsistentMemory) {
  const MutantCase& c = GetParam();
  const std::string& run = c.mutant->runs[c.run];
  const size_t at = run.find(kRelaxed);
  const std::string sc = run.substr(0, at) + "--memory-model sc" + run.substr(at + std::string(kRelaxed).size());
  const Hunt h = hunt(*c.structure, Backend::Sim, sc + " --mutant " + c.mutant->name, 50, true);
  EXPECT_EQ(h.caught, 0u) << c.mutant->name << " was caught in sequentially consistent memory at seed "
                          << h.first_seed.value_or(0) << " by " << oracle_names(h.first_caught_by);
}

INSTANTIATE_TEST_SUITE_P(Registry, RelaxedMemoryMutant, testing::ValuesIn(relaxed_memory_mutants()), mutant_case_name);

// A structure from a paper (one that declares the paper's fixes) runs a
// protocol of fences, releases and acquires: it plants a bug that only
// relaxed memory catches.
TEST(RelaxedMemoryMutants, EveryStructureFromAPaperDeclaresOne) {
  std::vector<std::string> with;
  for (const MutantCase& c : relaxed_memory_mutants()) with.push_back(c.structure->spec.name);
  size_t from_papers = 0;
  for (const Structure& s : registry().structures) {
    if (s.spec.fixes.empty()) continue;
    ++from_papers;
    EXPECT_NE(std::find(with.begin(), with.end(), s.spec.name), with.end()) << s.spec.name << " declares no relaxed-memory mutant";
  }
  EXPECT_GT(from_papers, 0u) << "no structure declares a paper's fixes: the test tried none";
}

struct FindingCase {
  const Structure* structure;
  const FindingSpec* finding;
};

void PrintTo(const FindingCase& c, std::ostream* os) { *os << c.structure->spec.name << " " << c.finding->run; }

std::vector<FindingCase> declared_findings() {
  std::vector<FindingCase> out;
  for (const Structure& s : registry().structures)
    for (const FindingSpec& f : s.spec.findings) out.push_back({&s, &f});
  return out;
}

class DeclaredFinding : public testing::TestWithParam<FindingCase> {};

TEST_P(DeclaredFinding, IsFoundAgainWithoutItsFixAndReplays) {
  const FindingCase& c = GetParam();
  const Hunt h = hunt(*c.structure, Backend::Sim, c.finding->run, c.finding->seeds, /*stop_at_first=*/true);
  ASSERT_GT(h.caught, 0u) << c.finding->name << " was not found in " << c.finding->seeds << " seeds of " << c.finding->run;
  EXPECT_TRUE(h.first_caught_by & c.finding->caught_by)
      << c.finding->name << " at seed " << *h.first_seed << " was caught by " << oracle_names(h.first_caught_by);
  EXPECT_TRUE(h.replays);
  expect_history_tells_the_failure(h, c.finding->name);
  RecordProperty("first_seed", std::to_string(*h.first_seed));
}

INSTANTIATE_TEST_SUITE_P(Registry, DeclaredFinding, testing::ValuesIn(declared_findings()),
                         [](const testing::TestParamInfo<FindingCase>& i) {
                           return case_name(i.param.structure->spec.name + "_" + i.param.finding->name);
                         });

// Every structure and back-end: the run works, or it is refused with a
// message naming the back-ends the structure runs on.
TEST(Registry, EveryStructureRunsOrRefusesEachBackEnd) {
  GpuProbe no_gpu;
  no_gpu.why_absent = "no CUDA device (test)";
  for (const Structure& s : registry().structures)
    for (Backend b : kAllBackends) {
      const std::string name = s.spec.name + " on " + std::string(backend_name(b));
      if (!s.supports(b)) {
        try {
          resolve_backend(s, std::string(backend_name(b)), no_gpu);
          ADD_FAILURE() << name << ": not refused";
        } catch (const std::invalid_argument& e) {
          EXPECT_NE(std::string(e.what()).find(s.backend_list()), std::string::npos) << name << ": " << e.what();
        }
        continue;
      }
      if (b == Backend::Gpu) {
        EXPECT_THROW(resolve_backend(s, "gpu", no_gpu), std::invalid_argument) << name << " without a device";
        continue;  // GPU runs: tests/cli's gpu_* tests on a GPU machine
      }
      StressRequest r = request_from_flags(s, b, "--seeds 2 --quiet");
      std::ostringstream out, err;
      EXPECT_EQ(run_stress_request(r, out, err), 0) << name << ":\n" << out.str();
    }
}

// The declarations are consistent: names unique, applicability on declared
// options and values, every mutant's runs and every finding's run valid.
TEST(Registry, DeclarationsAreConsistent) {
  std::set<std::string> names;
  for (const Structure& s : registry().structures) {
    EXPECT_TRUE(names.insert(s.spec.name).second) << "two structures named " << s.spec.name;
    EXPECT_FALSE(s.spec.description.empty());
    EXPECT_FALSE(s.spec.model.empty());
    const auto table = option_table(s);
    auto check_applies = [&](const std::string& what, const std::vector<Applies>& applies) {
      for (const Applies& a : applies) {
        const auto it = std::find_if(table->begin(), table->end(), [&](const OptionSpec& o) { return o.name == a.option; });
        ASSERT_NE(it, table->end()) << what << " applies by --" << a.option << ", not an option of " << s.spec.name;
        ASSERT_EQ(it->kind, OptionKind::Choice) << what;
        for (const std::string& v : a.values)
          EXPECT_NE(std::find(it->choices.begin(), it->choices.end(), v), it->choices.end()) << what << ": no --" << a.option << " " << v;
      }
    };
    std::set<std::string> mutants;
    for (const MutantSpec& m : s.spec.mutants) {
      EXPECT_TRUE(mutants.insert(m.name).second) << s.spec.name << ": mutant " << m.name << " twice";
      EXPECT_TRUE(m.caught_by != 0 || !m.benign.empty()) << m.name << " declares no oracle and is not benign";
      EXPECT_FALSE(m.caught_by != 0 && !m.benign.empty()) << m.name << " is declared benign and caught";
      check_applies("mutant " + m.name, m.applies);
      for (const std::string& run : m.runs) EXPECT_NO_THROW(request_from_flags(s, Backend::Sim, run + " --mutant " + m.name)) << run;
    }
    for (const FixSpec& f : s.spec.fixes) check_applies("fix " + f.name, f.applies);
    for (const FindingSpec& f : s.spec.findings) EXPECT_NO_THROW(request_from_flags(s, Backend::Sim, f.run)) << f.name;
  }
}

// A former name finds its structure (what was written under it still runs)
// and is no structure's name and no other structure's former name.
TEST(Registry, FormerNamesFindTheirStructureOnly) {
  std::map<std::string, const Structure*> former;
  for (const Structure& s : registry().structures) {
    EXPECT_EQ(registry().find(s.spec.name), &s) << s.spec.name;
    for (const std::string& f : s.spec.former_names) {
      EXPECT_TRUE(former.emplace(f, &s).second) << f << " is a former name of two structures";
      EXPECT_EQ(registry().find(f), &s) << f;
    }
  }
  for (const Structure& s : registry().structures) EXPECT_EQ(former.count(s.spec.name), 0u) << s.spec.name << " is a former name too";
}

// The fixes of a structure's --fixes list that `run` turns on.
std::set<std::string> fixes_named_in(const Structure& s, const std::string& run) {
  std::set<std::string> out;
  for (const FlagItem& item : flag_items(s, run)) {
    if (item.name != "fixes") continue;
    std::istringstream names(item.value);
    for (std::string name; std::getline(names, name, ',');) out.insert(name);
  }
  return out;
}

// Every fix is shown needed by a finding run without it, or is declared
// benign or awaiting (one of the three); every finding names a declared
// fix and leaves it out.
TEST(Registry, EveryFixHasAFindingOrSaysWhyNot) {
  for (const Structure& s : registry().structures) {
    std::set<std::string> fixes;
    for (const FixSpec& f : s.spec.fixes) {
      EXPECT_TRUE(fixes.insert(f.name).second) << s.spec.name << ": fix " << f.name << " twice";
      const bool found = std::any_of(s.spec.findings.begin(), s.spec.findings.end(),
                                     [&](const FindingSpec& g) { return g.fix == f.name; });
      EXPECT_EQ(int(found) + int(!f.benign.empty()) + int(!f.awaits.empty()), 1)
          << s.spec.name << ": fix " << f.name << " needs exactly one of a finding, a benign reason or an awaits";
    }
    for (const FindingSpec& g : s.spec.findings) {
      EXPECT_TRUE(fixes.count(g.fix)) << s.spec.name << ": finding " << g.name << " names no declared fix (" << g.fix << ")";
      EXPECT_FALSE(fixes_named_in(s, g.run).count(g.fix)) << s.spec.name << ": finding " << g.name << " runs with its own fix";
    }
  }
}

// A planted bug is one value of the structure's mutant enum, a fix one of
// its fix bits: --mutant and --fixes are looked up by name in the
// adapter's tables, so the catalogue lists each value but none exactly
// once, in any order, and nothing else.
TEST(Registry, EveryMutantAndFixIsOneValueOfItsTable) {
  auto sorted = [](std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  for (const Structure& s : registry().structures) {
    ASSERT_FALSE(s.mutant_values.empty()) << s.spec.name;
    std::vector<std::string> mutants, fixes;
    for (const MutantSpec& m : s.spec.mutants) mutants.push_back(m.name);
    for (const FixSpec& f : s.spec.fixes) fixes.push_back(f.name);
    const std::vector<std::string> planted(s.mutant_values.begin() + 1, s.mutant_values.end());  // all but none
    EXPECT_EQ(sorted(mutants), sorted(planted)) << s.spec.name << ": the declared mutants against its mutant enum's table";
    EXPECT_EQ(sorted(fixes), sorted(s.fix_values)) << s.spec.name << ": the declared fixes against its fix table";
  }
}

// The names of an audit's "## Fixes" table: the first cell of each row,
// in backticks.
std::vector<std::string> audit_fix_names(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> names;
  bool in_fixes = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) in_fixes = line == "## Fixes";
    if (!in_fixes || line.rfind("| `", 0) != 0) continue;
    const size_t end = line.find('`', 3);
    if (end != std::string::npos) names.push_back(line.substr(3, end - 3));
  }
  return names;
}

// A structure with fixes of a paper has an audit of the printed lines, and
// it names exactly the fixes the structure declares, in any order.
TEST(Registry, EveryAuditNamesExactlyTheDeclaredFixes) {
  for (const Structure& s : registry().structures) {
    if (s.spec.audit.empty()) {
      EXPECT_TRUE(s.spec.fixes.empty()) << s.spec.name << " declares fixes but no audit (StructureSpec::audit)";
      continue;
    }
    const std::string path = std::string(WARPCHECK_SOURCE_DIR) + "/" + s.spec.audit;
    ASSERT_TRUE(std::ifstream(path).good()) << s.spec.name << ": no audit at " << s.spec.audit;
    std::vector<std::string> in_audit = audit_fix_names(path), declared;
    for (const FixSpec& f : s.spec.fixes) declared.push_back(f.name);
    std::sort(in_audit.begin(), in_audit.end());
    std::sort(declared.begin(), declared.end());
    EXPECT_EQ(in_audit, declared) << s.spec.name << ": " << s.spec.audit << "'s \"## Fixes\" table against the declaration";
  }
}

// --list-mutants --structure X lists X's mutants and no other structure's.
TEST(Registry, TheCatalogueOfOneStructureIsItsOwn) {
  for (const Structure& s : registry().structures) {
    std::ostringstream text, json;
    print_catalogue(registry(), &s, false, text);
    print_catalogue(registry(), &s, true, json);
    for (const MutantSpec& m : s.spec.mutants) {
      EXPECT_NE(text.str().find(m.name), std::string::npos) << s.spec.name << " text lacks " << m.name;
      EXPECT_NE(json.str().find("\"name\":\"" + m.name + "\""), std::string::npos) << s.spec.name << " json lacks " << m.name;
    }
    for (const Structure& other : registry().structures) {
      if (&other == &s) continue;
      EXPECT_EQ(text.str().find(other.spec.name + " mutants"), std::string::npos) << s.spec.name << " lists " << other.spec.name;
      EXPECT_EQ(json.str().find("\"structure\":\"" + other.spec.name + "\""), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace warpcheck
