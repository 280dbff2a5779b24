// Binary history format, version 1 (layout in docs/history-format.md).
// Fields are written one by one in little-endian order, never as a struct
// image, so the file does not depend on the compiler's padding.
#include <cstring>

#include "linearizability/detail/utf8.hpp"
#include "linearizability/formats.hpp"
#include "linearizability/json_cursor.hpp"
#include "models/base/long_step.hpp"
#include "models/base/quote.hpp"

namespace warpcheck {

namespace {

constexpr char kMagic[8] = {'W', 'C', 'H', 'I', 'S', 'T', '\x1a', '\n'};
constexpr uint32_t kVersion = 1;
constexpr uint32_t kRecordSize = 96;
constexpr uint32_t kFlagIncomplete = 1;
constexpr uint32_t kFlagStringValues = 2;  // a string table follows the configuration
constexpr uint32_t kFlagFailure = 4;       // a failure record follows (failure_record.hpp)
constexpr uint8_t kOpPending = 1, kOpHasHint = 2;

// Word-at-a-time checksum: fast on 100 MB histories, and any flipped bit or
// truncation changes it.
// Reading a file polls the budget every 16 MB: a mapped gigabyte is read
// from disk here, page by page, and the clock must not wait for it.
uint64_t checksum(const unsigned char* p, size_t n) {
  uint64_t h = 0x243f6a8885a308d3ULL ^ n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    if ((i & ((size_t(1) << 24) - 1)) == 0) detail::poll_long_step();
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = detail::mix64(h ^ w);
  }
  uint64_t tail = 0;
  if (n > i) std::memcpy(&tail, p + i, n - i);  // p may be null when n == 0
  return detail::mix64(h ^ tail ^ 0xff);
}

class ByteWriter {
 public:
  template <class T>
  void put(T v) {
    static_assert(std::is_integral_v<T>);
    using U = std::make_unsigned_t<T>;
    U u = static_cast<U>(v);
    for (size_t i = 0; i < sizeof(T); ++i) buf_.push_back(static_cast<unsigned char>(u >> (8 * i)));
  }
  void bytes(std::string_view s) { buf_.insert(buf_.end(), s.begin(), s.end()); }
  std::vector<unsigned char>& buffer() { return buf_; }

