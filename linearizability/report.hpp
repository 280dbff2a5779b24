// Verdicts as people and tools read them: text for the terminal, JSON for
// scripts (docs/history-format.md lists its fields).
#pragma once

#include <ostream>

#include "linearizability/checker.hpp"

namespace warpcheck {

struct ReportOptions {
  size_t max_witness_ops = 40;  // text only; JSON always holds all
};

// "RUN FAILED: deadlock: ...", its details, the operations it names and its reproduce line.
void write_failure_record(const FailureRecord& f, std::ostream& out);

void write_text_report(const History& h, const CheckResult& r, std::ostream& out, const ReportOptions& opt = {});
void write_json_report(const History& h, const CheckResult& r, std::ostream& out);

}  // namespace warpcheck
