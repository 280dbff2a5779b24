// Loading and saving histories in any format.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "linearizability/formats.hpp"
#include "models/base/long_step.hpp"
#include "models/base/quote.hpp"

namespace warpcheck {

std::optional<HistoryFormat> parse_format_name(std::string_view name) {
  if (name == "bin" || name == "binary") return HistoryFormat::Binary;
  if (name == "jsonl" || name == "json") return HistoryFormat::JsonLines;
  if (name == "edn") return HistoryFormat::Edn;
  return std::nullopt;
}

std::string_view format_name(HistoryFormat format) {
  switch (format) {
    case HistoryFormat::Binary: return "binary";
    case HistoryFormat::JsonLines: return "JSON lines";
    case HistoryFormat::Edn: return "EDN";
  }
  return "?";
}

FormatGuess guess_format(std::string_view s) {
  if (s.substr(0, 6) == "WCHIST") return {HistoryFormat::Binary, "it starts with the binary magic number"};
  // Text histories hold no control bytes but tab, CR and LF; every binary
  // history has NUL bytes in its header (the version, the sizes).
  const std::string_view head = s.substr(0, 512);
  for (size_t i = 0; i < head.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(head[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
      return {HistoryFormat::Binary, "byte " + std::to_string(i) + " is the control byte " + detail::quoted_char(char(c)) +
                                         ", which no text history holds"};
  }
  size_t i = 0;
  auto skip = [&] {
    while (i < s.size() && (std::isspace(static_cast<unsigned char>(s[i])) || s[i] == ',')) ++i;
  };
  skip();
  if (i < s.size() && s[i] == '{') {
    ++i;
    skip();
    if (i < s.size() && s[i] == '"') return {HistoryFormat::JsonLines, "its first object starts with a quoted member name"};
    return {HistoryFormat::Edn, "its first map does not start with a quoted name (EDN keys are keywords)"};
  }
  if (i < s.size() && (s[i] == '[' || s[i] == '(' || s[i] == '#' || s[i] == ';'))
    return {HistoryFormat::Edn, "it starts with " + detail::quoted_char(s[i]) + ", which opens an EDN form"};
  return {HistoryFormat::JsonLines, "nothing marks it as binary or EDN"};  // its parser names what is wrong
}

HistoryFormat detect_format(std::string_view s) { return guess_format(s).format; }

namespace {

// A file mapped read-only into memory for as long as this object lives.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    // Non-blocking: a FIFO with no writer would hold open() before any budget looks.
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) throw InputError(path + ": cannot open for reading");
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      close(fd);
      throw InputError(path + ": not a regular file (a FIFO, a device or a folder): histories are read from files");
    }
    size_ = size_t(st.st_size);
    detail::reserve_long_step(size_);  // its pages become resident as they are read
    if (size_ > 0) {
      void* p = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p == MAP_FAILED) {
        close(fd);
        throw InputError(path + ": cannot map for reading");
      }
      data_ = static_cast<const char*>(p);
      madvise(p, size_, MADV_SEQUENTIAL);
    }
    close(fd);
  }
  ~MappedFile() {
    if (data_) munmap(const_cast<char*>(data_), size_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  std::string_view contents() const { return {data_ ? data_ : "", size_}; }

 private:
  const char* data_ = nullptr;
  size_t size_ = 0;
};

History read_history(std::string_view data, const std::string& path, std::optional<ModelId> model, HistoryFormat format,
                     const ImportOptions& import) {
  if (import.any() && format != HistoryFormat::Edn)
    throw InputError(path + ": --initial, --nil-reads and --failed-cas are for EDN histories; this one is read as " +
                     std::string(format_name(format)));
  switch (format) {
    case HistoryFormat::Binary: {
      History h = read_binary(data, path);
      if (model) h.meta.model = *model, validate_history(h, path);
      return h;
    }
    case HistoryFormat::JsonLines: return read_jsonl(data, path, model);
    case HistoryFormat::Edn: return read_edn(data, path, model, import);
  }
  throw InputError(path + ": unknown format");
}

}  // namespace

History load_history(const std::string& path, std::optional<ModelId> model, std::optional<HistoryFormat> format,
                     const ImportOptions& import) {
  // Mapped, not copied: a gigabyte-sized history is read in place.
  const MappedFile file(path);
  const std::string_view data = file.contents();
  if (format) return read_history(data, path, model, *format, import);
  // A guessed format is said with any error, so that a damaged binary file
  // does not read as a puzzling JSON-lines message.
  const FormatGuess guess = guess_format(data);
  try {
    return read_history(data, path, model, guess.format, import);
  } catch (const InputError& e) {
    throw InputError(std::string(e.what()) + " [read as " + std::string(format_name(guess.format)) + " because " + guess.why +
                     "; --format chooses]");
  }
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
  if (auto err = string_table_error(h)) throw InputError(source + ": " + *err);
  if (auto err = failure_error(h)) throw InputError(source + ": " + *err);
}

}  // namespace warpcheck
