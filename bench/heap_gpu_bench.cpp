// The generalized heap on the GPU, the paper's benchmarks (section 5):
//  1. Table 1: N keys (random, descending, ascending) pushed in full batches
//     by 128 blocks of 512 threads (k = 1024), then popped; both variants
//     as printed and corrected; std::priority_queue on this machine's CPU
//     on the same keys, side by side. After each run the heap must be empty
//     with its invariants intact.
//  2. Recording: the random run with the recorder off and on; a smaller
//     recorded run checked (linearizability, the proof's points, invariants).
//  3. Fig. 15: heaps prefilled to 2^6, 2^10, 2^14 nodes, then push-pop pairs
//     from every block at once, the corrected variants (the paper's
//     deadlock there, F2 and B1: `warpcheck stress --backend gpu` shows it).
// Usage: heap_gpu_bench [--quick] [--keys N] [--table1-only]
//   [--orders random,ascending,descending] [--cpu on|off] [--spin-bound N]
//   (--table1-only: the first table alone, e.g. at the paper's 2^29 keys;
//   --cpu off: without std::priority_queue, minutes at that size;
//   --spin-bound: backed-off spins before a wait is a fault, default 2^24,
//   about 8.6 s on an H200 (issue 32): a larger bound tells starvation
//   from deadlock).
// The first fault of every run that had one is printed after the tables.
// Exits 77 without a GPU, 2 on a bad argument.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <queue>
#include <string>

#include "bench/bench_args.hpp"
#include "linearizability/checker.hpp"
#include "stress/gpu/device_info.hpp"
#include "stress/recorder/recorded_history.hpp"
#include "stress/harness/seed_runs.hpp"
#include "stress/heap/gpu.hpp"

using namespace warpcheck;
using structures::heap_keys;

