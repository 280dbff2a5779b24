// The planted wrong answers (planted_wrong.hpp), model by model, and why
// each one is sure.
//
// "A before B" means A returned before B was invoked (A.ret < B.call; equal
// stamps are concurrent): every linearization puts A first. A pending
// operation is before nothing. A planting rests only on operations' kinds
// and arguments, which never change, and on the answers of the operations
// it names as its evidence; no planting changes an evidence's answer, and
// no earlier planting's victim is taken as evidence, so each planted answer
// stays impossible whatever else is planted.
//  - register, cas-register, kv: a stale read. W1 before W2 before the read
//    R, W2 a write or a successful cas of R's key, W1 the only operation of
//    the key that could write its value v (values are distinct in generated
//    histories; the planting counts): R answering v is impossible, since W2
//    replaced v and nothing writes it again. Keys with appends are left
//    alone (an append could spell v's text again).
//  - map: the same with a find (a lost write), W1 an upsert or an insert
//    that succeeded, W2 an upsert, or an insert or erase that succeeded; or
//    a duplicate insert, as for sets.
//  - set, map: a duplicate insert. An operation A before the insert I that
//    left the key present (an insert, whatever it answered; an upsert; a
//    contains true; a find that returned a value), and none that could
//    remove it may fall between A and I (each erase neither before A nor
//    after I failed, and is evidence; none is pending): I answering true
//    ("it was absent") is impossible. Sets also get the mirror image, an
//    erase answering true while the key is surely absent (A an erase or a
//    contains false; no insert between succeeded or is pending).
//  - multimap: a find or erase R answering a value v that a completed erase
//    E before R returned, v inserted once in the key: v is gone for good.
//  - pq: a pop that loses a key. R returned c copies of its smallest key x.
//    Pushes before R pushed P copies of x, completed pops that could come
//    before R (invoked by R's return) returned Q others, and pending pops
//    invoked by then asked for S keys at most: when P - Q - S >= c the
//    queue held c copies of x or more at R, so R returning c - 1 of them
//    and nothing smaller is impossible (it should have returned one more x,
//    or emptied the queue). Dropping keys only lowers other pops' Q: every
//    other planting stays sure.
//  - queue, stack: what --wrong-pops does, made sure: two completed
//    removals trade answers, the first, R1, getting a value whose only
//    addition was invoked after R1 returned.
#include "linearizability/synthetic/planted_wrong.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include "models/base/splitmix.hpp"

namespace warpcheck {

namespace {

// How many operations of its key are looked at around a candidate: bounds
// the work on a history with few spots.
constexpr size_t kReach = 256;

bool before(const Operation& a, const Operation& b) { return a.ret < b.call; }

bool answered(const Operation& o, bool b) {
  return !o.pending() && o.data.result_kind == ResultKind::Bool && (o.data.result != 0) == b;
}

class Planter {
 public:
  explicit Planter(History& h) : h_(h), victim_(h.ops.size()), evidence_(h.ops.size()) {
    const ModelId model = h.meta.model;
    if (model == ModelId::PriorityQueue) index_pq();
    else if (model == ModelId::Queue || model == ModelId::Stack) index_removals();
    else index_keys();
  }

  bool taken(size_t i) const { return victim_[i] || evidence_[i]; }

  // Makes operation i answer wrong when it can be made surely wrong there;
  // says how.
  std::optional<std::string> plant(uint32_t i) {
    const Operation& o = op(i);
    if (o.pending()) return std::nullopt;
    const OpKind kind = o.data.kind;
    switch (h_.meta.model) {
      case ModelId::Register:
      case ModelId::CasRegister:
      case ModelId::Kv:
        return kind == OpKind::Read ? stale_read(i) : std::nullopt;
      case ModelId::Map:
        if (kind == OpKind::Find) return stale_read(i);
        return kind == OpKind::Insert && answered(o, false) ? against(i, /*present=*/true) : std::nullopt;
      case ModelId::Set:
        if (!answered(o, false)) return std::nullopt;
        if (kind == OpKind::Insert) return against(i, /*present=*/true);
        return kind == OpKind::Erase ? against(i, /*present=*/false) : std::nullopt;
      case ModelId::Multimap:
        return kind == OpKind::Find || kind == OpKind::Erase ? erased_value(i) : std::nullopt;
      case ModelId::PriorityQueue:
        return kind == OpKind::Pop ? lose_key(i) : std::nullopt;
      case ModelId::Queue:
      case ModelId::Stack:
        return trade(i);
    }
    return std::nullopt;
  }

