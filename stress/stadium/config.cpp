#include "stress/stadium/config.hpp"

#include <cmath>
#include <cstring>
#include <map>
#include <stdexcept>

#include "structures/core/sim/sim_team.hpp"
#include "structures/stadium/stadium_invariants.hpp"

namespace warpcheck {

namespace fix = structures::stadium_fix;
using structures::stadium_hash;
using structures::stadium_kernel;
using structures::stadium_mutant;
using structures::stadium_detail::ticket_state;
using structures::stadium_host::slot_at;

namespace {

constexpr uint32_t kMaxBuckets = 0xFFFFFFFBu;  // the largest prime below 2^32

bool is_prime(uint32_t n) {
  if (n < 2) return false;
  for (uint32_t d = 2; uint64_t(d) * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

uint32_t next_prime(uint64_t n) {
  if (n > kMaxBuckets) throw std::invalid_argument("stadium: a table of more than 2^32 - 5 buckets");
  uint32_t p = static_cast<uint32_t>(n < 2 ? 2 : n);
  while (!is_prime(p)) ++p;
  return p;
}

// The most pairs the workload can insert: the prefill, and every slot when
// the mix inserts at all.
uint64_t max_inserts(const StadiumConfig& c) {
  const bool inserts = c.mix.insert > 0 || c.knobs.churn > 0;
  return (inserts ? uint64_t(c.teams) * 32 * c.ops_per_lane : 0) + c.prefill;
}

void fail(const std::string& m) { throw std::invalid_argument("stadium: " + m); }

}  // namespace

uint32_t stadium_buckets(const StadiumConfig& c) {
  const uint64_t inserts = max_inserts(c);
  if (c.buckets) return next_prime(c.buckets);
  // Room for every insert on top of the fillers: N (1 - load) >= inserts.
  return next_prime(std::max<uint64_t>(2, uint64_t(std::ceil(double(inserts) / (1.0 - c.load)))));
}

uint32_t stadium_fillers(const StadiumConfig& c) {
  return static_cast<uint32_t>(std::floor(c.load * stadium_buckets(c)));
}

void validate(const StadiumConfig& c) {
  if (c.teams == 0 || c.ops_per_lane == 0) fail("teams and ops per lane must be at least 1");
  if (c.ticket_bits != 1 && c.ticket_bits != 2 && c.ticket_bits != 4 && c.ticket_bits != 8)
    fail("a ticket has 1, 2, 4 or 8 bits, got " + std::to_string(c.ticket_bits));
  if (c.key_bytes != 4 && c.key_bytes != 8) fail("keys have 4 or 8 bytes, got " + std::to_string(c.key_bytes));
  if (c.value_bytes != 4 && c.value_bytes != 8 && c.value_bytes != 16 && c.value_bytes != 32)
    fail("values have 4, 8, 16 or 32 bytes, got " + std::to_string(c.value_bytes));
  if (!(c.load >= 0 && c.load <= 0.99)) fail("the load factor must be in [0, 0.99]");
  if (!(c.switch_at >= 0 && c.switch_at <= 1)) fail("switch-at must be in [0, 1]");
  if (c.keys <= 0) fail("keys must be at least 1");
  if (c.fixes & ~fix::kAll) fail("unknown fix bits");
  const uint32_t n = stadium_buckets(c);
  const uint64_t fillers = stadium_fillers(c), inserts = max_inserts(c);
  if (fillers + inserts > n)
    fail(std::to_string(n) + " buckets at load " + std::to_string(c.load) + " hold " + std::to_string(fillers) +
         " filler pairs and leave " + std::to_string(n - fillers) + " buckets for up to " + std::to_string(inserts) +
         " inserts: the table could fill (give more --buckets, a lower --load, or --buckets 0)");
  if (c.key_bytes == 4 && uint64_t(c.keys) + fillers > 0xFFFFFFFFull)
    fail("4-byte keys: keys and filler keys (" + std::to_string(fillers) + ") must stay below 2^32 - 1");
  if (c.largest_value() + fillers + 1 >= 0xFFFFFFFFull) fail("too many operations and fillers for unique 32-bit values");
  if (c.prefill > uint64_t(c.keys)) fail("a prefill of " + std::to_string(c.prefill) + " distinct keys needs as many keys");
  const bool device = !c.host_table;
  if (c.mutant == stadium_mutant::missing_fence_device_table && !device) fail("missing_fence_device_table needs --table device");
  if (c.mutant == stadium_mutant::missing_fence_host_table && device) fail("missing_fence_host_table needs --table host");
  if (c.mutant == stadium_mutant::queue_wrap_loses_job && c.kernel == stadium_kernel::stash)
    fail("queue_wrap_loses_job needs a clStash queue: --kernel clstash or hybrid");
  if (c.mutant == stadium_mutant::gpu_fence_for_host_table && device) fail("gpu_fence_for_host_table needs --table host");
  if (c.host_readers && (device || c.kernel != stadium_kernel::stash))
    fail("host readers read the host table by Stash: --table host --kernel stash");
}

WorkloadShape stadium_shape(const StadiumConfig& c) { return c.shape(OpKinds{OpKind::Insert, OpKind::Erase, OpKind::Find}); }

uint32_t stadium_switch_round(const StadiumConfig& c, uint32_t per_lane) {
  return static_cast<uint32_t>(std::lround(c.switch_at * per_lane));
}

uint32_t stadium_sim_lanes(const StadiumConfig& c) { return c.kernel == stadium_kernel::stash ? 1 : 32; }

namespace {

// Rounds (operations a lane) of `per_lane` each part records.
uint32_t lane_rounds(const StadiumConfig& c, uint32_t per_lane) {
  return c.kernel == stadium_kernel::stash ? per_lane : c.kernel == stadium_kernel::hybrid ? stadium_switch_round(c, per_lane) : 0;
}
uint32_t warp_rounds(const StadiumConfig& c, uint32_t per_lane) {
  return c.kernel == stadium_kernel::stash ? 0 : per_lane - lane_rounds(c, per_lane);
}

}  // namespace

StadiumLogShape stadium_lane_log(const StadiumConfig& c) {
  if (c.kernel == stadium_kernel::clstash) return {};
  const uint32_t prefill = prefill_ops(c, OpKind::Insert).per_lane;
  return {c.teams * 32 + c.host_readers, (c.log_capacity ? c.log_capacity : lane_rounds(c, c.ops_per_lane)) + lane_rounds(c, prefill)};
}

StadiumLogShape stadium_warp_log(const StadiumConfig& c) {
  if (c.kernel == stadium_kernel::stash) return {};
  const uint32_t prefill = prefill_ops(c, OpKind::Insert).per_lane;
  return {c.teams, 32 * ((c.log_capacity ? c.log_capacity : warp_rounds(c, c.ops_per_lane)) + warp_rounds(c, prefill))};
}

History stadium_history(const StadiumConfig& c, const HostLog& lanes, const HostLog& warps, HistoryMeta meta) {
  History h = history_from_log(lanes, meta);
  const History w = history_from_log(warps, meta);
  const uint32_t first_warp_team = c.kernel == stadium_kernel::hybrid ? lanes.view().streams : 0;
  h.meta.incomplete = h.meta.incomplete || w.meta.incomplete;
  for (Operation op : w.ops) {
    op.id = h.ops.size();
    op.team += first_warp_team;
    h.ops.push_back(op);
  }
  return h;
}

MemoryLayout stadium_layout(const StadiumConfig& c) {
  const uint32_t n = stadium_buckets(c);
  structures::stadium_detail::bucket_layout b;
  b.key_bytes = c.key_bytes;
  b.value_bytes = c.value_bytes;
  return {{"tickets", sizeof(uint32_t), structures::stadium_detail::ticket_board::words_for(n, c.ticket_bits), 0xFF,
           core::unit_state::allocated},
          {"buckets", b.bucket_bytes(), n, 0xFF, core::unit_state::allocated}};
}

stadium_hash stadium_view(const StadiumConfig& c, ArrayPointers a) {
  stadium_hash s;
  s.board.words = static_cast<uint32_t*>(a[0]);
  s.board.bits = c.ticket_bits;
  s.table.table = a[1];
  s.table.key_bytes = c.key_bytes;
  s.table.value_bytes = c.value_bytes;
  s.table.rehash_in_64_bits = (c.fixes & fix::rehash_in_64_bits) != 0;
  s.buckets = stadium_buckets(c);
  s.host_table = c.host_table;
  s.access = c.access;
  s.deletes = c.mix.erase > 0;
  s.fixes = c.fixes;
  s.mutant = c.mutant;
  return s;
}

namespace {

template <class W>
void write_pair(const stadium_hash& s, uint32_t b, uint64_t key, uint64_t id) {
  W* w = s.table.bucket<W>(b);
  w[0] = W(key);
  for (uint32_t j = 0; j < s.table.value_words(); ++j) w[1 + j] = W(structures::stadium_detail::value_word(id, j));
}

// The filler pairs: key keys + i, value ids after the workload's and the prefill's.
std::vector<std::pair<int64_t, int64_t>> fillers_of(const StadiumConfig& c) {
  std::vector<std::pair<int64_t, int64_t>> f;
  for (uint32_t i = 0, n = stadium_fillers(c); i < n; ++i) f.push_back({c.keys + i, int64_t(c.largest_value() + 1 + i)});
  return f;
}

}  // namespace

void stadium_fill(const StadiumConfig& c, HostMemory& memory) {
  const stadium_hash s = stadium_view(c, memory.pointers());
  for (const auto& [key, id] : fillers_of(c)) {
    const uint64_t k = s.table.stored_key(key);
    uint32_t b = s.table.first_bucket(k, s.buckets);
    while (s.board.state(slot_at(s, b)) != ticket_state::never_used) b = s.table.next_bucket(b, k, s.buckets);
    const auto r = s.board.at(b);
    *r.word = s.board.with_slot(*r.word, r, s.board.live(s.table.info(k, s.board.info_bits())));
    if (s.table.word_bytes() == 4) write_pair<uint32_t>(s, b, k, uint64_t(id));
    else write_pair<uint64_t>(s, b, k, uint64_t(id));
  }
}

std::vector<std::string> check_stadium_invariants(const StadiumConfig& c, const stadium_hash& s, const History& h) {
  std::vector<std::string> bad;
  auto note = [&](std::string m) {
    if (bad.size() < 20) bad.push_back(std::move(m));
  };
  // The pairs that must be live: fillers, plus inserts minus erases.
  std::map<std::pair<uint64_t, int64_t>, int64_t> expected;  // (stored key, value) -> copies
  std::map<uint64_t, int64_t> workload_key;                  // stored key -> the workload's key, for messages
  for (const auto& [key, id] : fillers_of(c)) ++expected[{s.table.stored_key(key), id}];
  uint64_t inserts = 0, deletes = 0, pending = 0;
  for (const Operation& op : h.ops) {
    workload_key[s.table.stored_key(op.data.key)] = op.data.key;
    if (op.pending() && ++pending <= 3) note("operation " + describe_operation(h, op) + " never completed (a lost job)");
    if (!op.pending() && op.data.kind == OpKind::Insert) {
      ++inserts;
      ++expected[{s.table.stored_key(op.data.key), op.data.value}];
    }
  }
  if (pending) return bad;  // what a pending operation did is unknown: no count to compare
  for (const Operation& op : h.ops)
    if (op.data.kind == OpKind::Erase && op.data.result_kind == ResultKind::Value) {
      ++deletes;
      if (--expected[{s.table.stored_key(op.data.key), op.data.result}] < 0)
        note("erase(" + std::to_string(op.data.key) + ") returned " + std::to_string(op.data.result) +
             ", a pair erased more often than inserted (a double delete, or a value never inserted)");
    }
  auto name = [&](uint64_t k) {
    auto it = workload_key.find(k);
    return it != workload_key.end() ? "key " + std::to_string(it->second) : "filler key " + std::to_string(k);
  };
  structures::stadium_pairs pairs;
  for (std::string& m : structures::stadium_invariants(s, name, &pairs)) note(std::move(m));
  auto& [live, available_over, live_count] = pairs;
  uint64_t expected_count = 0;
  for (const auto& [pair, n] : expected) expected_count += uint64_t(std::max<int64_t>(n, 0));
  if (live_count != expected_count)
    note("live pairs " + std::to_string(live_count) + ", but fillers " + std::to_string(stadium_fillers(c)) + " + inserts " +
         std::to_string(inserts) + " - successful deletes " + std::to_string(deletes) + " = " + std::to_string(expected_count));
  for (const auto& [pair, n] : expected) {
    const int64_t have = live.count(pair) ? live[pair] : 0;
    if (n < 0) continue;  // named above
    if (have >= n) continue;
    const auto under = available_over.find(pair);
    note("pair (" + name(pair.first) + ", " + std::to_string(pair.second) + ") is not live" +
         (under != available_over.end() ? ": its bucket " + std::to_string(under->second) + " holds it under an available ticket"
                                        : ""));
  }
  for (const auto& [pair, n] : live)
    if (n > (expected.count(pair) ? expected[pair] : 0))
      note("pair (" + name(pair.first) + ", " + std::to_string(pair.second) + ") is live " + std::to_string(n) +
           " times, more than inserts minus deletes leave");
  return bad;
}

CheckedRun run_stadium_sim(const StadiumConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops) {
  validate(c);
  if (sim.teams != c.teams || sim.lanes != stadium_sim_lanes(c))
    throw std::invalid_argument("stadium: simulator shape must be teams x " + std::to_string(stadium_sim_lanes(c)));
  if (ops.size() != size_t(c.teams) * 32 * c.ops_per_lane) throw std::invalid_argument("stadium: workload size does not fit the shape");
  for (const auto& op : ops)
    if (op.active && (op.key < 0 || op.key >= c.keys))
      throw std::invalid_argument("stadium: key " + std::to_string(op.key) + " outside [0, keys): filler keys start at keys");
  HostMemory memory(stadium_layout(c));
  stadium_fill(c, memory);
  return run_stadium_sim(c, sim, ops, memory);
}

namespace {

// The host readers' retrievals: reader r's i-th finds the key of a
// workload operation picked by a stride from (r, i), so that they read the
// keys the warps write; drawn from the workload, they replay with it.
std::vector<core::workload_op> host_reader_ops(const StadiumConfig& c, const std::vector<core::workload_op>& ops) {
  std::vector<int64_t> keys;
  for (const core::workload_op& op : ops)
    if (op.active) keys.push_back(op.key);
  std::vector<core::workload_op> out(keys.empty() ? 0 : size_t(c.host_readers) * c.ops_per_lane);
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].kind = OpKind::Find;
    out[i].key = keys[(i * 40503 + i / c.ops_per_lane * 7919) % keys.size()];
    out[i].active = true;
  }
  return out;
}

}  // namespace

CheckedRun run_stadium_sim(const StadiumConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops,
                           HostMemory& memory) {
  const stadium_hash s = stadium_view(c, memory.pointers());
  const bool stash = c.kernel == stadium_kernel::stash;
  const size_t queue_words = size_t(32) * structures::stadium_job::kWords;
  std::vector<uint32_t> queues(stash ? 0 : c.teams * queue_words);
  const StadiumLogShape lane_shape = stadium_lane_log(c), warp_shape = stadium_warp_log(c);
  HostLog lanes(lane_shape.streams, lane_shape.capacity), warps(warp_shape.streams, warp_shape.capacity);
  // Host readers' operations are ordered against the warps' only by
  // system-scope stamps (their real-time order is the checker's premise).
  if (c.host_readers) lanes.view().stamp_scope = warps.view().stamp_scope = core::scope::system;
  HistoryMeta meta;
  meta.model = ModelId::Multimap;
  meta.seed = sim.seed;
  // `n_warps` warps run `work` (32 x per_lane a warp); for Stash every lane
  // is a team of the simulator. Then `host` CPU threads, a team each, run
  // `host_work` (per_lane each) by Stash.
  const std::vector<core::workload_op> host_work = host_reader_ops(c, ops);
  auto run = [&](sim::SimConfig config, const core::workload_op* work, uint32_t n_warps, uint32_t per_lane, uint32_t host) {
    if (host_work.empty()) host = 0;
    const uint32_t gpu_teams = stash ? n_warps * 32 : n_warps;
    config.teams = gpu_teams + host;
    config.host_teams = host;
    sim::Simulator simulator(config);
    memory.add_shadow_pools(simulator.shadow());
    // Guided runs: the warps' streams follow the lanes' in the history (stadium_history).
    simulator.guide_streams(&warps.view(), c.kernel == stadium_kernel::hybrid ? lanes.view().streams : 0);
    guide_after(simulator, lanes);
    guide_after(simulator, warps);
    if (!stash)
      simulator.shadow().add_pool(queues.data(), queue_words * sizeof(uint32_t), c.teams, "clStash queue", core::unit_state::allocated);
    const uint32_t per_team = (stash ? 1 : 32) * per_lane;
    const uint32_t switch_round = stadium_switch_round(c, per_lane);
    return simulator.run([&](sim::sim_team& t) {
      const uint32_t team = t.team_id();
      if (team >= gpu_teams) {
        core::lane_team<sim::sim_team> me(t);
        structures::run_stash_ops(me, s, host_work.data() + size_t(team - gpu_teams) * per_lane, per_lane, &lanes.view());
        return;
      }
      const structures::stadium_team_work w{work + size_t(team) * per_team, per_lane, switch_round,
                                            stash ? nullptr : queues.data() + team * queue_words, team};
      structures::run_stadium_team(t, s, c.kernel, w, {&lanes.view(), &warps.view()});
    });
  };
  CheckedRun out;
  sim::SimConfig concurrent = sim;
  const Prefill prefill = prefill_ops(c, OpKind::Insert);
  if (prefill.per_lane) {
    // Warp 0 alone first, under the seed's random schedule (a replayed
    // schedule is the concurrent run's); the run's clock goes on from it.
    sim::SimConfig alone = sim;
    alone.replay.clear();
    alone.scheduler = sim::SchedulerKind::Random;
    out.run.report = run(alone, prefill.ops.data(), 1, prefill.per_lane, 0);
    if (!out.run.report.ok()) {
      out.run.report.message = "prefill: " + out.run.report.message;
      out.run.history = stadium_history(c, lanes, warps, meta);
      return out;
    }
    concurrent.clock_offset = out.run.report.steps + 1;
  }
  out.run.report = run(concurrent, ops.data(), c.teams, c.ops_per_lane, c.host_readers);
  out.run.history = stadium_history(c, lanes, warps, meta);
  if (out.run.report.ok()) out.invariant_violations = check_stadium_invariants(c, s, out.run.history);
  return out;
}

}  // namespace warpcheck
