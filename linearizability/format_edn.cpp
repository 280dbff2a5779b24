// Jepsen-style EDN histories: a sequence of event maps (optionally inside one
// vector or list), {:process P, :type :invoke|:ok|:fail|:info, :f F, :value V}.
// Pairing follows Knossos: an invoke opens an operation for its process, the
// process's next completion closes it; :fail means it did not happen (the
// operation is dropped); :info, or no completion at all, leaves it pending.
// Events from non-integer processes (the nemesis) are skipped. Timestamps
// are event positions, which is exactly the order the file records.
#include <unordered_map>

#include "linearizability/detail/edn_reader.hpp"
#include "linearizability/detail/quote.hpp"
#include "linearizability/formats.hpp"
#include "models/detail/long_step.hpp"

namespace warpcheck {

namespace {

using detail::EdnValue;
using T = EdnValue::Type;

struct EdnError {
  const EdnValue* at;
  std::string message;
};

int64_t integer(const EdnValue* v, const char* what) {
  if (!v || v->type != T::Int) throw EdnError{v, std::string("expected an integer for ") + what};
  return v->integer;
}

// Splits a kv value [key payload] (Jepsen's independent tuples).
const EdnValue* kv_payload(const EdnValue* v, int64_t& key) {
  if (!v || v->type != T::Vector || v->items.size() != 2) throw EdnError{v, "kv :value must be [key value]"};
  key = integer(&v->items[0], "the key");
  return &v->items[1];
}

// Arguments of an invoke event.
void read_arguments(ModelId model, const EdnValue& event, OpData& d) {
  const EdnValue* value = event.get("value");
  if (model == ModelId::Kv) value = kv_payload(value, d.key);
  switch (d.kind) {
    case OpKind::Read: break;  // the invoke's value is nil or a guess; the completion says
    case OpKind::Write: d.value = integer(value, "a write"); break;
    case OpKind::Cas:
      if (!value || value->type != T::Vector || value->items.size() != 2) throw EdnError{value, ":cas :value must be [expected new]"};
      d.expected = integer(&value->items[0], "the expected value");
      d.value = integer(&value->items[1], "the new value");
      break;
    default: break;
  }
}

// Result of an :ok completion.
void read_result(ModelId model, const EdnValue& event, OpData& d) {
  switch (d.kind) {
    case OpKind::Read: {
      const EdnValue* value = event.get("value");
      if (model == ModelId::Kv) {
        int64_t key;
        value = kv_payload(value, key);
        if (key != d.key) throw EdnError{&event, "completion is for key " + std::to_string(key) + ", invoke was " + std::to_string(d.key)};
      }
      if (!value || value->type == T::Nil) d.result_kind = ResultKind::Absent;
      else { d.result_kind = ResultKind::Value; d.result = integer(value, "a read result"); }
      break;
    }
    case OpKind::Cas: d.result_kind = ResultKind::Bool; d.result = 1; break;
    default: break;
  }
}

}  // namespace

History read_edn(std::string_view text, const std::string& source, std::optional<ModelId> model) {
  auto where = [&](size_t line, size_t col) { return source + ":" + std::to_string(line) + ":" + std::to_string(col) + ": "; };
  if (!model) throw InputError(source + ": EDN histories name no model: pass --model register, cas-register or kv");
  if (*model != ModelId::Register && *model != ModelId::CasRegister && *model != ModelId::Kv)
    throw InputError(source + ": EDN import supports the register, cas-register and kv models");
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
  std::vector<bool> dropped;                    // :fail completions
  std::unordered_map<int64_t, size_t> open;     // process -> its open operation
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
      if (process->integer < 0 || process->integer > UINT32_MAX) throw EdnError{process, "process id out of range"};
      const EdnValue* type = e.get("type");
      const EdnValue* f = e.get("f");
      if (!type || type->type != T::Keyword) throw EdnError{&e, "missing :type"};
      if (!f || (f->type != T::Keyword && f->type != T::Symbol)) throw EdnError{&e, "missing :f"};
      const uint64_t now = time++;
      if (type->text == "invoke") {
        if (open.count(process->integer)) throw EdnError{&e, "process " + std::to_string(process->integer) + " invoked while its previous operation is open"};
        Operation op;
        if (!parse_op_kind(f->text, op.data.kind) || !h.model().spec(op.data.kind))
          throw EdnError{f, "operation " + detail::quoted(":" + f->text) + " is not part of model " + std::string(h.model().name)};
        read_arguments(*model, e, op.data);
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
        if (f->text != op_kind_name(op.data.kind)) throw EdnError{f, "completion " + detail::quoted(":" + f->text) + " does not match its invoke"};
        if (type->text == "fail") dropped[it->second] = true;
        if (type->text == "ok") {
          op.data.pending = false;
          op.ret = now;
          read_result(*model, e, op.data);
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
  for (size_t i = 0; i < h.ops.size(); ++i) {
    h.ops[i].id = i;
    if (auto err = operation_error(h.model(), h.ops[i], 0)) throw InputError(source + ": operation " + std::to_string(i) + ": " + *err);
  }
  return h;
}

}  // namespace warpcheck
