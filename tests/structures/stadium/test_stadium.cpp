// Stadium hashing on the simulator: the hash functions and the ticket
// board's packing; one lane against the multimap, and the sequential faces
// of findings S1 and S2; the corrected algorithm under every kernel, ticket
// size, access policy, table location, key and value size and contention
// shape with the three verdicts; what each kernel records, and in which
// stream; the quiescent invariants' own detection; impossible
// configurations. (The findings and mutants of the declaration are found
// again in tests/stress/test_catalogue.cpp.)
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "linearizability/checker.hpp"
#include "stress/seam/registry.hpp"
#include "stress/stadium/config.hpp"
#include "stress/run/stress_session.hpp"
#include "structures/core/sim/sim_team.hpp"
#include "support/sim_for.hpp"

namespace warpcheck {
namespace {

namespace fix = structures::stadium_fix;
namespace sd = structures::stadium_detail;
using structures::stadium_attempt;
using structures::stadium_hash;
using structures::stadium_kernel;

static_assert(core::WarpTeam<core::lane_team<sim::sim_team>>, "a lane as its own team meets the team contract");

TEST(StadiumHashing, DoubleHashingVisitsEveryBucketOfAPrimeTable) {
  for (uint32_t n : {2u, 7u, 31u, 101u, 967u})
    for (uint64_t key = 0; key < 40; ++key) {
      std::set<uint32_t> seen;
      uint32_t at = sd::init_hash(uint32_t(key), n);
      for (uint32_t i = 0; i < n; ++i, at = sd::rehash(at, uint32_t(key), n)) {
        ASSERT_LT(at, n);
        seen.insert(at);
      }
      EXPECT_EQ(seen.size(), n) << "key " << key << ", " << n << " buckets";
      const uint64_t wide = sd::wide_key(key);
      seen.clear();
      at = sd::init_hash(wide, n);
      for (uint32_t i = 0; i < n; ++i, at = sd::rehash(at, wide, n)) seen.insert(at);
      EXPECT_EQ(seen.size(), n) << "8-byte key " << key;
    }
}

// Tables past 2^31 buckets (the out-of-core benchmark's): the rehash step
// is the same step modulo N, with no wrap of the 32-bit sum.
TEST(StadiumHashing, RehashStepsModuloTablesPastTwoToTheThirtyOneBuckets) {
  for (uint32_t n : {2147483659u, 2337980803u, 0xFFFFFFFBu})
    for (uint32_t at : {0u, n / 2, n - 2, n - 1})
      for (uint64_t key = 0; key < 500; ++key) {
        const uint64_t step = 1 + sd::umulhi(sd::general_hash(uint32_t(key), sd::kRehashMul), n - 1);
        ASSERT_EQ(sd::rehash(at, uint32_t(key), n), (uint64_t(at) + step) % n) << "n " << n << ", at " << at << ", key " << key;
      }
}

TEST(StadiumHashing, ASlotChangeLeavesItsNeighboursAlone) {
  for (uint32_t bits : {1u, 2u, 4u, 8u}) {
    std::vector<uint32_t> words(sd::ticket_board::words_for(100, bits), ~0u);
    sd::ticket_board b{words.data(), bits};
    EXPECT_EQ(b.per_word() * b.slot_bits() <= 32, true);
    for (uint32_t t = 0; t < 100; ++t) {
      const sd::ticket_ref r = b.at(t);
      *r.word = b.with_slot(*r.word, r, b.live(t & ((1u << b.info_bits()) - 1)));
    }
    for (uint32_t t = 0; t < 100; ++t) {
      const sd::ticket_ref r = b.at(t);
      const uint32_t slot = b.slot_of(*r.word, r);
      EXPECT_EQ(b.state(slot), sd::ticket_state::live) << bits << "-bit ticket " << t;
      EXPECT_EQ(b.info_field(slot), t & ((1u << b.info_bits()) - 1)) << bits << "-bit ticket " << t;
    }
    EXPECT_EQ(b.state(b.never_used()), sd::ticket_state::never_used);
    EXPECT_EQ(b.state(b.tombstone()), bits > 1 ? sd::ticket_state::tombstone : sd::ticket_state::never_used);
    EXPECT_EQ(b.state(b.inserting_blank()), sd::ticket_state::inserting);
    EXPECT_EQ(b.state(b.claimed(0)), sd::ticket_state::claimed);
  }
}

// A table no workload fills (no inserts in the mix): its operations are given.
StadiumConfig directed(uint32_t buckets, uint32_t fixes, uint32_t ticket_bits = 4) {
  StadiumConfig c;
  c.teams = 1;
  c.ops_per_lane = 1;
  c.keys = 1000;
  c.mix = OpMix{0, 1, 1};
  c.load = 0;
  c.buckets = buckets;
  c.fixes = fixes;
  c.ticket_bits = ticket_bits;
  return c;
}

struct Table {
  StadiumConfig c;
  HostMemory memory;
  stadium_hash s;
  explicit Table(const StadiumConfig& config) : c(config), memory(stadium_layout(c)) {
    stadium_fill(c, memory);
    s = stadium_view(c, memory.pointers());
  }
  // The operations one after the other, on one lane; their results.
  std::vector<stadium_attempt> run(const std::vector<core::workload_op>& ops) {
    sim::SimConfig sc;
    sc.teams = 1;
    sc.lanes = 1;
    sim::Simulator simulator(sc);
    memory.add_shadow_pools(simulator.shadow());
    std::vector<stadium_attempt> out;
    const sim::RunReport report = simulator.run([&](sim::sim_team& t) {
      core::lane_team<sim::sim_team> me(t);
      for (uint32_t i = 0; i < ops.size(); ++i) {
        structures::stadium_job j = s.start(ops[i], i);
        stadium_attempt a;
        do a = s.attempt(me, ops[i], j);
        while (a.status == stadium_attempt::again);
        out.push_back(a);
      }
    });
    EXPECT_TRUE(report.ok()) << report.message;
    return out;
  }
  sd::ticket_state state(uint32_t bucket) const {
    const sd::ticket_ref r = s.board.at(bucket);
    return s.board.state(s.board.slot_of(*r.word, r));
  }
};

core::workload_op insert(int64_t k, int64_t v) { return {k, v, OpKind::Insert, true}; }
core::workload_op erase(int64_t k) { return {k, 0, OpKind::Erase, true}; }
core::workload_op find(int64_t k) { return {k, 0, OpKind::Find, true}; }

// Two keys whose chains start at the same bucket of a 7-bucket table.
std::pair<int64_t, int64_t> colliding_keys(const stadium_hash& s) {
  for (int64_t a = 0; a < 100; ++a)
    for (int64_t b = a + 1; b < 100; ++b)
      if (s.table.first_bucket(s.table.stored_key(a), s.buckets) == s.table.first_bucket(s.table.stored_key(b), s.buckets))
        return {a, b};
  return {-1, -1};
}

TEST(StadiumHashing, OneLaneBehavesLikeTheMultimap) {
  for (uint32_t bits : {1u, 2u, 4u, 8u}) {
    Table t(directed(31, fix::kAll, bits));
    std::vector<core::workload_op> ops;
    std::multimap<int64_t, int64_t> model;
    uint64_t draws = 12345;
    for (int i = 0; i < 200; ++i) {
      draws = draws * 6364136223846793005ull + 1442695040888963407ull;
      const int64_t key = int64_t(draws >> 60) % 6;
      const uint32_t kind = uint32_t(draws >> 40) % 3;
      if (kind == 0 && model.size() < 25) ops.push_back(insert(key, i + 1)), model.insert({key, i + 1});
      else if (kind == 1) ops.push_back(erase(key));
      else ops.push_back(find(key));
    }
    model.clear();
    const auto results = t.run(ops);
    for (size_t i = 0; i < ops.size(); ++i) {
      const auto& op = ops[i];
      const auto& r = results[i];
      ASSERT_EQ(r.status, stadium_attempt::done);
      const auto range = model.equal_range(op.key);
      if (op.kind == OpKind::Insert) {
        model.insert({op.key, op.value});
      } else if (range.first == range.second) {
        EXPECT_EQ(r.kind, ResultKind::Absent) << bits << "-bit tickets, op " << i;
      } else {
        ASSERT_EQ(r.kind, ResultKind::Value) << bits << "-bit tickets, op " << i;
        auto it = range.first;
        while (it != range.second && it->second != r.value) ++it;
        ASSERT_NE(it, range.second) << "op " << i << " returned " << r.value << ", not a live value of key " << op.key;
        if (op.kind == OpKind::Erase) model.erase(it);
      }
    }
  }
}

// Finding S1, sequentially: an insert whose first bucket is taken clears
// that ticket's access bit with its atomic AND, and the pair there looks
// half-written from then on.
TEST(StadiumHashing, S1AFailedReservationClearsATakenTicketsAccessBit) {
  for (uint32_t fixes : {0u, fix::reserve_by_cas}) {
    StadiumConfig c = directed(7, fixes);
    c.access = structures::stadium_access::ignore;
    Table t(c);
    const auto [j, k] = colliding_keys(t.s);
    ASSERT_GE(j, 0);
    const uint32_t p = t.s.table.first_bucket(t.s.table.stored_key(j), t.s.buckets);
    const auto r = t.run({insert(j, 1), insert(k, 2), find(j)});
    EXPECT_EQ(t.state(p), fixes ? sd::ticket_state::live : sd::ticket_state::inserting);
    EXPECT_EQ(r[2].kind, fixes ? ResultKind::Value : ResultKind::Absent) << "find(j) after j's insert completed";
  }
}

// S2, sequentially: a delete frees the first bucket of two keys' chains.
// Figure 10 alone then stops there and misses the pair behind it; the
// text's further iterations when deletions mix with retrievals (section
// III-B, our paper variant whenever the mix deletes) and fix S2's
// tombstones both find it (S1 fixed, or the second insert would leave the
// first pair held for good).
TEST(StadiumHashing, S2AFreedTicketEndsFigure10AloneShortOfAPair) {
  for (uint32_t bits : {1u, 4u})
    for (uint32_t fixes : {fix::reserve_by_cas, fix::reserve_by_cas | fix::tombstones})
      for (bool further : {false, true}) {
        Table t(directed(7, fixes, bits));
        t.s.deletes = further;
        const auto [j, k] = colliding_keys(t.s);
        const auto r = t.run({insert(j, 1), insert(k, 2), erase(j), find(k), erase(k), find(k)});
        EXPECT_EQ(r[2].kind, ResultKind::Value);
        const bool finds = further || (fixes & fix::tombstones);
        EXPECT_EQ(r[3].kind, finds ? ResultKind::Value : ResultKind::Absent)
            << bits << "-bit tickets, fixes " << fixes << (further ? ", further iterations" : ", Figure 10 alone");
        EXPECT_EQ(r[4].kind, ResultKind::Value) << "deletes go on past available tickets as printed";
        EXPECT_EQ(r[5].kind, ResultKind::Absent);
      }
}

using test::sim_for;

test::SimShape sim_shape(const StadiumConfig& c) { return {.teams = c.teams, .lanes = stadium_sim_lanes(c), .pct_steps = 50000}; }

std::vector<core::workload_op> workload_of(const StadiumConfig& c, uint64_t seed) {
  const WorkloadShape shape = stadium_shape(c);
  return materialize(shape, generate_slots(shape, seed));
}

StadiumConfig fixed(stadium_kernel kernel) {
  StadiumConfig c;
  c.teams = 2;
  c.ops_per_lane = 2;
  c.keys = 8;
  c.mix = parse_op_mix("insert=40,erase=30,contains=30");
  c.fixes = fix::kAll;
  c.kernel = kernel;
  return c;
}

TEST(StadiumHashing, TheFixedAlgorithmPassesEveryOracleInEveryShape) {
  struct Case {
    StadiumConfig c;
    sim::SchedulerKind kind;
  };
  std::vector<Case> cases;
  auto add = [&](stadium_kernel k, auto edit, sim::SchedulerKind kind = sim::SchedulerKind::Random) {
    StadiumConfig c = fixed(k);
    edit(c);
    cases.push_back({c, kind});
  };
  add(stadium_kernel::stash, [](StadiumConfig& c) { c.load = 0.95, c.ticket_bits = 1, c.knobs.churn = 0.5; });
  add(stadium_kernel::stash, [](StadiumConfig& c) { c.access = structures::stadium_access::ignore, c.ticket_bits = 2; },
      sim::SchedulerKind::Pct);
  add(stadium_kernel::clstash, [](StadiumConfig& c) { c.load = 0.9, c.ticket_bits = 8, c.key_bytes = 8, c.value_bytes = 32; });
  add(stadium_kernel::clstash, [](StadiumConfig& c) { c.access = structures::stadium_access::ignore, c.knobs.churn = 0.5; },
      sim::SchedulerKind::Pct);
  add(stadium_kernel::hybrid, [](StadiumConfig& c) { c.host_table = true, c.value_bytes = 16, c.prefill = 4, c.ops_per_lane = 4; });
  add(stadium_kernel::hybrid, [](StadiumConfig& c) { c.load = 0.85, c.knobs.hot_keys = 2, c.knobs.hot_fraction = 0.5; });
  for (size_t k = 0; k < cases.size(); ++k)
    for (uint64_t seed = 1; seed <= 25; ++seed) {
      const CheckedRun r = run_stadium_sim(cases[k].c, sim_for(sim_shape(cases[k].c), seed, cases[k].kind), workload_of(cases[k].c, seed));
      ASSERT_TRUE(r.run.report.ok()) << "case " << k << " seed " << seed << ": " << r.run.report.message;
      ASSERT_TRUE(r.invariant_violations.empty()) << "case " << k << " seed " << seed << ": " << r.invariant_violations[0];
      const CheckResult check = check_history(r.run.history);
      ASSERT_EQ(check.verdict, Verdict::Linearizable) << "case " << k << " seed " << seed << ": " << check.reason;
    }
}

// Stash records each operation in its lane's stream (the lane is the
// team), clStash in its warp's, the hybrid both: each in the team that ran it.
TEST(StadiumHashing, EachOperationIsRecordedByTheTeamThatRanIt) {
  for (stadium_kernel k : {stadium_kernel::stash, stadium_kernel::clstash, stadium_kernel::hybrid}) {
    StadiumConfig c = fixed(k);
    c.ops_per_lane = 4;
    const auto ops = workload_of(c, 3);
    const CheckedRun r = run_stadium_sim(c, sim_for(sim_shape(c), 3), ops);
    ASSERT_TRUE(r.run.report.ok()) << r.run.report.message;
    size_t active = 0, lane_records = 0, warp_records = 0;
    for (const auto& op : ops) active += op.active;
    for (const Operation& op : r.run.history.ops) {
      if (op.team < c.teams * 32 && k != stadium_kernel::clstash) {
        ++lane_records;
        // A lane's stream holds that lane's operations, in its order.
        const uint32_t lane = op.team % 32, warp = op.team / 32;
        EXPECT_EQ(ops[(size_t(warp) * 32 + lane) * c.ops_per_lane + op.lane].key, op.data.key);
      } else {
        ++warp_records;
        const uint32_t warp = k == stadium_kernel::hybrid ? op.team - c.teams * 32 : op.team;
        ASSERT_LT(warp, c.teams);
        EXPECT_EQ(ops[size_t(warp) * 32 * c.ops_per_lane + op.lane].key, op.data.key);
      }
    }
    EXPECT_EQ(lane_records + warp_records, active);
    EXPECT_EQ(lane_records > 0, k != stadium_kernel::clstash) << int(k);
    EXPECT_EQ(warp_records > 0, k != stadium_kernel::stash) << int(k);
  }
}

bool mentions(const std::vector<std::string>& bad, const std::string& what) {
  return std::any_of(bad.begin(), bad.end(), [&](const std::string& s) { return s.find(what) != std::string::npos; });
}

// A quiescent table to corrupt, and its history.
struct Built {
  StadiumConfig c = fixed(stadium_kernel::stash);
  HostMemory memory{stadium_layout(c)};
  stadium_hash s;
  History h;
  Built() {
    stadium_fill(c, memory);
    s = stadium_view(c, memory.pointers());
    const CheckedRun r = run_stadium_sim(c, sim_for(sim_shape(c), 5), workload_of(c, 5), memory);
    EXPECT_TRUE(r.run.report.ok() && r.invariant_violations.empty());
    h = r.run.history;
  }
  // A bucket that holds one of the workload's pairs.
  uint32_t workload_bucket() const {
    for (uint32_t b = 0; b < s.buckets; ++b) {
      const sd::ticket_ref r = s.board.at(b);
      if (s.board.state(s.board.slot_of(*r.word, r)) != sd::ticket_state::live) continue;
      const uint32_t key = s.table.bucket<uint32_t>(b)[0];
      if (key < c.keys && std::any_of(h.ops.begin(), h.ops.end(), [&](const Operation& op) {
            return op.data.kind == OpKind::Insert && op.data.value == int64_t(s.table.bucket<uint32_t>(b)[1]);
          }))
        return b;
    }
    return UINT32_MAX;
  }
  void set_slot(uint32_t b, uint32_t slot) {
    const sd::ticket_ref r = s.board.at(b);
    *r.word = s.board.with_slot(*r.word, r, slot);
  }
};

TEST(StadiumInvariants, EachCorruptionIsNamed) {
  {
    Built b;
    ASSERT_TRUE(check_stadium_invariants(b.c, b.s, b.h).empty()) << check_stadium_invariants(b.c, b.s, b.h)[0];
    b.set_slot(b.workload_bucket(), b.s.board.inserting_blank());
    const auto bad = check_stadium_invariants(b.c, b.s, b.h);
    EXPECT_TRUE(mentions(bad, "left inserting")) << testing::PrintToString(bad);
  }
  {
    Built b;
    const uint32_t at = b.workload_bucket();
    const sd::ticket_ref r = b.s.board.at(at);
    b.set_slot(at, b.s.board.live(b.s.board.info_field(b.s.board.slot_of(*r.word, r)) ^ 1));
    EXPECT_TRUE(mentions(check_stadium_invariants(b.c, b.s, b.h), "info bits do not match"));
  }
  {
    Built b;  // a live pair's ticket freed
    b.set_slot(b.workload_bucket(), b.s.board.tombstone());
    const auto bad = check_stadium_invariants(b.c, b.s, b.h);
    EXPECT_TRUE(mentions(bad, "under an available ticket")) << testing::PrintToString(bad);
    EXPECT_TRUE(mentions(bad, "live pairs")) << "the count";
  }
  {
    Built b;  // a value's word overwritten
    b.s.table.bucket<uint32_t>(b.workload_bucket())[1] ^= 0x100;
    EXPECT_FALSE(check_stadium_invariants(b.c, b.s, b.h).empty());
  }
  {
    Built b;  // an erase the table did not do, twice
    const auto insert_op = std::find_if(b.h.ops.begin(), b.h.ops.end(), [](const Operation& op) { return op.data.kind == OpKind::Insert; });
    ASSERT_NE(insert_op, b.h.ops.end());
    Operation e = *insert_op;
    e.data.kind = OpKind::Erase;
    e.data.result_kind = ResultKind::Value;
    e.data.result = insert_op->data.value;
    e.data.value = 0;
    b.h.ops.push_back(e);
    b.h.ops.push_back(e);
    const auto bad = check_stadium_invariants(b.c, b.s, b.h);
    EXPECT_TRUE(mentions(bad, "erased more often than inserted")) << testing::PrintToString(bad);
  }
  {
    Built b;  // an operation left pending
    b.h.ops[0].data.pending = true;
    b.h.ops[0].ret = kPendingTime;
    EXPECT_TRUE(mentions(check_stadium_invariants(b.c, b.s, b.h), "never completed"));
  }
}

TEST(StadiumHashing, ImpossibleConfigurationsAreRejected) {
  const Structure& stadium = *registry().find("stadium");
  for (const char* bad : {"--ticket-bits 3", "--value-bytes 12", "--load 0.999", "--switch-at 0.3",
                          "--kernel clstash --switch-at 0.3", "--buckets 100 --load 0.9", "--variant fixed --fixes tombstones",
                          "--mutant missing_fence_host_table", "--mutant queue_wrap_loses_job",
                          "--mutant torn_wide_pair --key-bytes 8", "--keys 8 --prefill 9"})
    EXPECT_THROW((void)stadium.configure(request_from_flags(stadium, Backend::Sim, bad).options), std::invalid_argument) << bad;
  EXPECT_NO_THROW((void)stadium.configure(request_from_flags(stadium, Backend::Sim, "--kernel hybrid --switch-at 0.3").options));
}

}  // namespace
}  // namespace warpcheck
