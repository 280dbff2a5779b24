// The distinct-value map procedure (distinct_map.hpp).
//
// Why its refutations are right. Keys are decided apart
// (P-compositionality); fix one. A linearization is points p(X) inside the
// intervals, ties in any order (distinct_multimap.cpp). The state is
// absent or one value; each value v is written once, by w(v): a successful
// insert (from absent), an upsert, or a pending one of those whose value a
// find returned (it then took effect). Pending finds, and pending writes
// nobody saw, are left out unless the witness needs one (a pending erase,
// insert or upsert may take effect anywhere after its invocation or not
// at all). v's finds go after w(v) and before the next write or
// successful erase. So p(w(v)) <= a(v) (w(v) precedes each of v's
// operations, whose point is at most its response), and v stays current
// until the find invoked at b(v): throughout (a(v), b(v)), its stretch.
//  - A find returning a value never written, or returning before w(v)
//    was invoked, cannot go after w(v).
//  - Two stretches that meet would have two values current at once.
//  - A value u whose stretch is empty (a(u) >= b(u)) has every one of its
//    operations holding [b(u), a(u)]; they all go before w(z) or after
//    the find invoked at b(z), for any stretch z (nothing writes inside
//    it), so one needs a(z) >= b(u), the other a(u) >= b(z): [b(u), a(u)]
//    strictly inside (a(z), b(z)) refutes.
//  - An absent answer, or a successful erase (which would end z before
//    its last find), cannot go strictly inside a stretch.
//  - A write P that returned before a successful insert or an absent
//    answer T was invoked leaves the key present at p(P) < p(T); only an
//    erase with its point in (p(P), p(T)), inside [P's invocation, T's
//    response], makes it absent again.
// Each refutation names its operations (and the writes of the values
// named); on that sub-history the same argument goes through, so it is
// not linearizable either, and the argument refutes the whole history.
//
// The reduction. Nothing but a failed insert can go strictly inside a
// stretch (z is current there and nothing writes), and a failed insert
// can always go there. So each stretch is contracted to one moment (times
// scaled by 4; inside it, invocations map just after the moment and
// responses just before, which keeps every strict order of a response
// before an invocation, so an order valid in contracted time is valid in
// real time), with z's write, its finds and the failed inserts that meet
// it placed there, in point order. A value u without a stretch has all
// its operations holding [b(u), a(u)]: collapsed to one operation on that
// interval, placed at a moment t, its write and finds go back to back at t.
// Completeness: take any linearization. Between w(u) and u's last find
// there are only finds of u and failed inserts (no write, erase or absent
// answer: u stays current). Moving w(u) and u's finds to max(p(w(u)),
// b(u)) keeps every result, except that a failed insert X between them
// now sees the state before w(u): still fine if that was present, and
// otherwise X moves after them too unless X returned before b(u). The
// same holds for a stretch, with its moment. So with every value kept
// whole that some failed insert X may need so (X returned at or after the
// value's write was invoked and before its last find was), the collapsed
// history is linearizable whenever the history is; and every order of it
// opens into one of the history, checked by the replay before it is given.
#include "linearizability/distinct_map.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <span>

#include "linearizability/budget.hpp"
#include "linearizability/detail/decide_by_key.hpp"
#include "linearizability/detail/dense_values.hpp"
#include "linearizability/detail/presence_order.hpp"
#include "linearizability/detail/radix_order.hpp"
#include "linearizability/detail/search.hpp"
#include "linearizability/detail/stretch_cover.hpp"

namespace warpcheck {

namespace {

using detail::kNone;
using detail::kNever;
constexpr uint64_t kScalable = uint64_t(1) << 61;  // stamps the witness's construction can scale by 4

struct MapValue {
  int64_t value = 0;
  uint32_t writer = kNone;
  uint32_t finds_begin = 0, finds_end = 0;  // in finds_
  uint64_t a = kNever, b = 0;
  uint32_t a_op = kNone, b_op = kNone;
  uint32_t contracted = kNone;  // its place among the contracted stretches
  bool has_stretch() const { return a < b; }
};

constexpr uint32_t kCollapsed = uint32_t(1) << 31;  // a reduced operation that stands for a value

class MapDecision : public detail::HistoryDecision {
 public:
  using HistoryDecision::HistoryDecision;

