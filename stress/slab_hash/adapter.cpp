#include "stress/slab_hash/adapter.hpp"

#include <algorithm>

#include "stress/harness/seed_runs.hpp"
#include "stress/workload_options.hpp"
#if WARPCHECK_HAVE_CUDA
#include "stress/slab_hash/gpu.hpp"
#endif

namespace warpcheck {

using structures::slab_hash;

StructureSpec SlabHashAdapter::declare() {
  const std::vector<Applies> map{{"mode", {"map"}}}, multimap{{"mode", {"multimap"}}};
  const std::vector<std::string> both{"--mode map", "--mode multimap"};
  // Torn reads of one slab: the targeted scheduler preempts a warp inside
  // its read until writes tear it (docs/team-and-memory-layer.md).
  const std::vector<std::string> torn_slab_reads{"--mode map --scheduler targeted", "--mode multimap --scheduler targeted"};
  StructureSpec s;
  s.name = "slabhash";
  s.description = "the slab hash with SlabAlloc (Ashkiani, Farach-Colton, Owens, IPDPS 2018), map or multimap";
  s.model = "map (--mode map: upsert, erase, find) or multimap (--mode multimap: insert, erase, find)";
  s.options = {choice_option("mode", "map: REPLACE keeps one pair a key; multimap: INSERT adds duplicates", "map",
                             {"map", "multimap"})};
  const OptionTable workload = warp_workload_options("insert=50,erase=20,contains=30", uint64_t(slab_hash::kMaxKey) + 1);
  s.options.insert(s.options.end(), workload.begin(), workload.end());
  s.options.push_back(integer_option("buckets", "buckets (base slabs)", "1", 1, 1u << 26));
  s.options.push_back(integer_option("memory-blocks",
                                     "SlabAlloc memory blocks of 1,024 slabs; 0: sized from the launch (room for every "
                                     "operation an insert, twice over, and a slab in flight a warp; at least 2)",
                                     "0", 0, 1u << 14));
  // In structures::slab_hash_mutant order.
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
      {"unguarded_absent", "SEARCH and DELETE answer absent from a slab read that no delete guard validated: a torn read of one "
       "slab misses an instance present throughout", kOracleChecker, multimap,
       // The search must read an empty slot j before an insert fills it and
       // the slot i < j of the key's one instance after a delete, begun once
       // the insert returned, emptied it: one key, whose count often falls to
       // one, and a targeted schedule (about 1 seed in 11; PCT: 1 in 1,000).
       {"--mode multimap --scheduler targeted --keys 1 --teams 3 --ops-per-lane 8 --mix insert=45,erase=45,contains=10"}},
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
      {"map, 512 warps, 8 buckets", "--mode map --teams 512 --keys 1000 --buckets 8 --ops-per-lane 4 --seeds 100", 0, "gpu"},
      {"multimap, 512 warps, 8 buckets", "--mode multimap --teams 512 --keys 1000 --buckets 8 --ops-per-lane 4 --seeds 100", 0, "gpu"},
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
  c.mode = o.text("mode") == "map" ? structures::slab_hash_mode::map : structures::slab_hash_mode::multimap;
  c.buckets = uint32_t(o.integer("buckets"));
  c.blocks_per_super = uint32_t(o.integer("memory-blocks"));
  if (c.blocks_per_super == 0) {  // sized from the launch: thousands of warps on a hot key allocate at once
    const uint64_t inserts = c.largest_value();
    const uint64_t slabs = 2 * (inserts / 15 + c.buckets) + c.teams;
    c.blocks_per_super = uint32_t(std::clamp<uint64_t>((slabs + 1023) / 1024, 2, 1u << 14));
  }
  c.mutant = static_cast<structures::slab_hash_mutant>(mutant_index(declare(), o));
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
  if (!r.fault) r.invariant_violations = check_slab_hash_invariants(table);
  return r;
}

SeedRun SlabHashAdapter::run_gpu(const Config& c, const GpuRunSettings& g, const Ops& ops) {
#if WARPCHECK_HAVE_CUDA
  const gpu::GpuRun run = gpu::run_slab_hash(c, g.seed, ops, g.spin_bound, {g.recipe, g.seed});
  SeedRun r = seed_run_from_gpu(run, slab_hash_model(c), g);
  if (!r.fault) r.invariant_violations = check_slab_hash_invariants(slab_hash_view(c, g.seed, run.memory->pointers()));
  return r;
#else
  (void)c, (void)g, (void)ops;
  no_cuda_back_end();
#endif
}

}  // namespace warpcheck
