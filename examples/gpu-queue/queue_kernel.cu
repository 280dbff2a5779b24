// An existing CUDA kernel (every thread enqueues a value, then dequeues
// one, a few rounds) instrumented with warpcheck's drop-in recorder: the
// same kernel is compiled with and without recording, both are timed on the
// same queue, and the recorded run's history is written for
//   warpcheck check queue_history.bin
//
//   gpu_queue [--blocks B] [--threads T] [--rounds R] [--reps K] [--clock globaltimer|ticket] [--out FILE]
//
// Exits 77 (skipped) when there is no CUDA device, 3 on bad usage or a
// CUDA error, 2 when some operation gave up (the history then holds it
// pending), else 0.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <warpcheck/record.cuh>

#include "ms_queue.hpp"
#include "option_number.hpp"

using namespace warpcheck;

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// The kernel as it was, plus the recorder's calls around each operation,
// compiled in only when kRecord: begin before the operation's first shared
// access, end after its last. An operation that gave up is left begun (a
// pending operation: it may or may not have taken effect).
template <bool kRecord>
__global__ void queue_kernel(msq::queue q, uint32_t rounds, record::log_view log, uint32_t* gave_up) {
  const uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  for (uint32_t r = 0; r < rounds; ++r) {
    const int64_t value = int64_t(id) * rounds + r + 1;  // distinct values
    record::op_handle op;
    if constexpr (kRecord) op = log.begin(OpKind::Enqueue, value);
    if (q.enqueue(value, 1 + id * rounds + r) == msq::answer::gave_up) {
      atomicAdd(gave_up, 1u);
      return;
    }
    if constexpr (kRecord) log.end(op);

    if constexpr (kRecord) op = log.begin(OpKind::Dequeue);
    int64_t got = 0;
    const msq::answer a = q.dequeue(got);
    if (a == msq::answer::gave_up) {
      atomicAdd(gave_up, 1u);
      return;
    }
    if constexpr (kRecord) log.end(op, a == msq::answer::done ? ResultKind::Value : ResultKind::Absent, got);
  }
}

// Empty again: head and tail on the dummy, whose link is cleared.
__global__ void reset_queue(msq::queue q) {
  *q.head = 1;
  *q.tail = 1;
  q.nodes[0].next = 0;
}

struct Options {
  uint32_t blocks = 32, threads = 128, rounds = 4, reps = 5;
  core::clock_kind clock = core::clock_kind::global_timer;
  std::string out = "queue_history.bin";
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
    const std::string v = argv[++i];
    auto number = [&](uint32_t low, uint32_t high) { return option_number(a, v, low, high); };
    if (a == "--blocks") o.blocks = number(1, 1u << 16);
    else if (a == "--threads") o.threads = number(1, 1024);
    else if (a == "--rounds") o.rounds = number(1, 1u << 10);
    else if (a == "--reps") o.reps = number(1, 1000);
    else if (a == "--out") o.out = v;
    else if (a == "--clock" && (v == "globaltimer" || v == "ticket"))
      o.clock = v == "ticket" ? core::clock_kind::ticket : core::clock_kind::global_timer;
    else throw std::invalid_argument("unknown option " + a + " " + v);
  }
  if (uint64_t(o.blocks) * o.threads * o.rounds + 1 > (1u << 30))
    throw std::invalid_argument("more than 2^30 enqueues: the node pool would not fit");
  return o;
}

// Milliseconds of one launch; the queue is reset before it.
template <class Launch>
float timed(msq::queue q, Launch launch) {
  reset_queue<<<1, 1>>>(q);
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  check(cudaEventRecord(start), "cudaEventRecord");
  launch();
  check(cudaEventRecord(stop), "cudaEventRecord");
  check(cudaEventSynchronize(stop), "the queue kernel");
  check(cudaGetLastError(), "the queue kernel");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms;
}