 private:
  struct Key {
    std::vector<uint32_t> ops;  // in invocation order
    // Earliest invocation of a pending operation that may remove, or add, the key.
    uint64_t pending_removal = kPendingTime, pending_addition = kPendingTime;
    bool appends = false;
  };

  Operation& op(uint32_t i) { return h_.ops[i]; }
  Key& key_of(uint32_t i) { return keys_[key(i)]; }
  int64_t key(uint32_t i) const { return h_.model().partition_by_key ? h_.ops[i].data.key : 0; }
  std::string id(uint32_t i) const { return "id " + std::to_string(h_.ops[i].id); }
  std::string now_answers(uint32_t i) const { return id(i) + " " + describe_operation(h_, h_.ops[i]); }

  // Operations that could put `value` in the key: any write, cas, upsert
  // or insert of it, whatever it answered. A hash collision only counts
  // more, which makes a value look written twice: never a wrong spot.
  uint32_t& writers(int64_t key, int64_t value) { return writers_[detail::mix64(uint64_t(key)) ^ uint64_t(value)]; }

  void index_keys() {
    for (uint32_t i = 0; i < h_.ops.size(); ++i) {
      const Operation& o = h_.ops[i];
      const OpData& d = o.data;
      Key& k = keys_[key(i)];
      k.ops.push_back(i);
      if (d.kind == OpKind::Append) k.appends = true;
      if (d.kind == OpKind::Write || d.kind == OpKind::Cas || d.kind == OpKind::Upsert ||
          (d.kind == OpKind::Insert && h_.meta.model != ModelId::Set))
        ++writers(key(i), d.value);
      if (o.pending() && d.kind == OpKind::Erase) k.pending_removal = std::min(k.pending_removal, o.call);
      if (o.pending() && (d.kind == OpKind::Insert || d.kind == OpKind::Upsert)) k.pending_addition = std::min(k.pending_addition, o.call);
      if (!o.pending()) widest_ = std::max(widest_, o.ret - o.call);
    }
    position_.resize(h_.ops.size());
    for (auto& entry : keys_) {
      Key& k = entry.second;
      std::stable_sort(k.ops.begin(), k.ops.end(), [&](uint32_t a, uint32_t b) { return h_.ops[a].call < h_.ops[b].call; });
      for (uint32_t p = 0; p < k.ops.size(); ++p) position_[k.ops[p]] = p;
    }
  }

  // The value a completed operation surely wrote: a write, an upsert, a
  // successful cas or map insert.
  std::optional<int64_t> wrote(const Operation& o) const {
    const OpData& d = o.data;
    if (o.pending()) return std::nullopt;
    if (d.kind == OpKind::Write || d.kind == OpKind::Upsert) return d.value;
    if ((d.kind == OpKind::Cas || d.kind == OpKind::Insert) && answered(o, true)) return d.value;
    return std::nullopt;
  }

  // Surely replaced or removed the key's value.
  bool replaced(const Operation& o) const { return wrote(o) || (o.data.kind == OpKind::Erase && answered(o, true)); }

  bool answers_value(const Operation& o, int64_t v) const { return o.data.result_kind == ResultKind::Value && o.data.result == v; }

  std::optional<std::string> answer_value(uint32_t r, int64_t v, std::string why) {
    OpData& d = op(r).data;
    d.result_kind = ResultKind::Value;
    d.result = v;
    victim_[r] = true;
    return now_answers(r) + ": " + why;
  }

