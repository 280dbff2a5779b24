// The distinct-value stack decision procedure (distinct_stack.hpp).
//
// Why it is right. A linearization puts a point inside every operation's
// interval; ties are free (touching intervals are concurrent). For a stack
// with distinct values, a sequence is legal iff, writing p(v) and q(v) for
// the points of v's push and pop (q = infinity when nobody popped v), the
// spans [p(v), q(v)] nest or are disjoint, and every null pop's point lies
// in no span.
//  1. A value whose push and pop overlap (Q(v) starts by the end of P(v))
//     can take both points at one moment t of the overlap, back to back:
//     that leaves every other operation's view of the stack as it was. So
//     the history is linearizable iff it is without v; such values are put
//     back at the end.
//  2. Every other value has P(v).ret < Q(v).call, and any span [p(v), q(v)]
//     covers the open stretch S(v) = (P(v).ret, Q(v).call). A moment t in
//     no stretch is free: each value fits wholly before t (its pop starts
//     by t) or wholly after it (its push ends at or after t), never both.
//     So the stretches' union splits the history into parts, each the set
//     of values whose stretches join into one open interval (L, R), decided
//     apart, one after the other, the stack empty between them; a null pop
//     is linearizable iff its interval reaches a free moment, where it goes.
//  3. A part's points can be pulled into [L, R] (L: the earliest P(v).ret,
//     R: the latest Q(v).call; every interval of the part reaches into it),
//     keeping their order. In any linearization of a part, the value b
//     pushed first is at the bottom; were q(b) < R, q(b) would lie in some
//     S(v), v above b when b is popped. So b's push can go first and its pop
//     last: P(b).call <= P(v).ret and Q(b).ret >= Q(v).call for every other
//     v of the part. Conversely any b that can is removable: a linearization
//     of the rest, with b's push before it and b's pop after, is one of the
//     part. Without such a b the part is not linearizable; after removing
//     it, the rest splits again where b's stretch alone covered the time.
// The candidates: f, the value whose push ends first, can always go first;
// g, the value whose pop starts last, can always go last; any other b must
// start its push by P(f).ret and end its pop at or after Q(g).call. They
// are tried in order of push response; the stretches' cover is kept in a
// segment tree, so finding where a part splits costs O(log n) a split.
//
// Evidence. Projecting a linearizable stack history onto a set of values
// (their pushes and pops, with or without the null pops) keeps it
// linearizable: removing a value's push and pop, or a null pop, from a
// legal sequence leaves a legal one; a pending pop that took a value
// outside the set can be left out. So a finding about values that
// completed pops returned is a violation whatever the pending pops did.
#include "linearizability/distinct_stack.hpp"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <tuple>
#include <set>

#include "linearizability/detail/arg_extreme_tree.hpp"
#include "linearizability/detail/coverage_tree.hpp"
#include "linearizability/detail/stretch_cover.hpp"
#include "models/base/long_step.hpp"

namespace warpcheck {

namespace {

using detail::kNone;
using detail::kNever;  // the pop of a value nobody popped: at infinity

struct StackValue {
  int64_t value = 0;
  uint32_t push = kNone;
  uint32_t pop = kNone;     // the completed pop that returned it, or the pending pop matched with it
  bool pop_guessed = false; // pop is a pending pop matched with it
  uint64_t pc = 0, pr = 0;  // the push's interval (pr: kNever when pending)
  uint64_t oc = kNever, orr = kNever;  // the pop's; kNever when nobody popped it
  bool popped() const { return pop != kNone; }
  bool overlaps() const { return popped() && oc <= pr; }  // push and pop can take effect back to back
};

struct NullPop {
  uint32_t op;
  uint64_t c, r;
  uint64_t t = 0;  // its point: a free moment
};

// A part of the history: the values at positions [begin, end) of the
// stretch order, those not yet removed.
struct Part {
  uint32_t begin, end;
};

struct Placed {  // an operation of the order built, and its point
  uint64_t point;
  uint32_t op;
  bool is_push;
};

class StackDecision : detail::DistinctValueDecision {
 public:
  explicit StackDecision(const History& h) : h_(h) {}

