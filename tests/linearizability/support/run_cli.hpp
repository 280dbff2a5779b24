// Runs the warpcheck program as a user would, for the promises that only a
// whole process can show: its exit code, its wall time under --timeout and
// its peak resident memory under --memory. A run past `kill_after` seconds
// is killed and reported as such.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "support/test_data.hpp"

extern char** environ;

namespace warpcheck::testing {

struct CliRun {
  int exit_code = -1;      // -1: killed (ran past kill_after) or no status
  bool killed = false;
  double seconds = 0;      // wall time
  size_t peak_rss_kb = 0;  // the child's peak resident memory, sampled every few milliseconds
  std::string output;      // stdout and stderr together
};

// The process's peak resident size so far (VmHWM), in KiB; 0 once it has
// exited. wait4's ru_maxrss cannot be used: Linux carries the parent's
// resident size at fork or vfork into a child's ru_maxrss across exec.
inline size_t peak_resident_kb(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stoul(line.substr(6));
  return 0;
}

inline CliRun run_cli(const std::vector<std::string>& args, double kill_after) {
  const auto out_path = std::filesystem::temp_directory_path() / ("warpcheck_cli_" + std::to_string(getpid()) + ".out");
  std::vector<std::string> argv_store = {WARPCHECK_CLI};
  argv_store.insert(argv_store.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_store) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  CliRun run;
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) return run;
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  rusage usage{};
  while (true) {
    run.peak_rss_kb = std::max(run.peak_rss_kb, peak_resident_kb(pid));
    const pid_t done = wait4(pid, &status, WNOHANG, &usage);
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (done == pid) break;
    if (run.seconds > kill_after && !run.killed) {
      kill(pid, SIGKILL);
      run.killed = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (WIFEXITED(status) && !run.killed) run.exit_code = WEXITSTATUS(status);
  run.output = read_file(out_path);
  std::filesystem::remove(out_path);
  return run;
}

}  // namespace warpcheck::testing
