#include "tools/campaign/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace warpcheck::cli {

namespace {

std::vector<char*> c_argv(const std::vector<std::string>& argv) {
  std::vector<char*> v;
  for (const std::string& a : argv) v.push_back(const_cast<char*>(a.c_str()));
  v.push_back(nullptr);
  return v;
}

// The environment plus `extra` (which wins), built before fork: after it,
// a threaded parent's child may only make async-signal-safe calls.
std::vector<std::string> environment_with(const std::map<std::string, std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    if (!extra.count(entry.substr(0, entry.find('=')))) env.push_back(entry);
  }
  for (const auto& [k, v] : extra) env.push_back(k + "=" + v);
  return env;
}

}  // namespace

std::string self_executable() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) throw std::runtime_error("cannot find this program's path (/proc/self/exe)");
  return std::string(buf, size_t(n));
}

pid_t start_process(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env, const std::string& log,
                    bool die_with_parent) {
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error(log + ": cannot open: " + std::strerror(errno));
  std::vector<char*> args = c_argv(argv);
  const std::vector<std::string> env_text = environment_with(env);
  std::vector<char*> envp = c_argv(env_text);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fd);
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {  // the child: async-signal-safe calls only, until exec
    // The death signal follows the thread that forked: this one, the
    // launcher's main thread, which lives as long as the launcher.
    // It survives exec; a parent gone before it was set is caught by getppid.
    if (die_with_parent && (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent)) ::_exit(127);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::execve(args[0], args.data(), envp.data());
    const char* what = "warpcheck: cannot start the child process (exec failed)\n";
    (void)!::write(2, what, std::strlen(what));
    ::_exit(127);
  }
  ::close(fd);
  return pid;
}

bool has_ended(pid_t pid, int* status) {
  const pid_t r = ::waitpid(pid, status, WNOHANG);
  return r == pid;
}

int exit_code_of(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exit code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" + ::strsignal(WTERMSIG(status)) + ")";
  return "ended with wait status " + std::to_string(status);
}

namespace {

volatile sig_atomic_t received_stop = 0;

void note_stop(int signal) {
  if (received_stop) {  // the second: end as if no handler were there
    ::signal(signal, SIG_DFL);
    ::raise(signal);
    return;
  }
  received_stop = signal;
}

}  // namespace

StopSignals::StopSignals() {
  received_stop = 0;
  struct sigaction a = {};
  a.sa_handler = note_stop;
  sigemptyset(&a.sa_mask);
  ::sigaction(SIGINT, &a, &previous_int_);
  ::sigaction(SIGTERM, &a, &previous_term_);
}

StopSignals::~StopSignals() {
  ::sigaction(SIGINT, &previous_int_, nullptr);
  ::sigaction(SIGTERM, &previous_term_, nullptr);
}

int stop_signal() { return received_stop; }

std::string signal_name(int signal) {
  switch (signal) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "signal " + std::to_string(signal);
  }
}

CommandResult run_command(const std::vector<std::string>& argv, double timeout_seconds) {
  CommandResult r;
  int out[2], err[2];
  if (::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  if (::pipe2(err, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  std::vector<char*> args = c_argv(argv);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  ::close(out[1]);
  ::close(err[1]);
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  std::string* into[2] = {&r.out, &r.error};
  int open_fds = 2;
  bool cut = false;
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      cut = true;
      break;
    }
    if (::poll(fds, 2, int(std::min<long long>(left, 1000))) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[4096];
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        into[i]->append(buf, size_t(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (pollfd& f : fds)
    if (f.fd >= 0) ::close(f.fd);
  if (cut) ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && r.out.empty() && r.error.empty()) {
    r.error = argv[0] + ": not found";
    return r;
  }
  r.started = true;
  if (cut) r.error += (r.error.empty() ? "" : "\n") + argv[0] + ": no answer within " + std::to_string(int(timeout_seconds)) + " s";
  else r.exit_code = exit_code_of(status);
  return r;
}

}  // namespace warpcheck::cli
