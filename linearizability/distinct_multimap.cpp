// The distinct-value multimap decision procedure (distinct_multimap.hpp).
//
// Why it is right. Keys are decided apart (P-compositionality); fix one.
// A linearization is an order of the operations that took effect which
// respects real time (A before B whenever A returned before B was invoked;
// equal stamps are concurrent). Such an order has points: the k-th
// operation at the latest invocation among the first k, a moment inside
// its interval, never decreasing along the order. Conversely, points
// inside the intervals, sorted with ties in any order, give such an order.
// So "p(X)" below is X's point, and operations at one moment go in any order.
//
// With no value inserted twice the key's state is a set of values. An
// operation that took effect concerns one value v: insert(v) adds it, an
// erase that returned v removes it, a find that returned v needs it live,
// an absent answer (erase or find) needs the set empty, and a pending
// erase removes any one live value, or nothing. A pending insert whose
// value nobody returned is left out (that only makes the set smaller), and
// so are pending finds. A find or erase returning a value no insert of the
// key added, or two completed erases of one value, refute the history.
//  1. A value v, its insert I, its completed erase E (if any) and the finds
//     F that returned it must go I, Fs, E. Real time forbids that iff an F
//     or E returned before I was invoked, or E returned before an F was
//     invoked. Let a(v) be the earliest response among v's operations and
//     b(v) their latest invocation. Any linearization has p(I) <= a(v) (I
//     goes before each X of v, whose point is at most its response) and
//     likewise p(E) >= b(v): v is live on [p(I), p(E)], which contains the
//     open (a(v), b(v)). An absent answer X goes before I or after E, so
//     p(X) <= a(v) or p(X) >= b(v): never strictly inside (a(v), b(v)).
//     If E exists and a(v) >= b(v), every interval of v holds the moment
//     b(v) (each invocation is at most b(v), each response at least a(v)):
//     I, Fs, E take effect there back to back, and v is never live between
//     other operations: it constrains nothing.
//  2. A value no completed erase returned, kept (its insert completed or a
//     find returned it), is live from p(I) <= a(v) on, unless a pending
//     erase P removes it, which happens after its insert and finds: p(P) >=
//     b(v), and p(P) >= P's invocation. So (a(v), b(v)) is covered as in 1;
//     and an absent answer X with p(X) > a(v) needs v removed by then, by a
//     pending erase invoked by p(X), one a value. Counting N(t), the kept
//     values with a(v) < t, and C(t), the pending erases invoked at or
//     before t, every linearization has N(p(X)) <= C(p(X)).
//     N counts just after each a(v), C from each invocation on, so the
//     moments where N > C form open stretches too, from some a(v) to some
//     pending erase's invocation (or forever).
//  3. Sufficiency. Suppose 1 holds for every value and every absent answer
//     X has a moment t_X of its interval outside all those open stretches.
//     Put I at a(v), each F at max(F's invocation, a(v)) (inside F, since
//     F returned at or after a(v) and was invoked at or before b(v)), E at
//     b(v), and values with a(v) >= b(v) back to back at b(v). A kept value
//     with some t_X > a(v) must go by the first, s(v); s(v) >= b(v), as no
//     t_X lies inside (a(v), b(v)). Taken by s, the values due number at
//     most N(s) <= C(s) by each moment s = t_X, so the i-th value due gets
//     the i-th pending erase by invocation, invoked by its s; each goes at
//     its value's s. Kept values with no t_X after a(v) stay to the end.
//     At one moment the order is: finds of values whose life ends there,
//     completed erases, pending erases, absent answers, values back to
//     back, inserts, finds of values whose life starts there. Then each
//     absent answer at t sees an empty set: every value is inserted at or
//     after t (after it, at t) or removed at or before t (before it, at t).
//     Each find and completed erase sees its value, and the pending erases
//     at a moment run where exactly the values due there are live: each
//     removes one of them, whichever the replay picks.
// The conditions on one absent answer do not depend on where the others
// go, so each goes to the first free moment of its interval: O(n log n).
//
// Evidence. Projecting a linearizable key history onto some values (each
// with its insert, its erase, any of its finds), some absent answers and
// the pending erases invoked by the latest response among those answers
// keeps it linearizable: the set restricted to those values answers every
// kept operation as before; a pending erase that removed a value outside
// the projection is left out; one invoked after every kept absent answer
// returned only removes its value after all of them, so dropping it keeps
// a value longer that nothing kept needs gone. A value's defining
// operations (its insert, its erase, the operations giving a and b) fix
// its stretch, so an absent answer covered in the history is covered in
// the projection onto it, the values of the stretches covering it and,
// where kept values outnumber pending erases, the C + 1 kept values with
// the earliest a, C the pending erases invoked before the answer returned.
#include "linearizability/distinct_multimap.hpp"

