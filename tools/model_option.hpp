// The --model and --format options shared by the subcommands.
#pragma once

#include "linearizability/detail/quote.hpp"
#include "linearizability/formats.hpp"
#include "tools/cli_args.hpp"

namespace warpcheck::cli {

inline std::optional<ModelId> model_option(const Args& args, const char* name = "model") {
  auto v = args.value(name);
  if (!v) return std::nullopt;
  const ModelInfo* m = find_model(*v);
  if (!m) throw UsageError("unknown model " + detail::quoted(*v) + " (known: set, map, multimap, pq, register, cas-register, kv)");
  return m->id;
}

inline std::optional<HistoryFormat> format_option(const Args& args, const char* name = "format") {
  auto v = args.value(name);
  if (!v) return std::nullopt;
  auto f = parse_format_name(*v);
  if (!f) throw UsageError("unknown format " + detail::quoted(*v) + " (known: bin, jsonl, edn)");
  return f;
}

}  // namespace warpcheck::cli
