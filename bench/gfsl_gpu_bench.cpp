// The GFSL skiplist on the GPU, the thesis' benchmark (chapter 5): 10M
// operations of the mixes [insert, delete, contains] = [1,1,98], [5,5,90],
// [10,10,80], [20,20,60] on key ranges 10K to 100M, half the range
// prefilled, 16 warps a block; recording off and on; this project's slab
// hash on the same workloads as the unordered ceiling; the thesis' GTX 970
// figure (65.7 M ops/s at [10,10,80], 1M keys) scaled by the ratio of peak
// memory bandwidths. Recorded histories of ranges up to 1M are checked and
// the quiescent invariants are checked there too (larger ones would take
// the host minutes). Prints one markdown table.
// Usage: gfsl_gpu_bench [--quick]. Exits 77 when there is no GPU.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "linearizability/checker.hpp"
#include "stress/gfsl/gpu.hpp"
#include "stress/gpu/device_info.hpp"
#include "stress/recorder/recorded_history.hpp"
#include "stress/slab_hash/gpu.hpp"

using namespace warpcheck;

namespace {

constexpr double kThesisMops = 65.7;   // GFSL-32, [10,10,80], 1M keys (thesis Table 5.1)
constexpr double kGtx970Gbs = 224.0;   // its peak memory bandwidth

struct Mix {
  uint32_t insert, erase;
};
const Mix kMixes[] = {{1, 1}, {5, 5}, {10, 10}, {20, 20}};

double mops(uint64_t n, double ms) { return ms > 0 ? double(n) / ms / 1e3 : 0; }

std::string checked(const HostLog& log) {
  HistoryMeta meta;
  meta.model = ModelId::Map;
  const auto t0 = std::chrono::steady_clock::now();
  const CheckResult r = check_history(history_from_log(log, meta));
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return std::string(verdict_name(r.verdict)) + " (" + std::to_string(r.operations) + " ops, " + std::to_string(int(s)) + " s)";
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const gpu::DeviceInfo dev = gpu::device_info();
  if (!dev.present) {
    std::printf("SKIP: no CUDA device (%s): the GFSL benchmark needs one\n", dev.why_absent.c_str());
    return 77;
  }
  const double scale = dev.peak_bandwidth_gbs / kGtx970Gbs;
  std::printf("device: %s, %d SMs, peak memory bandwidth %.0f GB/s (GTX 970: %.0f GB/s, ratio %.1fx)\n", dev.name.c_str(),
              dev.sms, dev.peak_bandwidth_gbs, kGtx970Gbs, scale);
  std::printf("thesis: GFSL-32 %.1f M ops/s at [10,10,80] on 1M keys; scaled by bandwidth: %.0f M ops/s\n\n", kThesisMops,
              kThesisMops * scale);

  const uint64_t operations = quick ? 1 << 16 : 10'000'000;
  const std::vector<uint64_t> ranges =
      quick ? std::vector<uint64_t>{10'000, 1'000'000} : std::vector<uint64_t>{10'000, 100'000, 1'000'000, 10'000'000, 100'000'000};
  std::printf("| mix [i,d,c] | key range | GFSL-32 M/s | GFSL-32 recorded M/s | recorded / off | slab hash M/s | GFSL / slab hash | chunks | height | check | invariants |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  int bad = 0;
  for (const Mix& mix : kMixes) {
    if (quick && mix.insert != 10) continue;
    for (uint64_t range : ranges) {
      gpu::GfslBenchSpec spec;
      spec.mix.range = range;
      spec.mix.operations = operations;
      spec.mix.insert = mix.insert;
      spec.mix.erase = mix.erase;
      const gpu::GfslBenchResult off = gpu::run_gfsl_bench(spec);
      spec.mix.record = true;
      const gpu::GfslBenchResult on = gpu::run_gfsl_bench(spec);
      spec.mix.record = false;
      const gpu::SlabHashMixResult slab = gpu::run_slab_hash_mix_bench(spec.mix);
      const bool small = range <= 1'000'000;
      std::string check = small ? checked(*on.times.log) : "-";
      std::string invariants = "-";
      if (small) {
        const auto violations = check_gfsl_invariants(gfsl_view(on.config, on.memory->pointers()));
        invariants = violations.empty() ? "hold" : "BROKEN: " + violations[0];
        bad += !violations.empty();
        bad += check.rfind("LINEARIZABLE", 0) != 0;
      }
      const uint64_t faults = off.times.faults + on.times.faults + slab.times.faults;
      if (faults || !slab.invariant_violations.empty()) {
        ++bad;
        invariants += " FAULTS " + std::to_string(faults) + " SLAB INVARIANTS " + std::to_string(slab.invariant_violations.size());
      }
      const double g = mops(operations, off.times.mix_ms), rec = mops(operations, on.times.mix_ms),
                   s = mops(operations, slab.times.mix_ms);
      std::printf("| [%u,%u,%u] | %llu | %.0f | %.0f | %.2fx | %.0f | %.2f | %u | %u | %s | %s |\n", mix.insert, mix.erase,
                  100 - mix.insert - mix.erase, static_cast<unsigned long long>(range), g, rec, g / rec, s, g / s,
                  off.chunks_used, off.height, check.c_str(), invariants.c_str());
      std::fflush(stdout);
    }
  }
  std::printf("\nruns judged a violation, faulted or with broken invariants: %d\n", bad);
  return bad ? 1 : 0;
}
