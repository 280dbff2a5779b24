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
                  {{"model", "M", "the model, where the file does not say (" + model_names() + ")", ""},
                   {"format", "bin|jsonl|edn", "the file's format, where its first bytes do not say", ""},
                   {"timeout", "S", "seconds for the whole command, reading the file included", "60"},
                   {"shrink-timeout", "S", "seconds of it that shrinking a counterexample may take", "10"},
                   {"memory", "MB", "the process's resident memory, the history included (at most the machine's)", "half the machine's memory"},
                   {"threads", "N", "threads for the keys' checks (0: one a core, where the history is large enough to pay for them)", "0"},
                   {"algo", "auto|search|hint-replay", "auto: linearization-point hints where every operation has one, the "
                                                       "model's own procedure, then the search", "auto"},
                   {"all-parts", "", "every refuted key and its counterexample, not only the first in key order", ""},
                   {"json", "", "the verdict as JSON (docs/history-format.md)", ""},
                   {"html", "OUT.html", "also write the HTML report", ""},
                   {"context", "T", "with each counterexample, the other operations (other keys') within T stamps of its span "
                                     "(0: those overlapping it)", ""},
                   {"no-partition", "", "check the history whole, not key by key", ""},
                   {"no-shrink", "", "report a counterexample as found", ""},
                   {"no-prune", "", "the search without its pruning (for comparisons)", ""},
                   {"quiet", "", "no progress line on stderr (shown from 2 s on: the phase and its time)", ""}}};
    for (CommandOption& o : import_option_declarations()) s.options.push_back(std::move(o));
    return s;
  }();
  return spec;
}

int run_check(int argc, char** argv) {
  // --timeout counts from here: reading the file is part of the wait.
  const auto started = std::chrono::steady_clock::now();
  Args args(argc, argv, 2, check_command());
  if (args.answered_help(std::cout)) return 0;
  if (args.positional().size() != 1) throw args.usage();
  CheckOptions opt;
  opt.timeout_seconds = args.number("timeout", 0.001, 1e7);
  opt.deadline = started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(opt.timeout_seconds));
  opt.shrink_seconds = args.number("shrink-timeout", 0, 1e7);
  // --memory bounds the whole process's resident memory (RSS), the file
  // and the history included (the searches' caches are part of it).
  // Default: half the machine's physical memory.
  // More than the machine has is capped to what it has, and said so.
  const uint64_t ram_mb = std::max<uint64_t>(2, uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE)) >> 20);
  uint64_t memory_mb = args.integer("memory", ram_mb / 2, 1, 1u << 30);
  if (memory_mb > ram_mb) {
    std::cerr << "check: --memory " << memory_mb << " is more than this machine's " << ram_mb << " MB: capped to " << ram_mb << "\n";
    memory_mb = ram_mb;
  }
  opt.resident_limit_bytes = size_t(memory_mb) << 20;
  opt.memory_limit_bytes = SIZE_MAX;
  opt.threads = unsigned(args.integer("threads", 0, 1024));
  opt.partition = !args.flag("no-partition");
  opt.shrink = !args.flag("no-shrink");
  opt.prune = !args.flag("no-prune");
  opt.all_parts = args.flag("all-parts");
  const std::string algo = args.text("algo");
  if (algo == "auto") opt.algorithm = Algorithm::Auto;
  else if (algo == "search") opt.algorithm = Algorithm::Search;
  else if (algo == "hint-replay") opt.algorithm = Algorithm::HintReplay;
  else throw UsageError("--algo must be auto, search or hint-replay, got " + detail::quoted(algo));
  const bool json = args.flag("json");
  ReportOptions shown;
  if (args.value("context")) shown.context = args.integer("context", 0, UINT64_MAX - 1);
  PhaseProgress progress(args.flag("quiet"));
  progress.phase("check: reading " + args.positional()[0]);
  History h;
  {
    detail::Budget loading;
    loading.deadline = opt.deadline;
    loading.resident_limit = opt.resident_limit_bytes;
    const auto poller = loading.install();
    try {
      h = load_history(args.positional()[0], model_option(args), format_option(args), import_options(args));
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
  if (auto html = args.value("html")) {
    std::ofstream page(*html, std::ios::trunc);
    if (!page) throw InputError(*html + ": cannot open for writing");
    write_html_report(h, r, page);
    if (!page.flush()) throw InputError(*html + ": write error");
  }
  return check_exit_code(h, r.verdict);
}

}  // namespace warpcheck::cli
