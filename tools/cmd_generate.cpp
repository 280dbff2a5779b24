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
  const auto pop_models = [](std::string help) { return "pq, queue, stack: " + std::move(help); };
  static const CommandSpec spec{
      "gen", "", "Write a synthetic history, linearizable by construction (or with wrong answers planted): input for the "
                 "checker's tests and benchmarks.",
      {named_value("FILE", text_option("out", "where to write it (required)", Defaults{}, {})),
       default_in_words("jsonl for FILE ending .jsonl, else bin", choice_option("format", "its format", Defaults{}, {"bin", "jsonl"})),
       model_declaration("the model", "set"),
       integer_option("ops", "operations", "1000", 0, uint64_t(1) << 31),
       integer_option("keys", "distinct keys", "16", 1, uint64_t(1) << 62),
       integer_option("overlap", "about how many operations overlap each one", "8", 0, uint64_t(1) << 40),
       real_option("pending", "the share of operations left pending", "0", 0, 1),
       integer_option("seed", "the random seed", "1", 0, UINT64_MAX),
       integer_option("teams", "teams the operations are spread over", "32", 1, UINT32_MAX),
       integer_option("batch", pop_models("keys a batched push or pop holds at most"), "4", 1, 1u << 20),
       flag_option("full-batches", pop_models("every batch holds exactly --batch keys")),
       flag_option("phases", pop_models("every push, then every pop (a heap's build and drain)")),
       integer_option("warp-batch", "N operations at once share one stamp pair, as a warp batch does (0: off)", "0", 0, 1u << 20),
       flag_option("hints", "give each operation a linearization-point hint"),
       integer_option("wrong", "N wrong answers planted, each one a violation whatever the overlap (any model)", "0", 0, 1u << 20),
       integer_option("wrong-pops", pop_models("N pops that trade a key with the next"), "0", 0, 1u << 20)}};
  return spec;
}

int run_generate(int argc, char** argv) {
  const auto args = command_args(argc, argv, generate_command());
  if (!args) return 0;
  const Options& o = args->options();
  if (!o.has_value("out")) throw UsageError("warpcheck gen needs --out FILE");
  const std::string& out = o.text("out");
  SyntheticHistorySpec spec;
  spec.model = *model_option(o);
  spec.operations = o.integer("ops");
  spec.keys = int64_t(o.integer("keys"));
  spec.overlap = o.integer("overlap");
  spec.pending = o.real("pending");
  spec.seed = o.integer("seed");
  spec.teams = uint32_t(o.integer("teams"));
  spec.batch = uint32_t(o.integer("batch"));
  spec.hints = o.flag("hints");
  spec.warp_batch = uint32_t(o.integer("warp-batch"));
  spec.full_batches = o.flag("full-batches");
  spec.phases = o.flag("phases");
  spec.wrong_pops = uint32_t(o.integer("wrong-pops"));
  if (spec.wrong_pops && spec.model != ModelId::PriorityQueue && spec.model != ModelId::Queue && spec.model != ModelId::Stack)
    throw UsageError("--wrong-pops needs --model pq, queue or stack");
  const auto wrong = uint32_t(o.integer("wrong"));
  if (wrong && spec.wrong_pops) throw UsageError("--wrong and --wrong-pops plant answers two ways: give one");
  const auto format = format_option(o).value_or(out.ends_with(".jsonl") ? HistoryFormat::JsonLines : HistoryFormat::Binary);
  History h = make_linearizable_history(spec);
  const std::vector<PlantedAnswer> planted = plant_wrong_answers(h, wrong);  // throws, writing nothing, when spots lack
  save_history(h, out, format);
  std::cerr << "wrote " << h.ops.size() << " operations (model " << h.model().name << ", seed " << spec.seed << ") to " << out << "\n";
  constexpr size_t kListed = 20;
  if (!planted.empty()) std::cerr << "planted " << planted.size() << " wrong answer(s):\n";
  for (size_t i = 0; i < planted.size() && i < kListed; ++i) std::cerr << "  " << planted[i].what << "\n";
  if (planted.size() > kListed) std::cerr << "  ... and " << planted.size() - kListed << " more\n";
  return 0;
}

}  // namespace warpcheck::cli