  DistinctValueCheck run() {
    if (h_.meta.model != ModelId::Stack) {
      result_.detail = "not a stack history";
      return result_;
    }
    detail::reserve_long_step(h_.ops.size() * 160);
    if (!index_values() || !match_pending_pops() || !find_parts() || !place_null_pops() || !peel_parts()) return result_;
    build_witness();
    result_.outcome = Outcome::Linearizable;
    return result_;
  }

 private:
  std::string describe(uint32_t op) const { return describe_operation(h_, h_.ops[op]); }
  std::string value_name(uint32_t slot) const { return std::to_string(values_[slot].value); }

  bool index_values() {
    const std::vector<Operation>& ops = h_.ops;
    absl::flat_hash_map<int64_t, uint32_t> slot;
    slot.reserve(ops.size());
    for (uint32_t i = 0; i < ops.size(); ++i) {
      detail::poll_every(i);
      if (ops[i].data.kind != OpKind::Push) continue;
      if (!slot.try_emplace(ops[i].data.key, uint32_t(values_.size())).second)
        return not_applicable("the value " + std::to_string(ops[i].data.key) + " is pushed more than once");
      StackValue v;
      v.value = ops[i].data.key;
      v.push = i;
      v.pc = ops[i].call;
      v.pr = ops[i].ret;
      values_.push_back(v);
    }
    for (uint32_t i = 0; i < ops.size(); ++i) {
      detail::poll_every(i);
      const Operation& op = ops[i];
      if (op.data.kind != OpKind::Pop) continue;
      if (op.pending()) {
        pending_pops_.push_back(i);
      } else if (op.data.result_kind == ResultKind::Absent) {
        null_pops_.push_back(NullPop{i, op.call, op.ret});
      } else {
        auto it = slot.find(op.data.result);
        if (it == slot.end()) return violation({}, {i}, "a pop returned " + std::to_string(op.data.result) + ", which no push added");
        StackValue& v = values_[it->second];
        if (v.popped()) return violation({}, {v.push, v.pop, i}, std::to_string(v.value) + " is popped twice");
        v.pop = i;
        v.oc = op.call;
        v.orr = op.ret;
        if (v.orr < v.pc) return violation({}, {v.push, v.pop}, "pop -> " + std::to_string(v.value) + " returned before its push was invoked");
      }
    }
    return true;
  }

