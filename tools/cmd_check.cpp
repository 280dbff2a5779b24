// warpcheck check FILE: decide linearizability of a history.
#include <fstream>
#include <iostream>

#include "linearizability/checker.hpp"
#include "linearizability/formats.hpp"
#include "linearizability/html_report.hpp"
#include "linearizability/report.hpp"
#include "tools/cli_args.hpp"
#include "tools/commands.hpp"
#include "tools/model_option.hpp"

namespace warpcheck::cli {

int run_check(int argc, char** argv) {
  Args args(argc, argv, 2, {"model", "format", "timeout", "shrink-timeout", "memory", "threads", "algo", "html"}, {"json", "no-partition", "no-shrink", "no-prune"});
  if (args.positional().size() != 1) throw UsageError("usage: warpcheck check FILE [--model M] [--timeout S] [--json]");
  CheckOptions opt;
  opt.timeout_seconds = args.number("timeout", 60, 0.001, 1e7);
  opt.shrink_seconds = args.number("shrink-timeout", 10, 0, 1e7);
  opt.memory_limit_bytes = size_t(args.integer("memory", 4096, 1, 1u << 30)) << 20;
  opt.threads = unsigned(args.integer("threads", 0, 0, 1024));
  opt.partition = !args.flag("no-partition");
  opt.shrink = !args.flag("no-shrink");
  opt.prune = !args.flag("no-prune");
  const std::string algo = args.value("algo").value_or("auto");
  if (algo == "auto") opt.algorithm = Algorithm::Auto;
  else if (algo == "search") opt.algorithm = Algorithm::Search;
  else if (algo == "hint-replay") opt.algorithm = Algorithm::HintReplay;
  else throw UsageError("--algo must be auto, search or hint-replay, got '" + algo + "'");
  const History h = load_history(args.positional()[0], model_option(args), format_option(args));
  const CheckResult r = check_history(h, opt);
  if (args.flag("json")) write_json_report(h, r, std::cout);
  else write_text_report(h, r, std::cout);
  if (auto html = args.value("html")) {
    std::ofstream page(*html, std::ios::trunc);
    if (!page) throw InputError(*html + ": cannot open for writing");
    write_html_report(h, r, page);
    if (!page.flush()) throw InputError(*html + ": write error");
  }
  return verdict_exit_code(r.verdict);
}

}  // namespace warpcheck::cli