  bool decide(int64_t key, std::span<const uint32_t> ops, std::vector<uint32_t>& order) {
    key_ = key;
    result_ = {};
    clear();
    if (!classify(ops) || !index_values() || !check_stretches() || !check_absent_after_writes()) return false;
    if (!build_witness()) return false;
    order.insert(order.end(), witness_order_.begin(), witness_order_.end());
    return true;
  }


 private:
  std::string on_key() const { return " (key " + std::to_string(key_) + ")"; }
  bool inserts(uint32_t i) const { return op(i).data.kind == OpKind::Insert; }

  void clear() {
    values_.clear();
    values_met_.clear();
    writers_.clear();
    writer_ticket_.clear();
    finds_.clear();
    find_of_.clear();
    absent_.clear();
    present_.clear();
    erases_.clear();
    spare_erases_.clear();
    spare_writes_.clear();
    pending_writers_.clear();
    stretches_.clear();
    held_.clear();
    absorbed_.clear();
    witness_.clear();
    witness_order_.clear();
  }

  void add_writer(uint32_t i) {
    writers_.push_back(i);
    writer_ticket_.push_back(values_met_.add(op(i).data.value));
  }

  uint32_t value_index(int64_t value) const { return *values_met_.find(value); }

  // A MapValue for each value met, each written once; the finds' tickets
  // turned into value indices.
  bool number_values() {
    values_met_.number();
    values_.resize(values_met_.size());
    for (uint32_t v = 0; v < values_.size(); ++v) values_[v].value = values_met_.value(v);
    for (size_t k = 0; k < writers_.size(); ++k) {
      MapValue& v = values_[values_met_.index(writer_ticket_[k])];
      const uint32_t i = writers_[k];
      if (v.writer != kNone) return not_applicable("the value " + std::to_string(v.value) + " is written more than once" + on_key());
      v.writer = i;
      if (op(i).pending()) pending_writers_.push_back(i);
    }
    for (uint32_t& ticket : find_of_) ticket = values_met_.index(ticket);
    return true;
  }

  bool classify(std::span<const uint32_t> ops) {
    values_met_.reserve(ops.size());
    too_late_ = false;
    for (uint32_t i : ops) {
      detail::poll_every(++polled_);
      const OpData& d = op(i).data;
      too_late_ |= op(i).call >= kScalable || (op(i).ret != kNever && op(i).ret >= kScalable);
      switch (d.kind) {
        case OpKind::Insert:
          if (d.pending || d.result) {
            add_writer(i);
          } else {
            present_.push_back(i);
          }
          break;
        case OpKind::Upsert:
          add_writer(i);
          break;
        case OpKind::Erase:
          if (d.pending) spare_erases_.push_back(i);
          else (d.result ? erases_ : absent_).push_back(i);
          break;
        case OpKind::Find:
          if (d.pending) break;
          if (d.result_kind == ResultKind::Value) {
            find_of_.push_back(values_met_.add(d.result));
            finds_.push_back(i);
          } else {
            absent_.push_back(i);
          }
          break;
        default:
          return not_applicable("a map history holds " + describe(i));
      }
    }
    return number_values();
  }

  // Each value's finds, its a and b; pending writers nobody saw are spare.
  bool index_values() {
    std::vector<uint32_t> begin;
    sorted_finds_ = detail::group_by_value(finds_, find_of_, values_.size(), begin);
    for (size_t v = 0; v < values_.size(); ++v) values_[v].finds_begin = begin[v], values_[v].finds_end = begin[v + 1];
    for (uint32_t i : pending_writers_) {
      MapValue& v = values_[value_index(op(i).data.value)];
      if (v.finds_begin == v.finds_end) {
        spare_writes_.push_back(i);
        v.writer = kNone;
      }
    }
    for (MapValue& v : values_) {
      detail::poll_every(++polled_);
      if (v.finds_begin == v.finds_end) continue;
      if (v.writer == kNone) return violation({sorted_finds_[v.finds_begin]}, describe(sorted_finds_[v.finds_begin]) + " returned a value never written" + on_key());
      for (uint32_t i : value_ops(v)) {
        if (op(i).ret < v.a) v.a = op(i).ret, v.a_op = i;
        if (op(i).call >= v.b) v.b = op(i).call, v.b_op = i;
      }
      if (v.a < op(v.writer).call)
        return violation({v.writer, v.a_op}, describe(v.a_op) + " returned before " + describe(v.writer) + " was invoked");
    }
    return true;
  }

