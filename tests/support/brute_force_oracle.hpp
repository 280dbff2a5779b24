// An independent linearizability oracle for small histories: plain
// enumeration of every order that respects real time, against reference
// semantics written here from the model descriptions (nothing from models/
// or the checker is used). Slow by design; for up to ~12 operations.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "linearizability/history.hpp"

namespace warpcheck::testing {

// key -> sorted values. Set: non-empty means present. Map and kv: one value.
// Multimap: all live values. Priority queue and registers use key 0; so do
// queues and stacks, whose values are kept in order, front (bottom) first.
using RefState = std::map<int64_t, std::vector<int64_t>>;

// String values: the history's strings, plus every concatenation an append
// makes, each text once, so that equal texts have equal ids.
class TextTable {
 public:
  explicit TextTable(const std::vector<std::string>& strings) : texts_(strings) {
    for (size_t i = 0; i < texts_.size(); ++i) ids_.emplace(texts_[i], int64_t(i));
  }
  int64_t concat(int64_t a, int64_t b) {
    std::string joined = texts_[size_t(a)] + texts_[size_t(b)];
    auto [it, fresh] = ids_.emplace(joined, int64_t(texts_.size()));
    if (fresh) texts_.push_back(std::move(joined));
    return it->second;
  }

 private:
  std::vector<std::string> texts_;
  std::map<std::string, int64_t> ids_;
};

inline std::vector<RefState> reference_successors(ModelId model, const RefState& s0, const History& h, const Operation& op,
                                                  TextTable* texts = nullptr) {
  const OpData& d = op.data;
  const bool done = !d.pending;
  RefState s = s0;
  const int64_t key = (model == ModelId::PriorityQueue || model == ModelId::Register || model == ModelId::CasRegister ||
                       model == ModelId::Queue || model == ModelId::Stack)
                          ? 0
                          : d.key;
  std::vector<int64_t>& vals = s[key];
  auto erase_one = [](std::vector<int64_t>& v, int64_t x) { v.erase(std::find(v.begin(), v.end(), x)); };
  auto has = [](const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); };
  auto returned_value = [&](std::optional<int64_t> actual) {
    if (!done) return true;
    if (d.result_kind == ResultKind::Absent) return !actual.has_value();
    return actual.has_value() && *actual == d.result;
  };
  auto returned_bool = [&](bool b) { return !done || (d.result != 0) == b; };
  auto single = [&]() -> std::optional<int64_t> { return vals.empty() ? std::nullopt : std::optional<int64_t>(vals[0]); };
  std::vector<RefState> out;
  switch (model) {
    case ModelId::Set: {
      const bool present = !vals.empty();
      if (d.kind == OpKind::Insert) { if (!returned_bool(!present)) return {}; vals = {0}; }
      if (d.kind == OpKind::Erase) { if (!returned_bool(present)) return {}; vals.clear(); }
      if (d.kind == OpKind::Contains && !returned_bool(present)) return {};
      out.push_back(s);
      break;
    }
    case ModelId::Map: {
      const bool present = !vals.empty();
      if (d.kind == OpKind::Insert) { if (!returned_bool(!present)) return {}; if (!present) vals = {d.value}; }
      if (d.kind == OpKind::Upsert) vals = {d.value};
      if (d.kind == OpKind::Erase) { if (!returned_bool(present)) return {}; vals.clear(); }
      if (d.kind == OpKind::Find && !returned_value(single())) return {};
      out.push_back(s);
      break;
    }
    case ModelId::Multimap: {
      if (d.kind == OpKind::Insert) { vals.push_back(d.value); std::sort(vals.begin(), vals.end()); out.push_back(s); }
      if (d.kind == OpKind::Find) {
        if (done && (d.result_kind == ResultKind::Absent ? !vals.empty() : !has(vals, d.result))) return {};
        out.push_back(s);
      }
      if (d.kind == OpKind::Erase) {
        if (done) {
          if (d.result_kind == ResultKind::Absent) { if (!vals.empty()) return {}; }
          else { if (!has(vals, d.result)) return {}; erase_one(vals, d.result); }
          out.push_back(s);
        } else if (vals.empty()) {
          out.push_back(s);
        } else {
          for (int64_t v : std::vector<int64_t>(vals)) {  // any live instance
            RefState t = s0;
            erase_one(t[key], v);
            out.push_back(t);
          }
        }
      }
      break;
    }
    case ModelId::PriorityQueue: {
      if (d.kind == OpKind::Push) {
        for (int64_t k : h.pushed_keys(op)) vals.push_back(k);
        std::sort(vals.begin(), vals.end());
      } else {
        const size_t take = std::min<size_t>(size_t(d.value), vals.size());
        std::vector<int64_t> front(vals.begin(), vals.begin() + long(take));
        auto got = h.popped_keys(op);
        if (done && !std::equal(front.begin(), front.end(), got.begin(), got.end())) return {};
        vals.erase(vals.begin(), vals.begin() + long(take));
      }
      out.push_back(s);
      break;
    }
    case ModelId::Queue:
    case ModelId::Stack: {
      const bool fifo = model == ModelId::Queue;
      if (d.kind == OpKind::Enqueue || d.kind == OpKind::Push) vals.push_back(d.key);
      if (d.kind == OpKind::EnqueueBatch)
        for (int64_t k : h.pushed_keys(op)) vals.push_back(k);
      if (d.kind == OpKind::Dequeue || d.kind == OpKind::Pop) {
        std::optional<int64_t> next_out;
        if (!vals.empty()) next_out = fifo ? vals.front() : vals.back();
        if (!returned_value(next_out)) return {};
        if (next_out) vals.erase(fifo ? vals.begin() : vals.end() - 1);
      }
      if (d.kind == OpKind::DequeueBatch) {  // the min(n, size) front values, front first
        const size_t take = std::min<size_t>(size_t(d.value), vals.size());
        auto got = h.popped_keys(op);
        if (done && !std::equal(vals.begin(), vals.begin() + long(take), got.begin(), got.end())) return {};
        vals.erase(vals.begin(), vals.begin() + long(take));
      }
      out.push_back(s);
      break;
    }
    case ModelId::Register:
    case ModelId::CasRegister:
    case ModelId::Kv: {
      if (d.kind == OpKind::Read && !returned_value(single())) return {};
      if (d.kind == OpKind::Write) vals = {d.value};
      if (d.kind == OpKind::Append) {  // strings only: the text grows; an unwritten key takes the piece
        if (!texts) return {};
        vals = {vals.empty() ? d.value : texts->concat(vals[0], d.value)};
      }
      if (d.kind == OpKind::Cas) {
        const bool hit = !vals.empty() && vals[0] == d.expected;
        if (!returned_bool(hit)) return {};
        if (hit) vals = {d.value};
      }
      out.push_back(s);
      break;
    }
  }
  for (RefState& r : out) std::erase_if(r, [](const auto& kv) { return kv.second.empty(); });
  return out;
}

