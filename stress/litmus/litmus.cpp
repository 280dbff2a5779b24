#include "stress/litmus/litmus.hpp"

#include <array>
#include <utility>

#include "stress/litmus/litmus_roles.hpp"
#include "structures/core/sim/sim_team.hpp"

namespace warpcheck {

namespace {

using core::order;
using core::scope;

// How a shape is fenced: not at all, or with what forbids its weak outcome
// at a scope, the teams in one block or not, the last team on the GPU or a
// CPU thread on the host.
struct Fencing {
  bool fenced = false;
  scope at = scope::gpu;
  bool same_block = false;
  bool host_last = false;
  std::string name() const {
    if (!fenced) return "relaxed";
    const char* scope_name = at == scope::cta ? "cta" : at == scope::gpu ? "gpu" : "system";
    return std::string(scope_name) + " scope, " + (host_last ? "last team on the host" : same_block ? "one block" : "two blocks");
  }
  // A fenced shape's weak outcome is forbidden when its scope reaches
  // across the teams: system scope always, gpu scope on the GPU, cta scope
  // within a block.
  bool forbids() const {
    return fenced && (at == scope::system || (at == scope::gpu && !host_last) || (at == scope::cta && same_block));
  }
};

const Fencing kFencings[] = {{false, scope::gpu, false},       {true, scope::gpu, false},  {true, scope::cta, true},
                             {true, scope::cta, false},        {true, scope::system, false},
                             {true, scope::gpu, false, true},  {true, scope::system, false, true}};

using Outcome = std::function<bool(const uint64_t*)>;

LitmusTest make(std::string name, LitmusShape shape, const Fencing& f, uint32_t teams, Outcome weak, std::string weak_text,
                Outcome interleaved, std::string interleaved_text, bool model_produces_unfenced = true) {
  LitmusTest t;
  t.name = std::move(name);
  t.shape = shape;
  t.fenced = f.fenced;
  t.scope = f.at;
  t.variant = f.name();
  t.teams = teams;
  t.same_block = f.same_block;
  t.host_last = f.host_last;
  t.allowed_by_ptx = !f.forbids();
  t.model_produces = t.allowed_by_ptx && model_produces_unfenced;
  t.weak = std::move(weak);
  t.weak_text = std::move(weak_text);
  t.interleaved = std::move(interleaved);
  t.interleaved_text = std::move(interleaved_text);
  return t;
}

}  // namespace

// The programs are stress/litmus/litmus_roles.hpp's; here each test's outcomes
// (registers r[4 * team + i]).
std::vector<LitmusTest> litmus_tests() {
  std::vector<LitmusTest> out;
  for (const Fencing& f : kFencings) {
    out.push_back(make("MP", LitmusShape::mp, f, 2, [](const uint64_t* r) { return r[4] == 1 && r[5] == 0; }, "T1: y=1, x=0",
                       [](const uint64_t* r) { return r[4] == 0 && r[5] == 1; }, "T1: y=0, x=1"));
    out.push_back(make("MP-wide", LitmusShape::mp_wide, f, 2, [](const uint64_t* r) { return r[4] == 1 && r[5] == 0; },
                       "T1: y=1, x=0", [](const uint64_t* r) { return r[4] == 0 && r[5] == 1; }, "T1: y=0, x=1"));
    // The delete guard's seqlock read (slab hash multimap, issue 32): the
    // writer always fenced; the reader's fence or acquire load is what
    // forbids it (unfenced: the planted bug guard_read_unordered).
    for (const auto& [name, shape] : {std::pair{"MP-guard-fence", LitmusShape::guard_fence},
                                      std::pair{"MP-guard-acquire", LitmusShape::guard_acquire}})
      out.push_back(make(name, shape, f, 2, [](const uint64_t* r) { return r[4] == 1 && r[5] == 0; }, "T1: y=1, x=0",
                         [](const uint64_t* r) { return r[4] == 0 && r[5] == 1; }, "T1: y=0, x=1"));
    out.push_back(make("SB", LitmusShape::sb, f, 2, [](const uint64_t* r) { return r[0] == 0 && r[4] == 0; },
                       "T0: y=0, T1: x=0", [](const uint64_t* r) { return r[0] == 1 && r[4] == 1; }, "T0: y=1, T1: x=1"));
    out.push_back(make("LB", LitmusShape::lb, f, 2, [](const uint64_t* r) { return r[0] == 1 && r[4] == 1; },
                       "T0: x=1, T1: y=1", [](const uint64_t* r) { return r[0] == 0 && r[4] == 0; }, "T0: x=0, T1: y=0",
                       /*model_produces_unfenced=*/false));
    out.push_back(make("WRC", LitmusShape::wrc, f, 3, [](const uint64_t* r) { return r[4] == 1 && r[8] == 1 && r[9] == 0; },
                       "T1: x=1, T2: y=1, x=0", [](const uint64_t* r) { return r[4] == 0 && r[8] == 0 && r[9] == 1; },
                       "T1: x=0, T2: y=0, x=1"));
    out.push_back(make(
        "IRIW", LitmusShape::iriw, f, 4, [](const uint64_t* r) { return r[8] == 1 && r[9] == 0 && r[12] == 1 && r[13] == 0; },
        "T2: x=1, y=0, T3: y=1, x=0", [](const uint64_t* r) { return r[8] == 0 && r[9] == 1 && r[12] == 0 && r[13] == 1; },
        "T2: x=0, y=1, T3: y=0, x=1"));
  }
  // Coherence holds whatever the orders: forbidden unfenced.
  const Fencing relaxed = kFencings[0];
  LitmusTest corr = make("CoRR", LitmusShape::corr, relaxed, 2, [](const uint64_t* r) { return r[4] == 1 && r[5] == 0; },
                         "T1: x=1, then x=0", [](const uint64_t* r) { return r[4] == 0 && r[5] == 1; }, "T1: x=0, then x=1");
  corr.allowed_by_ptx = corr.model_produces = false;
  out.push_back(corr);
  // CoWW's interleavings: anything but the serial (0, 0), (2, 2) and the forbidden (2, 1).
  LitmusTest coww = make(
      "CoWW", LitmusShape::coww, relaxed, 2, [](const uint64_t* r) { return r[4] == 2 && r[5] == 1; }, "T1: x=2, then x=1",
      [](const uint64_t* r) { return !(r[4] == r[5] && (r[4] == 0 || r[4] == 2)) && !(r[4] == 2 && r[5] == 1); },
      "T1: x=0/1, then x=1/2");
  coww.allowed_by_ptx = coww.model_produces = false;
  out.push_back(coww);
  return out;
}

LitmusCount run_litmus(const LitmusTest& test, sim::MemoryModel model, uint64_t seeds, uint64_t first_seed, bool serial) {
  LitmusCount c;
  for (uint64_t seed = first_seed; seed < first_seed + seeds; ++seed) {
    sim::SimConfig cfg;
    if (serial) {  // PCT without change points: each team runs to its end, in a random order
      cfg.scheduler = sim::SchedulerKind::Pct;
      cfg.pct_depth = 1;
    }
    cfg.teams = test.teams;
    cfg.lanes = 1;
    cfg.seed = seed;
    cfg.memory_model = model;
    cfg.teams_per_block = test.same_block ? test.teams : 1;
    cfg.host_teams = test.host_last ? 1 : 0;
    cfg.stack_bytes = 64 << 10;
    alignas(128) std::array<uint64_t, 32> words{};  // x and y in segments of their own
    std::array<uint64_t, 16> regs{};
    sim::Simulator simulator(cfg);
    const sim::RunReport report =
        simulator.run([&](sim::sim_team& t) {
          run_litmus_role(t, test.shape, test.fenced, test.scope, t.team_id(), &words[0], &words[16], &regs[size_t(t.team_id()) * 4]);
        });
    if (!report.ok()) throw std::runtime_error("litmus " + test.name + ": " + report.message);
    ++c.runs;
    c.interleaved += test.interleaved(regs.data());
    if (test.weak(regs.data())) {
      if (!c.weak) c.first_weak_seed = seed;
      ++c.weak;
    }
  }
  return c;
}

}  // namespace warpcheck
