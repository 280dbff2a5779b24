// JSON-lines history format (docs/history-format.md).
#include <charconv>
#include <unordered_map>

#include "linearizability/detail/string_values.hpp"
#include "linearizability/formats.hpp"
#include "linearizability/json_cursor.hpp"
#include "linearizability/json_string.hpp"
#include "models/base/long_step.hpp"

namespace warpcheck {

namespace {

using detail::JsonCursor;

// An operation line's fields before they are checked against the model.
struct RawOperation {
  std::optional<uint64_t> id, call, ret_time, hint;
  std::optional<std::string> op;
  std::optional<int64_t> key, value, expected, n;
  std::optional<std::string> value_text, expected_text;  // string values
  std::optional<std::vector<int64_t>> keys;
  bool ret_seen = false;  // "ret" present, possibly null
  ResultKind ret_kind = ResultKind::None;
  int64_t ret = 0;
  std::optional<std::string> ret_text;
  std::vector<int64_t> ret_keys;
  uint32_t team = 0, lane = 0, launch = 0;
};

template <class T>
std::optional<T> nullable(JsonCursor& c, T (*read)(JsonCursor&)) {
  if (c.consume_literal("null")) return std::nullopt;
  return read(c);
}
uint64_t read_u64(JsonCursor& c) { return c.parse_u64(); }
int64_t read_i64(JsonCursor& c) { return c.parse_i64(); }
uint32_t read_u32(JsonCursor& c) {
  uint64_t v = c.parse_u64();
  if (v > UINT32_MAX) c.fail("value does not fit in 32 bits");
  return uint32_t(v);
}
std::vector<int64_t> read_keys(JsonCursor& c) {
  std::vector<int64_t> out;
  c.parse_array([&] {
    if (out.size() % detail::kKeysPerPoll == detail::kKeysPerPoll - 1) detail::poll_long_step();
    out.push_back(c.parse_i64());
  });
  return out;
}

RawOperation parse_operation_line(JsonCursor& c) {
  RawOperation r;
  c.parse_object([&](const std::string& name) {
    if (name == "id") r.id = nullable(c, read_u64);
    else if (name == "team") r.team = nullable(c, read_u32).value_or(0);
    else if (name == "lane") r.lane = nullable(c, read_u32).value_or(0);
    else if (name == "launch") r.launch = nullable(c, read_u32).value_or(0);
    else if (name == "op") r.op = c.parse_string();
    else if (name == "key") r.key = nullable(c, read_i64);
    else if (name == "value") {
      if (c.peek() == '"') r.value_text = c.parse_string();
      else r.value = nullable(c, read_i64);
    } else if (name == "expected") {
      if (c.peek() == '"') r.expected_text = c.parse_string();
      else r.expected = nullable(c, read_i64);
    }
    else if (name == "n") r.n = nullable(c, read_i64);
    else if (name == "keys") r.keys = nullable(c, read_keys);
    else if (name == "call") r.call = nullable(c, read_u64);
    else if (name == "return") r.ret_time = nullable(c, read_u64);
    else if (name == "hint") r.hint = nullable(c, read_u64);
    else if (name == "ret") {
      r.ret_seen = true;
      char p = c.peek();
      if (c.consume_literal("null")) r.ret_kind = ResultKind::Absent;
      else if (p == 't' || p == 'f') { r.ret_kind = ResultKind::Bool; r.ret = c.parse_bool(); }
      else if (p == '[') { r.ret_kind = ResultKind::Keys; r.ret_keys = read_keys(c); }
      else if (p == '"') { r.ret_kind = ResultKind::Value; r.ret_text = c.parse_string(); }
      else { r.ret_kind = ResultKind::Value; r.ret = c.parse_i64(); }
    } else {
      c.fail("unknown field " + detail::quoted(name));
    }
  });
  return r;
}

// A vector about to double asks the budget first: at millions of records
// one doubling is the largest allocation reading makes.
template <class Vector>
void make_room(Vector& v, size_t extra) {
  if (v.size() + extra <= v.capacity()) return;
  const size_t capacity = std::max(v.capacity() * 2, v.size() + extra);
  detail::reserve_long_step(capacity * sizeof(typename Vector::value_type));
  v.reserve(capacity);
}

uint32_t append_keys(History& h, const std::vector<int64_t>& keys) {
  if (h.key_pool.size() + keys.size() > UINT32_MAX) throw std::length_error("key pool exceeds 2^32 keys");
  make_room(h.key_pool, keys.size());
  uint32_t begin = uint32_t(h.key_pool.size());
  h.key_pool.insert(h.key_pool.end(), keys.begin(), keys.end());
  return begin;
}

using detail::StringValues;

// Turns raw fields into an operation of the model; throws a message.
Operation build_operation(const RawOperation& r, const ModelInfo& model, History& h, uint64_t ordinal, StringValues& strings) {
  if (!r.op) throw std::string("missing \"op\"");
  if (!r.call) throw std::string("missing \"call\"");
  Operation op;
  if (!parse_op_kind(*r.op, op.data.kind)) throw "unknown operation " + detail::quoted(*r.op);
  const OpSpec* spec = model.spec(op.data.kind);
  if (!spec) throw "operation \"" + *r.op + "\" is not part of model \"" + std::string(model.name) + "\"";
  auto field = [&](const char* name, bool present, uint8_t bit) {
    if (present && !(spec->args & bit)) throw std::string("field \"") + name + "\" is not used by " + *r.op;
    if (!present && (spec->args & bit)) throw std::string("missing \"") + name + "\" for " + *r.op;
  };
  field("key", r.key.has_value(), kArgKey);
  field("value", r.value.has_value() || r.value_text.has_value(), kArgValue);
  field("expected", r.expected.has_value() || r.expected_text.has_value(), kArgExpected);
  field("keys", r.keys.has_value(), kArgKeys);
  field("n", r.n.has_value(), kArgCount);
  op.id = r.id.value_or(ordinal);
  op.call = *r.call;
  op.team = r.team;
  op.lane = r.lane;
  op.launch = r.launch;
  if (r.hint) { op.has_hint = true; op.hint = *r.hint; }
  OpData& d = op.data;
  d.key = r.key.value_or(0);
  d.value = r.n ? *r.n : r.value.value_or(0);
  d.expected = r.expected.value_or(0);
  // Canonical order: expected, value, result.
  if (r.expected_text) d.expected = strings.intern(h, *r.expected_text);
  else if (r.expected) strings.kind(h, false);
  if (r.value_text) d.value = strings.intern(h, *r.value_text);
  else if (r.value) strings.kind(h, false);
  if (d.kind == OpKind::Append && !r.value_text) throw std::string("append takes a string value");
  if (r.keys && !r.keys->empty()) { d.keys_begin = append_keys(h, *r.keys); d.keys_count = uint32_t(r.keys->size()); }
  if (!r.ret_time) {
    if (r.ret_seen && r.ret_kind != ResultKind::Absent) throw std::string("pending operation (no \"return\") has a \"ret\"");
    if (*r.call == kPendingTime) throw std::string("\"call\" may not be 2^64-1 (reserved)");
    d.pending = true;
    return op;
  }
  if (*r.ret_time == kPendingTime) throw std::string("\"return\" may not be 2^64-1 (reserved for pending)");
  op.ret = *r.ret_time;
  if (spec->returns != Returns::Nothing && !r.ret_seen)
    throw "missing \"ret\" for completed " + *r.op + (spec->returns == Returns::ValueOrAbsent ? " (null means none)" : "");
  if (spec->returns == Returns::Nothing) {
    if (r.ret_kind != ResultKind::None && r.ret_kind != ResultKind::Absent) throw *r.op + " returns nothing; drop \"ret\"";
    return op;
  }
  d.result_kind = r.ret_kind;
  d.result = r.ret;
  if (r.ret_text) d.result = strings.intern(h, *r.ret_text);
  else if (r.ret_kind == ResultKind::Value) strings.kind(h, false);
  if (r.ret_kind == ResultKind::Keys && !r.ret_keys.empty()) { d.out_begin = append_keys(h, r.ret_keys); d.out_count = uint32_t(r.ret_keys.size()); }
  return op;
}

// A header line's first member is "model"; an operation line's never is.
bool is_header(std::string_view line) {
  try {
    JsonCursor c(line);
    c.expect('{');
    return c.peek() == '"' && c.parse_string() == "model";
  } catch (const JsonCursor::Error&) {
    return false;  // the operation parser reports the error with context
  }
}

// {"oracle":"deadlock","message":"...","details":"...","evidence":[3,4],"reproduce":"..."}
FailureRecord parse_failure(JsonCursor& c) {
  FailureRecord f;
  bool oracle_named = false;
  c.parse_object([&](const std::string& name) {
    if (name == "oracle") {
      const std::string oracle = c.parse_string();
      const std::optional<FailureOracle> known = parse_failure_oracle(oracle);
      if (!known) c.fail("unknown failure oracle " + detail::quoted(oracle));
      f.oracle = *known;
      oracle_named = true;
    } else if (name == "message") {
      f.message = c.parse_string();
    } else if (name == "details") {
      f.details = c.parse_string();
    } else if (name == "reproduce") {
      f.reproduce = c.parse_string();
    } else if (name == "evidence") {
      c.parse_array([&] { f.evidence.push_back(c.parse_u64()); });
    } else {
      c.fail("unknown failure record field " + detail::quoted(name));
    }
  });
  if (!oracle_named) c.fail("the failure record names no oracle");
  return f;
}

void parse_header(JsonCursor& c, History& h, bool& model_named) {
  c.parse_object([&](const std::string& name) {
    if (name == "model") {
      std::string m = c.parse_string();
      const ModelInfo* info = find_model(m);
      if (!info) c.fail("unknown model " + detail::quoted(m) + " (known: " + model_names() + ")");
      h.meta.model = info->id;
      model_named = true;
    } else if (name == "seed") {
      h.meta.seed = c.parse_u64();
    } else if (name == "incomplete") {
      h.meta.incomplete = c.parse_bool();
    } else if (name == "config") {
      if (c.peek() != '{') c.fail("\"config\" must be an object");
      h.meta.config = std::string(c.skip_value());
    } else if (name == "failure") {
      h.meta.failure = parse_failure(c);
    } else {
      c.fail("unknown header field " + detail::quoted(name));
    }
  });
}

}  // namespace

History read_jsonl(std::string_view text, const std::string& source, std::optional<ModelId> model) {
  History h;
  bool model_named = false, first = true;
  std::vector<size_t> line_of;  // line number of each operation, for later errors
  StringValues strings;
  size_t line_no = 0, pos = 0;
  while (pos < text.size()) {
    if (line_no % 4096 == 4095) detail::poll_long_step();
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    JsonCursor c(line);
    try {
      if (c.at_end()) continue;
      if (first && is_header(line)) {
        parse_header(c, h, model_named);
        if (model) h.meta.model = *model;
      } else {
        if (first && !model && !model_named) c.fail("no model: start with a header line like {\"model\":\"set\"} or pass --model");
        if (first && model) h.meta.model = *model;
        RawOperation raw = parse_operation_line(c);
        try {
          Operation op = build_operation(raw, h.model(), h, h.ops.size(), strings);
          if (auto err = operation_error(h.model(), op, h.key_pool.size())) throw *err;
          make_room(h.ops, 1);
          h.ops.push_back(op);
          line_of.push_back(line_no);
        } catch (const std::string& message) {
          throw JsonCursor::Error{1, message};
        }
      }
      if (!c.at_end()) c.fail("trailing characters after the object");
      first = false;
    } catch (const JsonCursor::Error& e) {
      throw InputError(source + ":" + std::to_string(line_no) + ":" + std::to_string(e.column) + ": " + e.message);
    } catch (const std::length_error& e) {
      throw InputError(source + ":" + std::to_string(line_no) + ": " + e.what());
    }
  }
  if (model) h.meta.model = *model;
  if (first && !model && !model_named) throw InputError(source + ": empty history and no model");
  if (auto dup = first_duplicate_id(h.ops))
    throw InputError(source + ":" + std::to_string(line_of[*dup]) + ": duplicate operation id " + std::to_string(h.ops[*dup].id));
  if (auto err = string_table_error(h)) throw InputError(source + ": " + *err);
  if (auto err = failure_error(h)) throw InputError(source + ": " + *err);
  return h;
}

namespace {

class LineWriter {
 public:
  void raw(std::string_view s) { buf_ += s; }
  void u64(uint64_t v) { number(v); }
  void i64(int64_t v) { number(v); }
  void field_u64(const char* name, uint64_t v) { key(name); u64(v); }
  void field_i64(const char* name, int64_t v) { key(name); i64(v); }
  void key(const char* name) {
    buf_ += ",\"";
    buf_ += name;
    buf_ += "\":";
  }
  void keys(std::span<const int64_t> ks) {
    buf_ += '[';
    for (size_t i = 0; i < ks.size(); ++i) {
      if (i) buf_ += ',';
      i64(ks[i]);
    }
    buf_ += ']';
  }
  void string(std::string_view s) { append_json_string(buf_, s); }
  void flush_if_large(std::ostream& out) {
    if (buf_.size() > (1 << 20)) flush(out);
  }
  void flush(std::ostream& out) {
    out.write(buf_.data(), std::streamsize(buf_.size()));
    buf_.clear();
  }

