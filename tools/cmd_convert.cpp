// warpcheck convert IN OUT: between binary and JSON lines (and from EDN).
#include <iostream>

#include "tools/cli_args.hpp"
#include "tools/commands.hpp"
#include "tools/model_option.hpp"

namespace warpcheck::cli {

int run_convert(int argc, char** argv) {
  Args args(argc, argv, 2, {"model", "from", "to", "initial", "nil-reads", "failed-cas"}, {});
  if (args.positional().size() != 2)
    throw UsageError("usage: warpcheck convert IN OUT [--from bin|jsonl|edn] [--to bin|jsonl] [--model M] "
                     "[--initial VALUE] [--nil-reads absent|unknown] [--failed-cas drop|false]");
  const std::string& out = args.positional()[1];
  std::optional<HistoryFormat> to = format_option(args, "to");
  if (!to) {
    const bool jsonl = out.size() >= 6 && (out.ends_with(".jsonl") || out.ends_with(".json"));
    to = jsonl ? HistoryFormat::JsonLines : HistoryFormat::Binary;
  }
  const History h = load_history(args.positional()[0], model_option(args), format_option(args, "from"), import_options(args));
  save_history(h, out, *to);
  std::cerr << "converted " << h.ops.size() << " operations (model " << h.model().name << ") to " << out << "\n";
  return 0;
}

}  // namespace warpcheck::cli
