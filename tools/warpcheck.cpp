// warpcheck: stress-test concurrent data structures, and check, convert and
// generate their histories. Exit codes: 0 linearizable (or success), 1 violation,
// 2 unknown, 3 bad input or usage.
#include <cstring>
#include <iostream>
#include <new>
#include <string>

#include "linearizability/history.hpp"
#include "models/base/quote.hpp"
#include "tools/cli_args.hpp"
#include "tools/commands.hpp"

namespace {

// The commands declared with their options (cli_args.hpp) say what they
// are from their declarations; the stress family's options come from the
// structures' option tables (stress --help --structure S).
std::string usage() {
  using namespace warpcheck::cli;
  std::string s = "usage: warpcheck <command> [options]      (warpcheck <command> --help: its options and defaults)\n";
  for (const CommandSpec* c : {&check_command(), &convert_command(), &generate_command()})
    s += "  " + c->name + (c->positional.empty() ? "" : " " + c->positional) + " [options]\n      " + c->summary + "\n";
  s +=
      "  stress [--structure S] [options]   run a structure under many seeds; check every history (stress --help)\n"
      "  stress [--structure S] --list-mutants [--json]\n"
      "  repro SEED [the stress options] | repro DIR/history.bin   a failure again\n"
      "  repro DIR/history.bin --in-simulator [--tries N] [--out DIR] [--unguided]   a GPU run's failure in the simulator, guided by\n"
      "        its history's order: a simulator seed and schedule that replay it bit for bit\n";
  for (const CommandSpec* c : {&score_command(), &suite_command()}) s += "  " + c->name + " [options]\n      " + c->summary + "\n";
  s +=
      "  campaign --structure S [stress options] --seeds N --out DIR [--shards K] [--local P | --gpus | --slurm]\n"
      "           a seed range in shards over processes, GPUs or a Slurm job array, merged (campaign --help)\n"
      "  campaign --resume DIR | --merge DIR | --status DIR\n"
      "  recipes [--structure S] [--mutants M,...|none] [--recipes R;R;...] [--runs N] [--budget S] [--append DIR] ...\n"
      "         every planted bug on the GPU under perturbation recipes: caught/runs, time to first catch (recipes --help)\n"
      "  guided-bench --structure S [stress options] [--histories N] [--tries T] [--keep DIR]\n"
      "         guided against unguided simulator tries on failing runs relabeled as GPU histories (guided-bench --help)\n"
      "models: " + warpcheck::model_names() + "\n"
      "exit codes: 0 linearizable, 1 violation, 2 unknown, 3 bad input or usage,\n"
      "            4 (check) the history records that its run failed (a deadlock, an invariant, ...)\n";
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace warpcheck::cli;
  if (argc < 2 || !std::strcmp(argv[1], "help") || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    (argc < 2 ? std::cerr : std::cout) << usage();
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
    std::cerr << "warpcheck: unknown command " << warpcheck::detail::quoted(command) << "\n" << usage();
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
