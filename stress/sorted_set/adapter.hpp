// The sorted-array set as a stress plug-in (see stress/seam/structure.hpp).
#pragma once
#include "stress/sorted_set/config.hpp"
#include "stress/seam/named_values.hpp"
#include "stress/seam/structure.hpp"

namespace warpcheck {

struct SortedSetAdapter {
  using Config = SortedSetConfig;
  // Its planted bugs by name: --mutant looks them up here.
  using Mutant = structures::sorted_set_mutant;
  static constexpr Named<Mutant> mutants[] = {
      WC_NAMED(Mutant::none),
      WC_NAMED(Mutant::unlocked_contains),
      WC_NAMED(Mutant::keep_lock_on_miss),
  };
  static StructureSpec declare();
  static Config configure(const Options& o);
  static WorkloadShape workload(const Config& c) { return sorted_set_shape(c); }
  static ModelId model(const Config&) { return ModelId::Set; }
  static uint32_t sim_lanes(const Config&) { return 32; }
  static SeedRun run_sim(const Config& c, const sim::SimConfig& s, const Ops& ops);
  static SeedRun run_threads(const Config& c, uint64_t seed, const Ops& ops);
  static SeedRun run_gpu(const Config& c, const GpuRunSettings& g, const Ops& ops);
};

}  // namespace warpcheck
