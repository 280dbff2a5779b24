// Child processes without a shell: a campaign's shards (started, then
// waited for without blocking) and the scheduler's commands (run to their
// end, their output read).
#pragma once
#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

namespace warpcheck::cli {

// This program's own path (the shards run it again).
std::string self_executable();

// Starts argv (argv[0] a path) with the environment plus `env`, its output
// and errors appended to `log`. Throws std::runtime_error.
pid_t start_process(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env, const std::string& log);

// Whether pid ended; its wait status into *status. Never blocks.
bool has_ended(pid_t pid, int* status);

// "exit code 3", "killed by signal 9 (Killed)".
std::string describe_wait_status(int status);

struct CommandResult {
  bool started = false;  // false: not found or not executable (`error` says)
  int exit_code = -1;    // 128 + the signal when killed; -1 when not started or cut at the timeout
  std::string out, error;
};
// Runs argv (argv[0] looked up in PATH) to its end or `timeout_seconds`, whichever comes first.
CommandResult run_command(const std::vector<std::string>& argv, double timeout_seconds);

}  // namespace warpcheck::cli
