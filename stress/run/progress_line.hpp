// Progress of a long phase (runs, tries, measurements): on a terminal one
// line rewritten in place about once a second; anywhere else (a log, a
// pipe, CI) plain lines, at most one every 10 s and the last, so that a
// log holds no carriage returns.
#pragma once

#include <unistd.h>

#include <chrono>
#include <iostream>
#include <string>

namespace warpcheck {

class ProgressLine {
 public:
  explicit ProgressLine(std::ostream& err) : err_(err), terminal_(&err == &std::cerr && isatty(STDERR_FILENO)) {}

  void show(const std::string& text, bool last) {
    if (terminal_) {
      err_ << "\r  " << text << (last ? "\n" : "") << std::flush;
      open_ = !last;
      return;
    }
    const auto now = std::chrono::steady_clock::now();
    if (!last && printed_ && now - last_ < std::chrono::seconds(10)) return;
    err_ << "  " << text << "\n" << std::flush;
    printed_ = true;
    last_ = now;
  }

  // Where the phase stops before its last step: the terminal's line ends.
  void end() {
    if (open_) err_ << "\n" << std::flush;
    open_ = false;
  }

 private:
  std::ostream& err_;
  bool terminal_;
  bool printed_ = false;
  bool open_ = false;  // a terminal line not ended yet
  std::chrono::steady_clock::time_point last_;
};

}  // namespace warpcheck
