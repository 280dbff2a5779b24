// The GFSL skiplist on the GPU, the thesis' benchmark (chapter 5): 10M
// operations of the mixes [insert, delete, contains] = [1,1,98], [5,5,90],
// [10,10,80], [20,20,60] on key ranges 10K to 100M, half the range
// prefilled, 16 warps a block; recording off and on; this project's slab
// hash on the same workloads as the unordered ceiling; the thesis' GTX 970
// figure (65.7 M ops/s at [10,10,80], 1M keys) scaled by the ratio of peak
// memory bandwidths. Recorded histories of ranges up to 1M are checked and
// the quiescent invariants are checked there too (larger ones would take
// the host minutes). Prints one markdown table, and the first fault of
// every run that had one.
// Usage: gfsl_gpu_bench [--quick] [--mixes 1,5,10,20] [--ranges 10000,...]
//                       [--repeat N] [--validation-tries N] [--no-check]
//                       [--fresh-inserts] [--phases] [--off-only] [--backoff-cap NS]
//   (--mixes: their insert percents; N runs a row; the GFSL's validated
//   absent tries before a read under the lock; no history checked;
//   MixBenchSpec's other workloads, for the public B-Trees' contracts
//   (bench/ext/btree_bench.cu): every insert a new key, the mix as three
//   launches of one kind each (either implies the next: recording off
//   only, no slab hash); a spin's
//   longest back-off, cuda_backend::device_context::backoff_cap_ns, here
//   4096 unless given: 256 is the team layer's default)
// Besides the table, a line a row for the joins (bench/gfsl_vs_btree.sh):
//   ROW impl=gfsl contract=concurrent|phases workload=uniform|fresh mix=i,d,c range=N ops=N mops=M ms=T backoff=NS
// Exits 77 when there is no GPU.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_args.hpp"
#include "linearizability/checker.hpp"
#include "stress/gfsl/gpu.hpp"
#include "stress/gpu/device_info.hpp"
#include "stress/harness/seed_runs.hpp"
#include "stress/recorder/recorded_history.hpp"
#include "stress/slab_hash/gpu.hpp"
#include "structures/gfsl/gfsl_invariants.hpp"

using namespace warpcheck;