#include <algorithm>
#include <numeric>
#include <span>
#include <tuple>

#include "linearizability/detail/decide_by_key.hpp"
#include "linearizability/detail/radix_order.hpp"
#include "linearizability/detail/stretch_cover.hpp"
#include "linearizability/partition.hpp"

namespace warpcheck {

namespace {

using detail::kNone;
constexpr uint32_t kOutnumbered = UINT32_MAX - 1;  // owner of the stretches where N > C
using detail::kNever;

// An operation that names a value: an insert, or a completed erase or
// find that returned it.
enum Role : uint8_t { kInsert, kErase, kFind };
struct Naming {
  int64_t value;
  Role role;
  uint32_t op;
};

struct MultimapValue {
  int64_t value = 0;
  uint32_t insert = kNone, erase = kNone;
  uint32_t finds_begin = 0, finds_end = 0;  // its finds, in namings_
  uint64_t a = kNever, b = 0;
  uint32_t a_op = kNone, b_op = kNone;  // the operations that give a and b
  uint64_t gone = kNever;               // a kept value: where a pending erase removes it
  uint32_t remover = kNone;
  bool erased() const { return erase != kNone; }
  bool back_to_back() const { return erased() && a >= b; }
};

struct Absent {
  uint32_t op;
  uint64_t c, r;
  uint64_t t = 0;  // its point: a free moment
};

// Where operations go at one moment, in this order (the argument's 3).
enum Phase : uint8_t { kFindBeforeEnd, kCompletedErase, kPendingErase, kAbsent, kBackToBack, kStart, kFindAfterStart, kPhases };

// One key's decision, and its working set, kept from key to key to spare
// the allocations.
class KeyDecision : public detail::HistoryDecision {
 public:
  using HistoryDecision::HistoryDecision;

  // True, with the key's witness in `order`; or false, the finding (or why
  // not applicable, or undecided) in finding().
  bool decide(int64_t key, std::span<const uint32_t> ops, std::vector<uint32_t>& order) {
    key_ = key;
    result_ = {};
    namings_.clear();
    values_.clear();
    absents_.clear();
    pending_erases_.clear();
    held_.clear();
    for (uint32_t i : ops) {
      detail::poll_every(++polled_);
      const OpData& d = op(i).data;
      const bool returned_value = !d.pending && d.result_kind == ResultKind::Value;
      const bool returned_absent = !d.pending && d.result_kind == ResultKind::Absent;
      if (d.kind == OpKind::Insert) namings_.push_back({d.value, kInsert, i});
      else if (d.kind != OpKind::Erase && d.kind != OpKind::Find) return not_applicable("a multimap history holds " + describe(i));
      else if (returned_value) namings_.push_back({d.result, d.kind == OpKind::Erase ? kErase : kFind, i});
      else if (returned_absent) absents_.push_back({i, op(i).call, op(i).ret});
      else if (d.kind == OpKind::Erase) pending_erases_.push_back(i);
    }
    sort_namings();
    if (!index_values() || !place_absents() || !assign_pending_erases()) return false;
    build_order(order);
    return true;
  }


