#include "stress/litmus.hpp"

#include <array>

#include "structures/core/sim/sim_team.hpp"

namespace warpcheck {

namespace {

using core::order;
using core::scope;
using Body = std::function<void(sim::sim_team&, uint64_t*, uint64_t*, uint64_t*)>;

// How a shape is fenced: not at all, or with what forbids its weak outcome
// at a scope, the teams in one block or not.
struct Fencing {
  bool fenced = false;
  scope at = scope::gpu;
  bool same_block = false;
  std::string name() const {
    if (!fenced) return "relaxed";
    return std::string(at == scope::cta ? "cta" : "gpu") + " scope, " + (same_block ? "one block" : "two blocks");
  }
  // A fenced shape's weak outcome is forbidden when its scope reaches
  // across the teams: gpu scope always, cta scope within a block.
  bool forbids() const { return fenced && (at == scope::gpu || same_block); }
};

const Fencing kFencings[] = {{false, scope::gpu, false}, {true, scope::gpu, false}, {true, scope::cta, true}, {true, scope::cta, false}};

uint64_t ld(sim::sim_team& t, uint64_t* p, order o, scope s) { return t.load(p, o, s); }
void st(sim::sim_team& t, uint64_t* p, uint64_t v, order o, scope s) { t.store(p, v, o, s); }

LitmusTest make(std::string name, LitmusShape shape, const Fencing& f, uint32_t teams, Body body,
                std::function<bool(const uint64_t*)> weak, std::string weak_text, bool model_produces_unfenced = true) {
  LitmusTest t;
  t.name = std::move(name);
  t.shape = shape;
  t.fenced = f.fenced;
  t.scope = f.at;
  t.variant = f.name();
  t.teams = teams;
  t.same_block = f.same_block;
  t.allowed_by_ptx = !f.forbids();
  t.model_produces = t.allowed_by_ptx && model_produces_unfenced;
  t.body = std::move(body);
  t.weak = std::move(weak);
  t.weak_text = std::move(weak_text);
  return t;
}

}  // namespace

std::vector<LitmusTest> litmus_tests() {
  std::vector<LitmusTest> out;
  for (const Fencing& f : kFencings) {
    const scope s = f.at;
    const order rel = f.fenced ? order::release : order::relaxed, acq = f.fenced ? order::acquire : order::relaxed;
    // MP: message passing. T0: x = 1; y = 1 (release). T1: r0 = y (acquire); r1 = x.
    out.push_back(make(
        "MP", LitmusShape::mp, f, 2,
        [=](sim::sim_team& t, uint64_t* x, uint64_t* y, uint64_t* r) {
          if (t.team_id() == 0) {
            st(t, x, 1, order::relaxed, s);
            st(t, y, 1, rel, s);
          } else {
            r[0] = ld(t, y, acq, s);
            r[1] = ld(t, x, order::relaxed, s);
          }
        },
        [](const uint64_t* r) { return r[4] == 1 && r[5] == 0; }, "T1: y=1, x=0"));
    out.back().interleaved = [](const uint64_t* r) { return r[4] == 0 && r[5] == 1; };
    out.back().interleaved_text = "T1: y=0, x=1";
    // SB: store buffering. Ti: own = 1; fence.sc; r0 = other.
    out.push_back(make(
        "SB", LitmusShape::sb, f, 2,
        [=](sim::sim_team& t, uint64_t* x, uint64_t* y, uint64_t* r) {
          uint64_t* mine = t.team_id() == 0 ? x : y;
          uint64_t* other = t.team_id() == 0 ? y : x;
          st(t, mine, 1, order::relaxed, s);
          if (f.fenced) t.fence(order::seq_cst, s);
          r[0] = ld(t, other, order::relaxed, s);
        },
        [](const uint64_t* r) { return r[0] == 0 && r[4] == 0; }, "T0: y=0, T1: x=0"));
    out.back().interleaved = [](const uint64_t* r) { return r[0] == 1 && r[4] == 1; };
    out.back().interleaved_text = "T0: y=1, T1: x=1";
    // LB: load buffering. Ti: r0 = own; fence; other = 1.
    out.push_back(make(
        "LB", LitmusShape::lb, f, 2,
        [=](sim::sim_team& t, uint64_t* x, uint64_t* y, uint64_t* r) {
          uint64_t* mine = t.team_id() == 0 ? x : y;
          uint64_t* other = t.team_id() == 0 ? y : x;
          r[0] = ld(t, mine, order::relaxed, s);
          if (f.fenced) t.fence(order::acq_rel, s);
          st(t, other, 1, order::relaxed, s);
        },
        [](const uint64_t* r) { return r[0] == 1 && r[4] == 1; }, "T0: x=1, T1: y=1",
        /*model_produces_unfenced=*/false));
    out.back().interleaved = [](const uint64_t* r) { return r[0] == 0 && r[4] == 0; };
    out.back().interleaved_text = "T0: x=0, T1: y=0";
    // WRC: write-to-read causality. T0: x = 1. T1: r0 = x; y = 1 (release). T2: r1 = y (acquire); r2 = x.
    out.push_back(make(
        "WRC", LitmusShape::wrc, f, 3,
        [=](sim::sim_team& t, uint64_t* x, uint64_t* y, uint64_t* r) {
          if (t.team_id() == 0) {
            st(t, x, 1, order::relaxed, s);
          } else if (t.team_id() == 1) {
            r[0] = ld(t, x, order::relaxed, s);
            st(t, y, 1, rel, s);
          } else {
            r[0] = ld(t, y, acq, s);
            r[1] = ld(t, x, order::relaxed, s);
          }
        },
        [](const uint64_t* r) { return r[4] == 1 && r[8] == 1 && r[9] == 0; }, "T1: x=1, T2: y=1, x=0"));
    out.back().interleaved = [](const uint64_t* r) { return r[4] == 0 && r[8] == 0 && r[9] == 1; };
    out.back().interleaved_text = "T1: x=0, T2: y=0, x=1";
    // IRIW: independent reads of independent writes. T0: x = 1. T1: y = 1.
    // T2: r0 = x; fence.sc; r1 = y. T3: r0 = y; fence.sc; r1 = x.
    out.push_back(make(
        "IRIW", LitmusShape::iriw, f, 4,
        [=](sim::sim_team& t, uint64_t* x, uint64_t* y, uint64_t* r) {
          const uint32_t id = t.team_id();
          if (id < 2) {
            st(t, id == 0 ? x : y, 1, order::relaxed, s);
            return;
          }
          uint64_t* first = id == 2 ? x : y;
          uint64_t* second = id == 2 ? y : x;
          r[0] = ld(t, first, order::relaxed, s);
          if (f.fenced) t.fence(order::seq_cst, s);
          r[1] = ld(t, second, order::relaxed, s);
        },
        [](const uint64_t* r) { return r[8] == 1 && r[9] == 0 && r[12] == 1 && r[13] == 0; },
        "T2: x=1, y=0, T3: y=1, x=0"));
    out.back().interleaved = [](const uint64_t* r) { return r[8] == 0 && r[9] == 1 && r[12] == 0 && r[13] == 1; };
    out.back().interleaved_text = "T2: x=0, y=1, T3: y=0, x=1";
  }
  // Coherence holds whatever the orders: forbidden unfenced.
  const Fencing relaxed = kFencings[0];
  LitmusTest corr = make(
      "CoRR", LitmusShape::corr, relaxed, 2,
      [](sim::sim_team& t, uint64_t* x, uint64_t*, uint64_t* r) {
        if (t.team_id() == 0) {
          st(t, x, 1, order::relaxed, scope::gpu);
        } else {
          r[0] = ld(t, x, order::relaxed, scope::gpu);
          r[1] = ld(t, x, order::relaxed, scope::gpu);
        }
      },
      [](const uint64_t* r) { return r[4] == 1 && r[5] == 0; }, "T1: x=1, then x=0");
  corr.allowed_by_ptx = corr.model_produces = false;
  corr.interleaved = [](const uint64_t* r) { return r[4] == 0 && r[5] == 1; };
  corr.interleaved_text = "T1: x=0, then x=1";
  out.push_back(corr);
  LitmusTest coww = make(
      "CoWW", LitmusShape::coww, relaxed, 2,
      [](sim::sim_team& t, uint64_t* x, uint64_t*, uint64_t* r) {
        if (t.team_id() == 0) {
          st(t, x, 1, order::relaxed, scope::gpu);
          st(t, x, 2, order::relaxed, scope::gpu);
        } else {
          r[0] = ld(t, x, order::relaxed, scope::gpu);
          r[1] = ld(t, x, order::relaxed, scope::gpu);
        }
      },
      [](const uint64_t* r) { return r[4] == 2 && r[5] == 1; }, "T1: x=2, then x=1");
  coww.allowed_by_ptx = coww.model_produces = false;
  // Anything but the two serial outcomes (0, 0), (2, 2) and the forbidden (2, 1).
  coww.interleaved = [](const uint64_t* r) {
    return !(r[4] == r[5] && (r[4] == 0 || r[4] == 2)) && !(r[4] == 2 && r[5] == 1);
  };
  coww.interleaved_text = "T1: x=0/1, then x=1/2";
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
    cfg.stack_bytes = 64 << 10;
    alignas(128) std::array<uint64_t, 32> words{};  // x and y in segments of their own
    std::array<uint64_t, 16> regs{};
    sim::Simulator simulator(cfg);
    const sim::RunReport report =
        simulator.run([&](sim::sim_team& t) { test.body(t, &words[0], &words[16], &regs[size_t(t.team_id()) * 4]); });
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
