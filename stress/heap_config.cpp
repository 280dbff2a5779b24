#include "stress/heap_config.hpp"

#include "linearizability/history.hpp"

#include <algorithm>
#include <iterator>
#include <set>
#include <stdexcept>

namespace warpcheck {

using structures::generalized_heap;
using structures::heap_mutant;
using structures::heap_variant;

namespace {
uint32_t bits_for(uint64_t n) {  // bits to number [0, n)
  uint32_t b = 0;
  while ((uint64_t(1) << b) < n) ++b;
  return b;
}
uint64_t total_slots(const HeapConfig& c) { return uint64_t(c.teams) * c.ops_per_team + c.prefill; }
}  // namespace

void validate(const HeapConfig& c) {
  auto fail = [](const std::string& m) { throw std::invalid_argument("heap: " + m); };
  if (c.teams == 0 || c.ops_per_team == 0) fail("teams and operations a team must be at least 1");
  if (c.lanes == 0 || c.lanes > 1024) fail("a block has 1 to 1,024 lanes");
  if (c.k == 0 || (c.k & (c.k - 1)) || c.k > 4096) fail("k (keys a node) must be a power of two up to 4,096, got " + std::to_string(c.k));
  if (c.mix.insert + c.mix.erase == 0) fail("the mix needs pushes (insert=) or pops (delete=)");
  if (c.mix.contains) fail("the heap has no search: use insert= and delete= only");
  if (!(c.full_batches >= 0 && c.full_batches <= 1)) fail("--full-batches must be in [0, 1]");
  if (c.narrow_keys == 0 && bits_for(total_slots(c) * c.k) > 30)
    fail("too many operations for distinct 31-bit keys (use --narrow-keys, or fewer operations)");
  if (c.capacity && c.capacity > (1u << 26)) fail("capacity above 2^26 nodes");
  if (c.capacity && c.capacity < c.prefill) fail("the prefill needs more nodes than the capacity");
  const auto& m = heap_mutants()[static_cast<size_t>(c.mutant)];
  if (c.mutant != heap_mutant::none && !(c.variant == heap_variant::td ? m.td : m.bu))
    fail("mutant " + m.name + " does not apply to the " + (c.variant == heap_variant::td ? "td" : "bu") + " heap");
  for (const auto& f : heap_fixes())
    if ((c.fixes & f.bit) && !(c.variant == heap_variant::td ? f.td : f.bu))
      fail("fix " + f.name + " does not apply to the " + (c.variant == heap_variant::td ? "td" : "bu") + " heap");
  if ((c.fixes & structures::heap_fix::phase_gate) && c.teams > 0xFFF) fail("the phase gate counts at most 4,095 blocks");
}

namespace {
uint32_t all_fixes(heap_variant v) {
  return v == heap_variant::td ? structures::heap_fix::td_fixed : structures::heap_fix::bu_fixed;
}
}  // namespace

const std::vector<HeapFixInfo>& heap_fixes() {
  static const std::vector<HeapFixInfo> f = {
      {"hold_target_parent", "TD F1: an insert keeps its target's parent locked until the target is written", structures::heap_fix::hold_target_parent, true, false},
      {"release_marked_target", "TD F2: an insert whose keys went to the root always releases its MARKED target", structures::heap_fix::release_marked_target, true, false},
      {"take_parked_last", "BU B1: a delete takes the last node even when an insert parked its batch there (the insert stops)", structures::heap_fix::take_parked_last, false, true},
      {"wait_on_delmod_parent", "BU B2: an insert waits on a DELMOD parent (another insert's batch) instead of ending with its own parked", structures::heap_fix::wait_on_delmod_parent, false, true},
      {"checked_trylock", "BU B3: a delete's MS_TRYLOCK(x, state(x), INUSE) retries when its CAS loses a race", structures::heap_fix::checked_trylock, false, true},
      {"phase_gate", "BU (B1-B4): inserts and deletes never overlap; each keeps the paper's protocol (structures/heap/detail/phase_gate.hpp)", structures::heap_fix::phase_gate, false, true},
  };
  return f;
}

std::string heap_variant_name(const HeapConfig& c) {
  std::string name = c.variant == heap_variant::td ? "td" : "bu";
  if (c.fixes && c.fixes == all_fixes(c.variant)) return name + "-fixed";
  for (const auto& f : heap_fixes())
    if (c.fixes & f.bit) name += "+" + f.name;
  return name;
}

void parse_heap_variant(const std::string& name, HeapConfig& c) {
  const bool fixed = name.size() > 6 && name.substr(name.size() - 6) == "-fixed";
  const std::string base = fixed ? name.substr(0, name.size() - 6) : name;
  if (base != "td" && base != "bu") throw std::invalid_argument("heap: --variant must be td, bu, td-fixed or bu-fixed, got '" + name + "'");
  c.variant = base == "td" ? heap_variant::td : heap_variant::bu;
  c.fixes = fixed ? all_fixes(c.variant) : 0;
  if (fixed && c.fixes == 0) throw std::invalid_argument("heap: there is no corrected " + base + " variant yet");
}

std::string heap_variant_flags(const HeapConfig& c) {
  const std::string base = c.variant == heap_variant::td ? "td" : "bu";
  if (c.fixes && c.fixes == all_fixes(c.variant)) return "--variant " + base + "-fixed";
  std::string names;
  for (const auto& f : heap_fixes())
    if (c.fixes & f.bit) names += (names.empty() ? "" : ",") + f.name;
  return "--variant " + base + (names.empty() ? "" : " --fixes " + names);
}

void parse_heap_fixes(const std::string& names, HeapConfig& c) {
  size_t start = 0;
  while (start <= names.size()) {
    const size_t end = std::min(names.find(',', start), names.size());
    const std::string name = names.substr(start, end - start);
    const auto& all = heap_fixes();
    auto it = std::find_if(all.begin(), all.end(), [&](const HeapFixInfo& f) { return f.name == name; });
    if (it == all.end()) throw std::invalid_argument("heap has no fix \"" + name + "\" (see --list-mutants)");
    c.fixes |= it->bit;
    start = end + 1;
  }
}

const std::vector<HeapMutantInfo>& heap_mutants() {
  static const std::vector<HeapMutantInfo> m = {
      {"none", "the variant as it is", true, true},
      {"early_root_release", "a delete releases the root right after refilling it, before the descent settles the smallest keys there", true, true},
      {"skip_partial_merge", "a delete refills the root from the last node without merging it with the partial buffer (property 3 breaks)", true, true},
      {"no_marked_wait", "a top-down delete that marked an insert's target goes on without waiting for the insert's keys (line 11)", true, false},
      {"ignore_parked_parent", "a bottom-up insert merges into a parent another insert has parked (INSHOLD) instead of waiting (lines 19-20)", false, true},
  };
  return m;
}

heap_mutant parse_heap_mutant(const std::string& name) {
  const auto& all = heap_mutants();
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i].name == name) return static_cast<heap_mutant>(i);
  throw std::invalid_argument("heap has no mutant \"" + name + "\" (see --list-mutants)");
}