 private:
  std::string on_key() const { return " (key " + std::to_string(key_) + ")"; }

  // By value, then role: by role first, then stably by value (a radix
  // sort, which polls the budget between passes: a hot key can hold
  // millions of operations).
  void sort_namings() {
    positions_.clear();
    for (Role role : {kInsert, kErase, kFind})
      for (uint32_t k = 0; k < namings_.size(); ++k)
        if (namings_[k].role == role) positions_.push_back(k);
    sort_keys_.resize(namings_.size());
    for (size_t k = 0; k < namings_.size(); ++k) sort_keys_[k] = uint64_t(namings_[k].value) ^ (uint64_t(1) << 63);  // order-preserving
    detail::radix_order(sort_keys_, positions_);
    sorted_namings_.clear();
    for (uint32_t k : positions_) sorted_namings_.push_back(namings_[k]);
    namings_.swap(sorted_namings_);
  }

  // Gathers each value's operations and checks that they can go insert,
  // finds, erase.
  bool index_values() {
    for (size_t begin = 0, end; begin < namings_.size(); begin = end) {
      detail::poll_every(++polled_);
      const int64_t value = namings_[begin].value;
      auto past = [&](size_t from, Role role) {  // the end of `from`'s run of `role`
        while (from < namings_.size() && namings_[from].value == value && namings_[from].role == role) ++from;
        return from;
      };
      const size_t erases_from = past(begin, kInsert), finds_from = past(erases_from, kErase);
      end = past(finds_from, kFind);
      if (erases_from == begin)
        return violation({namings_[begin].op}, describe(namings_[begin].op) + " returned a value no insert of its key added");
      if (erases_from - begin > 1)
        return not_applicable("the value " + std::to_string(value) + " is inserted more than once" + on_key());
      MultimapValue v;
      v.value = value;
      v.insert = namings_[begin].op;
      if (finds_from - erases_from > 1)
        return violation({v.insert, namings_[erases_from].op, namings_[erases_from + 1].op},
                         std::to_string(value) + " is erased twice" + on_key());
      if (finds_from - erases_from == 1) v.erase = namings_[erases_from].op;
      v.finds_begin = uint32_t(finds_from);
      v.finds_end = uint32_t(end);
      if (op(v.insert).pending() && end == erases_from) continue;  // nobody saw it: left out
      for (size_t k = begin; k < end; ++k) {
        const Operation& o = op(namings_[k].op);
        if (o.ret < v.a) v.a = o.ret, v.a_op = namings_[k].op;
        if (o.call >= v.b) v.b = o.call, v.b_op = namings_[k].op;
      }
      if (v.a < op(v.insert).call)
        return violation({v.insert, v.a_op}, describe(v.a_op) + " returned before " + describe(v.insert) + " was invoked");
      if (v.erased() && op(v.erase).ret < v.b)
        return violation({v.insert, v.erase, v.b_op},
                         describe(v.b_op) + " was invoked after " + describe(v.erase) + " returned");
      values_.push_back(v);
    }
    return true;
  }

  // Each absent answer goes to the first moment of its interval inside no
  // value's stretch (a, b) and no stretch where kept values outnumber the
  // pending erases invoked so far.
  bool place_absents() {
    if (absents_.empty()) return true;
    kept_starts_.clear();
    for (uint32_t s = 0; s < values_.size(); ++s) {
      const MultimapValue& v = values_[s];
      if (!v.back_to_back()) held_.add(v.a, v.b, s);
      if (!v.erased()) kept_starts_.push_back(v.a);
    }
    pending_calls_.clear();
    for (uint32_t p : pending_erases_) pending_calls_.push_back(op(p).call);
    std::sort(kept_starts_.begin(), kept_starts_.end());
    std::sort(pending_calls_.begin(), pending_calls_.end());
    add_outnumbered_stretches();
    held_.seal();
    for (Absent& x : absents_) {
      detail::poll_every(++polled_);
      const std::optional<uint64_t> t = held_.first_free(x.c, x.r);
      if (!t) return covered(x);
      x.t = *t;
    }
    return true;
  }

