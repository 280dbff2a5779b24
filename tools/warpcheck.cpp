// warpcheck: stress-test concurrent data structures, and check, convert and
// generate their histories. Exit codes: 0 linearizable (or success), 1 violation,
// 2 unknown, 3 bad input or usage.
#include <cstring>
#include <iostream>
#include <new>

#include "linearizability/detail/quote.hpp"
#include "linearizability/history.hpp"
#include "tools/cli_args.hpp"
#include "tools/commands.hpp"

namespace {

constexpr const char* kUsage =
    "usage: warpcheck <command> [options]\n"
    "  check FILE [--model M] [--format bin|jsonl|edn] [--timeout S] [--memory MB]\n"
    "             [--threads N] [--no-partition] [--no-shrink] [--no-prune] [--shrink-timeout S]\n"
    "             [--algo auto|search|hint-replay] [--all-parts] [--json] [--html OUT.html]\n"
    "             [--initial VALUE] [--nil-reads absent|unknown] [--failed-cas drop|false]\n"
    "     --timeout S: the whole command, reading the file included (default 60)\n"
    "     --memory MB: the process's resident memory, history included (default half the machine's)\n"
    "     --all-parts: every refuted key and its counterexample, not only the first in key order\n"
    "     --initial, --nil-reads, --failed-cas: read EDN as Knossos or Porcupine do (docs/history-format.md)\n"
    "  convert IN OUT [--from bin|jsonl|edn] [--to bin|jsonl] [--model M] [--initial V] [--nil-reads R] [--failed-cas C]\n"
    "  gen --out FILE [--model M] [--ops N] [--keys K] [--overlap W] [--pending P] [--seed S] [--hints]\n"
    "      [--batch B] [--warp-batch 32] [--teams T] [--full-batches] [--phases] [--wrong-pops N] [--wrong N]\n"
    "     --wrong N: N wrong answers planted, each one a violation whatever the overlap (any model)\n"
    "  stress [--structure S] [options]   run a structure under many seeds; check every history (stress --help)\n"
    "  stress [--structure S] --list-mutants [--json]\n"
    "  repro SEED [the stress options] | repro DIR/history.bin   a failure again\n"
    "  repro DIR/history.bin --in-simulator [--tries N] [--out DIR] [--unguided]   a GPU run's failure in the simulator, guided by\n"
    "        its history's order: a simulator seed and schedule that replay it bit for bit\n"
    "  score [--structure S] [--backend sim|gpu] [--seeds N]   the mutation score: which oracle catches each planted bug\n"
    "  suite [--structure S] [--tag main|gpu|sanitize] [--backend B] [--out DIR]   the structures' declared stress suites\n"
    "  campaign --structure S [stress options] --seeds N --out DIR [--shards K] [--local P | --gpus | --slurm]\n"
    "           a seed range in shards over processes, GPUs or a Slurm job array, merged (campaign --help)\n"
    "  campaign --resume DIR | --merge DIR | --status DIR\n"
    "  recipes [--structure S] [--mutants M,...|none] [--recipes R;R;...] [--runs N] [--budget S] [--append DIR] ...\n"
    "         every planted bug on the GPU under perturbation recipes: caught/runs, time to first catch (recipes --help)\n"
    "  guided-bench --structure S [stress options] [--histories N] [--tries T] [--keep DIR]\n"
    "         guided against unguided simulator tries on failing runs relabeled as GPU histories (guided-bench --help)\n"
    "models: set, map, multimap, pq, register, cas-register, kv, queue, stack\n"
    "exit codes: 0 linearizable, 1 violation, 2 unknown, 3 bad input or usage,\n"
    "            4 (check) the history records that its run failed (a deadlock, an invariant, ...)\n";

}  // namespace

int main(int argc, char** argv) {
  using namespace warpcheck::cli;
  if (argc < 2 || !std::strcmp(argv[1], "help") || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    (argc < 2 ? std::cerr : std::cout) << kUsage;
    return argc < 2 ? kExitBadInput : 0;
  }
  const std::string command = argv[1];
  try {
    if (command == "check") return run_check(argc, argv);
    if (command == "convert") return run_convert(argc, argv);
    if (command == "gen") return run_generate(argc, argv);
    if (command == "stress") return run_stress(argc, argv);
    if (command == "repro") return run_repro(argc, argv);
    if (command == "score") return run_score(argc, argv);
    if (command == "suite") return run_suite(argc, argv);
    if (command == "campaign") return run_campaign(argc, argv);
    if (command == "recipes") return run_recipes(argc, argv);
    if (command == "guided-bench") return run_guided_bench(argc, argv);
    std::cerr << "warpcheck: unknown command " << warpcheck::detail::quoted(command) << "\n" << kUsage;
    return kExitBadInput;
  } catch (const UsageError& e) {
    std::cerr << "warpcheck " << command << ": " << e.what() << "\n";
    return kExitBadInput;
  } catch (const warpcheck::InputError& e) {
    std::cerr << "warpcheck: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    std::cerr << "warpcheck: out of memory\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "warpcheck: error: " << e.what() << "\n";
    return kExitBadInput;
  }
}
