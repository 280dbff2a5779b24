// Stadium hashing as a stress plug-in (see stress/seam/structure.hpp).
#pragma once
#include "stress/stadium/config.hpp"
#include "stress/seam/named_values.hpp"
#include "stress/seam/structure.hpp"

namespace warpcheck {

struct StadiumAdapter {
  using Config = StadiumConfig;
  // Its planted bugs and its fixes by name: --mutant and --fixes look them up here.
  using Mutant = structures::stadium_mutant;
  static constexpr Named<Mutant> mutants[] = {
      WC_NAMED(Mutant::none),
      WC_NAMED(Mutant::plain_ticket_stores),
      WC_NAMED(Mutant::pair_before_reserve),
      WC_NAMED(Mutant::missing_fence_device_table),
      WC_NAMED(Mutant::missing_fence_host_table),
      WC_NAMED(Mutant::torn_wide_pair),
      WC_NAMED(Mutant::delete_without_recheck),
      WC_NAMED(Mutant::queue_wrap_loses_job),
      WC_NAMED(Mutant::gpu_fence_for_host_table),
  };
  static constexpr Named<uint32_t> fixes[] = {
      WC_NAMED(structures::stadium_fix::reserve_by_cas),
      WC_NAMED(structures::stadium_fix::tombstones),
      WC_NAMED(structures::stadium_fix::claim_before_free),
      WC_NAMED(structures::stadium_fix::claim_to_read),
      WC_NAMED(structures::stadium_fix::push_above_queue),
      WC_NAMED(structures::stadium_fix::acquire_ticket_load),
      WC_NAMED(structures::stadium_fix::release_free_acquire_reserve),
      WC_NAMED(structures::stadium_fix::relaxed_table_accesses),
      WC_NAMED(structures::stadium_fix::syncwarp_around_queue),
      WC_NAMED(structures::stadium_fix::rehash_in_64_bits),
  };
  static StructureSpec declare();
  static Config configure(const Options& o);
  static WorkloadShape workload(const Config& c) { return stadium_shape(c); }
  static ModelId model(const Config&) { return ModelId::Multimap; }
  static uint32_t sim_lanes(const Config& c) { return stadium_sim_lanes(c); }
  static SeedRun run_sim(const Config& c, const sim::SimConfig& s, const Ops& ops);
  static SeedRun run_gpu(const Config& c, const GpuRunSettings& g, const Ops& ops);
};

}  // namespace warpcheck
