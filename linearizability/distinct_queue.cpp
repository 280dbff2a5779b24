// The distinct-value queue decision procedure (distinct_queue.hpp).
//
// Why it is right. Fix a linearization. With distinct values, the dequeued
// values leave in the order they entered (their FIFO order), every value
// nobody dequeued enters after all of them, and a null dequeue sits where
// every value that entered has left. Choosing a point inside every
// interval, the FIFO order v1, v2, ... needs enqueue points e1 <= e2 <= ...,
// dequeue points d1 <= d2 <= ... and ek <= dk. Placing each point as early
// as the order allows (ek = max(ek-1, start of E(vk)), dk = max(dk-1,
// start of D(vk), ek)) meets every deadline iff no pair is forced both
// ways (the relation of the header); and a pair forced both ways is the
// only way to get stuck: when no value can go next, the value whose
// dequeue ends first and the value whose enqueue ends first are each
// forced before the other. A null dequeue at time t splits the order into
// the values before t and after t: each value must fit on one side, which
// fails exactly when t lies strictly inside the stretch where the value is
// surely in the queue (between min(E.end, D.end) and max(E.start,
// D.start)). So null dequeues may take any time outside the union of those
// stretches, each value goes into the first gap between null dequeues
// that ends at or after max(E.start, D.start) (so its points fit the gap),
// and inside a gap the pairwise order above is acyclic. Values nobody dequeued enter last, after every
// null dequeue. Ties: at equal times, touching intervals are concurrent,
// so the order of equal points is free; the witness sorts by (point, FIFO
// position, enqueue < dequeue < null dequeue).
//
// Evidence. Projecting a linearizable queue history onto a set of values
// (their operations, any null dequeues, the pending dequeues) keeps it
// linearizable: the queue restricted to those values still answers every
// kept dequeue. A null dequeue changes nothing, so dropping one is sound;
// a pending dequeue can take only a value no completed dequeue returned,
// and the earliest-invoked k pending dequeues can stand in for any k that
// took effect, so k of them are kept for the k such values.
#include "linearizability/distinct_queue.hpp"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <queue>

#include "linearizability/detail/radix_order.hpp"
#include "linearizability/detail/stretch_cover.hpp"
#include "models/base/long_step.hpp"

namespace warpcheck {

namespace {

using detail::kNone;

// One enqueued value, and the dequeue that returned it, if any.
struct QueueValue {
  int64_t value = 0;
  uint32_t enq = kNone;
  uint32_t deq = kNone;     // a completed dequeue, or the pending one matched with it
  bool deq_completed = false;
  uint64_t ce = 0, re = 0;  // the enqueue's interval (re: kPendingTime when pending)
  uint64_t cd = 0, rd = 0;  // the dequeue's
  uint32_t segment = 0;     // the gap between null dequeues it goes into
  uint64_t e = 0, d = 0;    // its points in the witness
  // The stretch where it is surely in the queue: (high, low), when high < low.
  uint64_t low() const { return std::max(ce, cd); }
  uint64_t high() const { return std::min(re, rd); }
};

struct Empty {  // a dequeue that returned null
  uint32_t op;
  uint64_t c, r;
  uint64_t t = 0;  // its point
};

class QueueDecision : detail::DistinctValueDecision {
 public:
  explicit QueueDecision(const History& h) : h_(h) {}

  DistinctValueCheck run() {
    detail::reserve_long_step(h_.ops.size() * 128);
    if (!index_values() || !match_pending_dequeues() || !remaining_go_last() || !place_empties() || !order_gaps()) return result_;
    build_witness();
    result_.outcome = DistinctValueCheck::Outcome::Linearizable;
    return result_;
  }

 private:
  std::string describe(uint32_t op) const { return describe_operation(h_, h_.ops[op]); }