  // Register, cas-register, kv, map: the read answers a value surely
  // replaced before it was invoked.
  std::optional<std::string> stale_read(uint32_t r) {
    const Operation& R = op(r);
    const Key& k = key_of(r);
    if (k.appends) return std::nullopt;
    size_t walked = 0;
    for (size_t p = position_[r]; p-- > 0 && ++walked <= kReach;) {
      const uint32_t w2 = k.ops[p];
      if (!before(op(w2), R) || victim_[w2] || !replaced(op(w2))) continue;
      // The latest replacement before R: a write before an earlier one is before this one too.
      for (size_t q = p; q-- > 0 && ++walked <= kReach;) {
        const uint32_t w1 = k.ops[q];
        const std::optional<int64_t> v = wrote(op(w1));
        if (!v || victim_[w1] || !before(op(w1), op(w2)) || writers(key(r), *v) != 1 || answers_value(R, *v)) continue;
        evidence_[w1] = evidence_[w2] = true;
        return answer_value(r, *v, "stale, " + id(w1) + " wrote it and " + id(w2) + " replaced it before " + id(r) + " was invoked");
      }
      return std::nullopt;
    }
    return std::nullopt;
  }

  // Multimap: the find or erase answers a value a completed erase took
  // before it was invoked.
  std::optional<std::string> erased_value(uint32_t r) {
    const Operation& R = op(r);
    const Key& k = key_of(r);
    size_t walked = 0;
    for (size_t p = position_[r]; p-- > 0 && ++walked <= kReach;) {
      const uint32_t e = k.ops[p];
      const Operation& E = op(e);
      if (E.data.kind != OpKind::Erase || E.pending() || E.data.result_kind != ResultKind::Value || !before(E, R) || victim_[e]) continue;
      const int64_t v = E.data.result;
      if (writers(key(r), v) != 1 || answers_value(R, v)) continue;
      evidence_[e] = true;
      return answer_value(r, v, "inserted once, and " + id(e) + " erased it before " + id(r) + " was invoked");
    }
    return std::nullopt;
  }

  // Whether a completed operation left the key present (absent).
  bool leaves(const Operation& o, bool present) const {
    const OpData& d = o.data;
    if (o.pending()) return false;
    if (present)
      return d.kind == OpKind::Insert || d.kind == OpKind::Upsert || (d.kind == OpKind::Contains && answered(o, true)) ||
             (d.kind == OpKind::Find && d.result_kind == ResultKind::Value);
    return d.kind == OpKind::Erase || (d.kind == OpKind::Contains && answered(o, false)) ||
           (d.kind == OpKind::Find && d.result_kind == ResultKind::Absent);
  }

  // Whether an operation of this kind could remove the key (present), or
  // add it (absent), unless it answered that it failed.
  static bool could_undo(const OpData& d, bool present) {
    return present ? d.kind == OpKind::Erase : d.kind == OpKind::Insert || d.kind == OpKind::Upsert;
  }

  // Set, map: the insert (present) or erase (absent), which answered false,
  // answers true while the key is surely present (absent) throughout it.
  std::optional<std::string> against(uint32_t v, bool present) {
    const Operation& V = op(v);
    const Key& k = key_of(v);
    if ((present ? k.pending_removal : k.pending_addition) <= V.ret) return std::nullopt;
    // The latest operation before V that leaves the key so: the narrowest window.
    std::optional<uint32_t> a;
    for (size_t p = position_[v], walked = 0; p-- > 0 && ++walked <= kReach && !a;)
      if (before(op(k.ops[p]), V) && !victim_[k.ops[p]] && leaves(op(k.ops[p]), present)) a = k.ops[p];
    if (!a) return std::nullopt;
    const Operation& A = op(*a);
    // Operations that may fall between A and V: invoked by V's return, and
    // returned at or after A's invocation (so invoked at most widest_ before it).
    const uint64_t from = A.call > widest_ ? A.call - widest_ : 0;
    auto p = std::lower_bound(k.ops.begin(), k.ops.end(), from, [&](uint32_t i, uint64_t t) { return h_.ops[i].call < t; });
    std::vector<uint32_t> held;
    for (size_t walked = 0; p != k.ops.end() && op(*p).call <= V.ret; ++p) {
      if (++walked > 4 * kReach) return std::nullopt;
      const uint32_t x = *p;
      if (x == *a || x == v || before(op(x), A) || before(V, op(x)) || !could_undo(op(x).data, present)) continue;
      if (victim_[x] || op(x).data.kind == OpKind::Upsert || !answered(op(x), false)) return std::nullopt;
      held.push_back(x);  // it failed: while that answer stands it changed nothing
    }
    op(v).data.result = 1;
    victim_[v] = true;
    evidence_[*a] = true;
    for (uint32_t x : held) evidence_[x] = true;
    return now_answers(v) + ": the key is surely " + (present ? "present" : "absent") + " throughout it (" + id(*a) +
           " left it so, and nothing that could " + (present ? "remove" : "add") + " it may fall between)";
  }