  // A pending pop may have taken a value no completed pop returned. Such
  // values are matched with pending pops whose invocation lies nearest to
  // their push's response, the closest pairs first (a pop invoked before
  // that response lets push and pop overlap; one after it ends the
  // value's stretch there), then each value still unmatched with the
  // nearest pop left. A value left on the stack covers every null pop
  // that returns after its push returned, so a pop invoked after the first
  // such response is no use to it. That is a guess: a witness it yields
  // is replayed like any other, and a finding that involves a guessed or
  // unmatched value is Undecided.
  bool match_pending_pops() {
    if (pending_pops_.empty()) return true;
    std::vector<uint64_t> null_returns;
    for (const NullPop& x : null_pops_) null_returns.push_back(x.r);
    std::sort(null_returns.begin(), null_returns.end());
    struct Unpopped {
      uint64_t pr, deadline;
      uint32_t slot;
    };
    std::vector<Unpopped> unpopped;
    for (uint32_t s = 0; s < values_.size(); ++s) {
      const StackValue& v = values_[s];
      if (v.popped() || v.pr == kNever) continue;
      const auto due = std::upper_bound(null_returns.begin(), null_returns.end(), v.pr);
      unpopped.push_back({v.pr, due == null_returns.end() ? kNever : *due, s});
    }
    if (unpopped.empty()) return true;
    std::sort(unpopped.begin(), unpopped.end(), [](const Unpopped& a, const Unpopped& b) { return std::tie(a.pr, a.slot) < std::tie(b.pr, b.slot); });
    std::sort(pending_pops_.begin(), pending_pops_.end(), [&](uint32_t a, uint32_t b) {
      return std::tie(h_.ops[a].call, a) < std::tie(h_.ops[b].call, b);
    });
    auto call = [&](size_t j) { return h_.ops[pending_pops_[j]].call; };
    auto distance = [](uint64_t a, uint64_t b) { return a > b ? a - b : b - a; };
    // Candidate pairs: each value with its nearest pops on either side, each pop with its nearest values.
    std::vector<std::tuple<uint64_t, uint32_t, uint32_t>> pairs;  // (distance, value position, pop position)
    auto add = [&](size_t i, size_t j) {
      if (call(j) <= unpopped[i].deadline) pairs.emplace_back(distance(unpopped[i].pr, call(j)), uint32_t(i), uint32_t(j));
    };
    for (size_t i = 0, j = 0; i < unpopped.size(); ++i) {
      while (j < pending_pops_.size() && call(j) < unpopped[i].pr) ++j;
      if (j > 0) add(i, j - 1);
      if (j < pending_pops_.size()) add(i, j);
    }
    for (size_t j = 0, i = 0; j < pending_pops_.size(); ++j) {
      while (i < unpopped.size() && unpopped[i].pr < call(j)) ++i;
      if (i > 0) add(i - 1, j);
      if (i < unpopped.size()) add(i, j);
    }
    std::sort(pairs.begin(), pairs.end());
    std::vector<char> value_taken(unpopped.size(), 0), pop_taken(pending_pops_.size(), 0);
    auto match = [&](size_t i, size_t j) {
      StackValue& v = values_[unpopped[i].slot];
      v.pop = pending_pops_[j];
      v.pop_guessed = true;
      v.oc = call(j);
      v.orr = kNever;
      value_taken[i] = pop_taken[j] = 1;
    };
    for (const auto& [d, i, j] : pairs)
      if (!value_taken[i] && !pop_taken[j]) match(i, j);
    std::set<std::pair<uint64_t, uint32_t>> free_pops;  // (call, position)
    for (uint32_t j = 0; j < pending_pops_.size(); ++j)
      if (!pop_taken[j]) free_pops.emplace(call(j), j);
    for (size_t i = 0; i < unpopped.size() && !free_pops.empty(); ++i) {
      detail::poll_every(i);
      if (value_taken[i]) continue;
      const uint64_t pr = unpopped[i].pr;
      auto after = free_pops.lower_bound({pr, 0});
      if (after != free_pops.end() && after->first > unpopped[i].deadline) after = free_pops.end();
      auto before = after == free_pops.begin() ? free_pops.end() : std::prev(after);
      if (after == free_pops.end() && before == free_pops.end()) continue;
      auto take = before == free_pops.end() ? after
                  : after == free_pops.end() ? before
                  : (after->first - pr < pr - before->first ? after : before);
      match(i, take->second);
      free_pops.erase(take);
    }
    return true;
  }

  // Values whose push and pop overlap are put back at the end; a pending
  // push of a value nobody popped is left out. The others, ordered by
  // the start of their stretch, split where no stretch covers the time.
  bool find_parts() {
    std::vector<uint64_t> starts;
    for (uint32_t s = 0; s < values_.size(); ++s) {
      const StackValue& v = values_[s];
      if (v.overlaps()) back_to_back_.push_back(s);
      else if (v.pr != kNever) {
        stretch_order_.push_back(s);
        starts.push_back(v.pr);
      }
    }
    std::vector<uint32_t> by(stretch_order_.size());
    std::iota(by.begin(), by.end(), 0u);
    std::stable_sort(by.begin(), by.end(), [&](uint32_t a, uint32_t b) { return starts[a] < starts[b]; });
    for (uint32_t& k : by) k = stretch_order_[k];
    stretch_order_ = std::move(by);
    const uint32_t n = uint32_t(stretch_order_.size());
    start_.resize(n);
    for (uint32_t k = 0; k < n; ++k) start_[k] = values_[stretch_order_[k]].pr;
    uint64_t reach = 0;
    for (uint32_t k = 0; k < n; ++k) {
      detail::poll_every(k);
      const StackValue& v = at(k);
      if (k == 0 || v.pr >= reach) {
        if (k > 0) top_parts_.back().end = k;
        top_parts_.push_back(Part{k, n});
        reach = v.oc;
      } else {
        reach = std::max(reach, v.oc);
      }
    }
    return true;
  }

  const StackValue& at(uint32_t k) const { return values_[stretch_order_[k]]; }

