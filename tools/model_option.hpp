// The --model and --format options shared by the subcommands.
#pragma once

#include "linearizability/formats.hpp"
#include "models/base/quote.hpp"
#include "tools/cli_args.hpp"

namespace warpcheck::cli {

inline std::optional<ModelId> model_option(const Args& args, const char* name = "model") {
  auto v = args.value(name);
  if (!v) return std::nullopt;
  const ModelInfo* m = find_model(*v);
  if (!m) throw UsageError("unknown model " + detail::quoted(*v) + " (known: " + model_names() + ")");
  return m->id;
}

inline std::optional<HistoryFormat> format_option(const Args& args, const char* name = "format") {
  auto v = args.value(name);
  if (!v) return std::nullopt;
  auto f = parse_format_name(*v);
  if (!f) throw UsageError("unknown format " + detail::quoted(*v) + " (known: bin, jsonl, edn)");
  return f;
}

// --initial VALUE, --nil-reads absent|unknown, --failed-cas drop|false:
// reading EDN the way Knossos or Porcupine does.
inline constexpr const char* kImportOptionNames[] = {"initial", "nil-reads", "failed-cas"};

inline std::vector<CommandOption> import_option_declarations() {
  return {{"initial", "VALUE", "EDN: a register's value before the first write, as one completed write (Knossos's initial state)", ""},
          {"nil-reads", "absent|unknown", "EDN: a read of nil is a read of the initial absent value, or of an unknown one (Porcupine)", "absent"},
          {"failed-cas", "drop|false", "EDN: a :fail CAS is dropped (did not happen) or a CAS that returned false", "drop"}};
}

inline ImportOptions import_options(const Args& args) {
  ImportOptions o;
  o.initial = args.value("initial");
  const std::string nil = args.text("nil-reads");
  if (nil != "absent" && nil != "unknown") throw UsageError("--nil-reads must be absent or unknown, got " + detail::quoted(nil));
  o.nil_reads_unknown = nil == "unknown";
  const std::string cas = args.text("failed-cas");
  if (cas != "drop" && cas != "false") throw UsageError("--failed-cas must be drop or false, got " + detail::quoted(cas));
  o.failed_cas_returns_false = cas == "false";
  return o;
}

}  // namespace warpcheck::cli
