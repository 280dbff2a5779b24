// warpcheck gen: write a synthetic history that is linearizable by
// construction (the main job's smoke test, and input for benchmarks), or
// one with wrong answers planted in it.
#include <iostream>

#include "linearizability/synthetic/planted_wrong.hpp"
#include "linearizability/synthetic/synthetic_history.hpp"
#include "tools/cli_args.hpp"
#include "tools/commands.hpp"
#include "tools/model_option.hpp"

namespace warpcheck::cli {

const CommandSpec& generate_command() {
  static const CommandSpec spec{
      "gen", "", "Write a synthetic history, linearizable by construction (or with wrong answers planted): input for the "
                 "checker's tests and benchmarks.",
      {{"out", "FILE", "where to write it (required)", ""},
       {"format", "bin|jsonl", "its format", "jsonl for FILE ending .jsonl, else bin"},
       {"model", "M", "the model (" + model_names() + ")", "set"},
       {"ops", "N", "operations", "1000"},
       {"keys", "K", "distinct keys", "16"},
       {"overlap", "W", "about how many operations overlap each one", "8"},
       {"pending", "P", "the share of operations left pending", "0"},
       {"seed", "S", "the random seed", "1"},
       {"teams", "T", "teams the operations are spread over", "32"},
       {"batch", "B", "pq, queue, stack: keys a batched push or pop holds at most", "4"},
       {"full-batches", "", "pq, queue, stack: every batch holds exactly --batch keys", ""},
       {"phases", "", "pq, queue, stack: every push, then every pop (a heap's build and drain)", ""},
       {"warp-batch", "N", "N operations at once share one stamp pair, as a warp batch does (0: off)", "0"},
       {"hints", "", "give each operation a linearization-point hint", ""},
       {"wrong", "N", "N wrong answers planted, each one a violation whatever the overlap (any model)", "0"},
       {"wrong-pops", "N", "pq, queue, stack: N pops that trade a key with the next", "0"}}};
  return spec;
}

int run_generate(int argc, char** argv) {
  Args args(argc, argv, 2, generate_command());
  if (args.answered_help(std::cout)) return 0;
  if (!args.positional().empty()) throw args.usage();
  auto out = args.value("out");
  if (!out) throw UsageError("warpcheck gen needs --out FILE");
  SyntheticHistorySpec spec;
  spec.model = model_option(args).value_or(ModelId::Set);
  spec.operations = args.integer("ops", 0, uint64_t(1) << 31);
  spec.keys = int64_t(args.integer("keys", 1, uint64_t(1) << 62));
  spec.overlap = args.integer("overlap", 0, uint64_t(1) << 40);
  spec.pending = args.number("pending", 0, 1);
  spec.seed = args.integer("seed", 0, UINT64_MAX);
  spec.teams = uint32_t(args.integer("teams", 1, UINT32_MAX));
  spec.batch = uint32_t(args.integer("batch", 1, 1u << 20));
  spec.hints = args.flag("hints");
  spec.warp_batch = uint32_t(args.integer("warp-batch", 0, 1u << 20));
  spec.full_batches = args.flag("full-batches");
  spec.phases = args.flag("phases");
  spec.wrong_pops = uint32_t(args.integer("wrong-pops", 0, 1u << 20));
  if (spec.wrong_pops && spec.model != ModelId::PriorityQueue && spec.model != ModelId::Queue && spec.model != ModelId::Stack)
    throw UsageError("--wrong-pops needs --model pq, queue or stack");
  const uint32_t wrong = uint32_t(args.integer("wrong", 0, 1u << 20));
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
