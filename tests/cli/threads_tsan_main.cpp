// The sorted-array set on real threads, built with ThreadSanitizer. Writes
// the recorded history for `warpcheck check`; TSan itself reports races
// (and makes the exit code 66). Usage: threads_tsan SEED MUTANT OUT.bin
#include <cstdio>
#include <cstdlib>
#include <string>

#include "linearizability/formats.hpp"
#include "stress/harness/threads_harness.hpp"
#include "stress/sorted_set/config.hpp"

using namespace warpcheck;

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: threads_tsan SEED MUTANT OUT.bin\n");
    return 2;
  }
  SortedSetConfig c;
  c.teams = 4;
  c.ops_per_lane = 8;
  c.keys = 16;
  c.buckets = 1;
  const std::string mutant = argv[2];
  if (mutant != "none" && mutant != "unlocked_contains") {
    std::fprintf(stderr, "threads_tsan: MUTANT is none or unlocked_contains\n");
    return 2;
  }
  c.mutant = mutant == "none" ? structures::sorted_set_mutant::none : structures::sorted_set_mutant::unlocked_contains;
  validate(c);
  const uint64_t seed = std::strtoull(argv[1], nullptr, 10);
  const HostMemory memory(sorted_set_layout(c));
  const WorkloadShape shape = sorted_set_shape(c);
  const auto ops = materialize(shape, generate_slots(shape, seed));
  HistoryMeta meta;
  meta.model = ModelId::Set;
  meta.seed = seed;
  meta.config = "{\"structure\":\"sorted_set\",\"backend\":\"threads\"}";
  ThreadsRun run = run_in_threads(sorted_set_view(c, memory.pointers()), ops, c.teams, c.ops_per_lane, 32 * c.ops_per_lane, meta);
  if (!run.report.ok) {
    std::fprintf(stderr, "threads run faulted: %s\n", run.report.message.c_str());
    return 1;
  }
  save_history(run.history, argv[3], HistoryFormat::Binary);
  std::printf("%zu operations recorded\n", run.history.ops.size());
  return 0;
}
