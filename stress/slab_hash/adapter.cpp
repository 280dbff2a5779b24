#include "stress/slab_hash/adapter.hpp"

#include <algorithm>

#include "stress/harness/seed_runs.hpp"
#include "stress/seam/fix_bits.hpp"
#include "stress/seam/workload_options.hpp"
#include "structures/slab_hash/slab_hash_invariants.hpp"
#if WARPCHECK_HAVE_CUDA
#include "stress/slab_hash/gpu.hpp"
#endif

namespace warpcheck {

using structures::slab_hash;

namespace {
namespace slab_fix = structures::slab_hash_fix;
using structures::slab_hash_mode;

static_assert(all_fix_bits(SlabHashAdapter::fixes) == slab_fix::kAll);

constexpr Named<slab_hash_mode> kSlabHashModes[] = {WC_NAMED(slab_hash_mode::map), WC_NAMED(slab_hash_mode::multimap)};
static_assert(in_enum_order(kSlabHashModes));
constexpr Named<structures::slab_guard_order> kGuardOrders[] = {WC_NAMED(structures::slab_guard_order::fence),
                                                                 WC_NAMED(structures::slab_guard_order::acquire)};
static_assert(in_enum_order(kGuardOrders));

// The printed Figure 2 with every fix but `fix`.
std::string figure2_without(uint32_t fix) { return paper_without(SlabHashAdapter::fixes, fix); }
}  // namespace

StructureSpec SlabHashAdapter::declare() {
  const std::vector<Applies> map{{"mode", {"map"}}}, multimap{{"mode", {"multimap"}}};
  const std::vector<std::string> both{"--mode map", "--mode multimap"};
  // Torn reads of one slab: the targeted scheduler preempts a warp inside
  // its read until writes tear it (docs/team-and-memory-layer.md).
  const std::vector<std::string> torn_slab_reads{"--mode map --scheduler targeted", "--mode multimap --scheduler targeted"};
  StructureSpec s;
  s.name = "slab_hash";
  s.former_names = {"slabhash"};  // its command-line name before issue 31
  s.description = "the slab hash with SlabAlloc (Ashkiani, Farach-Colton, Owens, IPDPS 2018), map or multimap";
  s.model = "map (--mode map: upsert, erase, find) or multimap (--mode multimap: insert, erase, find)";
  s.audit = "docs/papers/slab_hash.md";
  s.options = {choice_option("variant", "fixed: with every fix of its findings (every structure's default); paper: Figure 2 as printed",
                             "fixed", kPaperVariants),
               choice_option("mode", "map: REPLACE keeps one pair a key; multimap: INSERT adds duplicates", "map",
                             kSlabHashModes)};
  const OptionTable workload = warp_workload_options("insert=50,erase=20,contains=30", uint64_t(slab_hash::kMaxKey) + 1);
  s.options.insert(s.options.end(), workload.begin(), workload.end());
  s.options.push_back(integer_option("buckets", "buckets (base slabs)", "1", 1, 1u << 26));
  s.options.push_back(choice_option("guard-order",
                                    "multimap: how a search or delete orders its slab loads before the delete guard's second "
                                    "load: fence (relaxed loads, then a fence.acq_rel) or acquire (acquire loads, no fence)",
                                    "fence", kGuardOrders));
  s.options.push_back(integer_option("memory-blocks",
                                     "SlabAlloc memory blocks of 1,024 slabs; 0: sized from the launch (room for every "
                                     "operation an insert, twice over, and a slab in flight a warp; at least 2)",
                                     "0", 0, 1u << 14));
  s.mutants = {
      {"slab_local_uniqueness", "REPLACE reuses tombstones, checking uniqueness only in the current slab: duplicate keys after deletes",
       kOracleChecker | kOracleInvariants, map, {"--mode map"}},
      {"delete_by_exchange", "DELETE swaps EMPTY into the slot without comparing the pair it saw: a concurrent insert into the freed slot is lost (ABA)",
       kOracleChecker, multimap, {"--mode multimap"}},
      {"torn_read", "SEARCH takes key and value from two separate 32-bit loads while REPLACE writes the pair with one 64-bit CAS",
       kOracleChecker, {}, torn_slab_reads},
      {"link_leak", "a losing slab-link CAS keeps its new slab allocated: a leak", kOracleInvariants, {}, both},
      {"link_free_winner", "a losing slab-link CAS frees the winner's slab: use after free", kOracleShadow, {}, both},
      {"no_reread_after_failed_cas", "after a failed CAS, REPLACE tries the next lane of its stale read instead of reading the slab "
       "again: duplicate keys (in multimap mode a duplicate is no bug)", kOracleChecker | kOracleInvariants, map, {"--mode map"}},
      // Store buffering across the guard's release (docs/relaxed-memory.md,
      // issue 29). PTX allows it; the simulator's lanes of a warp share one
      // view, so the inserting warp's whole find must run inside the delete:
      // 0 of 1,000 seeds of this run, 1 of 3,000 of a directed workload
      // (tests/structures/slab_hash keeps that seed, 2618).
      {.name = "guard_leave_without_sc_fence",
       .breaks = "a multimap DELETE releases the guard after its removal with no fence.sc between: a reader that acquires the "
                 "guard misses an insert whose own warp still reads the removed pair",
       .caught_by = kOracleChecker,
       .applies = multimap,
       .runs = {"--mode multimap --memory-model relaxed --scheduler targeted --keys 2 --teams 4 --churn 0.5 "
                "--mix insert=40,erase=40,contains=20"},
       .awaits = "views of their own for a warp's lanes: with one view a warp, the race needs a warp's whole find inside "
                 "another's delete, under 1 seed in 3,000"},
      // The guard's read side with neither order (issue 32): a lane that
      // read a removal may still read the guard from before its delete
      // entered, so a torn read passes the seqlock (SH4's race, which the
      // guard is there to stop). The litmus shapes MP-guard-fence and
      // MP-guard-acquire (stress/litmus) show the pattern: unordered, the
      // relaxed model gives the weak outcome; with either order, never.
      {.name = "guard_read_unordered",
       .breaks = "a multimap search or delete takes the guard's second load after relaxed slab loads with no fence between "
                 "(--guard-order fence without its fence, or acquire without acquire loads): a read torn by a delete passes "
                 "as a snapshot and answers absent",
       .caught_by = kOracleChecker,
       .applies = multimap,
       .runs = {"--mode multimap --memory-model relaxed --scheduler targeted --keys 1 --teams 3 --ops-per-lane 8 "
                "--mix insert=45,erase=45,contains=10"},
       .awaits = "views of their own for a warp's lanes: the lanes that read pair 15 (the guard and the link) load the guard "
                 "word at 64 bits inside the slab read, which the model reads as the newest and which raises the warp's one "
                 "view, so the warp's second guard load can no longer be stale (0 of 1,000 seeds of this run; the litmus "
                 "shapes MP-guard-fence and MP-guard-acquire show the pattern caught)"},
  };
  const std::vector<Applies> paper{{"variant", {"paper"}}};
  // Figure 2's lines as docs/papers/slab_hash.md audits them, in
  // structures::slab_hash_fix order.
  s.fixes = {
      {"compare_source_key", "line 32: each lane compares its word with its own pending myKey, not the source's key", paper},
      {"replace_cas_seen_pair", "lines 34-36 (map): REPLACE CASes from EMPTY_PAIR even at the slot holding its key: it fails there "
       "forever", paper},
      {"delete_cas_found_pair", "lines 58-59: DELETE stores DELETED_KEY at the source lane's word, not the found slot, with a plain "
       "store (no CAS: two deletes both succeed, a multimap slot keeps its value)", paper},
      {.name = "delete_ends_source_only",
       .fixes = "line 65: a DELETE that reaches the list's end clears every lane's is_active, dropping the warp's other operations",
       .applies = paper,
       .awaits = "a driver that ends other lanes' operations: core::run_team_ops advances only the source lane's queue, so the "
                 "printed line (every lane's is_active cleared) has no rendering; both variants run the fix"},
      {"value_from_key_load", "line 16: SEARCH takes the value from the next lane's read, not the key's own load: a key paired "
       "with another moment's value", paper},
      {"delete_guard", "lines 20 and 62 (multimap): SEARCH and DELETE answer absent from a slab read that no delete guard "
       "validated: a torn read of one slab misses an instance present throughout", paper},
      {.name = "initialize_fresh_slab",
       .fixes = "line 43: a new slab is linked as SlabAlloc hands it out, with no EMPTY written into it",
       .applies = paper,
       .benign = "every slab SlabAlloc hands out holds EMPTY already: the pool is created EMPTY and no slab that held a pair is "
                 "ever freed (no FLUSH); only slabs that lost the link race go back, never written (the variant paper, both "
                 "modes, sc and relaxed memory: docs/papers/slab_hash.md)"},
      {.name = "link_cas_release",
       .fixes = "line 45: the link CAS is CUDA's relaxed atomicCAS: the new slab's words are not published with it",
       .applies = paper,
       .benign = "what the release publishes are the EMPTY stores of initialize_fresh_slab over words that hold EMPTY already: a "
                 "reader that misses them reads the same (relaxed memory, every fix but this one: docs/papers/slab_hash.md)"},
      {.name = "relaxed_slab_loads",
       .fixes = "line 7: ReadSlab's loads are plain (weak) loads, which the GPU may serve from an SM's stale L1",
       .applies = paper,
       .awaits = "a model of weak loads: the simulator reads a weak load as a relaxed one (no L1, no data-race undefined "
                 "behaviour), so a stale L1 line, and a warp deciding or spinning on it, cannot be shown"},
  };
  // Each found again by Figure 2 with every other fix.
  s.findings = {
      // Upserts of a present key: the CAS from EMPTY_PAIR at the key's slot
      // fails every time; the operation ends by the bounded retries.
      {"SH1_replace_of_present_key_never_ends", figure2_without(slab_fix::replace_cas_seen_pair) + " --mode map --spin-bound 2000",
       kOracleDeadlock, 5, "replace_cas_seen_pair"},
      {"SH2_delete_stores_at_source_lane", figure2_without(slab_fix::delete_cas_found_pair) + " --mode map", kOracleChecker | kOracleInvariants | kOracleOther,
       5, "delete_cas_found_pair"},
      // Torn reads of one slab: the targeted scheduler preempts a warp
      // inside its read until writes tear it.
      {"SH3_value_from_another_moment", figure2_without(slab_fix::value_from_key_load) + " --mode map --scheduler targeted", kOracleChecker, 10,
       "value_from_key_load"},
      // The search must read an empty slot j before an insert fills it and
      // the slot i < j of the key's one instance after a delete, begun once
      // the insert returned, emptied it: one key, whose count often falls to
      // one, and a targeted schedule (about 1 seed in 11; PCT: 1 in 1,000).
      {"SH4_torn_slab_read_answers_absent",
       figure2_without(slab_fix::delete_guard) + " --mode multimap --scheduler targeted --keys 1 --teams 3 --ops-per-lane 8 "
                                 "--mix insert=45,erase=45,contains=10",
       kOracleChecker, 10, "delete_guard"},
      // Lanes with pending upserts of few keys: a lane whose slot holds its
      // own pending key is taken for the source's key's slot.
      {"SH5_lane_compares_its_own_key", figure2_without(slab_fix::compare_source_key) + " --mode map --keys 4", kOracleChecker | kOracleInvariants,
       5, "compare_source_key"},
  };
  s.invariants = {"every linked slab is allocated and in exactly one list", "no allocated slab is unreachable (no leak)",
                  "every key is in the bucket it hashes to", "map mode: at most one live copy of a key"};
  s.suite = {
      {"map, 300 seeds", "--mode map --seeds 300"},
      {"multimap, 300 seeds", "--mode multimap --seeds 300"},
      {"map, 8 warps, hot keys and churn, 100 seeds",
       "--mode map --teams 8 --keys 64 --hot-keys 2 --hot-fraction 0.7 --churn 0.5 --seeds 100 --timeout 20"},
      // Full contention: many warps on 4 keys (the distinct-value map and
      // multimap checkers decide these at once).
      {"map, 64 warps on 4 keys, 3 seeds", "--mode map --teams 64 --keys 4 --ops-per-lane 1 --seeds 3 --timeout 20"},
      {"planted bug torn_read (expected to be caught)", "--mode map --backend sim --mutant torn_read --seeds 100", 1},
      // The guard's read side by acquire loads (issue 32), in the model
      // that would show a missing order (SH4's torn-read shape).
      {"multimap, guard by acquire loads, relaxed memory, 100 seeds",
       "--mode multimap --guard-order acquire --backend sim --memory-model relaxed --scheduler targeted --keys 1 --teams 3 "
       "--ops-per-lane 8 --mix insert=45,erase=45,contains=10 --seeds 100"},
      // A lower spin bound: the printed REPLACE of a present key spins until it.
      {"the printed Figure 2 (expected to be caught)", "--variant paper --mode map --backend sim --spin-bound 2000 --seeds 20", 1},
      {"map, 512 warps, 8 buckets", "--mode map --teams 512 --keys 1000 --buckets 8 --ops-per-lane 4 --seeds 100", 0, "gpu"},
      {"multimap, 512 warps, 8 buckets", "--mode multimap --teams 512 --keys 1000 --buckets 8 --ops-per-lane 4 --seeds 100", 0, "gpu"},
      {"multimap, guard by acquire loads, 512 warps, 8 buckets",
       "--mode multimap --guard-order acquire --teams 512 --keys 1000 --buckets 8 --ops-per-lane 4 --seeds 100", 0, "gpu"},
      {"map, 64 warps on 4 keys", "--mode map --teams 64 --keys 4 --ops-per-lane 4 --seeds 100 --timeout 20", 0, "contended"},
      {"multimap, 64 warps on 4 keys", "--mode multimap --teams 64 --keys 4 --ops-per-lane 4 --seeds 100 --timeout 20", 0, "contended"},
      {"map, 2048 warps on 4 keys", "--mode map --teams 2048 --keys 4 --ops-per-lane 4 --seeds 20 --timeout 60", 0, "contended"},
      {"multimap, 2048 warps on 4 keys", "--mode multimap --teams 2048 --keys 4 --ops-per-lane 4 --seeds 20 --timeout 60", 0, "contended"},
      // Stamped as a warp-batch recorder stamps: a round of 32 lanes shares one pair.
      {"map, 2048 warps on 4 keys, per warp batch", "--mode map --teams 2048 --keys 4 --ops-per-lane 4 --seeds 20 --timeout 60 --record batch", 0, "contended"},
      {"multimap, 2048 warps on 4 keys, per warp batch", "--mode multimap --teams 2048 --keys 4 --ops-per-lane 4 --seeds 20 --timeout 60 --record batch", 0, "contended"},
  };
  return s;
}

SlabHashConfig SlabHashAdapter::configure(const Options& o) {
  SlabHashConfig c;
  static_cast<WarpWorkload&>(c) = warp_workload(o);
  c.mode = o.choice("mode", kSlabHashModes);
  c.buckets = uint32_t(o.integer("buckets"));
  c.blocks_per_super = uint32_t(o.integer("memory-blocks"));
  if (c.blocks_per_super == 0) {  // sized from the launch: thousands of warps on a hot key allocate at once
    const uint64_t inserts = c.largest_value();
    const uint64_t slabs = 2 * (inserts / 15 + c.buckets) + c.teams;
    c.blocks_per_super = uint32_t(std::clamp<uint64_t>((slabs + 1023) / 1024, 2, 1u << 14));
  }
  c.fixes = chosen_fix_bits(o, fixes);
  c.mutant = o.choice("mutant", mutants);
  c.guard_order = o.choice("guard-order", kGuardOrders);
  validate(c);
  return c;
}

SeedRun SlabHashAdapter::run_sim(const Config& c, const sim::SimConfig& s, const Ops& ops) {
  return seed_run_from_sim(run_slab_hash_sim(c, s, ops));
}

SeedRun SlabHashAdapter::run_threads(const Config& c, uint64_t seed, const Ops& ops) {
  const HostMemory memory(slab_hash_layout(c));
  const slab_hash table = slab_hash_view(c, seed, memory.pointers());
  HistoryMeta meta;
  meta.model = slab_hash_model(c);
  meta.seed = seed;
  SeedRun r = seed_run_from_threads(run_in_threads(table, ops, c.teams, c.ops_per_lane, 32 * c.ops_per_lane, meta,
                                                    prefill_ops(c, slab_hash_op_kinds(c.mode).insert)));
  if (!r.fault) r.invariant_violations = structures::slab_hash_invariants(table);
  return r;
}

SeedRun SlabHashAdapter::run_gpu(const Config& c, const GpuRunSettings& g, const Ops& ops) {
#if WARPCHECK_HAVE_CUDA
  const gpu::GpuRun run = gpu::run_slab_hash(c, g.seed, ops, g.spin_bound, {g.recipe, g.seed});
  SeedRun r = seed_run_from_gpu(run, slab_hash_model(c), g);
  if (!r.fault) r.invariant_violations = structures::slab_hash_invariants(slab_hash_view(c, g.seed, run.memory->pointers()));
  return r;
#else
  (void)c, (void)g, (void)ops;
  no_cuda_back_end();
#endif
}

}  // namespace warpcheck