std::string heap_mutant_name(heap_mutant m) { return heap_mutants()[static_cast<size_t>(m)].name; }

uint32_t heap_capacity(const HeapConfig& c) {
  return c.capacity ? c.capacity : static_cast<uint32_t>(std::min<uint64_t>(total_slots(c) + 1, 1u << 26));
}

structures::heap_keys heap_key_source(const HeapConfig& c) {
  structures::heap_keys keys;
  keys.k = c.k;
  if (c.narrow_keys) {
    keys.tag_bits = 0;
    keys.range = c.narrow_keys;
  } else {
    keys.tag_bits = bits_for(total_slots(c) * c.k);
    keys.range = uint32_t(1) << (31 - keys.tag_bits);
  }
  return keys;
}

std::vector<core::workload_op> heap_prefill_ops(const HeapConfig& c) {
  std::vector<core::workload_op> ops(c.prefill);
  for (uint32_t i = 0; i < c.prefill; ++i) {
    ops[i].kind = OpKind::Push;
    ops[i].key = c.k;
    ops[i].value = int64_t(uint64_t(c.teams) * c.ops_per_team + i) + 1;  // a seed no workload slot uses
  }
  return ops;
}

WorkloadShape heap_workload_shape(const HeapConfig& c) {
  WorkloadShape w;
  w.teams = c.teams;
  w.lanes = 1;
  w.per_lane = c.ops_per_team;
  w.keys = c.k;
  w.mix = c.mix;
  w.kinds = OpKinds{OpKind::Push, OpKind::Pop, OpKind::Pop};
  w.knobs.full_batches = c.full_batches;
  w.knobs.phases = c.phases;
  w.batches = true;
  return w;
}

HeapMemory::HeapMemory(const HeapConfig& c)
    : keys(size_t(generalized_heap::node_slots(heap_capacity(c)) + 1) * c.k, generalized_heap::kEmptyKey),
      states(generalized_heap::node_slots(heap_capacity(c)) + 1, 0),
      partial(c.k, generalized_heap::kEmptyKey),
      counters(kHeapCounters, 0) {}

