// The slab hash as a stress plug-in (see stress/seam/structure.hpp).
#pragma once
#include "stress/slab_hash/config.hpp"
#include "stress/seam/structure.hpp"

namespace warpcheck {

struct SlabHashAdapter {
  using Config = SlabHashConfig;
  static StructureSpec declare();
  static Config configure(const Options& o);
  static WorkloadShape workload(const Config& c) { return slab_hash_shape(c); }
  static ModelId model(const Config& c) { return slab_hash_model(c); }
  static uint32_t sim_lanes(const Config&) { return 32; }
  static SeedRun run_sim(const Config& c, const sim::SimConfig& s, const Ops& ops);
  static SeedRun run_threads(const Config& c, uint64_t seed, const Ops& ops);
  static SeedRun run_gpu(const Config& c, const GpuRunSettings& g, const Ops& ops);
};

}  // namespace warpcheck
