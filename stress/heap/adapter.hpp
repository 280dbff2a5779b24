// The generalized heap as a stress plug-in (see stress/seam/structure.hpp).
#pragma once
#include "stress/heap/config.hpp"
#include "stress/seam/named_values.hpp"
#include "stress/seam/structure.hpp"

namespace warpcheck {

struct HeapAdapter {
  using Config = HeapConfig;
  // Its planted bugs and its fixes by name: --mutant and --fixes look them up here.
  using Mutant = structures::heap_mutant;
  static constexpr Named<Mutant> mutants[] = {
      WC_NAMED(Mutant::none),
      WC_NAMED(Mutant::early_root_release),
      WC_NAMED(Mutant::skip_partial_merge),
      WC_NAMED(Mutant::no_marked_wait),
      WC_NAMED(Mutant::ignore_parked_parent),
      WC_NAMED(Mutant::relaxed_unlock),
  };
  static constexpr Named<uint32_t> fixes[] = {
      WC_NAMED(structures::heap_fix::hold_target_parent),
      WC_NAMED(structures::heap_fix::release_marked_target),
      WC_NAMED(structures::heap_fix::take_parked_last),
      WC_NAMED(structures::heap_fix::wait_on_delmod_parent),
      WC_NAMED(structures::heap_fix::checked_trylock),
      WC_NAMED(structures::heap_fix::phase_gate),
      WC_NAMED(structures::heap_fix::empty_taken_buffer),
      WC_NAMED(structures::heap_fix::lock_acquire_release),
      WC_NAMED(structures::heap_fix::one_node_delete),
      WC_NAMED(structures::heap_fix::lock_target_as_target),
      WC_NAMED(structures::heap_fix::mark_took_on_target),
      WC_NAMED(structures::heap_fix::descent_restores_avail),
  };
  static StructureSpec declare();
  static Config configure(const Options& o);
  static WorkloadShape workload(const Config& c) { return heap_workload_shape(c); }
  static ModelId model(const Config&) { return ModelId::PriorityQueue; }
  static uint32_t sim_lanes(const Config& c) { return c.lanes; }
  static SeedRun run_sim(const Config& c, const sim::SimConfig& s, const Ops& ops);
  static SeedRun run_gpu(const Config& c, const GpuRunSettings& g, const Ops& ops);
};

}  // namespace warpcheck