class BruteForceOracle {
 public:
  explicit BruteForceOracle(const History& h) : h_(h), done_(h.ops.size(), false), texts_(h.strings) {}

  bool linearizable() { return extend(RefState{}, 0); }

 private:
  bool extend(const RefState& state, size_t placed) {
    bool all_completed = true;
    for (size_t i = 0; i < h_.ops.size(); ++i) all_completed &= done_[i] || h_.ops[i].pending();
    if (all_completed) return true;  // unplaced pending operations never took effect
    for (size_t i = 0; i < h_.ops.size(); ++i) {
      if (done_[i] || !minimal(i)) continue;
      for (const RefState& next : reference_successors(h_.meta.model, state, h_, h_.ops[i], &texts_)) {
        done_[i] = true;
        const bool ok = extend(next, placed + 1);
        done_[i] = false;
        if (ok) return true;
      }
    }
    return false;
  }

  // No unplaced operation returned before op i was invoked.
  bool minimal(size_t i) const {
    for (size_t j = 0; j < h_.ops.size(); ++j)
      if (!done_[j] && j != i && h_.ops[j].ret < h_.ops[i].call) return false;
    return true;
  }

  const History& h_;
  std::vector<bool> done_;
  TextTable texts_;
};

inline bool brute_force_linearizable(const History& h) { return BruteForceOracle(h).linearizable(); }

}  // namespace warpcheck::testing
