// The slab hash on the GPU (definitions in gpu.cu, built with nvcc): one
// recorded stress run, and the paper's benchmarks.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "stress/gpu/gpu_run.hpp"
#include "stress/gpu/mix_bench.hpp"
#include "stress/slab_hash/config.hpp"

namespace warpcheck::gpu {

// One recorded run of a workload; `seed` picks the hash function.
// A recorded stress run; perturbed when `perturbation` is on (docs/gpu-perturbation.md).
GpuRun run_slab_hash(const SlabHashConfig& c, uint64_t seed, const std::vector<core::workload_op>& ops, uint64_t spin_bound,
                     const Perturbation& perturbation = {}, core::clock_kind clock = core::clock_kind::global_timer);

// The paper's benchmarks on one table of `elements` distinct keys with
// about `slabs_per_bucket` slabs a bucket (beta): bulk build, bulk search
// (all present, none present), then the concurrent mixes in turn, each a
// batch of `elements` operations (stress/slab_hash/bench_ops.hpp: the same
// operations as the public SlabHash comparison). Medians of `repeats`
// fresh tables, after `warmup` untimed ones. Recording on: one log across
// all phases of the last table (kernel boundaries are exact cuts),
// returned for checking.
//
// Drivers: generic (core::run_team_ops, one workload_op a lane, 256
// threads a block: how every structure runs) or bulk (core::run_team_bulk:
// 4-byte keys and values in struct-of-arrays, `per_lane` operations a
// lane, `block` threads a block, search results written out as the public
// code writes them). Recording: per operation (history_log: both drivers)
// or per warp batch (batch_log: bulk only).
enum class SlabBenchDriver : uint8_t { generic, bulk };
enum class SlabBenchRecord : uint8_t { off, per_op, per_batch };
struct SlabHashBenchSpec {
  uint64_t elements = 1 << 22;
  double slabs_per_bucket = 0.6;
  SlabBenchRecord record = SlabBenchRecord::off;
  uint32_t repeats = 3;
  uint32_t warmup = 1;
  uint64_t seed = 1;
  SlabBenchDriver driver = SlabBenchDriver::generic;
  structures::slab_hash_mode mode = structures::slab_hash_mode::map;  // map: build and inserts REPLACE; multimap: INSERT
  uint32_t per_lane = 1;  // bulk: 1 or 2
  uint32_t block = 128;   // bulk: threads a block (up to 256)
  bool bounded_registers = true;  // bulk: at most 32 registers a thread (full occupancy), else the compiler's choice
  bool fixed_mode = true;         // bulk: the mode fixed at compile time (structures::slab_hash_fixed)
  bool phase_kernels = true;      // bulk, fixed mode: a kernel a phase (searches: slab_hash::kReadOnlyLaunch, build: kInsertOnlyLaunch)
  uint32_t tile = 8;              // bulk, fixed mode: rounds served in tiles of 8 or 16 lanes (slab_hash::serve_round), or 0: one operation at a time
  bool invariants = true;  // check the quiescent invariants after the last table
  // bulk, fixed mode, tiles of 8, multimap: the mixes without the delete
  // guard, i.e. every fix but delete_guard. What the guard costs; not
  // a structure to use (an absent answer may be wrong while deletes run).
  bool unguarded = false;
  // The guard's read side (multimap; bulk driver, mode fixed, tiles of 8
  // when acquire): a fence after relaxed slab loads, or acquire loads.
  structures::slab_guard_order guard_order = structures::slab_guard_order::fence;
};
struct SlabHashBenchResult {
  uint32_t buckets = 0;
  uint64_t slabs_allocated = 0;
  double utilization = 0;  // pair bytes stored / bytes of the slabs in use, after the build
  double build_ms = 0, search_present_ms = 0, search_absent_ms = 0;
  std::vector<double> mix_ms;  // one per mix, in order (.5,.5,0,0), (.2,.2,.3,.3), (.1,.1,.4,.4)
  std::vector<double> phase_ms;  // the six phases' medians, in bench_ops.hpp's order
  std::unique_ptr<HostLog> log;
  uint64_t faults = 0;
  std::vector<std::string> invariant_violations;
  uint64_t wrong_answers = 0;  // bulk: present searches that missed or absent ones that found (last table)
};
SlabHashBenchResult run_slab_hash_bench(const SlabHashBenchSpec& spec);

// The mixed benchmark of stress/gpu/mix_bench.hpp on a map with
// about `slabs_per_bucket` slabs a bucket once half the range is in: the
// unordered ceiling beside an ordered structure. Inserts are upserts.
struct SlabHashMixResult {
  MixBenchResult times;
  std::vector<std::string> invariant_violations;
};
SlabHashMixResult run_slab_hash_mix_bench(const MixBenchSpec& spec, double slabs_per_bucket = 0.6);

}  // namespace warpcheck::gpu
