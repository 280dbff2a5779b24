// warpcheck gen: write a synthetic history that is linearizable by
// construction (the main job's smoke test, and input for benchmarks).
#include <iostream>

#include "stress/synthetic_history.hpp"
#include "tools/cli_args.hpp"
#include "tools/commands.hpp"
#include "tools/model_option.hpp"

namespace warpcheck::cli {

int run_generate(int argc, char** argv) {
  Args args(argc, argv, 2, {"model", "ops", "keys", "overlap", "pending", "seed", "teams", "batch", "warp-batch", "out", "format", "wrong-pops"},
            {"hints", "full-batches", "phases"});
  if (!args.positional().empty()) throw UsageError("usage: warpcheck gen --out FILE [--model M] [--ops N] [--keys K] [--overlap W] [--pending P] [--seed S] "
                                                   "[--batch B] [--full-batches] [--phases] [--wrong-pops N]");
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
  auto format = format_option(args).value_or(out->ends_with(".jsonl") ? HistoryFormat::JsonLines : HistoryFormat::Binary);
  const History h = make_linearizable_history(spec);
  save_history(h, *out, format);
  std::cerr << "wrote " << h.ops.size() << " operations (model " << h.model().name << ", seed " << spec.seed << ") to " << *out << "\n";
  return 0;
}

}  // namespace warpcheck::cli
