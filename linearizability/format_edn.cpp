// Jepsen-style EDN histories: a sequence of event maps (optionally inside one
// vector or list), {:process P, :type :invoke|:ok|:fail|:info, :f F, :value V}
// and, as Porcupine's key-value logs write them, {:key K, ...}. Pairing
// follows Knossos: an invoke opens an operation for its process, the
// process's next completion closes it; :fail means it did not happen (the
// operation is dropped); :info, or no completion at all, leaves it pending.
// Events of keyword processes (the nemesis) are skipped. Timestamps are
// event positions, which is exactly the order the file records. Queues and
// stacks read :enqueue/:dequeue and :push/:pop as Jepsen's queue tests
// write them (:value the value added, or the value removed, nil on empty).
//
// ImportOptions read a file the way another checker does: a starting value
// for every register (Knossos's (cas-register 0), Porcupine's ""), a nil
// read as "value unknown" (Knossos), a failed CAS as one that returned
// false (Porcupine).
#include <algorithm>
#include <set>
#include <unordered_map>

#include "linearizability/detail/edn_reader.hpp"
#include "linearizability/detail/string_values.hpp"
#include "linearizability/formats.hpp"
#include "models/base/long_step.hpp"
#include "models/base/quote.hpp"

namespace warpcheck {

namespace {

using detail::EdnValue;
using T = EdnValue::Type;

// Queues and stacks: their events carry the values added and removed.
bool holds_values(ModelId m) { return m == ModelId::Queue || m == ModelId::Stack; }

struct EdnError {
  const EdnValue* at;
  std::string message;
};

int64_t integer(const EdnValue* v, const char* what) {
  if (!v || v->type != T::Int) throw EdnError{v, std::string("expected an integer for ") + what};
  return v->integer;
}

// Operation names as Jepsen, Knossos and Porcupine spell them.
bool parse_edn_op(const std::string& f, OpKind& kind) {
  if (f == "get") kind = OpKind::Read;
  else if (f == "put") kind = OpKind::Write;
  else return parse_op_kind(f, kind);
  return true;
}

class EventReader {
 public:
  EventReader(History& h, const ImportOptions& options) : h_(h), options_(options) {}

  // A value: an integer or a string, interned.
  int64_t value(const EdnValue* v, const char* what) {
    try {
      if (v && v->type == T::String) return strings_.intern(h_, v->text);
      const int64_t x = integer(v, what);
      strings_.kind(h_, false);
      return x;
    } catch (const std::string& message) {
      throw EdnError{v, message};
    }
  }

  // The key of a kv event: :key (an integer, or a string of one), else the
  // first of a [key value] tuple (jepsen.independent); `payload` is then
  // what the operation's value is.
  const EdnValue* key_and_payload(const EdnValue& event, int64_t& key) {
    const EdnValue* v = event.get("value");
    if (const EdnValue* k = event.get("key")) {
      key = key_of(k);
      return v;
    }
    if (!v || v->type != T::Vector || v->items.size() != 2) throw EdnError{v ? v : &event, "kv events need :key, or a :value of [key value]"};
    key = key_of(&v->items[0]);
    return &v->items[1];
  }

  void arguments(const EdnValue& event, OpData& d) {
    if (holds_values(h_.meta.model)) return added_value(event, d);
    const EdnValue* v = event.get("value");
    if (h_.meta.model == ModelId::Kv) v = key_and_payload(event, d.key);
    switch (d.kind) {
      case OpKind::Read: break;  // the invoke's value is nil or a guess; the completion says
      case OpKind::Write: d.value = value(v, "a write"); break;
      case OpKind::Append:
        if (!v || v->type != T::String) throw EdnError{v ? v : &event, "append takes a string"};
        d.value = value(v, "an append");
        break;
      case OpKind::Cas:
        if (!v || v->type != T::Vector || v->items.size() != 2) throw EdnError{v ? v : &event, ":cas :value must be [expected new]"};
        d.expected = value(&v->items[0], "the expected value");
        d.value = value(&v->items[1], "the new value");
        break;
      default: break;
    }
  }

