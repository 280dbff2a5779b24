#include "tools/stress_targets.hpp"

#include <ostream>
#include <sstream>

#include "stress/heap_target.hpp"
#include "stress/slab_hash_target.hpp"
#include "stress/sorted_set_target.hpp"
#include "stress/threads_harness.hpp"
#if WARPCHECK_HAVE_CUDA
#include "linearizability/recorder/log_to_history.hpp"
#include "stress/gpu/gpu_runner.hpp"
#endif

namespace warpcheck::cli {

namespace {

SeedRun from_sim(TargetRun&& t) {
  SeedRun r;
  r.fault = !t.report.ok();
  if (r.fault) r.fault_message = std::string(sim::outcome_name(t.report.outcome)) + ": " + t.report.message;
  r.fault_details = t.report.details;
  r.schedule = sim::encode_schedule(t.report.schedule);
  r.steps = t.report.steps;
  r.history = std::move(t.history);
  return r;
}

SeedRun from_threads(ThreadsRun&& t) {
  SeedRun r;
  r.fault = !t.report.ok;
  r.fault_message = t.report.message;
  r.history = std::move(t.history);
  return r;
}

HistoryMeta meta_for(ModelId model, uint64_t seed, std::string config) {
  HistoryMeta m;
  m.model = model;
  m.seed = seed;
  m.config = std::move(config);
  return m;
}

#if WARPCHECK_HAVE_CUDA
SeedRun from_gpu(const HostLog& log, const cuda_backend::device_faults& faults, HistoryMeta meta) {
  SeedRun r;
  r.history = history_from_log(log, std::move(meta));
  r.fault = faults.count != 0;
  if (r.fault)
    r.fault_message = "GPU: " + std::to_string(faults.count) + " fault(s); first: team " + std::to_string(faults.team) +
                      (faults.kind == 1 ? ", spin bound" : ", structure failure (bucket full, SlabAlloc exhausted, or a slab list cycle)");
  return r;
}
#endif

// Options every structure shares: its shape and the workload's knobs.
template <class Config>
WorkloadShape common_options(const Args& args, Backend backend, Config& c, std::ostringstream& flags) {
  c.teams = uint32_t(args.integer("teams", backend == Backend::Gpu ? 64 : 3, 1, 1u << 20));
  c.ops_per_lane = uint32_t(args.integer("ops-per-lane", 2, 1, 1u << 16));
  c.keys = int64_t(args.integer("keys", 8, 1, uint64_t(1) << 32));
  c.buckets = uint32_t(args.integer("buckets", 1, 1, 1u << 26));
  if (auto m = args.value("mix")) c.mix = parse_op_mix(*m);
  WorkloadShape w;
  w.teams = c.teams;
  w.per_lane = c.ops_per_lane;
  w.keys = c.keys;
  w.mix = c.mix;
  w.knobs.hot_keys = uint32_t(args.integer("hot-keys", 0, 0, 1u << 30));
  w.knobs.hot_fraction = args.number("hot-fraction", w.knobs.hot_keys ? 0.5 : 0, 0, 1);
  w.knobs.same_key_in_warp = args.number("same-key", 0, 0, 1);
  w.knobs.churn = args.number("churn", 0, 0, 1);
  flags << " --teams " << c.teams << " --ops-per-lane " << c.ops_per_lane << " --keys " << c.keys << " --buckets "
        << c.buckets << " --mix " << format_op_mix(c.mix);
  if (w.knobs.hot_keys) flags << " --hot-keys " << w.knobs.hot_keys << " --hot-fraction " << w.knobs.hot_fraction;
  if (w.knobs.same_key_in_warp) flags << " --same-key " << w.knobs.same_key_in_warp;
  if (w.knobs.churn) flags << " --churn " << w.knobs.churn;
  return w;
}

StressTarget sorted_set_target(const Args& args, Backend backend) {
  SortedSetConfig c;
  std::ostringstream flags;
  flags << "--structure sorted-set";
  WorkloadShape shape = common_options(args, backend, c, flags);
  const std::string mutant = args.value("mutant").value_or("none");
  c.mutant = parse_sorted_set_mutant(mutant);
  flags << " --mutant " << mutant;
  validate(c);
  StressTarget t;
  t.teams = c.teams;
  t.shape = shape;
  t.flags = flags.str();
  t.summary = "sorted-set, " + std::to_string(c.teams) + " warps x 32 lanes x " + std::to_string(c.ops_per_lane) +
              " ops, keys " + std::to_string(c.keys) + ", buckets " + std::to_string(c.buckets) + ", mix " +
              format_op_mix(c.mix) + ", mutant " + mutant;
  t.sim = [c](const sim::SimConfig& s, const Ops& ops) { return from_sim(run_sorted_set_sim(c, s, ops)); };
  t.threads = [c](uint64_t seed, const Ops& ops) {
    SortedSetMemory memory(c.buckets);
    return from_threads(run_in_threads(memory.view(c.mutant), ops, c.teams, c.ops_per_lane, 32 * c.ops_per_lane,
                                       meta_for(ModelId::Set, seed, "{\"structure\":\"sorted-set\",\"backend\":\"threads\"}")));
  };
#if WARPCHECK_HAVE_CUDA
  t.gpu = [c](uint64_t seed, uint64_t spin_bound, const Ops& ops) {
    gpu::SortedSetGpuSpec spec;
    spec.set = c;
    spec.seed = seed;
    spec.ops = &ops;
    spec.spin_bound = spin_bound;
    auto g = gpu::run_sorted_set_gpu(spec);
    return from_gpu(*g.log, g.faults, meta_for(ModelId::Set, seed, "{\"structure\":\"sorted-set\",\"backend\":\"gpu\"}"));
  };
#endif
  return t;
}

StressTarget slab_hash_target(const Args& args, Backend backend) {
  SlabHashConfig c;
  std::ostringstream flags;
  const std::string mode = args.value("mode").value_or("map");
  c.mode = parse_slab_hash_mode(mode);
  flags << "--structure slabhash --mode " << mode;
  WorkloadShape shape = common_options(args, backend, c, flags);
  shape.kinds = slab_hash_workload(c, 0).kinds;
  const std::string mutant = args.value("mutant").value_or("none");
  c.mutant = parse_slab_hash_mutant(mutant);
  c.blocks_per_super = uint32_t(args.integer("memory-blocks", 2, 1, 1u << 14));
  flags << " --mutant " << mutant << " --memory-blocks " << c.blocks_per_super;
  validate(c);
  const ModelId model = c.mode == structures::slab_hash_mode::map ? ModelId::Map : ModelId::Multimap;
  StressTarget t;
  t.teams = c.teams;
  t.shape = shape;
  t.flags = flags.str();
  t.summary = "slabhash (" + mode + "), " + std::to_string(c.teams) + " warps x 32 lanes x " +
              std::to_string(c.ops_per_lane) + " ops, keys " + std::to_string(c.keys) + ", buckets " +
              std::to_string(c.buckets) + ", mix " + format_op_mix(c.mix) + ", mutant " + mutant;
  t.sim = [c](const sim::SimConfig& s, const Ops& ops) {
    SlabHashRun run = run_slab_hash_sim(c, s, ops);
    SeedRun r = from_sim(std::move(run.run));
    r.invariant_violations = std::move(run.invariant_violations);
    return r;
  };
  t.threads = [c, model](uint64_t seed, const Ops& ops) {
    SlabHashMemory memory(c);
    ThreadsRun run = run_in_threads(memory.view(c, seed), ops, c.teams, c.ops_per_lane, 32 * c.ops_per_lane,
                                    meta_for(model, seed, "{\"structure\":\"slabhash\",\"backend\":\"threads\"}"));
    SeedRun r = from_threads(std::move(run));
    if (!r.fault) r.invariant_violations = check_slab_hash_invariants(memory, memory.view(c, seed));
    return r;
  };
#if WARPCHECK_HAVE_CUDA
  t.gpu = [c, model](uint64_t seed, uint64_t spin_bound, const Ops& ops) {
    gpu::SlabHashGpuSpec spec;
    spec.table = c;
    spec.seed = seed;
    spec.ops = &ops;
    spec.spin_bound = spin_bound;
    auto g = gpu::run_slab_hash_gpu(spec);
    SeedRun r = from_gpu(*g.log, g.faults, meta_for(model, seed, "{\"structure\":\"slabhash\",\"backend\":\"gpu\"}"));
    r.invariant_violations = std::move(g.invariant_violations);
    return r;
  };
#endif
  return t;
}

StressTarget heap_target(const Args& args, Backend backend) {
  HeapConfig c;
  parse_heap_variant(args.value("variant").value_or("td"), c);
  if (auto f = args.value("fixes")) parse_heap_fixes(*f, c);
  const bool gpu = backend == Backend::Gpu;
  c.teams = uint32_t(args.integer("teams", gpu ? 64 : 3, 1, 1u << 20));
  c.lanes = uint32_t(args.integer("block", gpu ? 128 : 4, 1, 1024));
  c.k = uint32_t(args.integer("k", gpu ? 256 : 4, 1, 4096));
  c.ops_per_team = uint32_t(args.integer("ops-per-team", gpu ? 16 : 6, 1, 1u << 20));
  if (auto m = args.value("mix")) c.mix = parse_op_mix(*m);
  c.full_batches = args.number("full-batches", 0.5, 0, 1);
  c.phases = args.flag("phases");
  c.narrow_keys = uint32_t(args.integer("narrow-keys", 0, 0, uint64_t(1) << 31));
  c.bit_reversal = !args.flag("no-bit-reversal");
  const std::string mutant = args.value("mutant").value_or("none");
  c.mutant = parse_heap_mutant(mutant);
  c.capacity = uint32_t(args.integer("capacity", 0, 0, 1u << 26));
  c.prefill = uint32_t(args.integer("prefill", 0, 0, 1u << 24));
  validate(c);
  std::ostringstream flags;
  flags << "--structure heap " << heap_variant_flags(c) << " --teams " << c.teams << " --block " << c.lanes
        << " --k " << c.k << " --ops-per-team " << c.ops_per_team << " --mix " << format_op_mix(c.mix)
        << " --full-batches " << c.full_batches << (c.phases ? " --phases" : "")
        << (c.narrow_keys ? " --narrow-keys " + std::to_string(c.narrow_keys) : "")
        << (c.bit_reversal ? "" : " --no-bit-reversal") << " --mutant " << mutant;
  if (c.prefill) flags << " --prefill " << c.prefill;
  if (c.capacity) flags << " --capacity " << c.capacity;
  StressTarget t;
  t.teams = c.teams;
  t.lanes = c.lanes;
  t.shape = heap_workload_shape(c);
  t.flags = flags.str();
  t.summary = "heap (" + heap_variant_name(c) + "), " + std::to_string(c.teams) + " blocks x " + std::to_string(c.lanes) +
              " lanes, k " + std::to_string(c.k) + ", " + std::to_string(c.ops_per_team) + " ops a block, mix " +
              format_op_mix(c.mix) + (c.narrow_keys ? ", keys from [0, " + std::to_string(c.narrow_keys) + ")" : ", distinct keys") +
              (c.phases ? ", pushes then pops" : "") + (c.prefill ? ", prefill " + std::to_string(c.prefill) + " nodes" : "") +
              ", mutant " + mutant;
  t.sim = [c](const sim::SimConfig& s, const Ops& ops) {
    HeapRun run = run_heap_sim(c, s, ops);
    SeedRun r = from_sim(std::move(run.run));
    r.invariant_violations = std::move(run.invariant_violations);
    return r;
  };
#if WARPCHECK_HAVE_CUDA
  t.gpu = [c](uint64_t seed, uint64_t spin_bound, const Ops& ops) {
    gpu::HeapGpuSpec spec;
    spec.heap = c;
    spec.ops = &ops;
    spec.spin_bound = spin_bound;
    auto g = gpu::run_heap_gpu(spec);
    HistoryMeta meta = meta_for(ModelId::PriorityQueue, seed, "{\"structure\":\"heap\",\"backend\":\"gpu\",\"variant\":\"" + heap_variant_name(c) + "\"}");
    SeedRun r = from_gpu(*g.log, g.faults, std::move(meta));
    if (!r.fault) {
      HeapMemory host(c);
      host.keys = std::move(g.memory.keys);
      host.states = std::move(g.memory.states);
      host.partial = std::move(g.memory.partial);
      host.counters = std::move(g.memory.counters);
      r.invariant_violations = check_heap_invariants(host, host.view(c), r.history);
    }
    return r;
  };
#endif
  return t;
}

}  // namespace

StressTarget make_stress_target(const Args& args, Backend backend) {
  const std::string structure = args.value("structure").value_or("slabhash");
  if (structure == "sorted-set") return sorted_set_target(args, backend);
  if (structure == "slabhash") return slab_hash_target(args, backend);
  if (structure == "heap") return heap_target(args, backend);
  throw UsageError("--structure must be slabhash, sorted-set or heap, got '" + structure + "'");
}

void print_mutants(std::ostream& out) {
  out << "slabhash mutants (--structure slabhash --mode map|multimap --mutant NAME):\n";
  for (const auto& m : slab_hash_mutants())
    if (m.name != "none")
      out << "  " << m.name << " [" << (m.map && m.multimap ? "map, multimap" : m.map ? "map" : "multimap") << "]: " << m.breaks
          << "\n";
  out << "sorted-set mutants (--structure sorted-set --mutant NAME):\n";
  for (const auto& m : sorted_set_mutants()) out << "  " << m.name << ": " << m.breaks << "\n";
  out << "heap fixes of the paper's pseudocode (--variant td-fixed / bu-fixed set the corrected sets; --fixes NAME,... picks):\n";
  for (const auto& f : heap_fixes()) out << "  " << f.name << ": " << f.fixes << "\n";
  out << "heap mutants (--structure heap --variant td-fixed|bu-fixed --mutant NAME):\n";
  for (const auto& m : heap_mutants())
    if (m.name != "none")
      out << "  " << m.name << " [" << (m.td && m.bu ? "td, bu" : m.td ? "td" : "bu") << "]: " << m.breaks << "\n";
}

}  // namespace warpcheck::cli
