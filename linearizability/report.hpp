// Verdicts as people and tools read them: text for the terminal, JSON for
// scripts (docs/history-format.md lists its fields).
#pragma once

#include <optional>
#include <ostream>
#include <vector>

#include "linearizability/checker.hpp"

namespace warpcheck {

struct ReportOptions {
  size_t max_witness_ops = 40;  // text only; JSON always holds all
  // --context T: with each counterexample, the history's other operations
  // (other keys', and its own key's that shrinking dropped) whose intervals
  // come within T stamps of the counterexample's span: a culprit on another
  // key (a delete that overwrote a slot) shows there.
  std::optional<uint64_t> context;
  size_t max_context_ops = 40;  // text only; JSON always holds all
};

// The history indices of the operations --context T shows beside `cx`:
// not in it, their interval within `margin` stamps of its span, by call.
std::vector<uint32_t> context_of(const History& h, const Counterexample& cx, uint64_t margin);

// "RUN FAILED: deadlock: ...", its details, the operations it names and its reproduce line.
void write_failure_record(const FailureRecord& f, std::ostream& out);

void write_text_report(const History& h, const CheckResult& r, std::ostream& out, const ReportOptions& opt = {});
void write_json_report(const History& h, const CheckResult& r, std::ostream& out, const ReportOptions& opt = {});

}  // namespace warpcheck
