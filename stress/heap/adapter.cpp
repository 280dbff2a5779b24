#include "stress/heap/adapter.hpp"

#include "stress/harness/seed_runs.hpp"
#include "stress/workload_options.hpp"
#if WARPCHECK_HAVE_CUDA
#include "stress/heap/gpu.hpp"
#endif

namespace warpcheck {

StructureSpec HeapAdapter::declare() {
  const std::vector<Applies> td{{"variant", {"td", "td-fixed"}}}, bu{{"variant", {"bu", "bu-fixed"}}};
  // The shapes where the findings show: the default small blocks, and deep
  // one-lane blocks with k 1 on a prefilled heap under PCT.
  const std::string deep = " --block 1 --k 1 --ops-per-team 4 --prefill 6 --full-batches 1 --scheduler pct --pct-steps 3000";
  StructureSpec s;
  s.name = "heap";
  s.team = "block";
  s.description = "the generalized batched heap (Chen et al.): top-down (td) or bottom-up (bu) inserts, as printed or fixed";
  s.model = "batched priority queue (push of up to k keys, pop of the k smallest)";
  s.options = {
      choice_option("variant", "td-fixed, bu-fixed: top-down or bottom-up inserts with every fix of their findings (td-fixed is "
                               "every structure's corrected default); td, bu: the paper's pseudocode as printed", "td-fixed",
                    kHeapVariants),
      integer_option("teams", "blocks in the run", Defaults{"3", "3", "64"}, 1, 1u << 20),
      integer_option("block", "lanes a block", Defaults{"4", "4", "128"}, 1, 1024),
      integer_option("k", "keys a node (a power of two)", Defaults{"4", "4", "256"}, 1, 4096),
      integer_option("ops-per-team", "operations each block runs", Defaults{"6", "6", "16"}, 1, 1u << 20),
      named_value("insert=W,delete=W", text_option("mix", "relative weights of pushes and pops", "insert=50,erase=50,contains=0", check_op_mix)),
      real_option("full-batches", "the chance a push carries k keys", "0.5", 0, 1),
      flag_option("phases", "each block pushes first, then pops"),
      integer_option("prefill", "full batches block 0 pushes alone before the others start", "0", 0, 1u << 24),
      integer_option("narrow-keys", "keys from [0, N), duplicates allowed (0: distinct keys)", "0", 0, uint64_t(1) << 31),
      flag_option("no-bit-reversal", "insert targets in plain order instead of bit-reversed"),
      integer_option("capacity", "nodes (0: room for every push)", "0", 0, 1u << 26),
  };
  // In structures::heap_mutant order.
  s.mutants = {
      {"early_root_release", "a delete releases the root right after refilling it, before the descent settles the smallest keys there",
       kOracleChecker | kOracleInvariants, {}, {"--variant td-fixed", "--variant bu-fixed"}},
      {"skip_partial_merge", "a delete refills the root from the last node without merging it with the partial buffer (property 3 breaks)",
       kOracleChecker | kOracleInvariants, {}, {"--variant td-fixed", "--variant bu-fixed"}},
      {"no_marked_wait", "a top-down delete that marked an insert's target goes on without waiting for the insert's keys (line 11)",
       kOracleChecker | kOracleInvariants, td, {"--variant td-fixed"}},
      {"ignore_parked_parent", "a bottom-up insert merges into a parent another insert has parked (INSHOLD) instead of waiting (lines 19-20)",
       kOracleChecker | kOracleInvariants, bu,
       // Targeted: 55 seeds in 1,000 against 26 with uniform random picks (bench/RESULTS.md, issue 15).
       {"--variant bu-fixed --block 1 --k 2 --ops-per-team 6 --teams 4 --mix insert=70,delete=30 --prefill 3 --scheduler targeted"}},
      {"relaxed_unlock", "MS_UNLOCK's CAS has no release: a node's keys may reach its next holder after the lock does",
       kOracleChecker | kOracleInvariants, {},
       {"--variant td-fixed --memory-model relaxed", "--variant bu-fixed --memory-model relaxed"}},
  };
  // In structures::heap_fix bit order.
  s.fixes = {
      {"hold_target_parent", "TD F1: an insert keeps its target's parent locked until the target is written", td},
      {"release_marked_target", "TD F2: an insert whose keys went to the root always releases its MARKED target", td},
      {"take_parked_last", "BU B1: a delete takes the last node even when an insert parked its batch there (the insert stops)", bu},
      {"wait_on_delmod_parent", "BU B2: an insert waits on a DELMOD parent (another insert's batch) instead of ending with its own parked", bu},
      {"checked_trylock", "BU B3: a delete's MS_TRYLOCK(x, state(x), INUSE) retries when its CAS loses a race", bu},
      {"phase_gate", "BU (B1-B4): inserts and deletes never overlap; each keeps the paper's protocol (structures/heap/detail/phase_gate.hpp)", bu},
  };
  s.findings = {
      // TD F2: a delete marks the target after the insert's last check; the
      // insert hands over its keys but never releases the target.
      {"F2_lost_wakeup", "--variant td --fixes hold_target_parent", kOracleDeadlock, 50, "release_marked_target"},
      // TD F1: the target's parent released before the target is written.
      {"F1_parent_released_early", "--variant td --fixes release_marked_target" + deep, kOracleChecker | kOracleInvariants, 30000, "hold_target_parent"},
      // BU B1: a delete waits (holding the root) for a parked last node whose insert waits for the root.
      {"B1_last_node_parked", "--variant bu", kOracleDeadlock, 50, "take_parked_last"},
      // BU B2: an insert ends on a DELMOD parent, its own batch left parked.
      {"B2_ends_on_delmod_parent", "--variant bu --fixes take_parked_last", kOracleChecker | kOracleInvariants, 200, "wait_on_delmod_parent"},
      // BU B3: MS_TRYLOCK(x, state(x), INUSE) takes a lost CAS for a lock.
      {"B3_trylock_as_read", "--variant bu --fixes take_parked_last,wait_on_delmod_parent", kOracleChecker | kOracleInvariants, 5000, "checked_trylock"},
      // BU B4: with B1-B3 patched, marks without owners still lose a batch.
      {"B4_marks_name_no_owner", "--variant bu --fixes take_parked_last,wait_on_delmod_parent,checked_trylock" + deep,
       kOracleChecker | kOracleInvariants, 5000, "phase_gate"},
  };
  s.suite = {
      {"td-fixed, 200 seeds", "--variant td-fixed --seeds 200"},
      {"bu-fixed, pushes then pops on a prefilled heap, 200 seeds", "--variant bu-fixed --phases --prefill 4 --seeds 200"},
      {"the paper's td heap (its lost wake-up F2 expected to be caught)", "--variant td --backend sim --seeds 50", 1},
      {"td-fixed, 128 blocks, prefilled", "--variant td-fixed --teams 128 --block 64 --k 32 --ops-per-team 8 --prefill 64 --seeds 50", 0, "gpu"},
      {"bu-fixed, 128 blocks, prefilled", "--variant bu-fixed --teams 128 --block 64 --k 32 --ops-per-team 8 --prefill 64 --seeds 50", 0, "gpu"},
      {"td-fixed, duplicate keys", "--variant td-fixed --teams 64 --block 32 --k 8 --ops-per-team 16 --narrow-keys 16 --seeds 50", 0, "gpu"},
      {"the paper's td heap on the GPU (expected to fail)", "--variant td --seeds 20 --keep-going", 1, "gpu"},
      {"the paper's bu heap on the GPU (expected to fail)", "--variant bu --seeds 20 --keep-going", 1, "gpu"},
      {"td-fixed, shared-memory merges", "--variant td-fixed --teams 8 --block 64 --k 64 --ops-per-team 4 --seeds 2", 0, "sanitize"},
  };
  s.invariants = {"every node lock released", "nodes 1..last full and sorted, the others empty", "the generalized heap property",
                  "the partial buffer sorted, shorter than k, and not below the root",
                  "the keys held are the keys pushed minus the keys popped"};
  return s;
}

HeapConfig HeapAdapter::configure(const Options& o) {
  HeapConfig c;
  parse_heap_variant(o.text("variant"), c);
  for (const std::string& f : chosen_fixes(o)) parse_heap_fixes(f, c);
  c.teams = uint32_t(o.integer("teams"));
  c.lanes = uint32_t(o.integer("block"));
  c.k = uint32_t(o.integer("k"));
  c.ops_per_team = uint32_t(o.integer("ops-per-team"));
  c.mix = parse_op_mix(o.text("mix"));
  c.full_batches = o.real("full-batches");
  c.phases = o.flag("phases");
  c.prefill = uint32_t(o.integer("prefill"));
  c.narrow_keys = uint32_t(o.integer("narrow-keys"));
  c.bit_reversal = !o.flag("no-bit-reversal");
  c.capacity = uint32_t(o.integer("capacity"));
  c.mutant = static_cast<structures::heap_mutant>(mutant_index(declare(), o));
  validate(c);
  return c;
}

SeedRun HeapAdapter::run_sim(const Config& c, const sim::SimConfig& s, const Ops& ops) {
  return seed_run_from_sim(run_heap_sim(c, s, ops));
}

SeedRun HeapAdapter::run_gpu(const Config& c, const GpuRunSettings& g, const Ops& ops) {
#if WARPCHECK_HAVE_CUDA
  const gpu::GpuRun run = gpu::run_heap(c, ops, g.spin_bound, {g.recipe, g.seed});
  SeedRun r = seed_run_from_gpu(run, ModelId::PriorityQueue, g);
  if (!r.fault) r.invariant_violations = check_heap_invariants(heap_view(c, run.memory->pointers()), r.history);
  return r;
#else
  (void)c, (void)g, (void)ops;
  no_cuda_back_end();
#endif
}

}  // namespace warpcheck