namespace {

constexpr double kThesisMops = 65.7;   // GFSL-32, [10,10,80], 1M keys (thesis Table 5.1)
constexpr double kGtx970Gbs = 224.0;   // its peak memory bandwidth

struct Mix {
  uint32_t insert, erase;
};
const Mix kMixes[] = {{1, 1}, {5, 5}, {10, 10}, {20, 20}};

double mops(uint64_t n, double ms) { return ms > 0 ? double(n) / ms / 1e3 : 0; }

bool listed(const std::vector<uint64_t>& only, uint64_t v) {
  return only.empty() || std::find(only.begin(), only.end(), v) != only.end();
}

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
  bool quick = false;
  std::vector<uint64_t> only_mixes, only_ranges;
  uint64_t repeat = 1;
  bool check_histories = true, off_only = false;
  gpu::GfslBenchSpec base;
  // A spin's longest back-off: 4,096 ns, not the team layer's flat 256. On
  // 10K keys the lock herds retry less (an H200, issue 32: [10,10,80] 43 ->
  // 155 M ops/s, [20,20,60] 31 -> 81; 100K and 1M unchanged within 5%).
  base.mix.backoff_cap_ns = 4096;
  auto usage = [] {
    std::fprintf(stderr, "usage: gfsl_gpu_bench [--quick] [--mixes 1,5,10,20] [--ranges 10000,...] [--repeat N] "
                         "[--validation-tries N] [--no-check] [--fresh-inserts] [--phases] [--off-only] [--backoff-cap NS]\n");
    return 2;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--quick") {
      quick = true;
    } else if (flag == "--no-check") {
      check_histories = false;
    } else if (flag == "--fresh-inserts") {
      base.mix.fresh_inserts = true;
    } else if (flag == "--phases") {
      base.mix.phases = true;
    } else if (flag == "--off-only") {
      off_only = true;
    } else if (i + 1 < argc && (flag == "--mixes" || flag == "--ranges")) {
      auto& only = flag == "--mixes" ? only_mixes : only_ranges;
      if ((only = bench::whole_numbers(argv[++i], ',')).empty()) return usage();
    } else if (i + 1 < argc && (flag == "--repeat" || flag == "--validation-tries" || flag == "--backoff-cap")) {
      const auto n = bench::whole_number(argv[++i], UINT32_MAX);
      if (!n) return usage();
      if (flag == "--repeat") repeat = std::max<uint64_t>(1, *n);
      else if (flag == "--backoff-cap") base.mix.backoff_cap_ns = uint32_t(*n);
      else base.validation_tries = uint32_t(*n);
    } else {
      return usage();
    }
  }
  // The other workloads are for the B-Tree comparisons: recording off,
  // no slab hash (--off-only), whether asked for or not.
  off_only = off_only || base.mix.fresh_inserts || base.mix.phases;
  const gpu::DeviceInfo dev = gpu::device_info();
  if (!dev.present) {
    std::printf("SKIP: no CUDA device (%s): the GFSL benchmark needs one\n", dev.why_absent.c_str());
    return 77;
  }
  const double scale = dev.peak_bandwidth_gbs / kGtx970Gbs;
  std::printf("device: %s, %d SMs, peak memory bandwidth %.0f GB/s (GTX 970: %.0f GB/s, ratio %.1fx)\n", dev.name.c_str(),
              dev.sms, dev.peak_bandwidth_gbs, kGtx970Gbs, scale);
  std::printf("thesis: GFSL-32 %.1f M ops/s at [10,10,80] on 1M keys; scaled by bandwidth: %.0f M ops/s\n", kThesisMops,
              kThesisMops * scale);
  std::printf("a spin's longest back-off: %u ns\n\n", base.mix.backoff_cap_ns);

  const uint64_t operations = quick ? 1 << 16 : 10'000'000;
  const std::vector<uint64_t> ranges =
      quick ? std::vector<uint64_t>{10'000, 1'000'000} : std::vector<uint64_t>{10'000, 100'000, 1'000'000, 10'000'000, 100'000'000};
  if (!off_only) {  // --off-only prints the ROW lines alone
    std::printf("| mix [i,d,c] | key range | GFSL-32 M/s | GFSL-32 recorded M/s | recorded / off | slab hash M/s | GFSL / slab hash | chunks | height | check | invariants | row s |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  }
  int bad = 0;
  std::vector<std::string> faults;
  for (const Mix& mix : kMixes) {
    if ((quick && mix.insert != 10) || !listed(only_mixes, mix.insert)) continue;
    for (uint64_t range : ranges)
    for (uint64_t rep = 0; rep < repeat; ++rep) {
      if (!listed(only_ranges, range)) continue;
      const auto row_start = std::chrono::steady_clock::now();
      gpu::GfslBenchSpec spec = base;
      spec.mix.range = range;
      spec.mix.operations = operations;
      spec.mix.insert = mix.insert;
      spec.mix.erase = mix.erase;
      const gpu::GfslBenchResult off = gpu::run_gfsl_bench(spec);
      char row[64];
      std::snprintf(row, sizeof row, "[%u,%u] %llu: ", mix.insert, mix.erase, static_cast<unsigned long long>(range));
      auto note_faults = [&](const char* what, const gpu::GfslBenchResult& run) {
        if (run.times.faults)
          faults.push_back(row + std::string("GFSL, recording ") + what + ": " +
                           describe_gpu_faults(run.times.first_fault, run.memory->layout(), run.device_bases, "warp"));
      };
      note_faults("off", off);
      const double g = mops(operations, off.times.mix_ms);
      std::printf("ROW impl=gfsl contract=%s workload=%s mix=%u,%u,%u range=%llu ops=%llu mops=%.1f ms=%.4f backoff=%u faults=%llu\n",
                  spec.mix.phases ? "phases" : "concurrent", spec.mix.fresh_inserts ? "fresh" : "uniform", mix.insert, mix.erase,
                  100 - mix.insert - mix.erase, static_cast<unsigned long long>(range),
                  static_cast<unsigned long long>(operations), g, off.times.mix_ms, spec.mix.backoff_cap_ns,
                  static_cast<unsigned long long>(off.times.faults));
      if (off_only) {
        bad += off.times.faults != 0;
        continue;
      }
      spec.mix.record = true;
      const gpu::GfslBenchResult on = gpu::run_gfsl_bench(spec);
      spec.mix.record = false;
      const gpu::SlabHashMixResult slab = gpu::run_slab_hash_mix_bench(spec.mix);
      const bool small = check_histories && range <= 1'000'000;
      std::string check = small ? checked(*on.times.log) : "-";
      std::string invariants = "-";
      if (small) {
        const auto violations = structures::gfsl_invariants(gfsl_view(on.config, on.memory->pointers()));
        invariants = violations.empty() ? "hold" : "BROKEN: " + violations[0];
        bad += !violations.empty();
        bad += check.rfind("LINEARIZABLE", 0) != 0;
      }
      const uint64_t fault_count = off.times.faults + on.times.faults + slab.times.faults;
      if (fault_count || !slab.invariant_violations.empty()) {
        ++bad;
        invariants += " FAULTS " + std::to_string(fault_count) + " SLAB INVARIANTS " + std::to_string(slab.invariant_violations.size());
      }
      note_faults("on", on);
      if (slab.times.faults) faults.push_back(row + std::string("slab hash: ") + describe_gpu_faults(slab.times.first_fault, {}, {}, "warp"));
      const double rec = mops(operations, on.times.mix_ms), s = mops(operations, slab.times.mix_ms);
      const double row_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - row_start).count();
      std::printf("| [%u,%u,%u] | %llu | %.0f | %.0f | %.2fx | %.0f | %.2f | %u | %u | %s | %s | %.0f |\n", mix.insert, mix.erase,
                  100 - mix.insert - mix.erase, static_cast<unsigned long long>(range), g, rec, g / rec, s, g / s,
                  off.chunks_used, off.height, check.c_str(), invariants.c_str(), row_s);
      std::fflush(stdout);
    }
  }
  for (const std::string& f : faults) std::printf("fault: %s\n", f.c_str());
  std::printf("\nruns judged a violation, faulted or with broken invariants: %d\n", bad);
  return bad ? 1 : 0;
}
