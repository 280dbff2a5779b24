// A self-contained HTML view of a check (no network, no external scripts):
// each part's operations as bars on a timeline, grouped by team; the
// witness order, or the counterexample with each operation's longest
// partial linearization; the model state before and after each step on
// hover. An element #status records what was rendered (data-rendered,
// data-errors, data-ms: rendering, data-load-ms: since navigation start)
// so that a headless browser can check the page.
#pragma once

#include <ostream>

#include "linearizability/checker.hpp"

namespace warpcheck {

struct HtmlReportOptions {
  size_t max_ops = 20000;  // operations drawn at most (the page says how many were left out)
};

void write_html_report(const History& h, const CheckResult& r, std::ostream& out, const HtmlReportOptions& opt = {});

}  // namespace warpcheck