  // Pairs values with their operations; false when it is decided already.
  bool index_values() {
    const std::vector<Operation>& ops = h_.ops;
    absl::flat_hash_map<int64_t, uint32_t> slot;
    slot.reserve(ops.size());
    for (uint32_t i = 0; i < ops.size(); ++i) {
      detail::poll_every(i);
      const OpData& d = ops[i].data;
      if (d.kind == OpKind::EnqueueBatch || d.kind == OpKind::DequeueBatch) return not_applicable("batched operations");
      if (d.kind != OpKind::Enqueue) continue;
      if (!slot.try_emplace(d.key, uint32_t(values_.size())).second)
        return not_applicable("the value " + std::to_string(d.key) + " is enqueued more than once");
      QueueValue v;
      v.value = d.key;
      v.enq = i;
      v.ce = ops[i].call;
      v.re = ops[i].ret;
      values_.push_back(v);
    }
    for (uint32_t i = 0; i < ops.size(); ++i) {
      detail::poll_every(i);
      const Operation& op = ops[i];
      if (op.data.kind != OpKind::Dequeue) continue;
      if (op.pending()) {
        pending_dequeues_.push_back(i);
      } else if (op.data.result_kind == ResultKind::Absent) {
        empties_.push_back(Empty{i, op.call, op.ret});
      } else {
        auto it = slot.find(op.data.result);
        if (it == slot.end()) return violation({}, {i}, "a dequeue returned " + std::to_string(op.data.result) + ", which no enqueue added");
        QueueValue& v = values_[it->second];
        if (v.deq != kNone) return violation({}, {v.enq, v.deq, i}, std::to_string(v.value) + " is dequeued twice");
        v.deq = i;
        v.deq_completed = true;
        v.cd = op.call;
        v.rd = op.ret;
        if (v.rd < v.ce)
          return violation({it->second}, {}, "dequeue -> " + std::to_string(v.value) + " returned before its enqueue was invoked");
      }
    }
    std::sort(pending_dequeues_.begin(), pending_dequeues_.end(),
              [&](uint32_t a, uint32_t b) { return ops[a].call < ops[b].call || (ops[a].call == ops[b].call && a < b); });
    return true;
  }

  // Values no completed dequeue returned: the earliest-completed ones go to
  // the earliest pending dequeues; the rest stay (a pending enqueue of one
  // of them is left out).
  bool match_pending_dequeues() {
    std::vector<uint32_t> undequeued;
    for (uint32_t s = 0; s < values_.size(); ++s)
      if (values_[s].deq == kNone && values_[s].re != kPendingTime) undequeued.push_back(s);
    std::sort(undequeued.begin(), undequeued.end(), [&](uint32_t a, uint32_t b) {
      return std::tie(values_[a].re, values_[a].ce, a) < std::tie(values_[b].re, values_[b].ce, b);
    });
    const size_t matched = std::min(undequeued.size(), pending_dequeues_.size());
    for (size_t j = 0; j < undequeued.size(); ++j) {
      QueueValue& v = values_[undequeued[j]];
      if (j < matched) {
        v.deq = pending_dequeues_[j];
        v.cd = h_.ops[v.deq].call;
        v.rd = kPendingTime;
      } else {
        remaining_.push_back(undequeued[j]);
      }
    }
    for (uint32_t s = 0; s < values_.size(); ++s)
      if (values_[s].deq != kNone) dequeued_.push_back(s);
    return true;
  }

  // A value that stays must enter after every dequeued one.
  bool remaining_go_last() {
    if (remaining_.empty() || dequeued_.empty()) return true;
    const uint32_t latest = *std::max_element(dequeued_.begin(), dequeued_.end(),
                                              [&](uint32_t a, uint32_t b) { return values_[a].ce < values_[b].ce; });
    const uint32_t first = remaining_.front();  // sorted by enqueue response
    if (values_[first].re >= values_[latest].ce) return true;
    return violation({first, latest}, {},
                     "enqueue(" + std::to_string(values_[first].value) + ") returned before enqueue(" +
                         std::to_string(values_[latest].value) + ") was invoked, yet only the second value was dequeued");
  }

  // Every null dequeue takes the earliest time of its interval outside the
  // stretches where some value is surely in the queue.
  bool place_empties() {
    if (empties_.empty()) return true;
    const detail::StretchCover held = surely_held();
    for (size_t i = 0; i < empties_.size(); ++i) {
      detail::poll_every(i);
      Empty& x = empties_[i];
      const std::optional<uint64_t> t = held.first_free(x.c, x.r);
      if (!t) return covered(x, held);
      x.t = *t;
    }
    std::sort(empties_.begin(), empties_.end(), [](const Empty& a, const Empty& b) { return a.t < b.t || (a.t == b.t && a.op < b.op); });
    return true;
  }

  // Each dequeued value between min(E.end, D.end) and max(E.start,
  // D.start); the values that stay from the first of them to return on.
  detail::StretchCover surely_held() const {
    detail::StretchCover held;
    for (uint32_t s : dequeued_) held.add(values_[s].high(), values_[s].low(), s);
    if (!remaining_.empty()) held.add(values_[remaining_.front()].re, kPendingTime, remaining_.front());
    held.seal();
    return held;
  }