generalized_heap heap_view(const HeapConfig& c, uint32_t* keys, uint32_t* states, uint32_t* partial, uint32_t* counters) {
  generalized_heap h;
  h.gate = counters + 2;
  h.keys = keys;
  h.states = states;
  h.partial = partial;
  h.partial_size = counters;
  h.last = counters + 1;
  h.k = c.k;
  h.capacity = heap_capacity(c);
  h.nodes = generalized_heap::node_slots(h.capacity) + 1;
  h.variant = c.variant;
  h.fixes = c.fixes;
  h.bit_reversal = c.bit_reversal;
  h.mutant = c.mutant;
  return h;
}

generalized_heap HeapMemory::view(const HeapConfig& c) {
  return heap_view(c, keys.data(), states.data(), partial.data(), counters.data());
}

std::vector<std::string> check_heap_invariants(const HeapMemory& m, const generalized_heap& h, const History& history) {
  std::vector<std::string> bad;
  auto note = [&](std::string s) {
    if (bad.size() < 20) bad.push_back(std::move(s));
  };
  auto node = [&](uint32_t i) { return m.keys.data() + size_t(i) * h.k; };
  const uint32_t size = m.counters[0], last = m.counters[1];
  for (uint32_t i = 1; i < h.nodes; ++i)
    if (m.states[i] != structures::node_state::avail)
      note("node " + std::to_string(i) + " is left in state " + std::to_string(m.states[i]) + " (not AVAIL)");
  if (last > h.capacity) note("last = " + std::to_string(last) + " is past the capacity");
  if (m.counters[2] != 0) note("the phase gate is left at " + std::to_string(m.counters[2]) + " (an operation still inside)");
  std::vector<bool> used(h.nodes, false);
  for (uint32_t n = 1; n <= std::min(last, h.capacity); ++n) used[h.node_of(n)] = true;
  std::multiset<uint32_t> held;
  for (uint32_t i = 1; i < h.nodes; ++i) {
    const uint32_t* b = node(i);
    if (!used[i]) {
      if (std::any_of(b, b + h.k, [](uint32_t v) { return v != generalized_heap::kEmptyKey; }))
        note("node " + std::to_string(i) + " is not in use but holds keys");
      continue;
    }
    if (!std::is_sorted(b, b + h.k)) note("node " + std::to_string(i) + " is not sorted");
    if (std::count(b, b + h.k, generalized_heap::kEmptyKey))
      note("node " + std::to_string(i) + " is in use but has empty slots");
    held.insert(b, b + h.k);
    if (i > 1 && used[i / 2] && node(i)[0] < node(i / 2)[h.k - 1])
      note("heap property: node " + std::to_string(i) + "'s smallest key " + std::to_string(node(i)[0]) +
           " is below its parent " + std::to_string(i / 2) + "'s largest " + std::to_string(node(i / 2)[h.k - 1]));
  }
  if (size >= h.k) note("the partial buffer holds " + std::to_string(size) + " keys (at most k - 1)");
  const uint32_t* p = m.partial.data();
  const uint32_t psize = std::min(size, h.k);
  if (!std::is_sorted(p, p + psize)) note("the partial buffer is not sorted");
  if (last > 0 && psize > 0 && p[0] < node(1)[h.k - 1])
    note("property 3: the partial buffer's smallest key " + std::to_string(p[0]) + " is below the root's largest " +
         std::to_string(node(1)[h.k - 1]));
  held.insert(p, p + psize);
  // Conservation: only for a complete history with nothing pending.
  const bool settled = !history.meta.incomplete &&
                       std::none_of(history.ops.begin(), history.ops.end(), [](const Operation& o) { return o.pending(); });
  if (settled) {
    std::multiset<int64_t> expected;
    for (const Operation& op : history.ops)
      for (int64_t key : history.pushed_keys(op)) expected.insert(key);
    for (const Operation& op : history.ops) {
      for (int64_t key : history.popped_keys(op)) {
        auto it = expected.find(key);
        if (it == expected.end()) {
          note("a pop returned key " + std::to_string(key) + " more often than it was pushed");
          continue;
        }
        expected.erase(it);
      }
    }
    std::multiset<int64_t> have(held.begin(), held.end());
    if (have != expected) {
      std::vector<int64_t> lost, extra;
      std::set_difference(expected.begin(), expected.end(), have.begin(), have.end(), std::back_inserter(lost));
      std::set_difference(have.begin(), have.end(), expected.begin(), expected.end(), std::back_inserter(extra));
      note("keys: the heap holds " + std::to_string(have.size()) + " keys, pushes minus pops leave " +
           std::to_string(expected.size()) + " (" + std::to_string(lost.size()) + " lost, " + std::to_string(extra.size()) +
           " not pushed or popped already" + (lost.empty() ? "" : ", first lost " + std::to_string(lost[0])) + ")");
    }
  }
  return bad;
}

}  // namespace warpcheck
