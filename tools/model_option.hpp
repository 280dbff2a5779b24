// The --model, --format and EDN import options shared by the subcommands:
// declared once here, read typed.
#pragma once

#include "linearizability/formats.hpp"
#include "models/base/quote.hpp"
#include "tools/cli_args.hpp"

namespace warpcheck::cli {

// --NAME M: a model by its name (checked against the models known).
inline OptionSpec model_declaration(std::string help, Defaults d = Defaults{}, std::string name = "model") {
  return named_value("M", text_option(std::move(name), std::move(help) + " (" + model_names() + ")", std::move(d), [](const std::string& v) {
    if (!find_model(v)) throw std::invalid_argument("unknown model '" + v + "' (known: " + model_names() + ")");
  }));
}

inline std::optional<ModelId> model_option(const Options& o, const char* name = "model") {
  if (!o.has_value(name)) return std::nullopt;
  return find_model(o.text(name))->id;
}

inline std::optional<HistoryFormat> format_option(const Options& o, const char* name = "format") {
  if (!o.has_value(name)) return std::nullopt;
  return parse_format_name(o.text(name));
}

// --initial VALUE, --nil-reads absent|unknown, --failed-cas drop|false:
// reading EDN the way Knossos or Porcupine does.
inline OptionTable import_option_declarations() {
  return {named_value("VALUE", text_option("initial", "EDN: a register's value before the first write, as one completed write "
                                                      "(Knossos's initial state)", Defaults{}, {})),
          choice_option("nil-reads", "EDN: a read of nil is a read of the initial absent value, or of an unknown one (Porcupine)",
                        "absent", {"absent", "unknown"}),
          choice_option("failed-cas", "EDN: a :fail CAS is dropped (did not happen) or a CAS that returned false", "drop",
                        {"drop", "false"})};
}

inline ImportOptions import_options(const Options& o) {
  ImportOptions i;
  if (o.has_value("initial")) i.initial = o.text("initial");
  i.nil_reads_unknown = o.text("nil-reads") == "unknown";
  i.failed_cas_returns_false = o.text("failed-cas") == "false";
  return i;
}

}  // namespace warpcheck::cli