namespace {

struct Variant {
  const char* name;
  structures::heap_variant variant;
  uint32_t fixes;
};
const Variant kVariants[] = {
    {"td (paper)", structures::heap_variant::td, 0},
    {"bu (paper)", structures::heap_variant::bu, 0},
    {"td-fixed", structures::heap_variant::td, structures::heap_fix::td_fixed},
    {"bu-fixed", structures::heap_variant::bu, structures::heap_fix::bu_fixed},
};
const char* kOrders[] = {"random", "ascending", "descending"};

gpu::HeapBenchSpec spec_for(const Variant& v, uint32_t blocks, uint32_t threads, uint32_t k) {
  gpu::HeapBenchSpec s;
  s.variant = v.variant;
  s.fixes = v.fixes;
  s.blocks = blocks;
  s.threads = threads;
  s.k = k;
  return s;
}

// Invariants of the heap left by a run (empty when every key was popped).
std::string judge_memory(const gpu::HeapBenchResult& r, const History& h) {
  const auto bad = check_heap_invariants(heap_view(r.config, r.memory->pointers()), h);
  return bad.empty() ? "ok" : bad[0];
}

// std::priority_queue (a min-heap) on the same keys, one CPU core: push all, pop all.
double cpu_priority_queue_ms(const gpu::HeapBenchSpec& s) {
  HeapConfig c;
  c.teams = s.blocks;
  c.k = s.k;
  c.narrow_keys = 0x7FFFFFFF;
  c.ops_per_team = static_cast<uint32_t>(s.keys / s.k / s.blocks);
  heap_keys keys = heap_key_source(c);
  keys.order = s.order;
  keys.teams = s.blocks;
  keys.per_team = c.ops_per_team;
  std::vector<uint32_t> in;
  in.reserve(s.keys);
  // The GPU's push order: every block's i-th push at about the same time.
  for (uint64_t i = 0; i < c.ops_per_team; ++i)
    for (uint64_t b = 0; b < s.blocks; ++b) {
      const uint64_t slot = b * c.ops_per_team + i;
      for (uint32_t j = 0; j < s.k; ++j) in.push_back(keys(slot, int64_t(slot) + 1, j));
    }
  const auto t0 = std::chrono::steady_clock::now();
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> q;
  for (uint32_t v : in) q.push(v);
  uint64_t sum = 0;
  while (!q.empty()) {
    sum += q.top();
    q.pop();
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (sum == 42) std::printf(" ");  // keep the pops
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, table1_only = false, cpu = true;
  uint64_t n = uint64_t(1) << 26, spin_bound = gpu::HeapBenchSpec{}.spin_bound;
  bool orders[3] = {true, true, true};
  auto usage = [] {
    std::fprintf(stderr, "usage: heap_gpu_bench [--quick] [--keys N] [--table1-only] [--orders random,ascending,descending] "
                         "[--cpu on|off] [--spin-bound N]\n");
    return 2;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      quick = true;
    } else if (a == "--table1-only") {
      table1_only = true;
    } else if (a == "--keys" && i + 1 < argc) {
      const auto v = bench::whole_number(argv[++i], uint64_t(1) << 32);
      if (!v || *v == 0) return usage();
      n = *v;
    } else if (a == "--spin-bound" && i + 1 < argc) {
      const auto v = bench::whole_number(argv[++i], uint64_t(1) << 40);
      if (!v || *v == 0) return usage();
      spin_bound = *v;
    } else if (a == "--cpu" && i + 1 < argc) {
      const std::string v = argv[++i];
      if (v != "on" && v != "off") return usage();
      cpu = v == "on";
    } else if (a == "--orders" && i + 1 < argc) {
      const std::string v = std::string(",") + argv[++i] + ",";
      for (int o = 0; o < 3; ++o) orders[o] = v.find(std::string(",") + kOrders[o] + ",") != std::string::npos;
      size_t named = 0;
      for (int o = 0; o < 3; ++o) named += orders[o] ? std::strlen(kOrders[o]) + 1 : 0;
      if (named + 1 != v.size()) return usage();  // a name that is not an order
    } else {
      return usage();
    }
  }
  auto spec_of = [spin_bound](const Variant& v, uint32_t b, uint32_t t, uint32_t kk) {
    gpu::HeapBenchSpec s = spec_for(v, b, t, kk);
    s.spin_bound = spin_bound;
    return s;
  };
  std::vector<std::string> faults;  // each faulted run's first fault, printed at the end
  auto note_faults = [&faults](const std::string& run, const gpu::HeapBenchResult& r) {
    if (r.faults) faults.push_back(run + ": " + describe_gpu_faults(r.first_fault, r.memory->layout(), r.device_bases, "block"));
  };
  const gpu::DeviceInfo dev = gpu::device_info();
  if (!dev.present) {
    std::printf("SKIP: no CUDA device (%s): the heap benchmark needs one\n", dev.why_absent.c_str());
    return 77;
  }
  if (quick) n = uint64_t(1) << 20;
  const uint32_t blocks = 128, threads = quick ? 128 : 512, k = quick ? 256 : 1024;
  std::printf("device: %s, %d SMs; %u blocks x %u threads, k = %u\n\n", dev.name.c_str(), dev.sms, blocks, threads, k);
  int bad = 0;

  std::printf("## Table 1: %llu keys pushed, then popped (ms)\n\n", (unsigned long long)n);
  std::printf("| variant | keys | insert | delete | total | heap after | faults |\n|---|---|---|---|---|---|---|\n");
  History empty;
  empty.meta.model = ModelId::PriorityQueue;
  for (int order = 0; order < 3; ++order) {
    if (!orders[order]) continue;
    for (const Variant& v : kVariants) {
      gpu::HeapBenchSpec s = spec_of(v, blocks, threads, k);
      s.keys = n;
      s.order = heap_keys::order_kind(order);
      auto r = gpu::run_heap_bench(s);
      note_faults(std::string("Table 1, ") + v.name + ", " + kOrders[order], r);
      const std::string after = judge_memory(r, empty);
      if (v.fixes) bad += after != "ok" || r.faults;  // the paper's variants: findings, reported
      std::printf("| %s | %s | %.1f | %.1f | %.1f | %s | %llu |\n", v.name, kOrders[order], r.insert_ms, r.delete_ms,
                  r.insert_ms + r.delete_ms, after.c_str(), (unsigned long long)r.faults);
    }
    gpu::HeapBenchSpec same = spec_of(kVariants[0], blocks, threads, k);  // the keys the variants pushed
    same.keys = n;
    same.order = heap_keys::order_kind(order);
    if (cpu) std::printf("| std::priority_queue (1 CPU core) | %s | | | %.1f | | |\n", kOrders[order], cpu_priority_queue_ms(same));
  }
  auto finish = [&bad, &faults] {
    for (const std::string& f : faults) std::printf("fault: %s\n", f.c_str());
    std::printf("\nruns of the corrected variants judged wrong (faults, broken invariants, violations): %d\n", bad);
    return bad ? 1 : 0;
  };
  if (table1_only) return finish();

  std::printf("\n## Recording (random keys): off and on, then a recorded run checked\n\n");
  std::printf("| variant | keys | rec | insert | delete | check |\n|---|---|---|---|---|---|\n");
  for (const Variant& v : kVariants) {
    for (bool record : {false, true}) {
      gpu::HeapBenchSpec s = spec_of(v, blocks, threads, k);
      s.keys = quick ? n : n / 4;
      s.record = record;
      auto r = gpu::run_heap_bench(s);
      note_faults(std::string("recording ") + (record ? "on, " : "off, ") + v.name, r);
      if (v.fixes) bad += r.faults != 0;
      std::printf("| %s | %llu | %s | %.1f | %.1f | %s |\n", v.name, (unsigned long long)s.keys, record ? "on" : "off",
                  r.insert_ms, r.delete_ms, r.faults ? "FAULTS" : "-");
    }
    // Small enough for the checker's sorted-vector state (pushes cost O(size)).
    gpu::HeapBenchSpec s = spec_of(v, blocks, 128, 256);
    s.keys = uint64_t(1) << 17;
    s.record = true;
    auto r = gpu::run_heap_bench(s);
    note_faults(std::string("recorded and checked, ") + v.name, r);
    HistoryMeta meta;
    meta.model = ModelId::PriorityQueue;
    const History h = history_from_log(*r.log, meta);
    const auto t0 = std::chrono::steady_clock::now();
    const CheckResult cr = check_history(h);
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::string after = judge_memory(r, h);
    const bool points = cr.hint_replay && cr.hint_replay->outcome == HintReplay::Outcome::Explained;
    if (v.fixes) bad += cr.verdict != Verdict::Linearizable || after != "ok";
    std::printf("| %s | %llu (k 256) | on, checked | %.1f | %.1f | %s in %.1f s; proof's points %s; invariants %s |\n", v.name,
                (unsigned long long)s.keys, r.insert_ms, r.delete_ms, std::string(verdict_name(cr.verdict)).c_str(), sec,
                points ? "hold" : "NOT explained", after.c_str());
  }

  std::printf("\n## Fig. 15: prefilled heaps, then push-pop pairs from every block at once\n\n");
  std::printf("| variant | prefill nodes | pairs | ms | us a pair | faults | heap after |\n|---|---|---|---|---|---|---|\n");
  const uint32_t pairs = quick ? 16 : 256;
  for (uint32_t levels : quick ? std::vector<uint32_t>{6} : std::vector<uint32_t>{6, 10, 14}) {
    for (const Variant& v : kVariants) {
      if (v.fixes == 0) continue;
      gpu::HeapBenchSpec s = spec_of(v, blocks, threads, k);
      s.prefill_nodes = 1u << levels;
      s.pairs_per_block = pairs;
      auto r = gpu::run_heap_bench(s);
      note_faults(std::string("Fig. 15, ") + v.name + ", 2^" + std::to_string(levels), r);
      // Not recorded, so the keys it should hold are unknown: the structure only.
      History unknown;
      unknown.meta.model = ModelId::PriorityQueue;
      unknown.meta.incomplete = true;
      const std::string after = r.faults ? "-" : judge_memory(r, unknown).substr(0, 60);
      bad += r.faults != 0 || after != "ok";
      std::printf("| %s | 2^%u | %u x %u | %.1f | %.2f | %llu | %s |\n", v.name, levels, blocks, pairs, r.pairs_ms,
                  1000 * r.pairs_ms / (double(blocks) * pairs), (unsigned long long)r.faults, after.c_str());
    }
  }
  return finish();
}
