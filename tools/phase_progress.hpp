// A long command's phase and how long it has taken, on stderr, while the
// work runs on: nothing for the first 2 s (a quick command stays silent),
// then the ProgressLine's way (a line rewritten each second on a terminal,
// a plain line every 10 s in a log). For work with no count of its own to
// report (reading a file, a checker deciding 10^7 operations).
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "stress/run/progress_line.hpp"

namespace warpcheck::cli {

class PhaseProgress {
 public:
  explicit PhaseProgress(bool quiet) : line_(std::cerr) {
    if (!quiet) ticker_ = std::thread([this] { tick(); });
  }
  ~PhaseProgress() { stop(); }
  PhaseProgress(const PhaseProgress&) = delete;
  PhaseProgress& operator=(const PhaseProgress&) = delete;

  void phase(std::string what) {
    std::lock_guard lock(mutex_);
    phase_ = std::move(what);
    phase_start_ = clock::now();
  }
  // Ends the line (if any was shown) before the command's own output.
  void stop() {
    {
      std::lock_guard lock(mutex_);
      if (done_) return;
      done_ = true;
    }
    wake_.notify_all();
    if (ticker_.joinable()) ticker_.join();
    if (shown_) line_.show(phase_ + ": " + seconds(clock::now() - phase_start_), true);
  }

 private:
  using clock = std::chrono::steady_clock;
  static std::string seconds(clock::duration d) {
    return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(d).count()) + " s";
  }
  void tick() {
    std::unique_lock lock(mutex_);
    const auto start = clock::now();
    while (!wake_.wait_for(lock, std::chrono::seconds(1), [this] { return done_; }))
      if (clock::now() - start >= std::chrono::seconds(2)) {
        line_.show(phase_ + ": " + seconds(clock::now() - phase_start_), false);
        shown_ = true;
      }
  }

  ProgressLine line_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string phase_ = "starting";
  clock::time_point phase_start_ = clock::now();
  bool done_ = false, shown_ = false;
  std::thread ticker_;
};

}  // namespace warpcheck::cli