  // The result of an :ok completion.
  void result(const EdnValue& event, Operation& op) {
    OpData& d = op.data;
    if (holds_values(h_.meta.model)) return removed_value(event, d);
    if (d.kind == OpKind::Cas) {
      d.result_kind = ResultKind::Bool;
      d.result = 1;
      return;
    }
    if (d.kind != OpKind::Read) return;
    const EdnValue* v = event.get("value");
    if (h_.meta.model == ModelId::Kv) {
      int64_t key;
      v = key_and_payload(event, key);
      if (key != d.key) throw EdnError{&event, "completion is for key " + std::to_string(key) + ", invoke was " + std::to_string(d.key)};
    }
    if (!v || v->type == T::Nil) {
      if (options_.nil_reads_unknown) {  // it says nothing: as if it never returned
        d.pending = true;
        op.ret = kPendingTime;
        return;
      }
      d.result_kind = ResultKind::Absent;
    } else {
      d.result_kind = ResultKind::Value;
      d.result = value(v, "a read result");
    }
  }

  // One completed write of the starting value per register (per key of a
  // kv history), before every event.
  void write_initial_values() {
    if (!options_.initial) return;
    detail::EdnReader reader(*options_.initial);
    EdnValue literal;
    try {
      if (!reader.next(literal)) throw InputError("--initial: no value");
    } catch (const detail::EdnReader::Error& e) {
      throw InputError("--initial: " + e.message);
    }
    std::vector<int64_t> keys(h_.meta.model == ModelId::Kv ? std::vector<int64_t>(keys_.begin(), keys_.end())
                                                           : std::vector<int64_t>{0});
    for (Operation& op : h_.ops) {  // the starting values take time 0
      ++op.call;
      if (!op.pending()) ++op.ret;
    }
    const size_t first = h_.ops.size();
    for (int64_t key : keys) {
      Operation w;
      w.id = h_.ops.size();
      w.call = w.ret = 0;
      w.team = UINT32_MAX;
      w.data.kind = OpKind::Write;
      w.data.key = h_.meta.model == ModelId::Kv ? key : 0;
      try {
        w.data.value = value(&literal, "--initial");
      } catch (const EdnError& e) {
        throw InputError("--initial: " + e.message);
      }
      h_.ops.push_back(w);
    }
    std::rotate(h_.ops.begin(), h_.ops.begin() + long(first), h_.ops.end());
  }

 private:
  // Queues and stacks, as Jepsen's queue tests write them: :enqueue and
  // :push carry their value, an integer; :dequeue and :pop invoke with nil
  // and complete with the value they removed, or nil when it was empty.
  static bool adds(OpKind kind) { return kind == OpKind::Enqueue || kind == OpKind::Push; }

  void added_value(const EdnValue& event, OpData& d) {
    const EdnValue* v = event.get("value");
    if (adds(d.kind)) d.key = integer(v, "the value added (queue and stack values are integers)");
    else if (v && v->type != T::Nil) throw EdnError{v, "a " + std::string(op_kind_name(d.kind)) + " invokes with no value (nil)"};
  }

  void removed_value(const EdnValue& event, OpData& d) {
    const EdnValue* v = event.get("value");
    if (adds(d.kind)) {
      if (v && (v->type != T::Int || v->integer != d.key))
        throw EdnError{v, "the completion's value is not its invoke's (" + std::to_string(d.key) + ")"};
      return;
    }
    if (!v || v->type == T::Nil) {
      d.result_kind = ResultKind::Absent;
    } else {
      d.result_kind = ResultKind::Value;
      d.result = integer(v, "the value removed");
    }
  }

  int64_t key_of(const EdnValue* k) {
    int64_t key;
    if (k && k->type == T::String) {
      size_t used = 0;
      try {
        key = std::stoll(k->text, &used);
      } catch (...) {
        used = 0;
      }
      if (used == 0 || used != k->text.size() || std::to_string(key) != k->text)
        throw EdnError{k, "a string key must be a decimal integer, not " + detail::quoted(k->text)};
    } else {
      key = integer(k, "the key");
    }
    keys_.insert(key);
    return key;
  }

