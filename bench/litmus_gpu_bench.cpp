// The litmus tests on the GPU beside the simulator's relaxed memory: for
// each shape and fencing, how often the weak outcome shows on the device
// (stress/gpu/litmus_gpu.hpp: many instances a launch, roles meeting at a
// barrier, memory stress) and in 10^5 simulator seeds. A weak outcome that
// PTX forbids, seen on the GPU, is a finding about the hardware or the
// compiled code; one the simulator never shows but the GPU does would be
// a gap in the model. Exits 77 without a GPU, 1 when the GPU shows an
// outcome PTX forbids.
// The "interleaved" columns count an outcome only an interleaving of the
// roles gives (SB: both loads saw 1): a harness whose roles never overlap
// cannot show a weak outcome, whatever the hardware does.
// Usage: litmus_gpu_bench [--quick] [--no-stress] [--jitter CYCLES] [--apart BYTES] [--only NAME] [--launches N] [--sim-seeds N]
// --apart: y's distance from x (default 128: the next line; else at least
// a launch's instances x 128, so that x and y can sit in different L2
// slices and partitions); --only: the tests of that name (MP, SB, ...).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "bench/bench_args.hpp"
#include "stress/gpu/device_info.hpp"
#include "stress/gpu/litmus_gpu.hpp"
#include "stress/litmus/litmus.hpp"

using namespace warpcheck;


int main(int argc, char** argv) {
  bool quick = false, stress = true;
  unsigned jitter = 0;
  uint64_t apart = 128;
  std::string only;
  unsigned launches = 0;         // 0: 200 (5 with --quick)
  uint64_t sim_seeds_given = 0;  // 0: 10^5 (2,000 with --quick)
  for (int i = 1; i < argc; ++i) {
    std::optional<uint64_t> n;
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    else if (!std::strcmp(argv[i], "--no-stress")) stress = false;
    else if (!std::strcmp(argv[i], "--jitter") && i + 1 < argc && (n = bench::whole_number(argv[++i], 1u << 24)))
      jitter = unsigned(*n);  // at most 2^24 cycles: a role waits at most ~10 ms
    else if (!std::strcmp(argv[i], "--apart") && i + 1 < argc && (n = bench::whole_number(argv[++i], uint64_t(1) << 32)))
      apart = *n;
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc)
      only = argv[++i];
    else if (!std::strcmp(argv[i], "--launches") && i + 1 < argc && (n = bench::whole_number(argv[++i], 100000)) && *n)
      launches = unsigned(*n);
    else if (!std::strcmp(argv[i], "--sim-seeds") && i + 1 < argc && (n = bench::whole_number(argv[++i], 10000000)) && *n)
      sim_seeds_given = *n;
    else {
      std::fprintf(stderr, "usage: litmus_gpu_bench [--quick] [--no-stress] [--jitter CYCLES (0 to 2^24)] [--apart BYTES] [--only NAME]\n"
                           "                        [--launches N] [--sim-seeds N]\n");
      return 2;
    }
  }
  if (apart != 128 && (apart % 128 || apart < uint64_t(gpu::LitmusGpuSettings{}.instances) * 128)) {
    std::fprintf(stderr, "--apart: 128, or a multiple of 128 of at least %llu (a launch's instances x 128 bytes)\n",
                 (unsigned long long)gpu::LitmusGpuSettings{}.instances * 128);
    return 2;
  }
  const gpu::DeviceInfo dev = gpu::device_info();
  if (!dev.present) {
    std::printf("SKIP: no CUDA device (%s): the GPU litmus tests need one\n", dev.why_absent.c_str());
    return 77;
  }
  gpu::LitmusGpuSettings s;
  s.launches = launches ? launches : quick ? 5 : 200;
  s.stress = stress;
  s.jitter = jitter;
  s.apart_bytes = apart;
  const uint64_t sim_seeds = sim_seeds_given ? sim_seeds_given : quick ? 2000 : 100000;
  std::printf("device: %s, %d SMs; %u launches of %u instances a test, memory stress %s, jitter %u cycles, x and y %llu bytes apart\n\n",
              dev.name.c_str(), dev.sms, s.launches, s.instances, stress ? "on" : "off", jitter, (unsigned long long)apart);
  std::printf("| test | fences | weak outcome | allowed by PTX | simulator, relaxed | GPU | interleaved outcome | "
              "simulator | GPU | GPU barrier timeouts |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  int forbidden_seen = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (const LitmusTest& t : litmus_tests()) {
    if (!only.empty() && t.name != only) continue;
    const LitmusCount sim = run_litmus(t, sim::MemoryModel::relaxed, sim_seeds);
    const gpu::LitmusGpuCount g = gpu::run_litmus_gpu(t, s);
    forbidden_seen += !t.allowed_by_ptx && g.weak > 0;
    using ull = unsigned long long;
    std::printf("| %s | %s | %s | %s | %llu of %llu | %llu of %llu | %s | %llu | %llu | %llu |\n", t.name.c_str(),
                t.variant.c_str(), t.weak_text.c_str(), t.allowed_by_ptx ? "yes" : "no", ull(sim.weak), ull(sim.runs),
                ull(g.weak), ull(g.runs), t.interleaved_text.c_str(), ull(sim.interleaved), ull(g.interleaved),
                ull(g.barrier_timeouts));
    std::fflush(stdout);
  }
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("\n%.1f s; outcomes PTX forbids seen on the GPU: %d\n", sec, forbidden_seen);
  return forbidden_seen ? 1 : 0;
}