 private:
  std::vector<unsigned char> buf_;
};

class ByteReader {
 public:
  ByteReader(std::string_view data, const std::string& source) : d_(data), source_(source) {}
  template <class T>
  T get() {
    need(sizeof(T), "a field");
    using U = std::make_unsigned_t<T>;
    U u = 0;
    for (size_t i = 0; i < sizeof(T); ++i) u |= U(static_cast<unsigned char>(d_[pos_ + i])) << (8 * i);
    pos_ += sizeof(T);
    return static_cast<T>(u);
  }
  std::string_view bytes(size_t n, const char* what) {
    need(n, what);
    std::string_view s = d_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  void need(uint64_t n, const char* what) const {
    if (n > d_.size() - pos_)
      fail("truncated: " + std::string(what) + " needs " + std::to_string(n) + " bytes, " + std::to_string(d_.size() - pos_) + " left");
  }
  size_t pos() const { return pos_; }
  size_t left() const { return d_.size() - pos_; }
  [[noreturn]] void fail(const std::string& message) const {
    throw InputError(source_ + ": byte " + std::to_string(pos_) + ": " + message);
  }

 private:
  std::string_view d_;
  const std::string& source_;
  size_t pos_ = 0;
};

}  // namespace

void write_binary(const History& h, std::ostream& out) {
  ByteWriter w;
  w.bytes(std::string_view(kMagic, 8));
  w.put(kVersion);
  w.put(kRecordSize);
  w.put(h.meta.seed);
  w.put(uint64_t(h.ops.size()));
  w.put(uint64_t(h.key_pool.size()));
  w.put(uint32_t((h.meta.incomplete ? kFlagIncomplete : 0) | (h.meta.string_values ? kFlagStringValues : 0) |
                 (h.meta.failure ? kFlagFailure : 0)));
  w.put(uint32_t(h.model().name.size()));
  w.bytes(h.model().name);
  w.put(uint32_t(h.meta.config.size()));
  w.bytes(h.meta.config);
  if (h.meta.string_values) {
    w.put(uint32_t(h.strings.size()));
    for (const std::string& str : h.strings) {
      w.put(uint32_t(str.size()));
      w.bytes(str);
    }
  }
  if (const std::optional<FailureRecord>& f = h.meta.failure) {
    for (std::string_view text : {failure_oracle_name(f->oracle), std::string_view(f->message), std::string_view(f->details),
                                  std::string_view(f->reproduce)}) {
      w.put(uint32_t(text.size()));
      w.bytes(text);
    }
    w.put(uint32_t(f->evidence.size()));
    for (uint64_t id : f->evidence) w.put(id);
  }
  w.buffer().reserve(w.buffer().size() + h.ops.size() * kRecordSize + h.key_pool.size() * 8 + 8);
  for (const Operation& op : h.ops) {
    const OpData& d = op.data;
    w.put(op.id); w.put(op.call); w.put(op.ret); w.put(op.hint);
    w.put(d.key); w.put(d.value); w.put(d.expected); w.put(d.result);
    w.put(op.team); w.put(op.lane); w.put(op.launch);
    w.put(d.keys_begin); w.put(d.keys_count); w.put(d.out_begin); w.put(d.out_count);
    w.put(uint8_t(d.kind)); w.put(uint8_t(d.result_kind));
    w.put(uint8_t((d.pending ? kOpPending : 0) | (op.has_hint ? kOpHasHint : 0)));
    w.put(uint8_t(0));
  }
  for (int64_t k : h.key_pool) w.put(k);
  w.put(checksum(w.buffer().data(), w.buffer().size()));
  out.write(reinterpret_cast<const char*>(w.buffer().data()), std::streamsize(w.buffer().size()));
}

std::string detail::seal_binary(std::string_view body) {
  ByteWriter w;
  w.bytes(body);
  w.put(checksum(w.buffer().data(), w.buffer().size()));
  return std::string(w.buffer().begin(), w.buffer().end());
}

History read_binary(std::string_view bytes, const std::string& source) {
  ByteReader r(bytes, source);
  const std::string_view magic = r.bytes(8, "the magic number");
  if (magic != std::string_view(kMagic, 8))
    r.fail("not a warpcheck binary history: the magic number is " + detail::quoted(magic) + ", not " +
           detail::quoted(std::string_view(kMagic, 8)));
  const uint32_t version = r.get<uint32_t>();
  if (version != kVersion) r.fail("unsupported format version " + std::to_string(version) + " (this build reads 1)");
  if (r.get<uint32_t>() != kRecordSize) r.fail("record size is not " + std::to_string(kRecordSize));
  History h;
  h.meta.seed = r.get<uint64_t>();
  const uint64_t op_count = r.get<uint64_t>();
  const uint64_t pool_count = r.get<uint64_t>();
  const uint32_t flags = r.get<uint32_t>();
  if (flags & ~(kFlagIncomplete | kFlagStringValues | kFlagFailure)) r.fail("unknown header flags");
  h.meta.incomplete = flags & kFlagIncomplete;
  h.meta.string_values = flags & kFlagStringValues;
  std::string model(r.bytes(r.get<uint32_t>(), "the model name"));
  const ModelInfo* info = find_model(model);
  if (!info) r.fail("unknown model " + detail::quoted(model));
  h.meta.model = info->id;
  h.meta.config = std::string(r.bytes(r.get<uint32_t>(), "the configuration"));
  // What a JSON lines header could hold, so that conversions round-trip and
  // nothing unescaped reaches a terminal.
  if (!h.meta.config.empty())
    if (auto err = detail::json_object_line_error(h.meta.config)) r.fail("the configuration is not one line of JSON holding an object (" + *err + ")");
  if (h.meta.string_values) {
    const uint32_t count = r.get<uint32_t>();
    if (count > r.left() / 4) r.fail("truncated: header promises " + std::to_string(count) + " strings");
    h.strings.resize(count);
    for (std::string& str : h.strings) {
      str = std::string(r.bytes(r.get<uint32_t>(), "a string value"));
      if (!detail::valid_utf8(str)) r.fail("a string value that is not UTF-8");
    }
  }
  if (flags & kFlagFailure) {
    FailureRecord f;
    const std::string oracle(r.bytes(r.get<uint32_t>(), "the failure's oracle"));
    const std::optional<FailureOracle> known = parse_failure_oracle(oracle);
    if (!known) r.fail("unknown failure oracle " + detail::quoted(oracle));
    f.oracle = *known;
    f.message = std::string(r.bytes(r.get<uint32_t>(), "the failure's message"));
    f.details = std::string(r.bytes(r.get<uint32_t>(), "the failure's details"));
    f.reproduce = std::string(r.bytes(r.get<uint32_t>(), "the failure's reproduce line"));
    const uint32_t count = r.get<uint32_t>();
    if (count > r.left() / 8) r.fail("truncated: the failure record promises " + std::to_string(count) + " operations");
    f.evidence.resize(count);
    for (uint64_t& id : f.evidence) id = r.get<uint64_t>();
    h.meta.failure = std::move(f);
  }
  // Sizes are checked by division first: a corrupt count must not overflow.
  if (op_count > r.left() / kRecordSize) r.fail("truncated: header promises " + std::to_string(op_count) + " operations");
  if (pool_count > (r.left() - op_count * kRecordSize) / 8) r.fail("truncated: header promises " + std::to_string(pool_count) + " pooled keys");
  if (pool_count > UINT32_MAX) r.fail("key pool larger than 2^32 keys");
  const size_t body_end = r.pos() + op_count * kRecordSize + pool_count * 8;
  if (bytes.size() != body_end + 8)
    r.fail(bytes.size() < body_end + 8 ? "truncated: no checksum" : "trailing bytes after the checksum");
  uint64_t stored;
  {
    ByteReader tail(bytes.substr(body_end), source);
    stored = tail.get<uint64_t>();
  }
  if (stored != checksum(reinterpret_cast<const unsigned char*>(bytes.data()), body_end))
    throw InputError(source + ": corrupt: checksum mismatch");
  detail::reserve_long_step(op_count * (sizeof(Operation) + 64) + pool_count * sizeof(int64_t));
  // Reserved, not resized: the records are written once, as they are read,
  // between polls (zeroing gigabytes first would not poll).
  h.ops.reserve(op_count);
  h.key_pool.resize(pool_count);
  const size_t records_at = r.pos();
  for (size_t i = 0; i < op_count; ++i) {
    if (i % 65536 == 65535) detail::poll_long_step();
    Operation& op = h.ops.emplace_back();
    OpData& d = op.data;
    op.id = r.get<uint64_t>(); op.call = r.get<uint64_t>(); op.ret = r.get<uint64_t>(); op.hint = r.get<uint64_t>();
    d.key = r.get<int64_t>(); d.value = r.get<int64_t>(); d.expected = r.get<int64_t>(); d.result = r.get<int64_t>();
    op.team = r.get<uint32_t>(); op.lane = r.get<uint32_t>(); op.launch = r.get<uint32_t>();
    d.keys_begin = r.get<uint32_t>(); d.keys_count = r.get<uint32_t>(); d.out_begin = r.get<uint32_t>(); d.out_count = r.get<uint32_t>();
    const uint8_t kind = r.get<uint8_t>(), result_kind = r.get<uint8_t>(), op_flags = r.get<uint8_t>();
    const uint8_t reserved = r.get<uint8_t>();
    auto record = [&] { return "record " + std::to_string(i); };
    if (kind >= kOpKindCount || result_kind > uint8_t(ResultKind::Keys) || (op_flags & ~(kOpPending | kOpHasHint)))
      r.fail(record() + ": invalid kind or flags");
    // Every bit of a record means something (the format's promise): a
    // reserved byte that is not zero is damage or a newer writer.
    if (reserved != 0) r.fail(record() + ": reserved byte is " + std::to_string(reserved) + ", not 0");
    d.kind = OpKind(kind);
    d.result_kind = ResultKind(result_kind);
    d.pending = op_flags & kOpPending;
    op.has_hint = op_flags & kOpHasHint;
  }
  for (int64_t& k : h.key_pool) k = r.get<int64_t>();
  for (size_t i = 0; i < h.ops.size(); ++i) {
    if (i % 65536 == 65535) detail::poll_long_step();
    if (auto err = operation_error(h.model(), h.ops[i], h.key_pool.size()))
      throw InputError(source + ": record " + std::to_string(i) + " (byte " + std::to_string(records_at + i * kRecordSize) + "): " + *err);
  }
  if (auto dup = first_duplicate_id(h.ops))
    throw InputError(source + ": record " + std::to_string(*dup) + ": duplicate operation id " + std::to_string(h.ops[*dup].id));
  if (auto err = key_pool_error(h)) throw InputError(source + ": " + *err);
  if (auto err = string_table_error(h)) throw InputError(source + ": " + *err);
  if (auto err = failure_error(h)) throw InputError(source + ": " + *err);
  return h;
}

}  // namespace warpcheck
