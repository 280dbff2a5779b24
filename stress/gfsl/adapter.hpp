// The GFSL skiplist as a stress plug-in (see stress/seam/structure.hpp).
#pragma once
#include "stress/gfsl/config.hpp"
#include "stress/seam/named_values.hpp"
#include "stress/seam/structure.hpp"

namespace warpcheck {

struct GfslAdapter {
  using Config = GfslConfig;
  // Its planted bugs and its fixes by name: --mutant and --fixes look them up here.
  using Mutant = structures::gfsl_mutant;
  static constexpr Named<Mutant> mutants[] = {
      WC_NAMED(Mutant::none),
      WC_NAMED(Mutant::no_zombie_skip),
      WC_NAMED(Mutant::zombie_before_copy),
      WC_NAMED(Mutant::unlock_erases_zombie),
      WC_NAMED(Mutant::link_before_copy),
      WC_NAMED(Mutant::empty_before_link),
      WC_NAMED(Mutant::unlock_without_release),
      WC_NAMED(Mutant::skip_down_ptr_update),
  };
  static constexpr Named<uint32_t> fixes[] = {
      WC_NAMED(structures::gfsl_fix::unlock_next_after_split),
      WC_NAMED(structures::gfsl_fix::unlock_on_vanished_key),
      WC_NAMED(structures::gfsl_fix::reread_next_after_split),
      WC_NAMED(structures::gfsl_fix::validated_absent),
      WC_NAMED(structures::gfsl_fix::raise_locked_key),
      WC_NAMED(structures::gfsl_fix::zombie_stays_locked),
      WC_NAMED(structures::gfsl_fix::sync_lanes_between_writes),
      WC_NAMED(structures::gfsl_fix::acquire_reads),
      WC_NAMED(structures::gfsl_fix::release_writes),
      WC_NAMED(structures::gfsl_fix::down_ptr_to_found_chunk),
      WC_NAMED(structures::gfsl_fix::unlock_last_chunk),
  };
  static StructureSpec declare();
  static Config configure(const Options& o);
  static WorkloadShape workload(const Config& c) { return gfsl_shape(c); }
  static ModelId model(const Config&) { return ModelId::Map; }
  static uint32_t sim_lanes(const Config&) { return 32; }
  static SeedRun run_sim(const Config& c, const sim::SimConfig& s, const Ops& ops);
  static SeedRun run_threads(const Config& c, uint64_t seed, const Ops& ops);
  static SeedRun run_gpu(const Config& c, const GpuRunSettings& g, const Ops& ops);
};

}  // namespace warpcheck
