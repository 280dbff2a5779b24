#include "stress/sorted_set/adapter.hpp"

#include "stress/harness/seed_runs.hpp"
#include "stress/seam/workload_options.hpp"
#if WARPCHECK_HAVE_CUDA
#include "stress/sorted_set/gpu.hpp"
#endif

namespace warpcheck {

StructureSpec SortedSetAdapter::declare() {
  StructureSpec s;
  s.name = "sorted_set";
  s.former_names = {"sorted-set"};  // its command-line name before issue 31
  s.description = "a warp-cooperative, lock-based set of sorted 32-slot arrays (the layer's own proof structure)";
  s.model = "set (insert, erase, contains)";
  s.options = warp_workload_options("insert=50,erase=20,contains=30", INT32_MAX);
  s.options.push_back(integer_option("buckets", "buckets of 32 sorted slots (keys must fit: keys <= 32 x buckets)", "1", 1, 1u << 26));
  s.mutants = {
      {.name = "unlocked_contains",
       .breaks = "contains reads the bucket without its lock and can see a shift half done",
       .caught_by = kOracleChecker},
      {.name = "keep_lock_on_miss",
       .breaks = "an erase of an absent key returns without releasing the bucket lock",
       .caught_by = kOracleDeadlock},
  };
  s.invariants = {};  // the history and the faults judge it
  s.suite = {
      {"100 seeds", "--seeds 100"},
      {"1 bucket, 300 seeds", "--seeds 300", 0, "gpu"},
      {"64 warps on 4 keys", "--teams 64 --keys 4 --ops-per-lane 4 --seeds 100", 0, "contended"},
      {"2048 warps on 4 keys", "--teams 2048 --keys 4 --ops-per-lane 4 --seeds 20 --timeout 60", 0, "contended"},
      {"2048 warps on 4 keys, per warp batch", "--teams 2048 --keys 4 --ops-per-lane 4 --seeds 20 --timeout 60 --record batch", 0, "contended"},
      {"real threads (ThreadSanitizer's mode), 20 seeds", "--backend threads --seeds 20", 0, "gpu"},
  };
  return s;
}

SortedSetConfig SortedSetAdapter::configure(const Options& o) {
  SortedSetConfig c;
  static_cast<WarpWorkload&>(c) = warp_workload(o);
  c.buckets = uint32_t(o.integer("buckets"));
  c.mutant = o.choice("mutant", mutants);
  validate(c);
  return c;
}

SeedRun SortedSetAdapter::run_sim(const Config& c, const sim::SimConfig& s, const Ops& ops) {
  return seed_run_from_sim(run_sorted_set_sim(c, s, ops));
}

SeedRun SortedSetAdapter::run_threads(const Config& c, uint64_t seed, const Ops& ops) {
  const HostMemory memory(sorted_set_layout(c));
  HistoryMeta meta;
  meta.model = ModelId::Set;
  meta.seed = seed;
  return seed_run_from_threads(
      run_in_threads(sorted_set_view(c, memory.pointers()), ops, c.teams, c.ops_per_lane, 32 * c.ops_per_lane, meta,
                     prefill_ops(c, sorted_set_shape(c).kinds.insert)));
}

SeedRun SortedSetAdapter::run_gpu(const Config& c, const GpuRunSettings& g, const Ops& ops) {
#if WARPCHECK_HAVE_CUDA
  return seed_run_from_gpu(gpu::run_sorted_set(c, ops, g.spin_bound, {g.recipe, g.seed}), ModelId::Set, g);
#else
  (void)c, (void)g, (void)ops;
  no_cuda_back_end();
#endif
}

}  // namespace warpcheck