  // A null pop goes to the first free moment of its interval; none there:
  // a chain of values surely on the stack throughout is the evidence.
  bool place_null_pops() {
    if (null_pops_.empty()) return true;
    detail::StretchCover held;
    for (uint32_t k = 0; k < stretch_order_.size(); ++k) held.add(at(k).pr, at(k).oc, stretch_order_[k]);
    held.seal();
    for (size_t i = 0; i < null_pops_.size(); ++i) {
      detail::poll_every(i);
      NullPop& x = null_pops_[i];
      const std::optional<uint64_t> t = held.first_free(x.c, x.r);
      if (!t) return covered(x, held);
      x.t = *t;
    }
    std::sort(null_pops_.begin(), null_pops_.end(), [](const NullPop& a, const NullPop& b) { return std::tie(a.t, a.op) < std::tie(b.t, b.op); });
    return true;
  }

  bool covered(const NullPop& x, const detail::StretchCover& held) {
    const std::vector<uint32_t> chain = held.covering(x.c, x.r);
    if (chain.empty()) return undecided("a null pop's place was not found, nor what covers it");
    std::string names;
    for (uint32_t s : chain) names += (names.empty() ? "" : ", ") + value_name(s);
    return violation(chain, {x.op}, "the stack surely holds a value throughout " + describe(x.op) + " (in turn: " + names + ")");
  }

  // Removes, part by part, a value that can be at the bottom, and splits
  // what is left of the part where that value's stretch alone covered the
  // time. Parts are taken depth first, so the pushes and pops come out in
  // the order of a linearization (their points never decrease).
  bool peel_parts() {
    const uint32_t n = uint32_t(stretch_order_.size());
    std::vector<uint64_t> push_call(n), pop_call(n);
    std::vector<uint64_t> ends;  // the stretches' endpoints: cells are these moments and the gaps between them
    ends.reserve(2 * n);
    for (uint32_t k = 0; k < n; ++k) {
      push_call[k] = at(k).pc;
      pop_call[k] = at(k).oc;
      ends.push_back(at(k).pr);
      ends.push_back(at(k).oc);
    }
    std::sort(ends.begin(), ends.end());
    ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
    auto cells = [&](uint32_t k) {  // the cells of the open stretch (pr, oc)
      const size_t a = std::lower_bound(ends.begin(), ends.end(), at(k).pr) - ends.begin();
      const size_t b = std::lower_bound(ends.begin(), ends.end(), at(k).oc) - ends.begin();
      return std::pair<size_t, size_t>{2 * a + 1, 2 * b};
    };
    // Retired values: a push call of kNever never reaches, a pop call of 0
    // never wins (a kept value's pop starts after its push ends).
    detail::ArgExtremeTree<std::less<uint64_t>> earliest_push_call(push_call, kNever);
    detail::ArgExtremeTree<std::greater<uint64_t>> latest_pop_call(pop_call, 0);
    detail::CoverageTree cover(2 * ends.size());
    for (uint32_t k = 0; k < n; ++k) {
      const auto [l, r] = cells(k);
      cover.add(l, r, 1);
    }
    std::vector<uint32_t> next_kept(n + 1);  // union-find: the first kept position at or after k
    std::iota(next_kept.begin(), next_kept.end(), 0u);
    auto first_kept = [&](uint32_t k) {
      uint32_t root = k;
      while (next_kept[root] != root) root = next_kept[root];
      while (next_kept[k] != root) k = std::exchange(next_kept[k], root);
      return root;
    };

    struct Task {
      Part part;
      uint32_t pop_of;  // kNone: decide the part; else place this value's pop
      uint64_t point;
    };
    std::vector<Task> tasks;
    for (auto p = top_parts_.rbegin(); p != top_parts_.rend(); ++p) tasks.push_back({*p, kNone, 0});
    placed_.reserve(2 * n);
    std::vector<uint32_t> cuts;
    for (size_t step = 0; !tasks.empty(); ++step) {
      detail::poll_every(step);
      const Task task = tasks.back();
      tasks.pop_back();
      if (task.pop_of != kNone) {
        placed_.push_back({task.point, values_[task.pop_of].pop, false});
        continue;
      }
      const auto [begin, end] = task.part;
      const uint32_t f = first_kept(begin);
      if (f >= end) continue;
      const uint32_t g = latest_pop_call.best(begin, end);
      uint32_t b = f == g ? f : kNone;
      if (b == kNone)
        earliest_push_call.visit_reaching(begin, end, at(f).pr, [&](uint32_t k) {
          if (k != g && at(k).orr < at(g).oc) return false;
          b = k;
          return true;
        });
      if (b == kNone) return no_bottom(task.part, f, g, first_kept);
      const StackValue& bottom = at(b);
      placed_.push_back({std::max(bottom.pc, at(f).pr), bottom.push, true});
      if (bottom.popped()) tasks.push_back({task.part, stretch_order_[b], std::min(bottom.orr, at(g).oc)});
      next_kept[b] = b + 1;
      earliest_push_call.retire(b);
      latest_pop_call.retire(b);
      const auto [l, r] = cells(b);
      cover.add(l, r, -1);
      cuts.clear();
      cover.visit_uncovered(l, r, [&](size_t cell) {
        const uint64_t t = ends[(cell + 1) / 2];  // values whose stretch starts at or after t lie after the cell
        cuts.push_back(uint32_t(std::lower_bound(start_.begin() + begin, start_.begin() + end, t) - start_.begin()));
      });
      cuts.push_back(end);
      std::sort(cuts.begin(), cuts.end());
      cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
      const size_t first_new = tasks.size();
      uint32_t from = begin;
      for (uint32_t cut : cuts) {
        if (first_kept(from) < cut) tasks.push_back({Part{from, cut}, kNone, 0});
        from = cut;
      }
      std::reverse(tasks.begin() + first_new, tasks.end());
    }
    return true;
  }

