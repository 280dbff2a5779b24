// Loading and saving histories in any format.
#include <fstream>
#include <sstream>

#include "linearizability/formats.hpp"

namespace warpcheck {

std::optional<HistoryFormat> parse_format_name(std::string_view name) {
  if (name == "bin" || name == "binary") return HistoryFormat::Binary;
  if (name == "jsonl" || name == "json") return HistoryFormat::JsonLines;
  if (name == "edn") return HistoryFormat::Edn;
  return std::nullopt;
}

HistoryFormat detect_format(std::string_view s) {
  if (s.size() >= 6 && s.substr(0, 6) == "WCHIST") return HistoryFormat::Binary;
  size_t i = 0;
  auto skip = [&] {
    while (i < s.size() && (std::isspace(static_cast<unsigned char>(s[i])) || s[i] == ',')) ++i;
  };
  skip();
  if (i < s.size() && s[i] == '{') {
    ++i;
    skip();
    return (i < s.size() && s[i] == '"') ? HistoryFormat::JsonLines : HistoryFormat::Edn;
  }
  if (i < s.size() && (s[i] == '[' || s[i] == '(' || s[i] == '#' || s[i] == ';')) return HistoryFormat::Edn;
  return HistoryFormat::JsonLines;  // its parser names what is wrong
}

History load_history(const std::string& path, std::optional<ModelId> model, std::optional<HistoryFormat> format) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open for reading");
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) throw InputError(path + ": read error");
  const std::string data = std::move(buf).str();
  History h;
  switch (format.value_or(detect_format(data))) {
    case HistoryFormat::Binary:
      h = read_binary(data, path);
      if (model) h.meta.model = *model, validate_history(h, path);
      return h;
    case HistoryFormat::JsonLines: return read_jsonl(data, path, model);
    case HistoryFormat::Edn: return read_edn(data, path, model);
  }
  throw InputError(path + ": unknown format");
}

void save_history(const History& h, const std::string& path, HistoryFormat format) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw InputError(path + ": cannot open for writing");
  if (format == HistoryFormat::Binary) write_binary(h, out);
  else if (format == HistoryFormat::JsonLines) write_jsonl(h, out);
  else throw InputError(path + ": writing EDN is not supported (EDN is an import format)");
  if (!out.flush()) throw InputError(path + ": write error");
}

std::string encode_binary(const History& h) {
  std::ostringstream s;
  write_binary(h, s);
  return std::move(s).str();
}

std::string encode_jsonl(const History& h) {
  std::ostringstream s;
  write_jsonl(h, s);
  return std::move(s).str();
}

void validate_history(const History& h, const std::string& source) {
  for (size_t i = 0; i < h.ops.size(); ++i)
    if (auto err = operation_error(h.model(), h.ops[i], h.key_pool.size()))
      throw InputError(source + ": operation " + std::to_string(i) + " (id " + std::to_string(h.ops[i].id) + "): " + *err);
  if (auto dup = first_duplicate_id(h.ops))
    throw InputError(source + ": operation " + std::to_string(*dup) + ": duplicate operation id " + std::to_string(h.ops[*dup].id));
  if (auto err = key_pool_error(h)) throw InputError(source + ": " + *err);
}

}  // namespace warpcheck
