#include "stress/harness/seed_runs.hpp"

#include "structures/core/sim/simulator.hpp"

namespace warpcheck {

namespace {

FaultKind fault_kind_of(sim::Outcome o) {
  switch (o) {
    case sim::Outcome::SpinBound: return FaultKind::SpinBound;
    case sim::Outcome::ShadowViolation: return FaultKind::Shadow;
    case sim::Outcome::LaneError: return FaultKind::StructureCheck;
    case sim::Outcome::ZombieTraversal: return FaultKind::Zombie;
    default: return FaultKind::Other;
  }
}

}  // namespace

SeedRun seed_run_from_sim(TargetRun&& t) {
  SeedRun r;
  r.fault = !t.report.ok();
  if (r.fault) {
    r.fault_kind = fault_kind_of(t.report.outcome);
    r.fault_message = std::string(sim::outcome_name(t.report.outcome)) + ": " + t.report.message;
  }
  r.fault_details = t.report.details;
  r.schedule = sim::encode_schedule(t.report.schedule);
  r.steps = t.report.steps;
  r.guidance = std::move(t.report.guidance);
  r.history = std::move(t.history);
  return r;
}

SeedRun seed_run_from_sim(CheckedRun&& c) {
  SeedRun r = seed_run_from_sim(std::move(c.run));
  r.invariant_violations = std::move(c.invariant_violations);
  return r;
}

SeedRun seed_run_from_threads(ThreadsRun&& t) {
  SeedRun r;
  r.fault = !t.report.ok;
  if (r.fault) {
    r.fault_kind = t.report.message.find("spin bound") != std::string::npos ? FaultKind::SpinBound : FaultKind::Other;
    r.fault_message = t.report.message;
  }
  r.history = std::move(t.history);
  return r;
}

void no_cuda_back_end() { throw std::invalid_argument("--backend gpu: this build has no CUDA back-end (nvcc was not found)"); }

std::string describe_gpu_faults(const cuda_backend::device_faults& f, const MemoryLayout& layout,
                                const std::vector<uintptr_t>& bases, const std::string& team_word) {
  const bool spin = f.kind == uint32_t(cuda_backend::fault_kind::spin_bound);
  std::string m = "GPU: " + std::to_string(f.count) + " fault(s); first: " + sim::lane_place(team_word, f.team, f.lane) + (spin ? ", spin bound" : ", structure failure (full, allocator exhausted, or a list cycle)");
  for (size_t i = 0; i < layout.size() && i < bases.size(); ++i)
    if (f.address >= bases[i] && f.address < bases[i] + layout[i].bytes()) {
      const uint64_t at = f.address - bases[i];
      m += (spin ? ", waiting on " : ", at ") + layout[i].name + "[" + std::to_string(at / layout[i].unit_bytes) + "]+" +
           std::to_string(at % layout[i].unit_bytes);
    }
  if (f.gave_up) m += "; " + std::to_string(f.gave_up) + " spin(s) then gave up early (the kernel ends after a fault)";
  return m;
}

SeedRun seed_run_from_gpu(const gpu::GpuRun& g, ModelId model, const GpuRunSettings& settings) {
  HistoryMeta meta;
  meta.model = model;
  meta.seed = settings.seed;
  SeedRun r;
  r.history = history_from_log(*g.log, std::move(meta));
  r.kernel_ms = g.kernel_ms;
  r.launch = g.launch;
  r.fault = g.faults.count != 0;
  if (r.fault) {
    const bool spin = g.faults.kind == uint32_t(cuda_backend::fault_kind::spin_bound);
    r.fault_kind = spin ? FaultKind::SpinBound : FaultKind::StructureCheck;
    r.fault_message = describe_gpu_faults(g.faults, g.memory ? g.memory->layout() : MemoryLayout{}, g.device_bases,
                                         settings.team_word);
  }
  return r;
}

}  // namespace warpcheck
