// The generalized heap's run configuration, memory, workloads and
// quiescent invariants, and its runs on the simulator (the GPU's in gpu.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "stress/harness/sim_harness.hpp"
#include "stress/seam/named_values.hpp"
#include "stress/seam/structure_memory.hpp"
#include "stress/seam/workload.hpp"
#include "structures/heap/heap_driver.hpp"

namespace warpcheck {

struct History;

struct HeapConfig {
  structures::heap_variant variant = structures::heap_variant::td;
  uint32_t fixes = 0;           // structures::heap_fix bits (0: the paper's pseudocode)
  uint32_t teams = 3;           // blocks
  uint32_t lanes = 4;           // threads a block
  uint32_t k = 4;               // keys a node (a power of two)
  uint32_t ops_per_team = 6;
  OpMix mix{50, 50, 0};         // insert = push, erase = pop
  double full_batches = 0.5;    // chance a push is a full batch (k keys)
  bool phases = false;          // each team pushes first, then pops
  uint32_t narrow_keys = 0;     // >0: keys from [0, narrow_keys), duplicates allowed; 0: distinct keys
  uint32_t prefill = 0;         // full batches pushed by block 0, alone, before the others start
  bool bit_reversal = true;
  structures::heap_mutant mutant = structures::heap_mutant::none;
  uint32_t capacity = 0;        // nodes; 0: room for every push as its own node
  uint32_t log_capacity = 0;    // records a team; 0: exactly enough
};

// Throws std::invalid_argument for an impossible configuration.
void validate(const HeapConfig& c);

// A variant (--variant): top-down or bottom-up inserts, as printed or with
// every fix of their findings.
struct HeapVariant {
  structures::heap_variant inserts = structures::heap_variant::td;
  bool fixed = false;
  bool operator==(const HeapVariant&) const = default;
};
inline constexpr Named<HeapVariant> kHeapVariants[] = {{{structures::heap_variant::td, false}, "td"},
                                                       {{structures::heap_variant::bu, false}, "bu"},
                                                       {{structures::heap_variant::td, true}, "td-fixed"},
                                                       {{structures::heap_variant::bu, true}, "bu-fixed"}};
// The fixes of the findings of a variant's inserts (structures::heap_fix bits).
uint32_t heap_fixes_of(structures::heap_variant inserts);
// Sets c's variant and its fixes.
void set_heap_variant(HeapVariant v, HeapConfig& c);
// The same by name ("td-fixed"); throws invalid_argument for another name.
void parse_heap_variant(const std::string& name, HeapConfig& c);

uint32_t heap_capacity(const HeapConfig& c);  // nodes the run may use
structures::heap_keys heap_key_source(const HeapConfig& c);
WorkloadShape heap_workload_shape(const HeapConfig& c);
// The prefill's pushes (block 0's, before the concurrent run), as workload
// operations whose key tags follow the workload's slots.
std::vector<core::workload_op> heap_prefill_ops(const HeapConfig& c);

// Nodes, node states, the partial buffer and the counters (partial size,
// last, the phase gate).
MemoryLayout heap_layout(const HeapConfig& c);
structures::generalized_heap heap_view(const HeapConfig& c, ArrayPointers arrays);

// Invariants of a quiescent heap (over host memory): the heap's own over
// its memory (structures/heap/heap_invariants.hpp), then, when the history
// is complete with no pending operation, the keys held equal the keys
// pushed minus the keys popped (as multisets). Empty when they hold.
std::vector<std::string> check_heap_invariants(const structures::generalized_heap& h, const History& history);

// One run of `ops` under sim's schedule (sim.teams = c.teams, sim.lanes = c.lanes).
CheckedRun run_heap_sim(const HeapConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops);

}  // namespace warpcheck