  std::vector<uint32_t> value_ops(const MapValue& v) const {
    std::vector<uint32_t> out(sorted_finds_.begin() + v.finds_begin, sorted_finds_.begin() + v.finds_end);
    out.push_back(v.writer);
    return out;
  }

  std::vector<uint32_t> defining(const MapValue& v) const { return {v.writer, v.a_op, v.b_op}; }

  std::vector<uint32_t> joined(std::vector<uint32_t> x, const std::vector<uint32_t>& y) const {
    x.insert(x.end(), y.begin(), y.end());
    std::erase(x, kNone);
    return x;
  }

  // Stretches disjoint; every other value, absent answer and successful
  // erase with a moment strictly inside none.
  bool check_stretches() {
    for (uint32_t v = 0; v < values_.size(); ++v)
      if (values_[v].writer != kNone && values_[v].has_stretch()) stretches_.push_back(v);
    detail::radix_order_by(stretches_, [&](uint32_t v) { return values_[v].a; });
    for (size_t k = 0; k < stretches_.size(); ++k) {
      const MapValue& v = values_[stretches_[k]];
      if (k > 0 && v.a < values_[stretches_[k - 1]].b) {
        const MapValue& u = values_[stretches_[k - 1]];
        return violation(joined(defining(u), defining(v)), "the values of " + describe(u.writer) + " and " + describe(v.writer) +
                                                               " are each surely current while the other is" + on_key());
      }
      held_.add(v.a, v.b, stretches_[k]);
    }
    held_.seal();
    auto covered = [&](uint64_t c, uint64_t r, std::vector<uint32_t> named, const std::string& what) {
      const std::vector<uint32_t> by = held_.covering(c, r);
      if (by.empty()) return undecided("no free moment for " + what + ", nor what covers it" + on_key());
      const MapValue& z = values_[by.front()];
      return violation(joined(std::move(named), defining(z)),
                       what + " has no moment outside the stretch where the value of " + describe(z.writer) + " is surely current" + on_key());
    };
    for (const MapValue& u : values_)
      if (u.writer != kNone && !u.has_stretch() && u.finds_begin < u.finds_end && !held_.first_free(u.b, u.a))
        return covered(u.b, u.a, defining(u), "the value of " + describe(u.writer));
    for (const MapValue& u : values_)
      if (u.writer != kNone && u.finds_begin == u.finds_end && !held_.first_free(op(u.writer).call, op(u.writer).ret))
        return covered(op(u.writer).call, op(u.writer).ret, {u.writer}, describe(u.writer));
    for (const std::vector<uint32_t>* list : {&absent_, &erases_})
      for (uint32_t i : *list)
        if (!held_.first_free(op(i).call, op(i).ret)) return covered(op(i).call, op(i).ret, {i}, describe(i));
    return true;
  }

