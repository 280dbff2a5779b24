// warpcheck check FILE: decide linearizability of a history.
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iostream>

#include "linearizability/budget.hpp"
#include "linearizability/checker.hpp"
#include "linearizability/formats.hpp"
#include "linearizability/html_report.hpp"
#include "linearizability/report.hpp"
#include "models/base/quote.hpp"
#include "tools/cli_args.hpp"
#include "tools/commands.hpp"
#include "tools/model_option.hpp"
#include "tools/phase_progress.hpp"

namespace warpcheck::cli {

namespace {

// A budget spent before the search could start (reading a huge file under
// a small --timeout or --memory): UNKNOWN, said the way a verdict is.
int report_unknown_before_check(const std::string& why, bool json) {
  if (json) std::cout << "{\"verdict\":\"UNKNOWN\",\"reason\":\"" << why << "\"}\n";
  else std::cout << "UNKNOWN: " << why << "\n";
  return verdict_exit_code(Verdict::Unknown);
}

}  // namespace

const CommandSpec& check_command() {
  static const CommandSpec spec = [] {
    CommandSpec s{"check", "FILE", "Decide whether a history (binary, JSON lines or Jepsen EDN) is linearizable; exit 0 linearizable, "
                                   "1 violation, 2 unknown, 3 bad input, 4 the history records that its run failed.",
                  {model_declaration("the model, where the file does not say"),
                   choice_option("format", "the file's format, where its first bytes do not say", Defaults{}, {"bin", "jsonl", "edn"}),
                   named_value("S", real_option("timeout", "seconds for the whole command, reading the file included", "60", 0.001, 1e7)),
                   named_value("S", real_option("shrink-timeout", "seconds of it that shrinking a counterexample may take", "10", 0, 1e7)),
                   default_in_words("half the machine's memory",
                                    named_value("MB", integer_option("memory", "the process's resident memory, the history included "
                                                                               "(at most the machine's)", Defaults{}, 1, 1u << 30))),
                   integer_option("threads", "threads for the keys' checks (0: one a core, where the history is large enough to pay "
                                             "for them)", "0", 0, 1024),
                   choice_option("algo", "auto: linearization-point hints where every operation has one, the model's own procedure, "
                                         "then the search", "auto", {"auto", "search", "hint-replay"}),
                   flag_option("all-parts", "every refuted key and its counterexample, not only the first in key order"),
                   flag_option("json", "the verdict as JSON (docs/history-format.md)"),
                   named_value("OUT.html", text_option("html", "also write the HTML report", Defaults{}, {})),
                   named_value("T", integer_option("context", "with each counterexample, the other operations (other keys') within T "
                                                             "stamps of its span (0: those overlapping it)", Defaults{}, 0, UINT64_MAX - 1)),
                   flag_option("no-partition", "check the history whole, not key by key"),
                   flag_option("no-shrink", "report a counterexample as found"),
                   flag_option("no-prune", "the search without its pruning (for comparisons)"),
                   flag_option("quiet", "no progress line on stderr (shown from 2 s on: the phase and its time)")}};
    for (OptionSpec& o : import_option_declarations()) s.options.push_back(std::move(o));
    return s;
  }();
  return spec;
}

int run_check(int argc, char** argv) {
  // --timeout counts from here: reading the file is part of the wait.
  const auto started = std::chrono::steady_clock::now();
  const auto args = command_args(argc, argv, check_command(), 1);
  if (!args) return 0;
  CheckOptions opt;
  const Options& o = args->options();
  opt.timeout_seconds = o.real("timeout");
  opt.deadline = started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(opt.timeout_seconds));
  opt.shrink_seconds = o.real("shrink-timeout");
  // --memory bounds the whole process's resident memory (RSS), the file
  // and the history included (the searches' caches are part of it).
  // Default: half the machine's physical memory.
  // More than the machine has is capped to what it has, and said so.
  const uint64_t ram_mb = std::max<uint64_t>(2, uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE)) >> 20);
  uint64_t memory_mb = o.has_value("memory") ? o.integer("memory") : ram_mb / 2;
  if (memory_mb > ram_mb) {
    std::cerr << "check: --memory " << memory_mb << " is more than this machine's " << ram_mb << " MB: capped to " << ram_mb << "\n";
    memory_mb = ram_mb;
  }
  opt.resident_limit_bytes = size_t(memory_mb) << 20;
  opt.memory_limit_bytes = SIZE_MAX;
  opt.threads = unsigned(o.integer("threads"));
  opt.partition = !o.flag("no-partition");
  opt.shrink = !o.flag("no-shrink");
  opt.prune = !o.flag("no-prune");
  opt.all_parts = o.flag("all-parts");
  const std::string& algo = o.text("algo");
  opt.algorithm = algo == "search" ? Algorithm::Search : algo == "hint-replay" ? Algorithm::HintReplay : Algorithm::Auto;
  const bool json = o.flag("json");
  ReportOptions shown;
  if (o.has_value("context")) shown.context = o.integer("context");
  PhaseProgress progress(o.flag("quiet"));
  progress.phase("check: reading " + args->positional()[0]);
  History h;
  {
    detail::Budget loading;
    loading.deadline = opt.deadline;
    loading.resident_limit = opt.resident_limit_bytes;
    const auto poller = loading.install();
    try {
      h = load_history(args->positional()[0], model_option(o), format_option(o), import_options(o));
    } catch (const detail::BudgetExhausted& e) {
      progress.stop();
      return report_unknown_before_check(std::string(e.why == detail::BudgetStop::Memory ? "memory" : "time") +
                                             " budget ran out while reading the history",
                                         json);
    }
  }
  progress.phase("check: deciding " + std::to_string(h.ops.size()) + " operations");
  const CheckResult r = check_history(h, opt);
  progress.stop();
  if (json) write_json_report(h, r, std::cout, shown);
  else write_text_report(h, r, std::cout, shown);
  if (o.has_value("html")) {
    const std::string& html = o.text("html");
    std::ofstream page(html, std::ios::trunc);
    if (!page) throw InputError(html + ": cannot open for writing");
    write_html_report(h, r, page);
    if (!page.flush()) throw InputError(html + ": write error");
  }
  return check_exit_code(h, r.verdict);
}

}  // namespace warpcheck::cli
