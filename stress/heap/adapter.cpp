#include "stress/heap/adapter.hpp"

#include "stress/harness/seed_runs.hpp"
#include "stress/seam/fix_bits.hpp"
#include "stress/seam/workload_options.hpp"
#if WARPCHECK_HAVE_CUDA
#include "stress/heap/gpu.hpp"
#endif

namespace warpcheck {

namespace {
namespace heap_fix = structures::heap_fix;
using structures::heap_variant;

static_assert(all_fix_bits(HeapAdapter::fixes) == (heap_fix::td_fixed | heap_fix::bu_fixed));
}  // namespace

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
  s.mutants = {
      {"early_root_release", "a delete releases the root right after refilling it, before the descent settles the smallest keys there",
       kOracleChecker | kOracleInvariants, {}, {"--variant td-fixed", "--variant bu-fixed"}},
      {"skip_partial_merge", "a delete refills the root from the last node without merging it with the partial buffer (property 3 breaks)",
       kOracleChecker | kOracleInvariants, {}, {"--variant td-fixed", "--variant bu-fixed"}},
      {"no_marked_wait", "a top-down delete that marked an insert's target goes on without waiting for the insert's keys (line 11)",
       kOracleChecker | kOracleInvariants, td, {"--variant td-fixed"}},
      {"ignore_parked_parent", "a bottom-up insert merges into a parent another insert has parked (INSHOLD) instead of waiting (lines 19-20)",
       kOracleChecker | kOracleInvariants, bu,
       // Targeted: 55 seeds in 1,000 against 26 with uniform random picks (bench/RESULTS.md, "The simulator and its schedulers", issue 15: targeted schedules).
       {"--variant bu-fixed --block 1 --k 2 --ops-per-team 6 --teams 4 --mix insert=70,delete=30 --prefill 3 --scheduler targeted"}},
      {"relaxed_unlock", "MS_UNLOCK's CAS has no release: a node's keys may reach its next holder after the lock does",
       kOracleChecker | kOracleInvariants, {},
       {"--variant td-fixed --memory-model relaxed", "--variant bu-fixed --memory-model relaxed"}},
  };
  s.fixes = {
      {"hold_target_parent", "TD INS line 20 releases the target's parent before line 23 writes the target (F1)", td},
      {"release_marked_target", "TD INS lines 22-25: `tar` rebound to the root, line 25 releases the root the marking delete holds and never its MARKED target (F2)", td},
      {"take_parked_last", "BU DEL line 9 locks the last node only from AVAIL, though an insert may have parked there and wait for the root (B1)", bu},
      {"wait_on_delmod_parent", "BU INS line 21 ends the insert on a DELMOD parent, its own batch left parked (B2)", bu},
      {"checked_trylock", "BU DEL lines 18, 20: MS_TRYLOCK(x, state(x), INUSE) takes a CAS lost to a moving state for a lock (B3)", bu},
      {"phase_gate", "BU (B1-B4): the INSHOLD/DELMOD marks name no owner; inserts and deletes never overlap (structures/heap/detail/phase_gate.hpp)", bu},
      {"empty_taken_buffer", "DEL lines 3-4 (both): deleteItems = pBuffer[1:pBuffer.size] leaves the keys in the buffer for the next delete", {}},
      {"lock_acquire_release", "MS_LOCK/MS_TRYLOCK/MS_UNLOCK are CUDA atomicCAS (relaxed) and state(x) a plain read: a node's keys need not travel with its lock", {}},
      {"one_node_delete", "DEL (both) with one node: TD line 13 / BU line 9 lock the root the delete holds (Fig. 4(c) line 5 returns)", {}},
      {"lock_target_as_target", "TD INS line 13 locks the target AVAIL -> INUSE; line 21 and DEL line 9 expect TARGET, which nothing sets", td},
      {"mark_took_on_target", "TD DEL line 10 tests MS_TRYLOCK's result for MARKED; it returns the state found (TARGET when the mark took)", td},
      {"descent_restores_avail", "BU DEL line 13 `cstate = INUSE`: the root is given back INUSE (lines 27, 31) and stays locked", bu},
  };
  // A finding's run: the paper's variant with every other fix of its kind
  // (BU findings of the insert/delete overlap also without the phase gate,
  // which removes that overlap).
  auto others = [](heap_variant inserts, uint32_t leave_out) {
    const std::string list = fix_names(fixes, heap_fixes_of(inserts) & ~leave_out);
    return "--variant " + std::string(name_of(kHeapVariants, {inserts, false})) + (list.empty() ? "" : " --fixes " + list);
  };
  s.findings = {
      // TD F2: the insert hands its keys to the root and releases the root, not the MARKED target.
      {"F2_lost_wakeup", others(heap_variant::td, heap_fix::release_marked_target), kOracleDeadlock, 10, "release_marked_target"},
      // TD F1: the target's parent released before the target is written
      // (PCT depth 2: seed 286, against 669 at depth 3).
      {"F1_parent_released_early", others(heap_variant::td, heap_fix::hold_target_parent) + deep + " --pct-depth 2",
       kOracleChecker | kOracleInvariants, 350, "hold_target_parent"},
      // BU B1: a delete waits (holding the root) for a parked last node whose insert waits for the root.
      {"B1_last_node_parked", others(heap_variant::bu, heap_fix::take_parked_last | heap_fix::phase_gate),
       kOracleDeadlock, 10, "take_parked_last"},
      // BU B2: an insert ends on a DELMOD parent, its own batch left parked.
      {"B2_ends_on_delmod_parent", others(heap_variant::bu, heap_fix::wait_on_delmod_parent | heap_fix::phase_gate),
       kOracleChecker | kOracleInvariants, 150, "wait_on_delmod_parent"},
      // BU B3: MS_TRYLOCK(x, state(x), INUSE) takes a lost CAS for a lock. The
      // targeted scheduler (a team preempted after a lock hand-off) finds it;
      // the default scheduler meets B4 first.
      {"B3_trylock_as_read", others(heap_variant::bu, heap_fix::checked_trylock | heap_fix::phase_gate) + " --scheduler targeted",
       kOracleChecker | kOracleInvariants, 50, "checked_trylock"},
      // BU B4: with B1-B3 patched, marks without owners still lose a batch.
      {"B4_marks_name_no_owner", others(heap_variant::bu, heap_fix::phase_gate) + deep,
       kOracleChecker | kOracleInvariants, 100, "phase_gate"},
      // Both: a delete that empties the heap's nodes takes the partial buffer and leaves it full.
      {"taken_buffer_returned_twice", others(heap_variant::td, heap_fix::empty_taken_buffer),
       kOracleChecker | kOracleInvariants, 10, "empty_taken_buffer"},
      // Both: relaxed lock words let a node's keys arrive after its lock.
      {"relaxed_lock_words", others(heap_variant::td, heap_fix::lock_acquire_release) + " --memory-model relaxed",
       kOracleChecker | kOracleInvariants, 10, "lock_acquire_release"},
      // Both: the delete of the only node waits on the root it holds.
      {"one_node_delete_waits_for_itself", others(heap_variant::bu, heap_fix::one_node_delete), kOracleDeadlock, 10, "one_node_delete"},
      // TD: an INUSE target is a lock held out of order (deletes wait on it while its
      // insert locks down from the root), and line 21 fails: the keys go to the root unlocked.
      {"target_never_target", others(heap_variant::td, heap_fix::lock_target_as_target),
       kOracleDeadlock | kOracleChecker | kOracleInvariants, 10, "lock_target_as_target"},
      // TD: the delete whose mark took waits for the target and refills the root from an empty node.
      {"mark_test_never_holds", others(heap_variant::td, heap_fix::mark_took_on_target),
       kOracleChecker | kOracleInvariants, 10, "mark_took_on_target"},
      // BU: the first descent gives the root back INUSE.
      {"root_left_inuse", others(heap_variant::bu, heap_fix::descent_restores_avail),
       kOracleDeadlock | kOracleInvariants, 10, "descent_restores_avail"},
  };
  s.audit = "docs/papers/heap.md";
  s.suite = {
      {"td-fixed, 200 seeds", "--variant td-fixed --seeds 200"},
      {"bu-fixed, pushes then pops on a prefilled heap, 200 seeds", "--variant bu-fixed --phases --prefill 4 --seeds 200"},
      {"the paper's td heap as printed (expected to be caught)", "--variant td --backend sim --seeds 50", 1},
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
  set_heap_variant(o.choice("variant", kHeapVariants), c);
  c.fixes |= named_fix_bits(o, fixes);
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
  c.mutant = o.choice("mutant", mutants);
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
