// The warpcheck subcommands. Each returns the process exit code:
// 0 linearizable / success, 1 violation, 2 unknown, 3 bad input or usage.
#pragma once

#include "tools/cli_args.hpp"

namespace warpcheck::cli {

inline constexpr int kExitBadInput = 3;

// The declarations of the commands parsed from one (cli_args.hpp): their
// parsers, their --help and the top-level usage read them.
const CommandSpec& check_command();
const CommandSpec& convert_command();
const CommandSpec& generate_command();
const CommandSpec& suite_command();
const CommandSpec& score_command();

int run_check(int argc, char** argv);
int run_convert(int argc, char** argv);
int run_generate(int argc, char** argv);
int run_stress(int argc, char** argv);
int run_repro(int argc, char** argv);
int run_score(int argc, char** argv);
int run_suite(int argc, char** argv);
int run_campaign(int argc, char** argv);
int run_recipes(int argc, char** argv);
int run_guided_bench(int argc, char** argv);

}  // namespace warpcheck::cli
