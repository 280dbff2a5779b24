// warpcheck gen: write a synthetic history that is linearizable by
// construction (the main job's smoke test, and input for benchmarks), or
// one with wrong answers planted in it.
#include <iostream>

#include "stress/planted_wrong.hpp"
#include "stress/synthetic_history.hpp"
#include "tools/cli_args.hpp"
#include "tools/commands.hpp"
#include "tools/model_option.hpp"

namespace warpcheck::cli {

int run_generate(int argc, char** argv) {
  Args args(argc, argv, 2, {"model", "ops", "keys", "overlap", "pending", "seed", "teams", "batch", "warp-batch", "out", "format", "wrong-pops", "wrong"},
            {"hints", "full-batches", "phases"});
  if (!args.positional().empty()) throw UsageError("usage: warpcheck gen --out FILE [--model M] [--ops N] [--keys K] [--overlap W] [--pending P] [--seed S] "
                                                   "[--batch B] [--full-batches] [--phases] [--wrong-pops N] [--wrong N]");
  auto out = args.value("out");
  if (!out) throw UsageError("warpcheck gen needs --out FILE");
  SyntheticHistorySpec spec;
  spec.model = model_option(args).value_or(ModelId::Set);
  spec.operations = args.integer("ops", 1000, 0, uint64_t(1) << 31);
  spec.keys = int64_t(args.integer("keys", 16, 1, uint64_t(1) << 62));
  spec.overlap = args.integer("overlap", 8, 0, uint64_t(1) << 40);
  spec.pending = args.number("pending", 0, 0, 1);
  spec.seed = args.integer("seed", 1, 0, UINT64_MAX);
  spec.teams = uint32_t(args.integer("teams", 32, 1, UINT32_MAX));
  spec.batch = uint32_t(args.integer("batch", 4, 1, 1u << 20));
  spec.hints = args.flag("hints");
  spec.warp_batch = uint32_t(args.integer("warp-batch", 0, 0, 1u << 20));
  spec.full_batches = args.flag("full-batches");
  spec.phases = args.flag("phases");
  spec.wrong_pops = uint32_t(args.integer("wrong-pops", 0, 0, 1u << 20));
  if (spec.wrong_pops && spec.model != ModelId::PriorityQueue && spec.model != ModelId::Queue && spec.model != ModelId::Stack)
    throw UsageError("--wrong-pops needs --model pq, queue or stack");
  const uint32_t wrong = uint32_t(args.integer("wrong", 0, 0, 1u << 20));
  if (wrong && spec.wrong_pops) throw UsageError("--wrong and --wrong-pops plant answers two ways: give one");
  auto format = format_option(args).value_or(out->ends_with(".jsonl") ? HistoryFormat::JsonLines : HistoryFormat::Binary);
  History h = make_linearizable_history(spec);
  const std::vector<PlantedAnswer> planted = plant_wrong_answers(h, wrong);  // throws, writing nothing, when spots lack
  save_history(h, *out, format);
  std::cerr << "wrote " << h.ops.size() << " operations (model " << h.model().name << ", seed " << spec.seed << ") to " << *out << "\n";
  constexpr size_t kListed = 20;
  if (!planted.empty()) std::cerr << "planted " << planted.size() << " wrong answer(s):\n";
  for (size_t i = 0; i < planted.size() && i < kListed; ++i) std::cerr << "  " << planted[i].what << "\n";
  if (planted.size() > kListed) std::cerr << "  ... and " << planted.size() - kListed << " more\n";
  return 0;
}

}  // namespace warpcheck::cli
