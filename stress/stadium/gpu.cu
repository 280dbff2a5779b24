// Stadium hashing on the GPU: the three kernels (one source with the
// simulator's, structures/stadium), the table in GPU memory or in pinned
// host memory mapped into the device's address space (cudaHostAlloc with
// cudaHostAllocMapped: the kernels read and write it over the host link),
// a recorded stress run, and the paper's benchmarks.
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/tabulate.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "models/base/median.hpp"
#include "stress/gpu/device_buffer.cuh"
#include "stress/stadium/bench_keys.hpp"
#include "stress/stadium/gpu.hpp"

namespace warpcheck::gpu {

namespace {

using structures::stadium_hash;
using structures::stadium_job;
using structures::stadium_kernel;

constexpr uint32_t kWarpsPerBlock = 8;
constexpr uint32_t kQueueWords = 32 * stadium_job::kWords;

// Perturb: the team perturbs, the blocks in front hammer, the workers are
// counted out (structures/core/cuda/perturbation.cuh).
template <bool Record, bool Perturb = false>
__global__ void stadium_ops_kernel(stadium_hash s, stadium_kernel kernel, const core::workload_op* ops, uint32_t teams,
                                   uint32_t per_lane, uint32_t switch_round, history_log lanes, history_log warps,
                                   cuda_backend::device_context ctx) {
  __shared__ uint32_t queues[kWarpsPerBlock * kQueueWords];  // clStash: a queue a warp
  if constexpr (Perturb)
    if (cuda_backend::perturb_hammer_block(ctx.perturb, &ctx.faults->count)) return;
  const cuda_backend::perturb_worker_exit<Perturb> leaving(ctx.perturb);
  cuda_backend::basic_warp_team<Perturb> t(ctx);
  const uint32_t warp = t.team_id();
  if (warp >= teams) return;  // the last block's spare warps
  const structures::stadium_team_work w{ops + size_t(warp) * 32 * per_lane, per_lane, switch_round,
                                        queues + (threadIdx.x / 32) * kQueueWords, warp};
  structures::run_stadium_team(t, s, kernel, w, Record ? structures::stadium_logs{&lanes, &warps} : structures::stadium_logs{});
}

// The two parts of a recorded run's log on the device.
struct StadiumDeviceLog {
  DeviceLog lanes, warps;
  StadiumDeviceLog(const StadiumConfig& c, core::clock_kind clock)
      : lanes(stadium_lane_log(c).streams, stadium_lane_log(c).capacity, clock),
        warps(stadium_warp_log(c).streams, stadium_warp_log(c).capacity, clock) {
    warps.view.ticket = lanes.view.ticket;  // one clock ticket for both parts
  }
  void reset() {
    lanes.reset();
    warps.reset();
  }
  History to_history(const StadiumConfig& c) const {
    HistoryMeta meta;
    meta.model = ModelId::Multimap;
    return stadium_history(c, *lanes.to_host(), *warps.to_host(), meta);
  }
};

float launch_stadium(const stadium_hash& s, stadium_kernel kernel, const core::workload_op* ops, uint32_t teams,
                     uint32_t per_lane, uint32_t switch_round, const StadiumDeviceLog* log, const cuda_backend::device_context& ctx) {
  const uint32_t blocks = (teams + kWarpsPerBlock - 1) / kWarpsPerBlock;
  return timed_launch([&] {
    if (log)
      stadium_ops_kernel<true><<<blocks, kWarpsPerBlock * 32>>>(s, kernel, ops, teams, per_lane, switch_round, log->lanes.view,
                                                                log->warps.view, ctx);
    else
      stadium_ops_kernel<false><<<blocks, kWarpsPerBlock * 32>>>(s, kernel, ops, teams, per_lane, switch_round, history_log{},
                                                                 history_log{}, ctx);
  });
}

// The same, recorded and perturbed: blocks of 1 to kWarpsPerBlock warps
// (the queues are a block's shared memory), planned from the recipe and the seed.
float launch_perturbed_stadium(const stadium_hash& s, stadium_kernel kernel, const core::workload_op* ops, uint32_t teams,
                               uint32_t per_lane, uint32_t switch_round, const StadiumDeviceLog& log,
                               cuda_backend::device_context ctx, const Perturbation& pert,
                               const std::vector<cuda_backend::hot_region>& hot, std::string& launch) {
  std::vector<LaunchShape> shapes;
  for (uint32_t warps = kWarpsPerBlock; warps >= 1; warps /= 2) shapes.push_back({warps * 32, (teams + warps - 1) / warps});
  auto k = stadium_ops_kernel<true, true>;
  DeviceBuffer<uint32_t> done(1);
  const PerturbedLaunch plan = plan_perturbed_launch(k, pert, shapes, 0, teams, hot, done.p);
  ctx.perturb = plan.params;
  launch = plan.describe();
  return timed_launch([&] {
    k<<<plan.blocks, plan.threads, plan.shared_bytes>>>(s, kernel, ops, teams, per_lane, switch_round, log.lanes.view, log.warps.view, ctx);
  });
}

// Pinned host memory, mapped into the device's address space.
struct MappedHostBuffer {
  void* host = nullptr;
  void* device = nullptr;
  size_t bytes = 0;
  explicit MappedHostBuffer(size_t n) : bytes(n) {
    check(cudaHostAlloc(&host, n ? n : 1, cudaHostAllocMapped), "cudaHostAlloc (mapped)");
    check(cudaHostGetDevicePointer(&device, host, 0), "cudaHostGetDevicePointer");
  }
  ~MappedHostBuffer() { cudaFreeHost(host); }
  MappedHostBuffer(const MappedHostBuffer&) = delete;
  MappedHostBuffer& operator=(const MappedHostBuffer&) = delete;
};

// The board in GPU memory; the buckets there too (in one allocation with
// the board, `apart` bytes past it, when a recipe asks), or in mapped host
// memory.
class StadiumMemory {
 public:
  explicit StadiumMemory(const StadiumConfig& c, uint64_t apart = 0) : layout_(stadium_layout(c)) {
    if (c.host_table) {
      device_ = std::make_unique<DeviceMemory>(MemoryLayout{layout_[0]});
      host_ = std::make_unique<MappedHostBuffer>(layout_[1].bytes());
      pointers_ = {device_->pointers()[0], host_->device};
    } else {
      device_ = std::make_unique<DeviceMemory>(layout_, apart);
      pointers_.assign(device_->pointers().begin(), device_->pointers().end());
    }
  }
  ArrayPointers pointers() const { return pointers_; }
  void upload(const HostMemory& image) {
    check(cudaMemcpy(pointers_[0], image.bytes(0), layout_[0].bytes(), cudaMemcpyHostToDevice), "cudaMemcpy");
    if (host_) std::memcpy(host_->host, image.bytes(1), layout_[1].bytes());
    else check(cudaMemcpy(pointers_[1], image.bytes(1), layout_[1].bytes(), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  std::unique_ptr<HostMemory> to_host() const {
    auto h = std::make_unique<HostMemory>(layout_);
    check(cudaMemcpy(h->bytes(0), pointers_[0], layout_[0].bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy");
    if (host_) std::memcpy(h->bytes(1), host_->host, layout_[1].bytes());
    else check(cudaMemcpy(h->bytes(1), pointers_[1], layout_[1].bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy");
    return h;
  }
  // Every byte its array's initial value, in place (the benchmark's tables
  // may be larger than the device's memory: no host image of them).
  void clear() {
    check(cudaMemset(pointers_[0], layout_[0].fill, layout_[0].bytes()), "cudaMemset");
    if (host_) std::memset(host_->host, layout_[1].fill, layout_[1].bytes());
    else check(cudaMemset(pointers_[1], layout_[1].fill, layout_[1].bytes()), "cudaMemset");
  }
  // For checks on the host: a device table copied whole (to_host), a host
  // table read in place beside a copy of the board.
  struct HostView {
    std::unique_ptr<HostMemory> copy;  // a device table's arrays
    std::vector<uint8_t> board;        // a host table's board
    std::vector<void*> pointers;
  };
  HostView host_view() const {
    HostView v;
    if (!host_) {
      v.copy = to_host();
      v.pointers.assign(v.copy->pointers().begin(), v.copy->pointers().end());
      return v;
    }
    v.board.resize(layout_[0].bytes());
    check(cudaMemcpy(v.board.data(), pointers_[0], v.board.size(), cudaMemcpyDeviceToHost), "cudaMemcpy");
    v.pointers = {v.board.data(), host_->host};
    return v;
  }
  std::vector<uintptr_t> bases() const {
    return {reinterpret_cast<uintptr_t>(pointers_[0]), reinterpret_cast<uintptr_t>(pointers_[1])};
  }

 private:
  MemoryLayout layout_;
  std::unique_ptr<DeviceMemory> device_;  // the board, and the buckets unless they are on the host
  std::unique_ptr<MappedHostBuffer> host_;
  std::vector<void*> pointers_;
};

// One operation of a benchmark phase; pair i is (key_of_index(i), i + 1).
struct bench_op {
  uint64_t pairs;
  int phase;  // 0 insert every pair, 1 find every key, 2 find half present half absent, 3 erase every key
  uint64_t first = 0;  // the chunk's first operation
  __host__ __device__ core::workload_op operator()(uint64_t chunk_index) const {
    const uint64_t i = first + chunk_index;
    core::workload_op op;
    const uint64_t index = phase == 2 && (i & 1) ? pairs + i : i;  // absent keys: indices past the pairs
    op.key = key_of_index(index);
    op.kind = phase == 0 ? OpKind::Insert : phase == 3 ? OpKind::Erase : OpKind::Find;
    op.value = phase == 0 ? int64_t(i) + 1 : 0;
    return op;
  }
};

using detail::median;

// After the inserts, over host memory: every ticket live or never used,
// `pairs` live ones, each bucket holding the pair its value names, whole,
// under the info bits of its key.
std::vector<std::string> check_built(const stadium_hash& s, uint64_t pairs) {
  std::vector<std::string> bad;
  uint64_t live = 0;
  auto slot = [&](uint32_t b) {
    const auto r = s.board.at(b);
    return s.board.slot_of(*r.word, r);
  };
  for (uint32_t b = 0; b < s.buckets && bad.size() < 10; ++b) {
    const auto st = s.board.state(slot(b));
    if (st == structures::stadium_detail::ticket_state::never_used) continue;
    if (st != structures::stadium_detail::ticket_state::live) {
      bad.push_back("bucket " + std::to_string(b) + ": a ticket neither live nor never used after the inserts");
      continue;
    }
    ++live;
    uint64_t key = 0, id = 0;
    bool whole = true;
    if (s.table.word_bytes() == 4) {
      const uint32_t* w = s.table.bucket<uint32_t>(b);
      key = w[0];
      id = w[1];
    } else {
      const uint64_t* w = s.table.bucket<uint64_t>(b);
      key = w[0];
      id = w[1];
      for (uint32_t j = 1; j < s.table.value_words(); ++j) whole = whole && w[1 + j] == structures::stadium_detail::value_word(id, j);
    }
    if (!whole || id == 0 || id > pairs || key != s.table.stored_key(key_of_index(id - 1)))
      bad.push_back("bucket " + std::to_string(b) + " holds a pair that was not inserted, or a torn one");
    else if (s.board.info_field(slot(b)) != s.table.info(key, s.board.info_bits()))
      bad.push_back("bucket " + std::to_string(b) + ": info bits not its key's");
  }
  if (bad.empty() && live != pairs) bad.push_back(std::to_string(live) + " live tickets after " + std::to_string(pairs) + " inserts");
  return bad;
}

// After the deletes: no ticket live or held.
std::vector<std::string> check_emptied(const stadium_hash& s) {
  for (uint32_t b = 0; b < s.buckets; ++b) {
    const auto r = s.board.at(b);
    const auto st = s.board.state(s.board.slot_of(*r.word, r));
    if (st != structures::stadium_detail::ticket_state::never_used && st != structures::stadium_detail::ticket_state::tombstone)
      return {"bucket " + std::to_string(b) + ": a ticket not available after every key was deleted"};
  }
  return {};
}

}  // namespace

StadiumGpuRun run_stadium(const StadiumConfig& c, const std::vector<core::workload_op>& ops, uint64_t spin_bound,
                          const Perturbation& perturbation, core::clock_kind clock) {
  validate(c);
  if (ops.size() != size_t(c.teams) * 32 * c.ops_per_lane) throw std::invalid_argument("gpu: stadium workload size does not fit the shape");
  HostMemory image(stadium_layout(c));
  stadium_fill(c, image);
  StadiumMemory memory(c, perturbation.recipe.apart);
  memory.upload(image);
  const StadiumDeviceLog log(c, clock);
  DeviceBuffer<cuda_backend::device_faults> faults(1);
  const stadium_hash view = stadium_view(c, memory.pointers());
  const cuda_backend::device_context ctx{spin_bound, faults.p};
  const Prefill prefill = prefill_ops(c, OpKind::Insert);
  if (prefill.per_lane) {  // warp 0 alone first: a kernel boundary is an exact cut
    const auto device_prefill = to_device(prefill.ops);
    launch_stadium(view, c.kernel, thrust::raw_pointer_cast(device_prefill.data()), 1, prefill.per_lane,
                   stadium_switch_round(c, prefill.per_lane), &log, ctx);
  }
  const auto device_ops = to_device(ops);
  StadiumGpuRun out;
  GpuRun& run = out.run;
  if (perturbation.launch()) {
    // The hammer warps hit the board, and the buckets when they are in GPU memory.
    const MemoryLayout layout = stadium_layout(c);
    std::vector<cuda_backend::hot_region> hot{{reinterpret_cast<uint64_t>(memory.pointers()[0]), layout[0].bytes()}};
    if (!c.host_table) hot.push_back({reinterpret_cast<uint64_t>(memory.pointers()[1]), layout[1].bytes()});
    run.kernel_ms = launch_perturbed_stadium(view, c.kernel, thrust::raw_pointer_cast(device_ops.data()), c.teams, c.ops_per_lane,
                                             stadium_switch_round(c, c.ops_per_lane), log, ctx, perturbation, hot, run.launch);
  } else {
    run.kernel_ms = launch_stadium(view, c.kernel, thrust::raw_pointer_cast(device_ops.data()), c.teams, c.ops_per_lane,
                                   stadium_switch_round(c, c.ops_per_lane), &log, ctx);
  }
  faults.to_host(&run.faults);
  run.log = std::make_unique<HostLog>(0, 0);  // the records are in `history`
  run.memory = memory.to_host();
  run.device_bases = memory.bases();
  out.history = log.to_history(c);
  return out;
}

StadiumBenchResult run_stadium_bench(const StadiumBenchSpec& spec) {
  StadiumConfig c;
  c.ops_per_lane = spec.ops_per_lane;
  const uint64_t per_team = uint64_t(32) * spec.ops_per_lane;
  if (spec.pairs % per_team) throw std::invalid_argument("bench: pairs must be a multiple of 32 x ops per lane");
  c.teams = static_cast<uint32_t>(spec.pairs / per_team);
  c.keys = int64_t(1) << 32;  // no fillers: the keys are the pairs'
  c.mix = OpMix{100, 0, 0};
  c.load = 0;
  const double buckets = std::ceil(double(spec.pairs) / spec.load);
  if (!(buckets <= double(0xFFFFFFFBu))) throw std::invalid_argument("bench: more than 2^32 - 5 buckets");
  if (spec.absent_lookups && spec.pairs > (uint64_t(1) << 31))
    throw std::invalid_argument("bench: absent keys come from indices past the pairs, in 32 bits: at most 2^31 pairs");
  c.buckets = static_cast<uint32_t>(buckets);
  c.key_bytes = spec.key_bytes;
  c.value_bytes = spec.value_bytes;
  c.ticket_bits = spec.ticket_bits;
  c.host_table = spec.host_table;
  c.kernel = spec.kernel;
  c.fixes = spec.fixes;
  c.switch_at = spec.switch_at;
  c.access = structures::stadium_access::wait;
  if (c.key_bytes == 4) c.keys = 0xFFFFFFFFll;
  validate(c);

  StadiumMemory memory(c);
  DeviceBuffer<cuda_backend::device_faults> faults(1);
  const cuda_backend::device_context ctx{uint64_t(1) << 22, faults.p};
  // A phase's operations go to the device a chunk at a time, so the
  // device's memory holds the board, one chunk and (in core) the table.
  const uint64_t chunk = std::min<uint64_t>(spec.pairs, (uint64_t(1) << 26) / per_team * per_team);
  if (spec.record && chunk < spec.pairs) throw std::invalid_argument("bench: recording is for at most 2^26 pairs (one launch a phase)");
  thrust::device_vector<core::workload_op> ops(chunk);
  std::unique_ptr<StadiumDeviceLog> log;
  if (spec.record) log = std::make_unique<StadiumDeviceLog>(c, core::clock_kind::global_timer);
  const stadium_hash view = stadium_view(c, memory.pointers());
  auto check_table = [&](int phase) {
    const auto host = memory.host_view();
    const stadium_hash hv = stadium_view(c, host.pointers);
    return phase == 0 ? check_built(hv, spec.pairs) : check_emptied(hv);
  };

  StadiumBenchResult r;
  r.buckets = stadium_buckets(c);
  std::vector<double> ms[4];
  for (uint32_t rep = 0; rep < std::max(spec.repeats, 1u); ++rep) {
    memory.clear();
    faults.zero();
    for (int phase = 0; phase < 4; ++phase) {
      if (phase == 2 && !spec.absent_lookups) continue;
      if (log) log->reset();
      double phase_ms = 0;
      for (uint64_t first = 0; first < spec.pairs; first += chunk) {
        const uint64_t n = std::min(chunk, spec.pairs - first);
        thrust::tabulate(thrust::device, ops.begin(), ops.begin() + n, bench_op{spec.pairs, phase, first});
        phase_ms += launch_stadium(view, c.kernel, thrust::raw_pointer_cast(ops.data()), static_cast<uint32_t>(n / per_team),
                                   c.ops_per_lane, stadium_switch_round(c, c.ops_per_lane), log.get(), ctx);
      }
      ms[phase].push_back(phase_ms);
      if (log && spec.keep_log && rep == 0) r.histories.push_back(log->to_history(c));
      if (rep == 0 && (phase == 0 || phase == 3)) {
        const auto bad = check_table(phase);
        r.invariant_violations.insert(r.invariant_violations.end(), bad.begin(), bad.end());
      }
    }
  }
  r.insert_ms = median(ms[0]);
  r.find_ms = median(ms[1]);
  r.find_half_ms = median(ms[2]);
  r.erase_ms = median(ms[3]);
  cuda_backend::device_faults f{};
  faults.to_host(&f);
  r.faults = f.count;
  return r;
}

double host_link_gbs(bool to_device) {
  const size_t bytes = size_t(256) << 20;
  MappedHostBuffer host(bytes);
  DeviceBuffer<char> dev(bytes);
  std::memset(host.host, 1, bytes);
  float best = 1e9f;
  for (int i = 0; i < 5; ++i)
    best = std::min(best, timed_launch([&] {
                      if (to_device) cudaMemcpyAsync(dev.p, host.host, bytes, cudaMemcpyHostToDevice);
                      else cudaMemcpyAsync(host.host, dev.p, bytes, cudaMemcpyDeviceToHost);
                    }));
  return double(bytes) / (best / 1e3) / 1e9;
}

}  // namespace warpcheck::gpu