  // Null dequeue x lies inside held stretches throughout: the chain of
  // values that covers it is the evidence.
  bool covered(const Empty& x, const detail::StretchCover& held) {
    const std::vector<uint32_t> chain = held.covering(x.c, x.r);
    if (chain.empty()) return undecided("a null dequeue's place was not found, nor what covers it");
    std::string values;
    for (uint32_t s : chain) values += (values.empty() ? "" : ", ") + std::to_string(values_[s].value);
    return violation(chain, {x.op},
                     "the queue surely holds a value throughout " + describe(x.op) + " (in turn: " + values + ")");
  }

  // Each dequeued value goes into the gap before the first null dequeue
  // at or after the start of its stretch's end; inside a gap, values go
  // in an order no real-time constraint contradicts, with points as early
  // as possible.
  bool order_gaps() {
    placed_.assign(values_.size(), 0);
    std::vector<std::vector<uint32_t>> gaps(empties_.size() + 1);
    for (uint32_t s : dequeued_) {
      QueueValue& v = values_[s];
      const auto first_after = std::lower_bound(empties_.begin(), empties_.end(), v.low(),
                                                [](const Empty& x, uint64_t t) { return x.t < t; });
      v.segment = uint32_t(first_after - empties_.begin());
      if (v.segment > 0 && empties_[v.segment - 1].t > v.high()) return undecided("a value fits no gap between null dequeues");
      gaps[v.segment].push_back(s);
    }
    for (uint32_t g = 0; g < gaps.size(); ++g) {
      const uint64_t start = g == 0 ? 0 : empties_[g - 1].t;
      if (!order_gap(gaps[g], start)) return false;
      fifo_.insert(fifo_.end(), gaps[g].begin(), gaps[g].end());
      gap_end_.push_back(uint32_t(fifo_.size()));
    }
    return true;
  }

  // Orders one gap's values in place, each next one a value nothing left
  // unordered is forced before: its dequeue starts by the first dequeue
  // response left, and its enqueue by the first response of either kind.
  bool order_gap(std::vector<uint32_t>& gap, uint64_t start) {
    const size_t n = gap.size();
    const std::vector<uint32_t> by_rd = sorted_by(gap, &QueueValue::rd), by_re = sorted_by(gap, &QueueValue::re),
                                by_cd = sorted_by(gap, &QueueValue::cd);
    auto placed = [&](uint32_t s) { return placed_[s] != 0; };
    using Entry = std::pair<uint64_t, uint32_t>;  // (enqueue start, value)
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> ready;
    size_t rd_at = 0, re_at = 0, cd_at = 0;
    uint64_t e = start, d = start;
    std::vector<uint32_t> order;
    order.reserve(n);
    while (order.size() < n) {
      detail::poll_every(order.size());
      while (placed(by_rd[rd_at])) ++rd_at;
      while (placed(by_re[re_at])) ++re_at;
      const QueueValue& first_d = values_[by_rd[rd_at]];
      const QueueValue& first_e = values_[by_re[re_at]];
      for (; cd_at < n && values_[by_cd[cd_at]].cd <= first_d.rd; ++cd_at) ready.emplace(values_[by_cd[cd_at]].ce, by_cd[cd_at]);
      if (ready.empty() || ready.top().first > std::min(first_d.rd, first_e.re))
        return forced_both_ways(by_rd[rd_at], by_re[re_at]);
      const uint32_t s = ready.top().second;
      ready.pop();
      QueueValue& v = values_[s];
      e = std::max(e, v.ce);
      d = std::max({d, v.cd, e});
      if (e > v.re || d > v.rd) return undecided("a value's point could not be placed in its gap");
      v.e = e;
      v.d = d;
      placed_[s] = 1;
      order.push_back(s);
    }
    gap = std::move(order);
    return true;
  }

  // The values of `gap` ordered by one of their times (a radix sort of the
  // times copied out: sorting by reaching into the values was a fifth of a
  // million-operation check).
  std::vector<uint32_t> sorted_by(const std::vector<uint32_t>& gap, uint64_t QueueValue::*field) const {
    std::vector<uint64_t> times(gap.size());
    std::vector<uint32_t> order(gap.size());
    for (uint32_t i = 0; i < gap.size(); ++i) {
      times[i] = values_[gap[i]].*field;
      order[i] = i;
    }
    detail::radix_order(times, order);
    for (uint32_t& i : order) i = gap[i];
    return order;
  }

  // Why a must leave the queue before b, from real time ("" if nothing forces it).
  std::string forced_before(const QueueValue& a, const QueueValue& b) const {
    const std::string va = std::to_string(a.value), vb = std::to_string(b.value);
    if (a.rd < b.cd) return "dequeue -> " + va + " returned before dequeue -> " + vb + " was invoked";
    if (a.re < b.ce) return "enqueue(" + va + ") returned before enqueue(" + vb + ") was invoked";
    if (a.rd < b.ce) return "dequeue -> " + va + " returned before enqueue(" + vb + ") was invoked";
    return "";
  }