  History& h_;
  const ImportOptions& options_;
  detail::StringValues strings_;
  std::set<int64_t> keys_;
};

}  // namespace

History read_edn(std::string_view text, const std::string& source, std::optional<ModelId> model, const ImportOptions& options) {
  auto where = [&](size_t line, size_t col) { return source + ":" + std::to_string(line) + ":" + std::to_string(col) + ": "; };
  if (!model) throw InputError(source + ": EDN histories name no model: pass --model register, cas-register, kv, queue or stack");
  if (*model != ModelId::Register && *model != ModelId::CasRegister && *model != ModelId::Kv && !holds_values(*model))
    throw InputError(source + ": EDN import supports the register, cas-register, kv, queue and stack models");
  if (holds_values(*model) && options.any())
    throw InputError(source + ": --initial, --nil-reads and --failed-cas are for the register, cas-register and kv models");
  std::vector<EdnValue> events;
  try {
    detail::EdnReader reader(text);
    EdnValue form;
    while (reader.next(form)) {
      if (form.type == T::Vector || form.type == T::List) {
        for (EdnValue& e : form.items) events.push_back(std::move(e));
      } else {
        events.push_back(std::move(form));
      }
      form = EdnValue{};
    }
  } catch (const detail::EdnReader::Error& e) {
    throw InputError(where(e.line, e.column) + e.message);
  }

  History h;
  h.meta.model = *model;
  EventReader read(h, options);
  std::vector<bool> dropped;                 // :fail completions
  std::unordered_map<int64_t, size_t> open;  // process -> its open operation
  uint64_t time = 0;
  for (const EdnValue& e : events) {
    if (time % 4096 == 4095) detail::poll_long_step();
    try {
      if (e.type != T::Map) throw EdnError{&e, "expected an event map"};
      // Clients have integer processes; the nemesis and other non-client
      // actors have keywords, and their events are skipped. An event without
      // a process cannot be paired: dropping it would change the verdict.
      const EdnValue* process = e.get("process");
      if (!process) throw EdnError{&e, "event has no :process"};
      if (process->type == T::Keyword || process->type == T::Symbol) continue;
      if (process->type != T::Int) throw EdnError{process, ":process must be an integer (a client) or a keyword (:nemesis)"};
      if (process->integer < 0 || process->integer > UINT32_MAX - 1) throw EdnError{process, "process id out of range"};
      const EdnValue* type = e.get("type");
      const EdnValue* f = e.get("f");
      if (!type || type->type != T::Keyword) throw EdnError{&e, "missing :type"};
      if (!f || (f->type != T::Keyword && f->type != T::Symbol)) throw EdnError{&e, "missing :f"};
      const uint64_t now = time++;
      if (type->text == "invoke") {
        if (open.count(process->integer)) throw EdnError{&e, "process " + std::to_string(process->integer) + " invoked while its previous operation is open"};
        Operation op;
        if (!parse_edn_op(f->text, op.data.kind) || !h.model().spec(op.data.kind))
          throw EdnError{f, "operation " + detail::quoted(":" + f->text) + " is not part of model " + std::string(h.model().name)};
        if (op.data.kind == OpKind::EnqueueBatch || op.data.kind == OpKind::DequeueBatch)
          throw EdnError{f, "batched operations are not read from EDN (JSON lines and binary histories have them)"};
        read.arguments(e, op.data);
        op.id = h.ops.size();
        op.team = uint32_t(process->integer);
        op.call = now;
        op.data.pending = true;
        open[process->integer] = h.ops.size();
        h.ops.push_back(op);
        dropped.push_back(false);
      } else if (type->text == "ok" || type->text == "fail" || type->text == "info") {
        auto it = open.find(process->integer);
        if (it == open.end()) throw EdnError{&e, "completion for process " + std::to_string(process->integer) + " with no open invoke"};
        Operation& op = h.ops[it->second];
        OpKind kind;
        if (!parse_edn_op(f->text, kind) || kind != op.data.kind)
          throw EdnError{f, "completion " + detail::quoted(":" + f->text) + " does not match its invoke"};
        if (type->text == "fail" && op.data.kind == OpKind::Cas && options.failed_cas_returns_false) {
          op.data.pending = false;  // it ran, found another value, and said so
          op.ret = now;
          op.data.result_kind = ResultKind::Bool;
          op.data.result = 0;
        } else if (type->text == "fail") {
          dropped[it->second] = true;
        } else if (type->text == "ok") {
          op.data.pending = false;
          op.ret = now;
          read.result(e, op);
        }
        open.erase(it);
      } else {
        throw EdnError{type, "unknown :type " + detail::quoted(":" + type->text)};
      }
    } catch (const EdnError& err) {
      const EdnValue* at = err.at ? err.at : &e;
      throw InputError(where(at->line, at->column) + err.message);
    }
  }
  std::vector<Operation> kept;
  for (size_t i = 0; i < h.ops.size(); ++i)
    if (!dropped[i]) kept.push_back(h.ops[i]);
  h.ops = std::move(kept);
  for (size_t i = 0; i < h.ops.size(); ++i) h.ops[i].id = i;
  read.write_initial_values();
  compact_strings(h);
  for (size_t i = 0; i < h.ops.size(); ++i)
    if (auto err = operation_error(h.model(), h.ops[i], 0)) throw InputError(source + ": operation " + std::to_string(i) + ": " + *err);
  if (auto err = string_table_error(h)) throw InputError(source + ": " + *err);
  return h;
}

}  // namespace warpcheck
