// The generalized heap's stress configuration, memory, workloads, planted
// bugs and quiescent invariants, shared by every back-end's harness (the
// GPU's included: nothing simulator-only here).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "stress/workload_gen.hpp"
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
// "td", "bu", "td-fixed", or with some fixes "td+release_marked_target".
std::string heap_variant_name(const HeapConfig& c);
// "td" | "bu" | "td-fixed" | "bu-fixed"; throws invalid_argument.
void parse_heap_variant(const std::string& name, HeapConfig& c);

struct HeapFixInfo {
  std::string name, fixes;
  uint32_t bit;
  bool td, bu;
};
const std::vector<HeapFixInfo>& heap_fixes();
// "a,b": adds the named fixes to c.fixes; throws invalid_argument.
void parse_heap_fixes(const std::string& names, HeapConfig& c);
// The options that select c's variant and fixes: "--variant td --fixes a,b".
std::string heap_variant_flags(const HeapConfig& c);

struct HeapMutantInfo {
  std::string name, breaks;
  bool td, bu;  // the variants where it applies (planted in the fixed variant)
};
const std::vector<HeapMutantInfo>& heap_mutants();  // index = the enum's value; [0] is none
structures::heap_mutant parse_heap_mutant(const std::string& name);  // throws invalid_argument
std::string heap_mutant_name(structures::heap_mutant m);

uint32_t heap_capacity(const HeapConfig& c);  // nodes the run may use
structures::heap_keys heap_key_source(const HeapConfig& c);
WorkloadShape heap_workload_shape(const HeapConfig& c);
// The prefill's pushes (block 0's, before the concurrent run), as workload
// operations whose key tags follow the workload's slots.
std::vector<core::workload_op> heap_prefill_ops(const HeapConfig& c);

// The heap's memory in host memory (the simulator's, or a copy of the GPU's).
struct HeapMemory {
  std::vector<uint32_t> keys, states, partial, counters;  // counters: partial_size, last, the phase gate
  explicit HeapMemory(const HeapConfig& c);
  structures::generalized_heap view(const HeapConfig& c);
};
// The structure over the arrays of a HeapMemory-shaped block of memory.
structures::generalized_heap heap_view(const HeapConfig& c, uint32_t* keys, uint32_t* states, uint32_t* partial,
                                       uint32_t* counters);
inline constexpr size_t kHeapCounters = 3;  // partial_size, last, gate

// Invariants of a quiescent heap: every lock released; nodes 1..last full
// and sorted, the others empty; the generalized heap property; the partial
// buffer sorted, short, and not below the root; and, when the history is
// complete with no pending operation, the keys held equal the keys pushed
// minus the keys popped (as multisets). Empty when they hold.
std::vector<std::string> check_heap_invariants(const HeapMemory& m, const structures::generalized_heap& h,
                                               const History& history);

}  // namespace warpcheck