  // The open stretches where N(t) > C(t). At a moment x, N(x) counts the
  // starts before x and C(x) the invocations up to x.
  void add_outnumbered_stretches() {
    const std::vector<uint64_t>& starts = kept_starts_;
    const std::vector<uint64_t>& calls = pending_calls_;
    size_t n = 0, c = 0;
    bool outnumbered = false;
    uint64_t from = 0;
    while (n < starts.size() || c < calls.size()) {
      const uint64_t x = std::min(n < starts.size() ? starts[n] : kNever, c < calls.size() ? calls[c] : kNever);
      for (; c < calls.size() && calls[c] == x; ++c) {}
      if (outnumbered && n <= c) {
        held_.add(from, x, kOutnumbered);
        outnumbered = false;
      }
      for (; n < starts.size() && starts[n] == x; ++n) {}
      if (!outnumbered && n > c) {
        outnumbered = true;
        from = x;
      }
    }
    if (outnumbered) held_.add(from, kNever, kOutnumbered);
  }

  // Absent answer x has no free moment: the values whose stretches cover
  // it in turn, and where kept values outnumber the pending erases, the
  // earliest of those values and every pending erase invoked by its
  // response, are the evidence.
  bool covered(const Absent& x) {
    const std::vector<uint32_t> chain = held_.covering(x.c, x.r);
    if (chain.empty()) return undecided("an absent answer's place was not found, nor what covers it");
    std::vector<uint32_t> evidence = {x.op};
    bool kept_in = false, outnumbered = false;
    std::string names;
    auto take = [&](uint32_t s) {
      const MultimapValue& v = values_[s];
      for (uint32_t i : {v.insert, v.erase, v.a_op, v.b_op})
        if (i != kNone) evidence.push_back(i);
      kept_in |= !v.erased();
    };
    for (uint32_t s : chain) {
      if (s == kOutnumbered) {
        outnumbered = true;
        continue;
      }
      take(s);
      names += (names.empty() ? "" : ", ") + std::to_string(values_[s].value);
    }
    const size_t helpers = size_t(std::upper_bound(pending_calls_.begin(), pending_calls_.end(), x.r) - pending_calls_.begin());
    if (outnumbered) {
      std::vector<uint32_t> kept;
      for (uint32_t s = 0; s < values_.size(); ++s)
        if (!values_[s].erased()) kept.push_back(s);
      const size_t earliest = std::min(kept.size(), helpers + 1);
      std::partial_sort(kept.begin(), kept.begin() + long(earliest), kept.end(),
                        [&](uint32_t p, uint32_t q) { return std::tie(values_[p].a, p) < std::tie(values_[q].a, q); });
      for (size_t k = 0; k < earliest; ++k) take(kept[k]);
    }
    if (kept_in)
      for (uint32_t p : pending_erases_)
        if (op(p).call <= x.r) evidence.push_back(p);
    std::string why = "the key surely holds a value throughout " + describe(x.op);
    if (!names.empty()) why += " (in turn: " + names + ")";
    if (outnumbered)
      why += std::string(names.empty() ? " (" : "; ") + "where values no completed erase returned outnumber the " +
             std::to_string(helpers) + " pending erase(s) invoked by its response)";
    return violation(std::move(evidence), std::move(why));
  }

