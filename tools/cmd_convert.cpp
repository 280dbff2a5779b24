// warpcheck convert IN OUT: between binary and JSON lines (and from EDN).
#include <iostream>

#include "tools/cli_args.hpp"
#include "tools/commands.hpp"
#include "tools/model_option.hpp"

namespace warpcheck::cli {

const CommandSpec& convert_command() {
  static const CommandSpec spec = [] {
    CommandSpec s{"convert", "IN OUT", "Convert a history between binary and JSON lines, or import a Jepsen EDN history; exactly: "
                                       "binary -> JSON lines -> binary gives back the same bytes.",
                  {choice_option("from", "IN's format, where its first bytes do not say", Defaults{}, {"bin", "jsonl", "edn"}),
                   default_in_words("jsonl for OUT ending .jsonl or .json, else bin",
                                    choice_option("to", "OUT's format", Defaults{}, {"bin", "jsonl"})),
                   model_declaration("the model, where IN does not say")}};
    for (OptionSpec& o : import_option_declarations()) s.options.push_back(std::move(o));
    return s;
  }();
  return spec;
}

int run_convert(int argc, char** argv) {
  const auto args = command_args(argc, argv, convert_command(), 2);
  if (!args) return 0;
  const std::string& out = args->positional()[1];
  std::optional<HistoryFormat> to = format_option(args->options(), "to");
  if (!to) {
    const bool jsonl = out.size() >= 6 && (out.ends_with(".jsonl") || out.ends_with(".json"));
    to = jsonl ? HistoryFormat::JsonLines : HistoryFormat::Binary;
  }
  const History h = load_history(args->positional()[0], model_option(args->options()), format_option(args->options(), "from"), import_options(args->options()));
  save_history(h, out, *to);
  std::cerr << "converted " << h.ops.size() << " operations (model " << h.model().name << ") to " << out << "\n";
  return 0;
}

}  // namespace warpcheck::cli
