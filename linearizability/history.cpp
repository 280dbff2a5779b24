#include "linearizability/history.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "models/base/long_step.hpp"
#include "models/base/quote.hpp"

namespace warpcheck {

namespace {

std::string_view returns_name(Returns r) {
  switch (r) {
    case Returns::Nothing: return "nothing";
    case Returns::Bool: return "a bool";
    case Returns::ValueOrAbsent: return "a value or null";
    case Returns::Keys: return "an array of keys";
  }
  return "?";
}

bool result_fits(Returns expected, ResultKind got) {
  switch (expected) {
    case Returns::Nothing: return got == ResultKind::None;
    case Returns::Bool: return got == ResultKind::Bool;
    case Returns::ValueOrAbsent: return got == ResultKind::Value || got == ResultKind::Absent;
    case Returns::Keys: return got == ResultKind::Keys;
  }
  return false;
}

}  // namespace

std::optional<std::string> operation_error(const ModelInfo& model, const Operation& op, size_t pool_size) {
  const OpData& d = op.data;
  if (static_cast<int>(d.kind) >= kOpKindCount) return "unknown operation kind " + std::to_string(int(d.kind));
  const OpSpec* spec = model.spec(d.kind);
  // Built only when there is an error to report: this runs on every record.
  auto what = [&] { return std::string(model.name) + "." + std::string(op_kind_name(d.kind)); };
  if (!spec) return "operation '" + std::string(op_kind_name(d.kind)) + "' is not part of model '" + std::string(model.name) + "'";
  if (d.pending != (op.ret == kPendingTime)) return "pending flag disagrees with the response time";
  if (!d.pending && op.ret < op.call)
    return "response at " + std::to_string(op.ret) + " before its invocation at " + std::to_string(op.call);
  if (d.pending && d.result_kind != ResultKind::None) return what() + " is pending but has a result";
  if (!d.pending && !result_fits(spec->returns, d.result_kind))
    return what() + " must return " + std::string(returns_name(spec->returns));
  if (d.result_kind == ResultKind::Bool && d.result != 0 && d.result != 1) return "bool result out of range";
  if (spec->args & kArgCount && d.value < 0) return what() + ": negative count";
  if (uint64_t(d.keys_begin) + d.keys_count > pool_size || uint64_t(d.out_begin) + d.out_count > pool_size)
    return "key batch outside the key pool";
  if (!(spec->args & kArgKeys) && d.keys_count != 0) return what() + " takes no batch of keys";
  if (d.result_kind != ResultKind::Keys && d.out_count != 0) return what() + " returned keys it cannot return";
  if (d.result_kind == ResultKind::Keys && spec->args & kArgCount && d.out_count > uint64_t(d.value))
    return what() + " returned " + std::to_string(d.out_count) + " keys but asked for " + std::to_string(d.value);
  Operation canonical = op;
  clear_unused_fields(model, canonical);
  if (std::memcmp(&canonical.data, &op.data, sizeof(OpData)) != 0 || canonical.hint != op.hint)
    return what() + ": a field it does not use is not zero";
  return std::nullopt;
}

void clear_unused_fields(const ModelInfo& model, Operation& op) {
  OpData& d = op.data;
  const OpSpec* spec = model.spec(d.kind);
  const uint8_t args = spec ? spec->args : 0;
  if (!(args & kArgKey)) d.key = 0;
  if (!(args & (kArgValue | kArgCount))) d.value = 0;
  if (!(args & kArgExpected)) d.expected = 0;
  if (d.result_kind != ResultKind::Bool && d.result_kind != ResultKind::Value) d.result = 0;
  if (d.keys_count == 0) d.keys_begin = 0;
  if (d.out_count == 0) d.out_begin = 0;
  if (!op.has_hint) op.hint = 0;
}

std::optional<std::string> key_pool_error(const History& h) {
  uint64_t next = 0;
  for (size_t i = 0; i < h.ops.size(); ++i) {
    const OpData& d = h.ops[i].data;
    for (auto [begin, count] : {std::pair{d.keys_begin, d.keys_count}, std::pair{d.out_begin, d.out_count}}) {
      if (count == 0) continue;
      if (begin != next)
        return "operation " + std::to_string(i) + ": its keys start at pool index " + std::to_string(begin) +
               ", not " + std::to_string(next) + " (batches must follow each other in operation order)";
      next += count;
    }
  }
  if (next != h.key_pool.size()) return std::to_string(h.key_pool.size() - next) + " unused keys at the end of the key pool";
  return std::nullopt;
}

namespace {

// The canonical pool of `ops`, whose ranges point into `from`; the ranges
// are rewritten to point into it.
std::vector<int64_t> canonical_pool(std::vector<Operation>& ops, const std::vector<int64_t>& from) {
  std::vector<int64_t> pool;
  for (Operation& op : ops) {
    OpData& d = op.data;
    for (auto [begin, count] : {std::pair{&d.keys_begin, d.keys_count}, std::pair{&d.out_begin, d.out_count}}) {
      if (count == 0) continue;
      const uint32_t at = *begin;
      *begin = uint32_t(pool.size());
      pool.insert(pool.end(), from.begin() + at, from.begin() + at + count);
    }
  }
  return pool;
}

}  // namespace

void compact_key_pool(History& h) { h.key_pool = canonical_pool(h.ops, h.key_pool); }

namespace {

// The value fields of `op` that hold string ids in a string history, in
// canonical order.
template <class F>
void for_each_value_field(const ModelInfo& model, OpData& d, F&& f) {
  const OpSpec* spec = model.spec(d.kind);
  const uint8_t args = spec ? spec->args : 0;
  if (args & kArgExpected) f(d.expected);
  if (args & kArgValue) f(d.value);
  if (d.result_kind == ResultKind::Value) f(d.result);
}

}  // namespace

std::optional<std::string> string_table_error(const History& h) {
  if (!h.meta.string_values) {
    if (!h.strings.empty()) return std::string("a string table in a history without string values");
    for (size_t i = 0; i < h.ops.size(); ++i)
      if (h.ops[i].data.kind == OpKind::Append)
        return "operation " + std::to_string(i) + ": append needs string values";
    return std::nullopt;
  }
  if (h.model().id != ModelId::Register && h.model().id != ModelId::CasRegister && h.model().id != ModelId::Kv)
    return "string values are for the register, cas-register and kv models, not " + std::string(h.model().name);
  int64_t next = 0;
  std::optional<std::string> err;
  for (size_t i = 0; i < h.ops.size() && !err; ++i) {
    OpData d = h.ops[i].data;
    for_each_value_field(h.model(), d, [&](int64_t& id) {
      if (err) return;
      if (id < 0 || id > next || uint64_t(id) >= h.strings.size())
        err = "operation " + std::to_string(i) + ": string value " + std::to_string(id) +
              " is out of the canonical table (strings are numbered in order of first use)";
      else if (id == next) ++next;
    });
  }
  if (err) return err;
  if (uint64_t(next) != h.strings.size()) return std::to_string(h.strings.size() - uint64_t(next)) + " unused strings at the end of the table";
  std::unordered_set<std::string_view> seen;
  for (const std::string& str : h.strings)
    if (!seen.insert(str).second) return std::string("a string appears twice in the table");
  return std::nullopt;
}

namespace {

// The canonical string table of `ops`, whose value fields are ids into
// `from`; the ids are rewritten to point into it. Renaming through a map
// costs what `ops` use, not the size of `from` (a key's share of a table).
std::vector<std::string> canonical_strings(const ModelInfo& model, std::vector<Operation>& ops, const std::vector<std::string>& from) {
  std::vector<std::string> table;
  std::unordered_map<int64_t, int64_t> renamed;
  std::unordered_map<std::string_view, int64_t> index;
  for (Operation& op : ops)
    for_each_value_field(model, op.data, [&](int64_t& id) {
      if (id < 0 || uint64_t(id) >= from.size()) return;
      auto [name, unnamed] = renamed.try_emplace(id, 0);
      if (unnamed) {
        auto [it, fresh] = index.try_emplace(from[size_t(id)], int64_t(table.size()));
        if (fresh) table.push_back(from[size_t(id)]);
        name->second = it->second;
      }
      id = name->second;
    });
  return table;
}

}  // namespace

void compact_strings(History& h) {
  if (h.meta.string_values) h.strings = canonical_strings(h.model(), h.ops, h.strings);
}

History restrict_history(const History& h, std::span<const uint32_t> ops) {
  History sub;
  sub.meta = h.meta;
  sub.ops.reserve(ops.size());
  for (uint32_t i : ops) sub.ops.push_back(h.ops[i]);
  sub.key_pool = canonical_pool(sub.ops, h.key_pool);
  if (h.meta.string_values) sub.strings = canonical_strings(h.model(), sub.ops, h.strings);
  return sub;
}

std::optional<std::string> failure_error(const History& h) {
  if (!h.meta.failure) return std::nullopt;
  std::vector<uint64_t> ids(h.ops.size());
  for (size_t i = 0; i < h.ops.size(); ++i) ids[i] = h.ops[i].id;
  std::sort(ids.begin(), ids.end());
  return failure_record_error(*h.meta.failure, ids);
}

std::optional<size_t> first_duplicate_id(const std::vector<Operation>& ops) {
  std::unordered_set<uint64_t> seen;
  seen.reserve(ops.size() * 2);
  for (size_t i = 0; i < ops.size(); ++i) {
    if (i % 65536 == 65535) detail::poll_long_step();
    if (!seen.insert(ops[i].id).second) return i;
  }
  return std::nullopt;
}

std::string sentinel_name(const History& h, int64_t value) {
  if (h.meta.string_values) return {};
  if (value == 0xFFFFFFFFll) return h.meta.model == ModelId::PriorityQueue ? "INF" : "EMPTY";
  if (value == 0xFFFFFFFEll) return "TOMBSTONE";
  return {};
}

std::string describe_operation(const History& h, const Operation& op) {
  const OpData& d = op.data;
  const OpSpec* spec = h.model().spec(d.kind);
  std::string out(op_kind_name(d.kind));
  std::vector<std::string> args;
  // A batch of more than 16 keys shows its first 8 and last 4 (a GPU pop
  // of 1,024 keys would fill a screen); the history file holds them all.
  auto number = [&](int64_t v) {
    const std::string name = sentinel_name(h, v);
    return std::to_string(v) + (name.empty() ? "" : " (" + name + ")");
  };
  auto keys = [&](std::span<const int64_t> ks) {
    constexpr size_t kHead = 8, kTail = 4;
    std::string s = "[";
    for (size_t i = 0; i < ks.size(); ++i) {
      if (ks.size() > kHead + kTail + 4 && i == kHead) {
        s += ",... " + std::to_string(ks.size() - kHead - kTail) + " more ...";
        i = ks.size() - kTail - 1;
        continue;
      }
      if (i) s += ',';
      s += number(ks[i]);
    }
    return s + "]";
  };
  const uint8_t a = spec ? spec->args : 0;
  auto value = [&](int64_t v) {
    return h.meta.string_values && v >= 0 && uint64_t(v) < h.strings.size() ? detail::quoted(h.strings[size_t(v)]) : number(v);
  };
  if (a & kArgKey) args.push_back(number(d.key));
  if (a & kArgExpected) args.push_back(value(d.expected));
  if (a & kArgValue) args.push_back(value(d.value));
  if (a & kArgCount) args.push_back(std::to_string(d.value));
  if (a & kArgKeys) args.push_back(keys(h.pushed_keys(op)));
  out += "(";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) out += ',';
    out += args[i];
  }
  out += ")";
  switch (d.result_kind) {
    case ResultKind::None: break;
    case ResultKind::Bool: out += d.result ? " -> true" : " -> false"; break;
    case ResultKind::Value: out += " -> " + value(d.result); break;
    case ResultKind::Absent: out += " -> null"; break;
    case ResultKind::Keys: out += " -> " + keys(h.popped_keys(op)); break;
  }
  if (d.pending) out += " (pending)";
  return out;
}

}  // namespace warpcheck
