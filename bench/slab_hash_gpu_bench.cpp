// The slab hash on the GPU, the paper's benchmarks (IPDPS 2018, section VI):
// bulk build and bulk search (all present, none present) at memory
// utilizations from about 20% to 90%, and the concurrent mixes
// (insert, delete, search present, search absent) = (.5,.5,0,0),
// (.2,.2,.3,.3), (.1,.1,.4,.4), on the operations of stress/slab_hash/
// bench_ops.hpp (the public SlabHash comparison runs the same ones,
// bench/ext/slab_hash_public_bench.cu). Every recorded run (all phases of
// one table, one history) is checked, and the table's invariants after
// the last table. Prints a markdown table, and one machine-readable line
// a measurement for bench/slab_hash_compare.sh:
//   ROW impl=ours driver=D mode=M record=R per_lane=K [regs=free] [fixed=off] [kernels=shared] [tile=16|none] [block=N] [guard=off] [guard-order=acquire] beta=B buckets=N
//       util=U phase=P mops=X ms=T
//   CHECK impl=ours driver=D mode=M record=R per_lane=K [...] beta=B verdict=V ops=N check_s=S
// Usage: slab_hash_gpu_bench [--quick] [--elements N] [--betas 0.2,0.5,...]
//   [--drivers generic,bulk] [--modes map,multimap] [--records off,op,batch]
//   [--per-lane K] [--block N] [--regs 32|free] [--fixed on|off] [--kernels phase|shared] [--tile 8|16|none] [--guard on|off] [--guard-order fence|acquire] [--repeats R] [--warmup W] [--invariants on|off]
// Every combination of the lists runs (per-batch recording only with the
// bulk driver). Defaults: the earlier table (generic driver, map, off and
// per-operation recording, betas 0.2 to 4); --quick: 2^16 keys, every
// driver, mode and recording. Exits 77 when there is no GPU.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/bench_args.hpp"
#include "linearizability/checker.hpp"
#include "stress/gpu/device_info.hpp"
#include "stress/recorder/recorded_history.hpp"
#include "stress/slab_hash/bench_ops.hpp"
#include "stress/slab_hash/gpu.hpp"

using namespace warpcheck;

namespace {

double mops(uint64_t n, double ms) { return ms > 0 ? double(n) / ms / 1e3 : 0; }

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  size_t at = 0;
  for (;;) {
    const size_t comma = s.find(',', at);
    out.push_back(s.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
    if (comma == std::string::npos) return out;
    at = comma + 1;
  }
}

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "error: %s\nusage: slab_hash_gpu_bench [--quick] [--elements N] [--betas 0.2,0.5,...] [--drivers generic,bulk]\n"
               "  [--modes map,multimap] [--records off,op,batch] [--per-lane 1|2] [--block N] [--repeats R] [--warmup W]\n"
               "  [--regs 32|free] [--fixed on|off] [--kernels phase|shared] [--tile 8|16|none] [--guard on|off] [--guard-order fence|acquire] [--invariants on|off]\n",
               why);
  std::exit(2);
}

