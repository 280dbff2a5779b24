// The warpcheck subcommands. Each returns the process exit code:
// 0 linearizable / success, 1 violation, 2 unknown, 3 bad input or usage.
#pragma once

#include <vector>

#include "tools/cli_args.hpp"

namespace warpcheck::cli {

inline constexpr int kExitBadInput = 3;

// The commands' declarations (cli_args.hpp): their parsers, their --help
// and the top-level usage read them.
const CommandSpec& check_command();
const CommandSpec& convert_command();
const CommandSpec& generate_command();
const CommandSpec& stress_command();
const CommandSpec& repro_command();
const CommandSpec& score_command();
const CommandSpec& suite_command();
const CommandSpec& campaign_command();
const CommandSpec& recipes_command();
const CommandSpec& guided_bench_command();

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

// Every command, in the order the top-level usage lists them.
struct Command {
  const CommandSpec& (*spec)();
  int (*run)(int argc, char** argv);
};
inline const std::vector<Command>& commands() {
  static const std::vector<Command> all = {
      {check_command, run_check},       {convert_command, run_convert}, {generate_command, run_generate},
      {stress_command, run_stress},     {repro_command, run_repro},     {score_command, run_score},
      {suite_command, run_suite},       {campaign_command, run_campaign}, {recipes_command, run_recipes},
      {guided_bench_command, run_guided_bench}};
  return all;
}

}  // namespace warpcheck::cli
