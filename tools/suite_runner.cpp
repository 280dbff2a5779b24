#include "tools/suite_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <thread>

#include "stress/run/progress_line.hpp"
#include "tools/campaign/child_process.hpp"
#include "tools/campaign/local_launcher.hpp"

namespace warpcheck::cli {

namespace {

using clock_type = std::chrono::steady_clock;
namespace fs = std::filesystem;

// The runs' logs, removed at the end.
class LogFolder {
 public:
  LogFolder() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/warpcheck-suite-XXXXXX";
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("suite: cannot make a folder for the runs' logs in " + pattern);
    path_ = pattern;
  }
  ~LogFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  std::string log(size_t i) const { return path_ + "/run-" + std::to_string(i) + ".log"; }

 private:
  std::string path_;
};

std::string command_line(const SuiteEntry& e) {
  std::string line = "warpcheck stress";
  for (const std::string& a : e.stress_args) line += " " + a;
  return line;
}

}  // namespace

int run_suite_entries(const std::vector<SuiteEntry>& entries, uint32_t jobs, std::ostream& out) {
  const LogFolder logs;
  const std::string self = self_executable();
  const std::vector<LocalSlot> slots = process_slots(jobs, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<SuiteResult> results(entries.size());
  std::vector<bool> ended(entries.size(), false);
  struct Running {
    size_t entry, slot;
    clock_type::time_point start;
  };
  std::map<pid_t, Running> running;
  std::vector<bool> slot_busy(slots.size(), false);
  ProgressLine progress(std::cerr);
  size_t next = 0, printed = 0, done = 0;
  clock_type::time_point last_shown = clock_type::now();

  auto print_ready = [&] {
    while (printed < entries.size() && ended[printed]) {
      progress.end();
      const SuiteEntry& e = entries[printed];
      out << "== " << e.structure << ": " << e.what << "\n";
      if (!e.note.empty()) out << e.note << "\n";
      out << "   (" << command_line(e) << ")\n";
      if (!e.refused.empty()) {
        out << "suite: " << e.refused << "\n";
      } else {
        std::ifstream log(logs.log(printed));
        out << log.rdbuf();
      }
      if (results[printed].exit != e.expect)
        out << "suite: " << e.structure << ": " << e.what << ": exit " << results[printed].exit << ", expected " << e.expect << "\n";
      out << std::flush;
      ++printed;
    }
  };

  while (done < entries.size()) {
    // Start what may start: in order, a GPU run only into an empty machine
    // and nothing beside it.
    while (next < entries.size()) {
      const SuiteEntry& e = entries[next];
      if (!e.refused.empty()) {
        results[next] = {3, 0};
        ended[next++] = true;
        ++done;
        continue;
      }
      const bool gpu_running = std::any_of(running.begin(), running.end(),
                                           [&](const auto& r) { return entries[r.second.entry].on_gpu; });
      if (gpu_running || (e.on_gpu && !running.empty()) || running.size() >= slots.size()) break;
      const size_t slot = size_t(std::find(slot_busy.begin(), slot_busy.end(), false) - slot_busy.begin());
      std::vector<std::string> argv{self, "stress"};
      argv.insert(argv.end(), e.stress_args.begin(), e.stress_args.end());
      const pid_t pid = start_process(argv, slots[slot].env, logs.log(next));
      slot_busy[slot] = true;
      running[pid] = {next++, slot, clock_type::now()};
    }
    print_ready();
    for (auto it = running.begin(); it != running.end();) {
      int status = 0;
      if (!has_ended(it->first, &status)) {
        ++it;
        continue;
      }
      const Running& r = it->second;
      results[r.entry] = {exit_code_of(status), std::chrono::duration<double>(clock_type::now() - r.start).count()};
      ended[r.entry] = true;
      slot_busy[r.slot] = false;
      ++done;
      it = running.erase(it);
    }
    print_ready();
    if (done < entries.size()) {
      if (clock_type::now() - last_shown >= std::chrono::seconds(1)) {
        last_shown = clock_type::now();
        progress.show("suite: " + std::to_string(done) + " of " + std::to_string(entries.size()) + " runs ended, " +
                        std::to_string(running.size()) + " running",
                      false);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  print_ready();
  progress.end();
  return print_suite_table(entries, results, out);
}

}  // namespace warpcheck::cli