float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu_queue: %s\n", e.what());
    return 3;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no CUDA device: gpu_queue runs on a GPU (it is built; run it there)\n");
    return 77;
  }
  try {
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    const uint64_t threads = uint64_t(o.blocks) * o.threads, operations = threads * o.rounds * 2;
    std::printf("device: %s; %u blocks x %u threads, %u enqueue+dequeue rounds: %llu operations a run, %u runs each\n",
                prop.name, o.blocks, o.threads, o.rounds, static_cast<unsigned long long>(operations), o.reps);

    const size_t pool = threads * o.rounds + 1;
    msq::node* nodes = nullptr;
    uint32_t *words = nullptr, *gave_up = nullptr;
    check(cudaMalloc(&nodes, pool * sizeof(msq::node)), "cudaMalloc");
    check(cudaMalloc(&words, 2 * sizeof(uint32_t)), "cudaMalloc");
    check(cudaMalloc(&gave_up, sizeof(uint32_t)), "cudaMalloc");
    check(cudaMemset(gave_up, 0, sizeof(uint32_t)), "cudaMemset");
    const msq::queue q{nodes, words, words + 1, 1u << 20};

    record::Settings s;
    s.model = "queue";
    s.team = record::team_kind::thread;
    s.teams = record::teams_for(s.team, dim3(o.blocks), dim3(o.threads));
    s.ops_per_team = 2 * o.rounds;
    s.clock = o.clock;
    s.config = "{\"example\":\"gpu-queue\",\"blocks\":" + std::to_string(o.blocks) +
               ",\"threads\":" + std::to_string(o.threads) + ",\"rounds\":" + std::to_string(o.rounds) + "}";
    record::Recorder recorder(s);

    // Interleaved, after a warm-up of each: the same queue, the same shape.
    timed(q, [&] { queue_kernel<false><<<o.blocks, o.threads>>>(q, o.rounds, record::log_view{}, gave_up); });
    timed(q, [&] { queue_kernel<true><<<o.blocks, o.threads>>>(q, o.rounds, recorder.view(), gave_up); });
    std::vector<float> off, on;
    for (uint32_t i = 0; i < o.reps; ++i) {
      off.push_back(timed(q, [&] { queue_kernel<false><<<o.blocks, o.threads>>>(q, o.rounds, record::log_view{}, gave_up); }));
      recorder.reset();  // the last recorded run is the one written
      on.push_back(timed(q, [&] { queue_kernel<true><<<o.blocks, o.threads>>>(q, o.rounds, recorder.view(), gave_up); }));
    }
    const double ms_off = median(off), ms_on = median(on);
    std::printf("without recording: %.3f ms (median), %.1f M operations/s\n", ms_off, operations / ms_off / 1e3);
    std::printf("with recording:    %.3f ms (median), %.1f M operations/s, clock %s\n", ms_on,
                operations / ms_on / 1e3, o.clock == core::clock_kind::ticket ? "ticket" : "globaltimer");
    std::printf("recording overhead: %+.1f%% (%.1f ns an operation, the whole grid's time shared out)\n",
                100.0 * (ms_on - ms_off) / ms_off, (ms_on - ms_off) * 1e6 / operations);

    uint32_t gave = 0;
    check(cudaMemcpy(&gave, gave_up, sizeof gave, cudaMemcpyDeviceToHost), "cudaMemcpy");
    const record::Summary sum = recorder.write(o.out);
    std::printf("recorded: %llu operations, %llu pending%s%s\n", static_cast<unsigned long long>(sum.operations),
                static_cast<unsigned long long>(sum.pending), sum.incomplete() ? "; " : "", sum.message.c_str());
    std::printf("wrote %s: check it with\n  warpcheck check %s\n", o.out.c_str(), o.out.c_str());
    cudaFree(nodes);
    cudaFree(words);
    cudaFree(gave_up);
    if (gave) {
      std::printf("%u operation(s) gave up after %u attempts (over all runs)\n", gave, q.max_attempts);
      return 2;
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu_queue: %s\n", e.what());
    return 3;
  }
}
