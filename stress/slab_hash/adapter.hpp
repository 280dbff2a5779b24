// The slab hash as a stress plug-in (see stress/seam/structure.hpp).
#pragma once
#include "stress/slab_hash/config.hpp"
#include "stress/seam/named_values.hpp"
#include "stress/seam/structure.hpp"

namespace warpcheck {

struct SlabHashAdapter {
  using Config = SlabHashConfig;
  // Its planted bugs and its fixes by name: --mutant and --fixes look them up here.
  using Mutant = structures::slab_hash_mutant;
  static constexpr Named<Mutant> mutants[] = {
      WC_NAMED(Mutant::none),
      WC_NAMED(Mutant::slab_local_uniqueness),
      WC_NAMED(Mutant::delete_by_exchange),
      WC_NAMED(Mutant::torn_read),
      WC_NAMED(Mutant::link_leak),
      WC_NAMED(Mutant::link_free_winner),
      WC_NAMED(Mutant::no_reread_after_failed_cas),
      WC_NAMED(Mutant::guard_leave_without_sc_fence),
      WC_NAMED(Mutant::guard_read_unordered),
  };
  static constexpr Named<uint32_t> fixes[] = {
      WC_NAMED(structures::slab_hash_fix::compare_source_key),
      WC_NAMED(structures::slab_hash_fix::replace_cas_seen_pair),
      WC_NAMED(structures::slab_hash_fix::delete_cas_found_pair),
      WC_NAMED(structures::slab_hash_fix::delete_ends_source_only),
      WC_NAMED(structures::slab_hash_fix::value_from_key_load),
      WC_NAMED(structures::slab_hash_fix::delete_guard),
      WC_NAMED(structures::slab_hash_fix::initialize_fresh_slab),
      WC_NAMED(structures::slab_hash_fix::link_cas_release),
      WC_NAMED(structures::slab_hash_fix::relaxed_slab_loads),
  };
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