  // A successful insert or an absent answer T after a completed write P
  // (P returned before T was invoked) needs an erase that meets
  // [P's invocation, T's response]. For each T, the write that returned
  // before it with the latest invocation leaves the shortest window.
  bool check_absent_after_writes() {
    std::vector<uint32_t> writes, targets(absent_);
    for (const MapValue& v : values_)
      if (v.writer != kNone && !op(v.writer).pending()) writes.push_back(v.writer);
    for (const MapValue& v : values_)
      if (v.writer != kNone && inserts(v.writer)) targets.push_back(v.writer);
    if (writes.empty() || targets.empty()) return true;
    // Times gathered in sequence: the searches below then read no records.
    detail::radix_order_by(writes, [&](uint32_t w) { return op(w).ret; });
    std::vector<uint64_t> write_ret(writes.size()), latest_call(writes.size());  // over writes[0..k], the latest invocation
    std::vector<uint32_t> latest_writer(writes.size());                          // and the write invoked then
    for (size_t k = 0; k < writes.size(); ++k) {
      write_ret[k] = op(writes[k]).ret;
      const bool later = k == 0 || op(writes[k]).call > latest_call[k - 1];
      latest_call[k] = later ? op(writes[k]).call : latest_call[k - 1];
      latest_writer[k] = later ? writes[k] : latest_writer[k - 1];
    }
    std::vector<uint32_t> erases(erases_);
    erases.insert(erases.end(), spare_erases_.begin(), spare_erases_.end());
    detail::radix_order_by(erases, [&](uint32_t e) { return op(e).call; });
    std::vector<uint64_t> erase_call(erases.size()), latest_ret(erases.size());  // over erases[0..k]
    for (size_t k = 0; k < erases.size(); ++k) {
      erase_call[k] = op(erases[k]).call;
      latest_ret[k] = std::max(k ? latest_ret[k - 1] : 0, op(erases[k]).ret);
    }
    for (uint32_t t : targets) {
      detail::poll_every(++polled_);
      const size_t before = size_t(std::lower_bound(write_ret.begin(), write_ret.end(), op(t).call) - write_ret.begin());
      if (before == 0) continue;
      const size_t meeting = size_t(std::upper_bound(erase_call.begin(), erase_call.end(), op(t).ret) - erase_call.begin());
      if (meeting != 0 && latest_ret[meeting - 1] >= latest_call[before - 1]) continue;
      const uint32_t p = latest_writer[before - 1];
      // A pending insert took effect because a find returned its value: that find too.
      std::vector<uint32_t> evidence = {p, t};
      if (op(t).pending()) evidence.push_back(sorted_finds_[values_[value_index(op(t).data.value)].finds_begin]);
      return violation(evidence, describe(t) + " needs the key absent after " + describe(p) +
                                   " returned, and no erase can go between them" + on_key());
    }
    return true;
  }

  // The stretches of values not kept as they are, each contracted to one
  // odd moment (times scaled by 4).
  void contract() {
    contracted_.clear();
    contracted_a_.clear();
    contracted_b_.clear();
    for (uint32_t v : stretches_) {
      values_[v].contracted = kNone;
      if (kept_value_[v]) continue;
      values_[v].contracted = uint32_t(contracted_.size());
      contracted_.push_back(v);
      contracted_a_.push_back(values_[v].a);
      contracted_b_.push_back(values_[v].b);
    }
    shift_.assign(contracted_.size() + 1, 0);
    for (size_t k = 0; k < contracted_.size(); ++k) shift_[k + 1] = shift_[k] + (4 * contracted_b_[k] - 4 * contracted_a_[k] - 2);
  }

  uint64_t contracted(uint64_t t, bool response) const {
    if (t == kNever) return kNever;
    const auto after = std::lower_bound(contracted_a_.begin(), contracted_a_.end(), t);
    if (after == contracted_a_.begin()) return 4 * t;
    const size_t k = size_t(after - contracted_a_.begin()) - 1;  // the last one starting before t
    if (t < contracted_b_[k]) return 4 * contracted_a_[k] - shift_[k] + (response ? 0 : 2);
    return 4 * t - shift_[k + 1];
  }

  uint64_t moment(uint32_t k) const { return 4 * contracted_a_[k] + 1 - shift_[k]; }

  // The contracted stretch that operation i meets, if any.
  std::optional<uint32_t> meets_contracted(uint32_t i) const {
    const auto it = std::upper_bound(contracted_b_.begin(), contracted_b_.end(), op(i).call);
    if (it == contracted_b_.end() || contracted_a_[size_t(it - contracted_b_.begin())] >= op(i).ret) return std::nullopt;
    return uint32_t(it - contracted_b_.begin());
  }

