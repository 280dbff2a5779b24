// The three history formats. Every reader validates each operation against
// its model and throws InputError naming the source and the position.
//  - binary: compact, versioned header with model, seed and configuration
//    (docs/history-format.md has the layout);
//  - JSON lines: one operation per line after an optional header line;
//  - EDN: Jepsen-style invoke/ok/fail/info event histories (import only).
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "linearizability/history.hpp"

namespace warpcheck {

enum class HistoryFormat { Binary, JsonLines, Edn };

std::optional<HistoryFormat> parse_format_name(std::string_view name);

// How to read another checker's EDN history (docs/history-format.md).
struct ImportOptions {
  // Every register (each key of a kv history) starts with this value, an
  // EDN literal (0, "" ...): one completed write of it comes before the
  // first event. Knossos's (cas-register 0); Porcupine's kv starts at "".
  std::optional<std::string> initial;
  bool nil_reads_unknown = false;         // Knossos: a read that returned nil says nothing
  bool failed_cas_returns_false = false;  // Porcupine: a :fail CAS ran and returned false
  bool any() const { return initial || nil_reads_unknown || failed_cas_returns_false; }
};

// `model` overrides the model the file names; a file that names none needs it.
History read_binary(std::string_view bytes, const std::string& source);
History read_jsonl(std::string_view text, const std::string& source, std::optional<ModelId> model);
History read_edn(std::string_view text, const std::string& source, std::optional<ModelId> model,
                 const ImportOptions& options = {});

void write_binary(const History& h, std::ostream& out);
void write_jsonl(const History& h, std::ostream& out);
// The same, as strings.
std::string encode_binary(const History& h);
std::string encode_jsonl(const History& h);

// The format of a file's contents, and why: binary when it starts with the
// magic number or holds bytes no text history has (NUL, other control
// bytes), else EDN or JSON lines by the first token.
struct FormatGuess {
  HistoryFormat format;
  std::string why;  // "it starts with '{\"'"
};
FormatGuess guess_format(std::string_view contents);
HistoryFormat detect_format(std::string_view contents);
std::string_view format_name(HistoryFormat format);

namespace detail {
// Appends the checksum a binary history ends with to `body` (everything
// before it). For the fuzzer: it lets mutated records reach validation.
std::string seal_binary(std::string_view body);
}  // namespace detail

History load_history(const std::string& path, std::optional<ModelId> model = std::nullopt,
                     std::optional<HistoryFormat> format = std::nullopt, const ImportOptions& import = {});
void save_history(const History& h, const std::string& path, HistoryFormat format);

// Checks every operation and the ids of a history built in memory (by a
// generator or a recorder); throws InputError.
void validate_history(const History& h, const std::string& source);

}  // namespace warpcheck