  bool forced_both_ways(uint32_t a, uint32_t b) {
    const std::string ab = forced_before(values_[a], values_[b]), ba = forced_before(values_[b], values_[a]);
    if (a == b || ab.empty() || ba.empty()) return undecided("no value can go next, yet no pair is forced both ways");
    return violation({a, b}, {}, "FIFO order forced both ways: " + ab + ", and " + ba);
  }

  // Points: values in FIFO order, null dequeues between gaps, values that
  // stay entering last; ordered by (point, FIFO position, kind). The
  // enqueue points, the dequeue points and the null dequeues' each ascend
  // in FIFO order already, so they are merged, not sorted.
  struct Key {
    uint64_t point;
    uint32_t rank;
    uint8_t kind;  // 0 enqueue, 1 dequeue, 2 null dequeue
    uint32_t op;
    bool operator<(const Key& o) const { return std::tie(point, rank, kind) < std::tie(o.point, o.rank, o.kind); }
  };

  void build_witness() {
    std::vector<Key> enqueues, dequeues, empties, staying;
    enqueues.reserve(fifo_.size());
    dequeues.reserve(fifo_.size());
    uint64_t last_enqueue = 0;
    for (uint32_t k = 0; k < fifo_.size(); ++k) {
      const QueueValue& v = values_[fifo_[k]];
      enqueues.push_back({v.e, k + 1, 0, v.enq});
      dequeues.push_back({v.d, k + 1, 1, v.deq});
      last_enqueue = std::max(last_enqueue, v.e);
    }
    for (uint32_t g = 0; g < empties_.size(); ++g) {
      empties.push_back({empties_[g].t, gap_end_[g], 2, empties_[g].op});
      last_enqueue = std::max(last_enqueue, empties_[g].t);
    }
    uint32_t rank = uint32_t(fifo_.size()) + 1;
    for (uint32_t s : remaining_) staying.push_back({std::max(last_enqueue, values_[s].ce), rank++, 0, values_[s].enq});
    std::sort(staying.begin(), staying.end());
    result_.order.reserve(enqueues.size() + dequeues.size() + empties.size() + staying.size());
    std::vector<Key>* lists[] = {&enqueues, &dequeues, &empties, &staying};
    size_t at[4] = {0, 0, 0, 0};
    while (true) {
      detail::poll_every(result_.order.size());
      int best = -1;
      for (int l = 0; l < 4; ++l)
        if (at[l] < lists[l]->size() && (best < 0 || (*lists[l])[at[l]] < (*lists[best])[at[best]])) best = l;
      if (best < 0) break;
      result_.order.push_back((*lists[best])[at[best]++].op);
    }
  }

  // The projection onto `slots` (their operations) plus `ops`, and the
  // earliest pending dequeues, one per value no completed dequeue
  // returned. A finding that rests on such a value rests on the matching
  // of pending dequeues: Undecided, with the projection as a suspect.
  bool violation(const std::vector<uint32_t>& slots, std::vector<uint32_t> ops, std::string why) {
    size_t uncertain = 0;
    for (uint32_t s : slots) {
      const QueueValue& v = values_[s];
      ops.push_back(v.enq);
      if (v.deq_completed) ops.push_back(v.deq);
      else ++uncertain;
    }
    for (size_t j = 0; j < uncertain && j < pending_dequeues_.size(); ++j) ops.push_back(pending_dequeues_[j]);
    const bool rests_on_matching = uncertain > 0 && !pending_dequeues_.empty();
    return found(rests_on_matching ? Outcome::Undecided : Outcome::Violation, std::move(ops), std::move(why));
  }

  const History& h_;
  std::vector<QueueValue> values_;
  std::vector<Empty> empties_;
  std::vector<uint32_t> pending_dequeues_;  // by invocation
  std::vector<uint32_t> dequeued_;          // values a dequeue returned or was matched with
  std::vector<uint32_t> remaining_;         // values that stay, by enqueue response
  std::vector<uint32_t> fifo_;              // dequeued values in FIFO order
  std::vector<uint32_t> gap_end_;           // per gap: FIFO positions before its closing null dequeue
  std::vector<uint8_t> placed_;             // per value: ordered in its gap
};

}  // namespace

DistinctValueCheck check_distinct_queue(const History& h) {
  if (h.meta.model != ModelId::Queue) return {DistinctValueCheck::Outcome::NotApplicable, "not a queue history", {}, {}};
  return QueueDecision(h).run();
}

}  // namespace warpcheck
