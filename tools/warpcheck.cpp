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
#include "tools/stress_line.hpp"

namespace {

// Every command from its declaration (commands.hpp); each one's options: warpcheck <command> --help.
std::string usage() {
  using namespace warpcheck::cli;
  std::string s = "usage: warpcheck <command> [options]      (warpcheck <command> --help: its options and defaults)\n";
  for (const Command& c : commands()) s += "  " + synopsis(c.spec()) + "\n      " + c.spec().summary + "\n";
  return s + "models: " + warpcheck::model_names() + "\n"
             "exit codes: 0 linearizable, 1 violation, 2 unknown, 3 bad input or usage,\n"
             "            4 (check) the history records that its run failed (a deadlock, an invariant, ...)\n";
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
    name_structures_as_now(argc, argv, std::cerr);
    for (const Command& c : commands())
      if (c.spec().name == command) return c.run(argc, argv);
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