  // The witness. The reduced history has one operation a value (its write
  // and finds at one moment; a contracted stretch's failed inserts with
  // them) and every other operation as it is, in contracted time: no
  // result names a collapsed value, so the search renames them all to one
  // placeholder and decides it like a set. Collapsing loses one thing: a
  // failed insert that needs a value current between its write and its
  // last find (the argument at the top). So when the reduced history is not
  // linearizable, every value some failed insert may need so is kept as it
  // is (its write and finds apart), and then the reduced history is
  // linearizable exactly when the history is.
  bool build_witness() {
    if (too_late_) return undecided("stamps past 2^61 cannot be scaled for the witness's construction" + on_key());
    kept_value_.assign(values_.size(), 0);
    for (bool hosts_kept : {false, true}) {
      if (hosts_kept && !keep_hosts()) break;
      contract();
      if (search_reduced()) {
        expand();
        return true;
      }
    }
    std::vector<uint32_t> all;
    for (const std::vector<uint32_t>* list : {&finds_, &absent_, &present_, &erases_, &spare_erases_, &spare_writes_}) all.insert(all.end(), list->begin(), list->end());
    for (const MapValue& v : values_)
      if (v.writer != kNone) all.push_back(v.writer);
    return violation(std::move(all), "the history with each value's write and finds at one moment, every value a failed insert "
                                     "may need current kept apart, is not linearizable" + on_key());
  }

  bool search_reduced() {
    reduced_.meta.model = ModelId::Map;
    reduced_.ops.clear();
    stands_for_.clear();
    const size_t most = values_.size() + finds_.size() + present_.size() + absent_.size() + erases_.size() + spare_erases_.size() + spare_writes_.size();
    reduced_.ops.reserve(most);
    stands_for_.reserve(most);
    absorbed_.assign(contracted_.size(), {});
    for (uint32_t v = 0; v < values_.size(); ++v) {
      const MapValue& value = values_[v];
      if (value.writer == kNone) continue;
      if (kept_value_[v]) {
        add_as_is(value.writer);
        for (uint32_t k = value.finds_begin; k < value.finds_end; ++k) add_as_is(sorted_finds_[k]);
        continue;
      }
      Operation collapsed = op(value.writer);
      collapsed.data.pending = false;
      if (collapsed.data.kind == OpKind::Insert) collapsed.data.result_kind = ResultKind::Bool, collapsed.data.result = 1;
      if (value.contracted != kNone) {
        collapsed.call = collapsed.ret = moment(value.contracted);
        for (uint32_t k = value.finds_begin; k < value.finds_end; ++k) absorbed_[value.contracted].push_back(sorted_finds_[k]);
      } else if (value.finds_begin < value.finds_end) {
        collapsed.call = contracted(value.b, false);
        collapsed.ret = contracted(value.a, true);
      } else {
        collapsed.call = contracted(collapsed.call, false);
        collapsed.ret = contracted(collapsed.ret, true);
      }
      add(collapsed, v, /*collapsed=*/true);
    }
    for (uint32_t i : present_) {
      if (const std::optional<uint32_t> at = meets_contracted(i)) absorbed_[*at].push_back(i);
      else add_as_is(i);
    }
    for (const std::vector<uint32_t>* list : {&absent_, &erases_, &spare_erases_, &spare_writes_})
      for (uint32_t i : *list) add_as_is(i);
    std::vector<uint32_t> all(reduced_.ops.size());
    std::iota(all.begin(), all.end(), 0u);
    // The key's presence (and the kept values' finds), ordered greedily
    // when it can be (set_presence.cpp, detail/presence_order.hpp), else searched.
    witness_.clear();
    if (!presence_.find(reduced_, all, witness_)) return true;
    detail::Budget unlimited;
    detail::Budget* budget = detail::installed_budget();
    detail::SearchResult r = search_.run(reduced_, all, budget ? *budget : unlimited);
    if (r.outcome == detail::SearchOutcome::OutOfTime || r.outcome == detail::SearchOutcome::Cancelled)
      throw detail::BudgetExhausted{r.outcome == detail::SearchOutcome::Cancelled ? detail::BudgetStop::Cancelled : detail::BudgetStop::Time};
    if (r.outcome == detail::SearchOutcome::OutOfMemory) throw detail::BudgetExhausted{detail::BudgetStop::Memory};
    if (r.outcome != detail::SearchOutcome::Linearizable) return false;
    witness_ = std::move(r.order);
    return true;
  }

