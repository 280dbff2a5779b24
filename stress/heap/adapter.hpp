// The generalized heap as a stress plug-in (see stress/seam/structure.hpp).
#pragma once
#include "stress/heap/config.hpp"
#include "stress/seam/structure.hpp"

namespace warpcheck {

struct HeapAdapter {
  using Config = HeapConfig;
  static StructureSpec declare();
  static Config configure(const Options& o);
  static WorkloadShape workload(const Config& c) { return heap_workload_shape(c); }
  static ModelId model(const Config&) { return ModelId::PriorityQueue; }
  static uint32_t sim_lanes(const Config& c) { return c.lanes; }
  static SeedRun run_sim(const Config& c, const sim::SimConfig& s, const Ops& ops);
  static SeedRun run_gpu(const Config& c, const GpuRunSettings& g, const Ops& ops);
};

}  // namespace warpcheck
