// Device memory and launches for the GPU harnesses: every CUDA call checked,
// errors thrown with what failed.
#pragma once
#include <cuda_runtime.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/tabulate.h>

#include <stdexcept>
#include <string>
#include <cstdint>
#include <vector>

#include <algorithm>
#include <memory>

#include "stress/gpu/cuda_check.cuh"
#include "stress/gpu/gpu_run.hpp"
#include "stress/gpu/perturb_launch.cuh"
#include "stress/seam/structure_memory.hpp"
#include "stress/seam/workload.hpp"
#include "structures/core/cuda/warp_team.cuh"
#include "structures/core/recorder/host_log.hpp"
#include "structures/core/warp_driver.hpp"

namespace warpcheck::gpu {

// A structure's memory on the device, laid out from its MemoryLayout (the
// same description the host's HostMemory uses), and its copy back. Each
// array its own cudaMalloc, or, with `apart` (a recipe's apart=), all in one
// allocation, each array `apart` bytes past the end of the one before.
class DeviceMemory {
 public:
  explicit DeviceMemory(MemoryLayout layout, uint64_t apart = 0) : layout_(std::move(layout)) {
    if (apart == 0) {
      for (const ArraySpec& a : layout_) pointers_.push_back(allocate(a.bytes() ? a.bytes() : 1));
    } else {
      std::vector<uint64_t> offsets;
      uint64_t end = 0;
      for (const ArraySpec& a : layout_) {
        const uint64_t start = offsets.empty() ? 0 : round_up(end + apart, 256);
        offsets.push_back(start);
        end = start + std::max<uint64_t>(a.bytes(), 1);
      }
      char* base = static_cast<char*>(allocate(end));
      for (uint64_t o : offsets) pointers_.push_back(base + o);
    }
    reset();
  }
  ~DeviceMemory() {
    for (void* p : allocations_) cudaFree(p);
  }
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  ArrayPointers pointers() const { return pointers_; }
  // The arrays' device addresses as numbers: what a fault report names an
  // address by (describe_gpu_faults) once the memory is gone.
  std::vector<uintptr_t> addresses() const {
    std::vector<uintptr_t> out;
    for (void* p : pointers_) out.push_back(reinterpret_cast<uintptr_t>(p));
    return out;
  }
  void reset() {
    for (size_t i = 0; i < layout_.size(); ++i)
      check(cudaMemset(pointers_[i], layout_[i].fill, layout_[i].bytes()), "cudaMemset");
  }
  // A structure whose empty state is not a fill: its initial image, made on the host.
  void upload(const HostMemory& image) {
    for (size_t i = 0; i < layout_.size(); ++i)
      check(cudaMemcpy(pointers_[i], image.bytes(i), layout_[i].bytes(), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  template <class T>
  std::vector<T> copy(size_t i) const {  // one array, back to the host
    std::vector<T> out(layout_[i].bytes() / sizeof(T));
    check(cudaMemcpy(out.data(), pointers_[i], out.size() * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
    return out;
  }
  std::unique_ptr<HostMemory> to_host() const {
    auto h = std::make_unique<HostMemory>(layout_);
    for (size_t i = 0; i < layout_.size(); ++i)
      check(cudaMemcpy(h->bytes(i), pointers_[i], layout_[i].bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy");
    return h;
  }

 private:
  static uint64_t round_up(uint64_t n, uint64_t to) { return (n + to - 1) / to * to; }
  void* allocate(uint64_t bytes) {
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "cudaMalloc");
    allocations_.push_back(p);
    return p;
  }

  MemoryLayout layout_;
  std::vector<void*> pointers_;
  std::vector<void*> allocations_;  // what cudaMalloc gave (one, with apart)
};

// The recorded warp-cooperative driver on the device: one team per warp.
// Perturb: the team perturbs, the blocks in front hammer, the workers are
// counted out (structures/core/cuda/perturbation.cuh); without it, the
// kernel is what it was before perturbation existed.
template <bool Record, bool Perturb, class Structure>
__global__ void team_ops_kernel(Structure s, const core::workload_op* ops, uint32_t per_lane, history_log log,
                                cuda_backend::device_context ctx) {
  if constexpr (Perturb)
    if (cuda_backend::perturb_hammer_block(ctx.perturb, &ctx.faults->count)) return;
  const cuda_backend::perturb_worker_exit<Perturb> leaving(ctx.perturb);
  cuda_backend::basic_warp_team<Perturb> t(ctx);
  core::run_team_ops(t, s, {ops + size_t(t.team_id()) * 32 * per_lane, per_lane}, Record ? &log : nullptr);
}

constexpr uint32_t kThreadsPerBlock = 256;

// Launches `teams` warps in blocks of `threads` (teams a multiple of the
// warps a block) and returns the kernel's time in ms.
template <class Structure>
float launch_team_ops(const Structure& s, const core::workload_op* ops, uint32_t teams, uint32_t per_lane,
                      const history_log* log, const cuda_backend::device_context& ctx, uint32_t threads = kThreadsPerBlock) {
  if (threads % 32 || teams % (threads / 32))
    throw std::invalid_argument("gpu: teams must be a multiple of " + std::to_string(threads / 32) + " (warps a block)");
  const uint32_t blocks = teams / (threads / 32);
  return timed_launch([&] {
    if (log) team_ops_kernel<true, false><<<blocks, threads>>>(s, ops, per_lane, *log, ctx);
    else team_ops_kernel<false, false><<<blocks, threads>>>(s, ops, per_lane, history_log{}, ctx);
  });
}

// The structure's arrays in device memory, for the hammer warps.
inline std::vector<cuda_backend::hot_region> hot_regions(const MemoryLayout& layout, const ArrayPointers& pointers) {
  std::vector<cuda_backend::hot_region> hot;
  for (size_t i = 0; i < layout.size() && i < pointers.size(); ++i)
    hot.push_back({reinterpret_cast<uint64_t>(pointers[i]), layout[i].bytes()});
  return hot;
}

// A recorded launch of `teams` warps: perturbed when `pert` is on (its
// launch planned from the recipe and the seed: `launch` says how), else in
// the first of the shapes that fit (256 threads a block when the teams
// allow). The kernel's time in ms.
template <class Structure>
float launch_recorded_team_ops(const Structure& s, const core::workload_op* ops, uint32_t teams, uint32_t per_lane,
                               const history_log& log, cuda_backend::device_context ctx, const Perturbation& pert,
                               const std::vector<cuda_backend::hot_region>& hot, std::string* launch = nullptr) {
  const std::vector<LaunchShape> shapes = warp_team_shapes(teams, kThreadsPerBlock);
  if (!pert.launch()) return launch_team_ops(s, ops, teams, per_lane, &log, ctx, shapes.front().threads);
  DeviceBuffer<uint32_t> done(1);
  auto kernel = team_ops_kernel<true, true, Structure>;
  const PerturbedLaunch plan = plan_perturbed_launch(kernel, pert, shapes, 0, teams, hot, done.p);
  ctx.perturb = plan.params;
  if (launch) *launch = plan.describe();
  return timed_launch([&] { kernel<<<plan.blocks, plan.threads, plan.shared_bytes>>>(s, ops, per_lane, log, ctx); });
}

// A workload on the device.
inline thrust::device_vector<core::workload_op> to_device(const std::vector<core::workload_op>& ops) {
  thrust::device_vector<core::workload_op> d(ops.size());
  thrust::copy(ops.begin(), ops.end(), d.begin());
  return d;
}

// A device log of `streams` x `capacity` records (and `key_capacity` keys a
// stream for batched operations), and its copy back.
struct DeviceLog {
  DeviceBuffer<log_record> records;
  DeviceBuffer<uint32_t> counts, lost;
  DeviceBuffer<uint64_t> ticket;
  DeviceBuffer<int64_t> keys;
  DeviceBuffer<uint32_t> key_counts;
  history_log view;
  DeviceLog(uint32_t streams, uint32_t capacity, core::clock_kind clock, uint32_t key_capacity = 0)
      : records(size_t(streams) * capacity), counts(streams), lost(streams), ticket(1),
        keys(size_t(streams) * key_capacity), key_counts(streams) {
    view.records = records.p;
    view.counts = counts.p;
    view.lost = lost.p;
    view.ticket = ticket.p;
    view.streams = streams;
    view.capacity = capacity;
    view.clock = clock;
    view.keys = keys.p;
    view.key_counts = key_counts.p;
    view.key_capacity = key_capacity;
  }
  void reset() {
    counts.zero();
    lost.zero();
    ticket.zero();
    key_counts.zero();
  }
  std::unique_ptr<HostLog> to_host() const {
    auto h = std::make_unique<HostLog>(view.streams, view.capacity, view.key_capacity);
    records.to_host(h->records.data());
    counts.to_host(h->counts.data());
    lost.to_host(h->lost.data());
    if (view.key_capacity) keys.to_host(h->keys.data());
    key_counts.to_host(h->key_counts.data());
    return h;
  }
};

// One recorded run of a warp-cooperative structure: its memory laid out on
// the device, the workload copied there, one launch (after a launch of the
// prefill by one warp, when there is one, never perturbed); the log, the
// faults and the memory come back.
// `initial`: the structure's empty state when it is not the layout's fill.
template <class MakeView>
GpuRun run_warp_structure(const MemoryLayout& layout, MakeView make_view, const std::vector<core::workload_op>& ops,
                          uint32_t teams, uint32_t per_lane, uint32_t log_capacity, core::clock_kind clock,
                          uint64_t spin_bound, const HostMemory* initial = nullptr, const Prefill& prefill = {},
                          const Perturbation& perturbation = {}) {
  if (ops.size() != size_t(teams) * 32 * per_lane) throw std::invalid_argument("gpu: workload size does not fit the shape");
  DeviceMemory memory(layout, perturbation.recipe.apart);
  if (initial) memory.upload(*initial);
  DeviceLog log(teams, log_capacity + prefill.records(), clock);
  DeviceBuffer<cuda_backend::device_faults> faults(1);
  const auto view = make_view(memory.pointers());
  GpuRun run;
  if (prefill.per_lane) {
    const auto device_prefill = to_device(prefill.ops);
    launch_team_ops(view, thrust::raw_pointer_cast(device_prefill.data()), 1, prefill.per_lane, &log.view,
                    {spin_bound, faults.p}, 32);
  }
  const auto device_ops = to_device(ops);
  run.kernel_ms = launch_recorded_team_ops(view, thrust::raw_pointer_cast(device_ops.data()), teams, per_lane, log.view,
                                           {spin_bound, faults.p}, perturbation, hot_regions(layout, memory.pointers()), &run.launch);
  faults.to_host(&run.faults);
  run.log = log.to_host();
  run.memory = memory.to_host();
  run.device_bases = memory.addresses();
  return run;
}

}  // namespace warpcheck::gpu