  // Priority queue: per key, the completed pushes' returns and the
  // completed pops' invocations, an entry per copy; the pending pops'
  // invocations with the keys asked for so far.
  void index_pq() {
    for (uint32_t i = 0; i < h_.ops.size(); ++i) {
      const Operation& o = h_.ops[i];
      if (o.data.kind == OpKind::Push && !o.pending())
        for (int64_t x : h_.pushed_keys(o)) pushes_[x].push_back(o.ret);
      if (o.data.kind == OpKind::Pop && !o.pending())
        for (int64_t x : h_.popped_keys(o)) pops_[x].push_back(o.call);
      if (o.data.kind == OpKind::Pop && o.pending()) pending_pops_.emplace_back(o.call, uint64_t(o.data.value));
    }
    for (auto& [x, times] : pushes_) std::sort(times.begin(), times.end());
    for (auto& [x, times] : pops_) std::sort(times.begin(), times.end());
    std::sort(pending_pops_.begin(), pending_pops_.end());
    for (size_t i = 1; i < pending_pops_.size(); ++i) pending_pops_[i].second += pending_pops_[i - 1].second;
  }

  std::optional<std::string> lose_key(uint32_t r) {
    OpData& d = op(r).data;
    const Operation& R = op(r);
    if (d.out_count == 0) return std::nullopt;
    int64_t* keys = h_.key_pool.data() + d.out_begin;
    int64_t* smallest = std::min_element(keys, keys + d.out_count);
    const int64_t x = *smallest;
    const int64_t copies = std::count(keys, keys + d.out_count, x);
    const std::vector<uint64_t>& pushed = pushes_[x];
    const std::vector<uint64_t>& popped = pops_[x];
    const int64_t pushed_before = std::lower_bound(pushed.begin(), pushed.end(), R.call) - pushed.begin();
    const int64_t popped_maybe_before = (std::upper_bound(popped.begin(), popped.end(), R.ret) - popped.begin()) - copies;
    const auto pending = std::upper_bound(pending_pops_.begin(), pending_pops_.end(), std::pair{R.ret, UINT64_MAX});
    const int64_t asked = pending == pending_pops_.begin() ? 0 : int64_t(std::prev(pending)->second);
    const int64_t held = pushed_before - popped_maybe_before - asked;
    if (held < copies) return std::nullopt;
    std::rotate(keys, smallest, smallest + 1);  // that x first, the others in order
    d.out_begin = --d.out_count ? d.out_begin + 1 : 0;  // an empty answer's range is zero (canonical)
    victim_[r] = true;
    return now_answers(r) + ": it lost one of the " + std::to_string(copies) + " copies of " + std::to_string(x) +
           " it returned, while the queue surely held " + std::to_string(held);
  }

  // Queue, stack: where each value was added and removed.
  struct Removal {
    uint32_t op;
    int64_t* slot;  // the removed value: the answer, or its place in the key pool
  };

  std::vector<int64_t> added_values(const Operation& o) const {
    if (o.data.kind == OpKind::EnqueueBatch) {
      const auto keys = h_.pushed_keys(o);
      return {keys.begin(), keys.end()};
    }
    return {o.data.key};
  }

  void index_removals() {
    for (uint32_t i = 0; i < h_.ops.size(); ++i) {
      Operation& o = h_.ops[i];
      OpData& d = o.data;
      if (d.kind == OpKind::Enqueue || d.kind == OpKind::Push || d.kind == OpKind::EnqueueBatch) {
        adders_.push_back(i);
        for (int64_t v : added_values(o)) ++added_[v];
      }
      if (o.pending()) continue;
      if ((d.kind == OpKind::Dequeue || d.kind == OpKind::Pop) && d.result_kind == ResultKind::Value)
        removed_[d.result].push_back({i, &d.result});
      if (d.kind == OpKind::DequeueBatch)
        for (uint32_t k = 0; k < d.out_count; ++k) removed_[h_.key_pool[d.out_begin + k]].push_back({i, &h_.key_pool[d.out_begin + k]});
    }
    std::stable_sort(adders_.begin(), adders_.end(), [&](uint32_t a, uint32_t b) { return h_.ops[a].call < h_.ops[b].call; });
  }