  // No value of the part can be at the bottom: the part is the evidence.
  template <class FirstKept>
  bool no_bottom(const Part& part, uint32_t f, uint32_t g, FirstKept& first_kept) {
    std::vector<uint32_t> slots;
    for (uint32_t k = first_kept(part.begin); k < part.end; k = first_kept(k + 1)) slots.push_back(stretch_order_[k]);
    const std::string why =
        "no value of " + std::to_string(slots.size()) + " whose stretches join can be at the bottom: " +
        "push(" + value_name(stretch_order_[f]) + ") ends first but its pop ends before pop -> " + value_name(stretch_order_[g]) +
        " starts, and every push that could go first likewise";
    return violation(slots, {}, why);
  }

  // The order: the parts' pushes and pops as placed; each null pop at its
  // free moment, after the pops and before the pushes placed there; each
  // overlapping value's push and pop back to back at the start of their
  // overlap, after everything placed at or before it.
  void build_witness() {
    struct Extra {
      size_t at;  // before placed_[at]
      uint64_t t;
      uint32_t first, second;  // second: kNone for a null pop
    };
    std::vector<uint64_t> points(placed_.size());
    for (size_t i = 0; i < placed_.size(); ++i) points[i] = placed_[i].point;
    std::vector<Extra> extras;
    extras.reserve(back_to_back_.size() + null_pops_.size());
    for (uint32_t s : back_to_back_) {
      const StackValue& v = values_[s];
      const uint64_t t = std::max(v.pc, v.oc);
      extras.push_back({size_t(std::upper_bound(points.begin(), points.end(), t) - points.begin()), t, v.push, v.pop});
    }
    for (const NullPop& x : null_pops_) {
      const size_t lo = std::lower_bound(points.begin(), points.end(), x.t) - points.begin();
      const size_t hi = std::upper_bound(points.begin(), points.end(), x.t) - points.begin();
      // At a free moment only parts end (pops) and start (pushes), in that order.
      const size_t at = std::partition_point(placed_.begin() + lo, placed_.begin() + hi, [](const Placed& p) { return !p.is_push; }) - placed_.begin();
      extras.push_back({at, x.t, x.op, kNone});
    }
    std::sort(extras.begin(), extras.end(), [](const Extra& a, const Extra& b) { return std::tie(a.at, a.t) < std::tie(b.at, b.t); });
    result_.order.reserve(placed_.size() + 2 * extras.size());
    size_t e = 0;
    for (size_t i = 0; i <= placed_.size(); ++i) {
      detail::poll_every(i);
      for (; e < extras.size() && extras[e].at == i; ++e) {
        result_.order.push_back(extras[e].first);
        if (extras[e].second != kNone) result_.order.push_back(extras[e].second);
      }
      if (i < placed_.size()) result_.order.push_back(placed_[i].op);
    }
  }