const char* record_name(gpu::SlabBenchRecord r) {
  return r == gpu::SlabBenchRecord::off ? "off" : r == gpu::SlabBenchRecord::per_op ? "op" : "batch";
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  uint64_t n = uint64_t(1) << 22;
  std::vector<double> betas{0.2, 0.5, 1.0, 2.0, 4.0};
  std::vector<gpu::SlabBenchDriver> drivers{gpu::SlabBenchDriver::generic};
  std::vector<structures::slab_hash_mode> modes{structures::slab_hash_mode::map};
  std::vector<gpu::SlabBenchRecord> records{gpu::SlabBenchRecord::off, gpu::SlabBenchRecord::per_op};
  uint32_t per_lane = 1, block = 128, repeats = 3, warmup = 1;
  bool invariants = true, betas_given = false, repeats_given = false, bounded = true, fixed = true, lists_given = false,
       phase_kernels = true;
  uint32_t tile = 8;
  bool guard = true;  // off: the multimap's mixes without the delete guard (what it costs; every fix but delete_guard)
  // The guard's read side, as stress runs name it (--guard-order,
  // slab_guard_order): a fence after relaxed slab loads, or acquire loads.
  std::string guard_order = "fence";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage((a + " needs a value").c_str());
      return argv[++i];
    };
    if (a == "--quick") {
      quick = true;
    } else if (a == "--elements") {
      const auto v = bench::whole_number(value(), warpcheck::gpu::slab_bench::kMaxElements);
      if (!v || *v == 0 || *v % 256) usage("--elements takes a multiple of 256 up to 2^27");
      n = *v;
    } else if (a == "--betas") {
      betas.clear();
      for (const std::string& b : split(value())) {
        char* end = nullptr;
        const double x = std::strtod(b.c_str(), &end);
        if (b.empty() || *end || !(x > 0) || x > 1000) usage("--betas takes positive numbers, comma-separated");
        betas.push_back(x);
      }
      betas_given = true;
    } else if (a == "--drivers") {
      lists_given = true;
      drivers.clear();
      for (const std::string& d : split(value())) {
        if (d == "generic") drivers.push_back(gpu::SlabBenchDriver::generic);
        else if (d == "bulk") drivers.push_back(gpu::SlabBenchDriver::bulk);
        else usage("--drivers takes generic and bulk");
      }
    } else if (a == "--modes") {
      lists_given = true;
      modes.clear();
      for (const std::string& m : split(value())) {
        if (m == "map") modes.push_back(structures::slab_hash_mode::map);
        else if (m == "multimap") modes.push_back(structures::slab_hash_mode::multimap);
        else usage("--modes takes map and multimap");
      }
    } else if (a == "--records") {
      lists_given = true;
      records.clear();
      for (const std::string& r : split(value())) {
        if (r == "off") records.push_back(gpu::SlabBenchRecord::off);
        else if (r == "op") records.push_back(gpu::SlabBenchRecord::per_op);
        else if (r == "batch") records.push_back(gpu::SlabBenchRecord::per_batch);
        else usage("--records takes off, op and batch");
      }
    } else if (a == "--per-lane") {
      const auto v = bench::whole_number(value(), 2);
      if (!v || (*v != 1 && *v != 2)) usage("--per-lane takes 1 or 2");
      per_lane = static_cast<uint32_t>(*v);
    } else if (a == "--block") {
      const auto v = bench::whole_number(value(), 256);
      if (!v || *v == 0 || *v % 32) usage("--block takes a multiple of 32 up to 256");
      block = static_cast<uint32_t>(*v);
    } else if (a == "--repeats") {
      const auto v = bench::whole_number(value(), 1000);
      if (!v || *v == 0) usage("--repeats takes 1 to 1000");
      repeats = static_cast<uint32_t>(*v);
      repeats_given = true;
    } else if (a == "--warmup") {
      const auto v = bench::whole_number(value(), 100);
      if (!v) usage("--warmup takes 0 to 100");
      warmup = static_cast<uint32_t>(*v);
    } else if (a == "--fixed") {
      const std::string v = value();
      if (v != "on" && v != "off") usage("--fixed takes on or off");
      fixed = v == "on";
    } else if (a == "--kernels") {
      const std::string v = value();
      if (v != "phase" && v != "shared") usage("--kernels takes phase or shared");
      phase_kernels = v == "phase";
    } else if (a == "--tile") {
      const std::string v = value();
      if (v != "8" && v != "16" && v != "none") usage("--tile takes 8, 16 or none");
      tile = v == "none" ? 0 : static_cast<uint32_t>(std::stoul(v));
    } else if (a == "--guard") {
      const std::string v = value();
      if (v != "on" && v != "off") usage("--guard takes on or off");
      guard = v == "on";
    } else if (a == "--guard-order") {
      const std::string v = value();
      if (v != "fence" && v != "acquire") usage("--guard-order takes fence or acquire");
      guard_order = v;
    } else if (a == "--regs") {
      const std::string v = value();
      if (v != "32" && v != "free") usage("--regs takes 32 or free");
      bounded = v == "32";
    } else if (a == "--invariants") {
      const std::string v = value();
      if (v != "on" && v != "off") usage("--invariants takes on or off");
      invariants = v == "on";
    } else {
      usage(("unknown argument " + a).c_str());
    }
  }
  if (quick) {
    n = 1 << 16;
    if (!lists_given) {  // every path, small
      drivers = {gpu::SlabBenchDriver::generic, gpu::SlabBenchDriver::bulk};
      modes = {structures::slab_hash_mode::map, structures::slab_hash_mode::multimap};
      records = {gpu::SlabBenchRecord::off, gpu::SlabBenchRecord::per_op, gpu::SlabBenchRecord::per_batch};
    }
    if (!betas_given) betas = {0.6, 2.0};
    if (!repeats_given) repeats = 1;
  }
  const gpu::DeviceInfo dev = gpu::device_info();
  if (!dev.present) {
    std::printf("SKIP: no CUDA device (%s): the slab hash benchmark needs one\n", dev.why_absent.c_str());
    return 77;
  }
  const double bw = gpu::copy_bandwidth_gbs();
  std::printf("device: %s, %d SMs; device-to-device copy %.0f GB/s (read + write)\n", dev.name.c_str(), dev.sms, bw);
  // The paper's K40c (288 GB/s) peaks, scaled by bandwidth.
  const double scale = bw / 288.0;
  std::printf("paper (K40c, 288 GB/s): 512 M updates/s, 937 M queries/s; scaled by %.1fx bandwidth: %.0f and %.0f\n", scale,
              512 * scale, 937 * scale);
  std::printf("bytes-moved floor: one 128-byte slab read per operation: %.0f M ops/s\n", bw * 1e9 / 128 / 1e6);
  std::printf("%llu keys; median of %u tables after %u warm-up; bulk: %u operations a lane, %u threads a block, %s registers, mode %s\n\n",
              (unsigned long long)n, repeats, warmup, per_lane, block, bounded ? "at most 32" : "free",
              fixed ? "fixed at compile time" : "read at run time");

  std::printf("| driver | mode | beta | buckets | utilization | rec | build M/s | search present M/s | search absent M/s | "
              "mix .5/.5/0/0 | mix .2/.2/.3/.3 | mix .1/.1/.4/.4 | check |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::fflush(stdout);
  int bad = 0;
  for (double beta : betas) {
    for (const auto mode : modes) {
      for (const auto driver : drivers) {
        for (const auto record : records) {
          if (record == gpu::SlabBenchRecord::per_batch && driver != gpu::SlabBenchDriver::bulk) continue;
          gpu::SlabHashBenchSpec spec;
          spec.elements = n;
          spec.slabs_per_bucket = beta;
          spec.record = record;
          spec.repeats = repeats;
          spec.warmup = warmup;
          spec.driver = driver;
          spec.mode = mode;
          spec.per_lane = per_lane;
          spec.block = block;
          spec.bounded_registers = bounded;
          spec.fixed_mode = fixed;
          spec.phase_kernels = phase_kernels;
          spec.tile = tile;
          spec.unguarded = !guard;
          spec.guard_order = guard_order == "acquire" ? structures::slab_guard_order::acquire : structures::slab_guard_order::fence;
          spec.invariants = invariants;
          const bool bulk = driver == gpu::SlabBenchDriver::bulk;
          const char* driver_name = bulk ? "bulk" : "generic";
          const char* mode_name = mode == structures::slab_hash_mode::map ? "map" : "multimap";
          const uint32_t k = bulk ? per_lane : 1;
          // The bulk driver's settings other than the defaults, for the join (bench/slab_hash_compare.sh).
          std::string variant;
          if (bulk && !bounded) variant += " regs=free";
          if (bulk && !fixed) variant += " fixed=off";
          if (bulk && fixed && !phase_kernels) variant += " kernels=shared";
          if (bulk && fixed && tile != 8) variant += tile ? " tile=" + std::to_string(tile) : std::string(" tile=none");
          if (bulk && block != 128) variant += " block=" + std::to_string(block);
          if (!guard) variant += " guard=off";
          if (guard_order != "fence") variant += " guard-order=" + guard_order;
          gpu::SlabHashBenchResult r;
          try {
            r = gpu::run_slab_hash_bench(spec);
          } catch (const std::exception& e) {
            std::printf("ERROR driver=%s mode=%s record=%s beta=%.2f: %s\n", driver_name, mode_name, record_name(record), beta,
                        e.what());
            ++bad;
            continue;
          }
          std::string verdict = "-";
          if (record != gpu::SlabBenchRecord::off) {
            HistoryMeta meta;
            meta.model = mode == structures::slab_hash_mode::map ? ModelId::Map : ModelId::Multimap;
            const auto t0 = std::chrono::steady_clock::now();
            const CheckResult cr = check_history(history_from_log(*r.log, meta));
            const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            verdict = std::string(verdict_name(cr.verdict)) + " (" + std::to_string(cr.operations) + " ops, " +
                      std::to_string(int(sec * 1000)) + " ms)";
            std::printf("CHECK impl=ours driver=%s mode=%s record=%s per_lane=%u%s beta=%.2f verdict=%s ops=%llu check_s=%.2f\n",
                        driver_name, mode_name, record_name(record), k, variant.c_str(), beta,
                        std::string(verdict_name(cr.verdict)).c_str(), (unsigned long long)cr.operations, sec);
            bad += cr.verdict != Verdict::Linearizable;  // an incomplete log (UNKNOWN) is a harness bug here
          }
          if (r.faults || !r.invariant_violations.empty() || r.wrong_answers) {
            ++bad;
            verdict += " FAULTS " + std::to_string(r.faults) + " WRONG " + std::to_string(r.wrong_answers) + " INVARIANTS " +
                       std::to_string(r.invariant_violations.size()) +
                       (r.invariant_violations.empty() ? "" : ": " + r.invariant_violations[0]);
          }
          for (int p = 0; p < gpu::slab_bench::kPhases; ++p)
            std::printf("ROW impl=ours driver=%s mode=%s record=%s per_lane=%u%s beta=%.2f buckets=%u util=%.4f phase=%s "
                        "mops=%.1f ms=%.4f\n",
                        driver_name, mode_name, record_name(record), k, variant.c_str(), beta, r.buckets, r.utilization,
                        gpu::slab_bench::kPhaseNames[p], mops(n, r.phase_ms[p]), r.phase_ms[p]);
          std::printf("| %s | %s | %.1f | %u | %.0f%% | %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %s |\n", driver_name,
                      mode_name, beta, r.buckets, 100 * r.utilization, record_name(record), mops(n, r.build_ms),
                      mops(n, r.search_present_ms), mops(n, r.search_absent_ms), mops(n, r.mix_ms[0]), mops(n, r.mix_ms[1]),
                      mops(n, r.mix_ms[2]), verdict.c_str());
          std::fflush(stdout);
        }
      }
    }
  }
  std::printf("\nruns judged a violation, faulted, answered wrong or with broken invariants: %d\n", bad);
  return bad ? 1 : 0;
}