 private:
  template <class T>
  void number(T v) {
    char tmp[24];
    auto res = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, res.ptr);
  }
  std::string buf_;
};

}  // namespace

void write_jsonl(const History& h, std::ostream& out) {
  LineWriter w;
  w.raw("{\"model\":");
  w.string(h.model().name);
  if (h.meta.seed) w.field_u64("seed", h.meta.seed);
  if (!h.meta.config.empty()) { w.key("config"); w.raw(h.meta.config); }
  if (h.meta.incomplete) { w.key("incomplete"); w.raw("true"); }
  if (const std::optional<FailureRecord>& f = h.meta.failure) {
    w.key("failure");
    w.raw("{\"oracle\":");
    w.string(failure_oracle_name(f->oracle));
    w.key("message");
    w.string(f->message);
    if (!f->details.empty()) { w.key("details"); w.string(f->details); }
    if (!f->evidence.empty()) {
      w.key("evidence");
      w.raw("[");
      for (size_t i = 0; i < f->evidence.size(); ++i) {
        if (i) w.raw(",");
        w.u64(f->evidence[i]);
      }
      w.raw("]");
    }
    if (!f->reproduce.empty()) { w.key("reproduce"); w.string(f->reproduce); }
    w.raw("}");
  }
  w.raw("}\n");
  for (const Operation& op : h.ops) {
    const OpData& d = op.data;
    const OpSpec& spec = *h.model().spec(d.kind);
    w.raw("{\"id\":");
    w.u64(op.id);
    w.field_u64("team", op.team);
    if (op.lane) w.field_u64("lane", op.lane);
    if (op.launch) w.field_u64("launch", op.launch);
    w.raw(",\"op\":\"");
    w.raw(op_kind_name(d.kind));
    w.raw("\"");
    if (spec.args & kArgKey) w.field_i64("key", d.key);
    if (spec.args & kArgKeys) { w.key("keys"); w.keys(h.pushed_keys(op)); }
    auto value = [&](const char* name, int64_t v) {
      if (!h.meta.string_values) return w.field_i64(name, v);
      w.key(name);
      w.string(h.strings.at(size_t(v)));
    };
    if (spec.args & kArgExpected) value("expected", d.expected);
    if (spec.args & kArgValue) value("value", d.value);
    if (spec.args & kArgCount) w.field_i64("n", d.value);
    switch (d.result_kind) {
      case ResultKind::None: break;
      case ResultKind::Bool: w.key("ret"); w.raw(d.result ? "true" : "false"); break;
      case ResultKind::Value: value("ret", d.result); break;
      case ResultKind::Absent: w.key("ret"); w.raw("null"); break;
      case ResultKind::Keys: w.key("ret"); w.keys(h.popped_keys(op)); break;
    }
    w.field_u64("call", op.call);
    if (!d.pending) w.field_u64("return", op.ret);
    if (op.has_hint) w.field_u64("hint", op.hint);
    w.raw("}\n");
    w.flush_if_large(out);
  }
  w.flush(out);
}

}  // namespace warpcheck
