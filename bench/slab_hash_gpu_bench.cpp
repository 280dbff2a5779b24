// The slab hash on the GPU, the paper's benchmarks (IPDPS 2018, section VI):
// bulk build and bulk search (all present, none present) at memory
// utilizations from about 20% to 90%, and the concurrent mixes
// (insert, delete, search present, search absent) = (.5,.5,0,0),
// (.2,.2,.3,.3), (.1,.1,.4,.4), with recording off and on side by side.
// Every recorded run (all phases, one history) is checked, and the table's
// invariants are checked after each run. Prints markdown tables.
// Usage: slab_hash_gpu_bench [--quick]. Exits 77 when there is no GPU.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#include "linearizability/checker.hpp"
#include "stress/gpu/device_info.hpp"
#include "stress/recorder/recorded_history.hpp"
#include "stress/slab_hash/gpu.hpp"

using namespace warpcheck;

namespace {

double mops(uint64_t n, double ms) { return ms > 0 ? double(n) / ms / 1e3 : 0; }

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const gpu::DeviceInfo dev = gpu::device_info();
  if (!dev.present) {
    std::printf("SKIP: no CUDA device (%s): the slab hash benchmark needs one\n", dev.why_absent.c_str());
    return 77;
  }
  const double bw = gpu::copy_bandwidth_gbs();
  std::printf("device: %s, %d SMs; device-to-device copy %.0f GB/s (read + write)\n", dev.name.c_str(), dev.sms, bw);
  const uint64_t n = quick ? 1 << 16 : 1 << 22;
  const std::vector<double> betas = quick ? std::vector<double>{0.6, 2.0} : std::vector<double>{0.2, 0.5, 1.0, 2.0, 4.0};
  // The paper's K40c (288 GB/s) peaks, scaled by bandwidth.
  const double scale = bw / 288.0;
  std::printf("paper (K40c, 288 GB/s): 512 M updates/s, 937 M queries/s; scaled by %.1fx bandwidth: %.0f and %.0f\n", scale,
              512 * scale, 937 * scale);
  std::printf("bytes-moved floor: one 128-byte slab read per operation: %.0f M ops/s\n\n", bw * 1e9 / 128 / 1e6);

  std::printf("| beta | buckets | utilization | rec | build M/s | search present M/s | search absent M/s | mix .5/.5/0/0 | mix .2/.2/.3/.3 | mix .1/.1/.4/.4 | check |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  int bad = 0;
  for (double beta : betas) {
    for (bool record : {false, true}) {
      gpu::SlabHashBenchSpec spec;
      spec.elements = n;
      spec.slabs_per_bucket = beta;
      spec.record = record;
      spec.repeats = quick ? 1 : 3;
      const auto r = gpu::run_slab_hash_bench(spec);
      std::string verdict = "-";
      if (record) {
        HistoryMeta meta;
        meta.model = ModelId::Map;
        const auto t0 = std::chrono::steady_clock::now();
        const CheckResult cr = check_history(history_from_log(*r.log, meta));
        const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        verdict = std::string(verdict_name(cr.verdict)) + " (" + std::to_string(cr.operations) + " ops, " +
                  std::to_string(int(sec * 1000)) + " ms)";
        bad += cr.verdict != Verdict::Linearizable;  // an incomplete log (UNKNOWN) is a harness bug here
      }
      if (r.faults || !r.invariant_violations.empty()) {
        ++bad;
        verdict += " FAULTS " + std::to_string(r.faults) + " INVARIANTS " + std::to_string(r.invariant_violations.size()) +
                   (r.invariant_violations.empty() ? "" : ": " + r.invariant_violations[0]);
      }
      std::printf("| %.1f | %u | %.0f%% | %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %s |\n", beta, r.buckets,
                  100 * r.utilization, record ? "on" : "off", mops(n, r.build_ms), mops(n, r.search_present_ms),
                  mops(n, r.search_absent_ms), mops(n, r.mix_ms[0]), mops(n, r.mix_ms[1]), mops(n, r.mix_ms[2]),
                  verdict.c_str());
    }
  }
  std::printf("\nruns judged a violation, faulted or with broken invariants: %d\n", bad);
  return bad ? 1 : 0;
}
