// The litmus table of the simulator's memory models: each test of
// stress/litmus/litmus.hpp run for many seeds in sequentially consistent and in
// relaxed memory, how often its weak outcome shows, beside whether PTX
// allows it. Exits 1 when an outcome PTX forbids was seen, or one the
// relaxed mode is meant to produce was not.
// Usage: litmus [SEEDS]   (default 100000 a test and model)
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "stress/litmus/litmus.hpp"

using namespace warpcheck;

int main(int argc, char** argv) {
  const uint64_t seeds = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000;
  if (seeds == 0) {
    std::fprintf(stderr, "usage: litmus [SEEDS > 0]\n");
    return 2;
  }
  std::printf("| test | fences | weak outcome | allowed by PTX | seen, sc memory | seen, relaxed memory | first seed (relaxed) |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  int bad = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (const LitmusTest& t : litmus_tests()) {
    const LitmusCount sc = run_litmus(t, sim::MemoryModel::sc, seeds);
    const LitmusCount relaxed = run_litmus(t, sim::MemoryModel::relaxed, seeds);
    bad += sc.weak > 0 || (!t.allowed_by_ptx && relaxed.weak > 0) || (t.model_produces && relaxed.weak == 0);
    char first[32] = "-";
    if (relaxed.weak) std::snprintf(first, sizeof first, "%llu", static_cast<unsigned long long>(relaxed.first_weak_seed));
    std::printf("| %s | %s | %s | %s | %llu of %llu | %llu of %llu | %s |\n", t.name.c_str(), t.variant.c_str(), t.weak_text.c_str(),
                t.allowed_by_ptx ? (t.model_produces ? "yes" : "yes (the model cannot produce it)") : "no",
                static_cast<unsigned long long>(sc.weak), static_cast<unsigned long long>(sc.runs),
                static_cast<unsigned long long>(relaxed.weak), static_cast<unsigned long long>(relaxed.runs), first);
    std::fflush(stdout);
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("\n%.1f s; tests against expectation: %d\n", s, bad);
  return bad ? 1 : 0;
}