  // The projection onto `slots` (their operations) plus `ops`. A finding
  // that involves a value no completed pop returned may be explained by
  // another choice of pending pops: Undecided, and the evidence keeps the
  // pending pops invoked before its last response (a pop invoked after
  // that can only follow all of it).
  bool violation(const std::vector<uint32_t>& slots, std::vector<uint32_t> ops, std::string why) {
    bool guessed = false;
    for (uint32_t s : slots) {
      const StackValue& v = values_[s];
      ops.push_back(v.push);
      if (v.popped() && !v.pop_guessed) ops.push_back(v.pop);
      else guessed = true;
    }
    const bool rests_on_pending = guessed && !pending_pops_.empty();
    if (rests_on_pending) {
      uint64_t last_response = 0;
      for (uint32_t op : ops) last_response = std::max(last_response, h_.ops[op].ret);
      for (uint32_t p : pending_pops_)
        if (h_.ops[p].call <= last_response) ops.push_back(p);
    }
    return found(rests_on_pending ? Outcome::Undecided : Outcome::Violation, std::move(ops), std::move(why));
  }

  const History& h_;
  std::vector<StackValue> values_;
  std::vector<uint32_t> pending_pops_;
  std::vector<NullPop> null_pops_;
  std::vector<uint32_t> back_to_back_;   // values whose push and pop overlap
  std::vector<uint32_t> stretch_order_;  // the others, by the start of their stretch
  std::vector<uint64_t> start_;          // their stretches' starts, in that order
  std::vector<Part> top_parts_;
  std::vector<Placed> placed_;
};

// A violation's evidence can be a whole part, thousands of values, more
// than the search that confirms it can take. Projections onto fewer values
// are evidence too when the procedure still refutes them (a violation it
// finds on a complete history is sound), so the values are cut down by
// delta debugging over projections: halves, then quarters, and so on,
// keeping any cut that is still refuted.
std::vector<uint32_t> shrink_evidence(const History& h, const std::vector<uint32_t>& evidence) {
  // Units: a value's push and pop together; a null pop alone.
  absl::flat_hash_map<int64_t, uint32_t> unit_of;
  std::vector<std::vector<uint32_t>> units;
  for (uint32_t i : evidence) {
    const OpData& d = h.ops[i].data;
    const bool has_value = d.kind == OpKind::Push || d.result_kind != ResultKind::Absent;
    if (!has_value) {
      units.push_back({i});
      continue;
    }
    const auto [it, added] = unit_of.try_emplace(d.kind == OpKind::Push ? d.key : d.result, uint32_t(units.size()));
    if (added) units.emplace_back();
    units[it->second].push_back(i);
  }
  History sub;
  sub.meta = h.meta;
  sub.key_pool = h.key_pool;
  sub.strings = h.strings;
  auto refuted_without = [&](size_t from, size_t to) {
    sub.ops.clear();
    for (size_t u = 0; u < units.size(); ++u)
      if (u < from || u >= to)
        for (uint32_t i : units[u]) sub.ops.push_back(h.ops[i]);
    return StackDecision(sub).run().outcome == DistinctValueCheck::Outcome::Violation;
  };
  for (size_t chunk = units.size() / 2; chunk >= 1 && units.size() > 1;) {
    bool cut = false;
    for (size_t from = 0; from < units.size() && units.size() > 1;) {
      const size_t to = std::min(units.size(), from + chunk);
      if (refuted_without(from, to)) {
        units.erase(units.begin() + from, units.begin() + to);
        cut = true;
      } else {
        from = to;
      }
    }
    if (!cut) chunk /= 2;
    else chunk = std::min(chunk, units.size() / 2);
  }
  std::vector<uint32_t> kept;
  for (const std::vector<uint32_t>& unit : units) kept.insert(kept.end(), unit.begin(), unit.end());
  std::sort(kept.begin(), kept.end());
  return kept;
}

}  // namespace

DistinctValueCheck check_distinct_stack(const History& h) {
  DistinctValueCheck r = StackDecision(h).run();
  if (r.outcome == DistinctValueCheck::Outcome::Violation && r.evidence.size() > 8) r.evidence = shrink_evidence(h, r.evidence);
  return r;
}

}  // namespace warpcheck
