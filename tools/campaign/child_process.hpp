// Child processes without a shell: a campaign's shards (started, then
// waited for without blocking, ending with the launcher) and the
// scheduler's commands (run to their end, their output read); and the
// launcher's stop signals, which end its wait instead of ending it.
#pragma once
#include <signal.h>
#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

namespace warpcheck::cli {

// This program's own path (the shards run it again).
std::string self_executable();

// Starts argv (argv[0] a path) with the environment plus `env`, its output
// and errors appended to `log`. With `die_with_parent` the child gets
// SIGKILL when this process ends, however it ends (Linux's
// PR_SET_PDEATHSIG): no shard outlives its launcher. Throws std::runtime_error.
pid_t start_process(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env, const std::string& log,
                    bool die_with_parent = true);

// Whether pid ended; its wait status into *status. Never blocks.
bool has_ended(pid_t pid, int* status);

// A wait status as a shell gives it: the exit code, or 128 + the signal.
int exit_code_of(int status);

// "exit code 3", "killed by signal 9 (Killed)".
std::string describe_wait_status(int status);

// While one lives, SIGINT and SIGTERM do not end this process: they are
// noted for the wait loops (stop_signal()), which stop what they wait for
// and return. A second one ends the process as usual.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();  // the handlers before it, back
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction previous_int_ = {}, previous_term_ = {};
};
// The stop signal received (SIGINT, SIGTERM), or 0.
int stop_signal();
// "SIGTERM".
std::string signal_name(int signal);

struct CommandResult {
  bool started = false;  // false: not found or not executable (`error` says)
  int exit_code = -1;    // 128 + the signal when killed; -1 when not started or cut at the timeout
  std::string out, error;
};
// Runs argv (argv[0] looked up in PATH) to its end or `timeout_seconds`, whichever comes first.
CommandResult run_command(const std::vector<std::string>& argv, double timeout_seconds);

}  // namespace warpcheck::cli