  std::optional<std::string> trade(uint32_t r1) {
    const Operation& R1 = op(r1);
    OpData& d = op(r1).data;
    int64_t* slot1 = (d.kind == OpKind::Dequeue || d.kind == OpKind::Pop) && d.result_kind == ResultKind::Value ? &d.result
                     : d.kind == OpKind::DequeueBatch && d.out_count > 0                                       ? &h_.key_pool[d.out_begin]
                                                                                                               : nullptr;
    if (!slot1) return std::nullopt;
    auto a = std::upper_bound(adders_.begin(), adders_.end(), R1.ret, [&](uint64_t t, uint32_t i) { return t < h_.ops[i].call; });
    for (size_t walked = 0; a != adders_.end() && ++walked <= kReach; ++a)
      for (int64_t v : added_values(op(*a))) {
        auto removal = removed_.find(v);
        if (added_[v] != 1 || removal == removed_.end() || removal->second.size() != 1) continue;
        const Removal r2 = removal->second.front();
        if (r2.op == r1 || taken(r2.op)) continue;
        const int64_t v1 = *slot1;
        std::swap(*slot1, *r2.slot);
        removal->second.front() = {r1, slot1};
        if (auto other = removed_.find(v1); other != removed_.end() && other->second.size() == 1) other->second.front() = r2;
        victim_[r1] = victim_[r2.op] = true;
        return now_answers(r1) + ": " + std::to_string(v) + " was added only by " + id(*a) + ", invoked after " + id(r1) +
               " returned (traded with " + id(r2.op) + ")";
      }
    return std::nullopt;
  }

  History& h_;
  std::vector<bool> victim_;    // answers changed
  std::vector<bool> evidence_;  // answers a planting rests on
  // Keyed models and registers.
  std::unordered_map<int64_t, Key> keys_;
  std::vector<uint32_t> position_;  // operation -> its place in its key's ops
  std::unordered_map<uint64_t, uint32_t> writers_;
  uint64_t widest_ = 0;  // the longest completed operation
  // Priority queue.
  std::unordered_map<int64_t, std::vector<uint64_t>> pushes_, pops_;
  std::vector<std::pair<uint64_t, uint64_t>> pending_pops_;  // (invocation, keys asked by it and the ones before)
  // Queue, stack.
  std::vector<uint32_t> adders_;  // in invocation order
  std::unordered_map<int64_t, uint32_t> added_;
  std::unordered_map<int64_t, std::vector<Removal>> removed_;
};

}  // namespace

std::vector<PlantedAnswer> plant_wrong_answers(History& h, uint32_t count) {
  std::vector<PlantedAnswer> planted;
  if (count == 0) return planted;
  Planter planter(h);
  const size_t n = h.ops.size();
  for (uint32_t c = 0; c < count; ++c) {
    // Spread: the c-th is looked for from the middle of the c-th of `count`
    // equal stretches of the history, outward.
    const size_t middle = size_t((2 * uint64_t(c) + 1) * n / (2 * uint64_t(count)));
    std::optional<std::string> what;
    size_t at = 0;
    for (size_t s = 0; s < 2 * n && !what; ++s) {
      const size_t off = (s + 1) / 2;
      if (s % 2 ? middle + off >= n : off > middle) continue;
      at = s % 2 ? middle + off : middle - off;
      if (!planter.taken(at)) what = planter.plant(uint32_t(at));
    }
    if (!what)
      throw std::runtime_error("found sure spots for only " + std::to_string(c) + " of " + std::to_string(count) +
                               " wrong answers in this history (model " + std::string(h.model().name) + ", " + std::to_string(n) +
                               " operations); more operations per key or less overlap give more");
    planted.push_back({at, std::move(*what)});
  }
  if (h.meta.model == ModelId::PriorityQueue) compact_key_pool(h);  // the lost keys' places
  return planted;
}

}  // namespace warpcheck