  // A kept value that some absent answer follows goes at the first such
  // answer's moment, removed by a pending erase invoked by then: the
  // values due soonest take the pending erases invoked earliest.
  bool assign_pending_erases() {
    if (absents_.empty()) return true;
    std::vector<uint64_t> points;
    for (const Absent& x : absents_) points.push_back(x.t);
    std::sort(points.begin(), points.end());
    due_.clear();
    for (uint32_t s = 0; s < values_.size(); ++s) {
      if (values_[s].erased()) continue;
      const auto next = std::upper_bound(points.begin(), points.end(), values_[s].a);
      if (next != points.end()) due_.emplace_back(*next, s);
    }
    if (due_.empty()) return true;
    std::sort(due_.begin(), due_.end());
    std::sort(pending_erases_.begin(), pending_erases_.end(),
              [&](uint32_t p, uint32_t q) { return std::tie(op(p).call, p) < std::tie(op(q).call, q); });
    for (size_t k = 0; k < due_.size(); ++k) {
      const auto [when, s] = due_[k];
      if (k >= pending_erases_.size() || op(pending_erases_[k]).call > when)
        return undecided("no pending erase left for a value due before an absent answer" + on_key());
      values_[s].gone = when;
      values_[s].remover = pending_erases_[k];
    }
    return true;
  }

  // The witness: each operation at its point, by phase at one moment (a
  // value back to back keeps its insert, finds, erase together), laid out
  // phase after phase and then ordered stably by point.
  void build_order(std::vector<uint32_t>& order) {
    for (std::vector<std::pair<uint64_t, uint32_t>>& phase : phases_) phase.clear();
    auto put = [&](Phase phase, uint64_t point, uint32_t i) { phases_[phase].emplace_back(point, i); };
    for (const Absent& x : absents_) put(kAbsent, x.t, x.op);
    for (const MultimapValue& v : values_) {
      detail::poll_every(++polled_);
      if (v.back_to_back()) {
        put(kBackToBack, v.b, v.insert);
        for (uint32_t f = v.finds_begin; f < v.finds_end; ++f) put(kBackToBack, v.b, namings_[f].op);
        put(kBackToBack, v.b, v.erase);
        continue;
      }
      put(kStart, v.a, v.insert);
      for (uint32_t f = v.finds_begin; f < v.finds_end; ++f) {
        const uint64_t t = std::max(op(namings_[f].op).call, v.a);
        put(t == v.a ? kFindAfterStart : kFindBeforeEnd, t, namings_[f].op);
      }
      if (v.erased()) put(kCompletedErase, v.b, v.erase);
      if (v.remover != kNone) put(kPendingErase, v.gone, v.remover);
    }
    sort_keys_.clear();
    laid_out_.clear();
    for (const std::vector<std::pair<uint64_t, uint32_t>>& phase : phases_)
      for (const auto& [point, i] : phase) {
        sort_keys_.push_back(point);
        laid_out_.push_back(i);
      }
    positions_.resize(laid_out_.size());
    std::iota(positions_.begin(), positions_.end(), 0u);
    detail::radix_order(sort_keys_, positions_);
    order.reserve(positions_.size());
    for (uint32_t k : positions_) order.push_back(laid_out_[k]);
  }

  bool violation(std::vector<uint32_t> ops, std::string why) { return found(Outcome::Violation, std::move(ops), std::move(why)); }

  int64_t key_ = 0;
  size_t polled_ = 0;
  // One key's working set, kept between keys to spare the allocations.
  std::vector<Naming> namings_, sorted_namings_;  // by value, then role
  std::vector<MultimapValue> values_;
  std::vector<Absent> absents_;
  std::vector<uint32_t> pending_erases_;
  std::vector<uint64_t> kept_starts_, pending_calls_;  // sorted
  std::vector<std::pair<uint64_t, uint32_t>> due_;     // (moment, value)
  std::vector<std::pair<uint64_t, uint32_t>> phases_[kPhases];  // the witness's (point, operation), by phase
  std::vector<uint64_t> sort_keys_;                              // what they are ordered by
  std::vector<uint32_t> positions_, laid_out_;
  detail::StretchCover held_;
};

}  // namespace

DistinctValueCheck check_distinct_multimap(const History& h) {
  if (h.meta.model != ModelId::Multimap) return {DistinctValueCheck::Outcome::NotApplicable, "not a multimap history", {}, {}};
  detail::reserve_long_step(h.ops.size() * 96);
  return detail::decide_by_key<KeyDecision>(h, /*by_key=*/true);
}

}  // namespace warpcheck