  void add(Operation reduced, uint32_t stands_for, bool collapsed) {
    reduced.id = reduced_.ops.size();
    reduced_.ops.push_back(reduced);
    stands_for_.push_back(collapsed ? stands_for | kCollapsed : stands_for);
  }

  void add_as_is(uint32_t i) {
    Operation o = op(i);
    o.call = contracted(o.call, false);
    o.ret = contracted(o.ret, true);
    add(o, i, /*collapsed=*/false);
  }

  // The reduced order with each collapsed value opened into its write and
  // finds (and a stretch's failed inserts, by point).
  void expand() {
    witness_order_.clear();
    for (uint32_t k : witness_) {
      const uint32_t stands_for = stands_for_[k];
      if (!(stands_for & kCollapsed)) {
        witness_order_.push_back(stands_for);
        continue;
      }
      const MapValue& v = values_[stands_for & ~kCollapsed];
      witness_order_.push_back(v.writer);
      if (v.contracted == kNone) {
        witness_order_.insert(witness_order_.end(), sorted_finds_.begin() + v.finds_begin, sorted_finds_.begin() + v.finds_end);
        continue;
      }
      std::vector<uint32_t>& inside = absorbed_[v.contracted];
      std::sort(inside.begin(), inside.end(),
                [&](uint32_t x, uint32_t y) { return std::max(op(x).call, v.a) < std::max(op(y).call, v.a); });
      witness_order_.insert(witness_order_.end(), inside.begin(), inside.end());
    }
  }

  // Every value some failed insert outside the contracted stretches may
  // need current between its write and its last find is kept as it is
  // (false when there is no failed insert).
  bool keep_hosts() {
    std::vector<uint64_t> rets;
    for (uint32_t i : present_) rets.push_back(op(i).ret);
    if (rets.empty()) return false;
    std::sort(rets.begin(), rets.end());
    for (uint32_t v = 0; v < values_.size(); ++v) {
      const MapValue& value = values_[v];
      if (value.writer == kNone || value.finds_begin == value.finds_end) continue;
      const auto first = std::lower_bound(rets.begin(), rets.end(), op(value.writer).call);
      if (first != rets.end() && *first < value.b) kept_value_[v] = 1;
    }
    return true;
  }

  bool violation(std::vector<uint32_t> ops, std::string why) { return found(Outcome::Violation, std::move(ops), std::move(why)); }

  int64_t key_ = 0;
  size_t polled_ = 0;
  bool too_late_ = false;
  std::vector<MapValue> values_;
  detail::DenseValues values_met_;
  std::vector<uint32_t> writers_, writer_ticket_;  // writes and their values' tickets, until numbered
  std::vector<uint32_t> finds_, find_of_, sorted_finds_;
  std::vector<uint32_t> absent_, present_, erases_, spare_erases_, spare_writes_, pending_writers_;
  std::vector<uint32_t> stretches_;   // values with a < b, by a
  std::vector<uint32_t> contracted_;  // those that collapse, by a
  std::vector<uint64_t> contracted_a_, contracted_b_;  // their bounds
  std::vector<uint64_t> shift_;       // before each contracted stretch: what contracting the earlier ones took out
  detail::StretchCover held_;
  History reduced_;
  std::vector<uint32_t> stands_for_;  // per reduced operation: the operation, or kCollapsed | the value
  std::vector<std::vector<uint32_t>> absorbed_;  // per stretch: its finds and the failed inserts placed inside it
  detail::Search<MapModel> search_;
  detail::PresenceOrder presence_;
  std::vector<uint32_t> witness_;        // the reduced order
  std::vector<uint8_t> kept_value_;       // kept as it is in the reduced history
  std::vector<uint32_t> witness_order_;  // the reduced order opened up
};

}  // namespace

DistinctValueCheck check_distinct_map(const History& h) {
  if (h.meta.model != ModelId::Map) return {DistinctValueCheck::Outcome::NotApplicable, "not a map history", {}, {}};
  detail::reserve_long_step(h.ops.size() * 160);
  return detail::decide_by_key<MapDecision>(h, /*by_key=*/true);
}

}  // namespace warpcheck
