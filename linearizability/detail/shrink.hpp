// Shrinking a refuted part of a history to a small sub-history that is still
// refuted AND still evidence against the whole history. Arbitrary subsets
// are not evidence: "contains(5) -> true" alone is not linearizable, yet the
// history it came from may have inserted 5 first. So the shrinker uses only
// transformations T for which "H linearizable implies T(H) linearizable":
//  - a time cut: drop operations invoked after t, and turn those still
//    running at t into pending ones (linearizability is prefix-closed);
//  - dropping an operation that cannot change the model's state (an
//    observer, or an update recorded as failed).
// Every candidate is re-checked by the search; whatever comes back is a
// verified violation. "Minimal" means no single further droppable operation
// can go and no earlier cut was found.
#pragma once

#include <algorithm>
#include <numeric>
#include <vector>

#include "linearizability/detail/search.hpp"

namespace warpcheck::detail {

template <SequentialModel Model>
class Shrinker {
 public:
  Shrinker(Search<Model>& search, Budget& budget) : search_(search), budget_(budget) {}

  struct Result {
    History history;             // the counterexample; operations keep their ids
    std::vector<uint64_t> cut;   // ids the time cut turned pending
    bool minimal = false;
  };

  // `part` (history indices) must be refuted already; `stuck_at` is the
  // refuting search's SearchResult::stuck_at (0: unknown).
  Result shrink(const History& h, const std::vector<uint32_t>& part, uint64_t stuck_at = 0) {
    Result out;
    out.history.meta = h.meta;
    out.history.meta.incomplete = false;
    out.history.key_pool = h.key_pool;
    out.history.strings = h.strings;
    scratch_.meta = h.meta;
    scratch_.key_pool = h.key_pool;
    scratch_.strings = h.strings;
    for (uint32_t i : part) out.history.ops.push_back(h.ops[i]);
    std::stable_sort(out.history.ops.begin(), out.history.ops.end(),
                     [](const Operation& a, const Operation& b) { return a.call < b.call; });
    cut_at_earliest_refuted_time(out, stuck_at);
    drop_state_preserving_ops(out.history.ops);
    out.minimal = !gave_up_;
    compact_key_pool(out.history);
    compact_strings(out.history);
    std::erase_if(out.cut, [&](uint64_t id) {
      return std::none_of(out.history.ops.begin(), out.history.ops.end(), [&](const Operation& op) { return op.id == id; });
    });
    return out;
  }

  // Operations that were running at time t become pending; later ones go.
  static std::vector<Operation> cut(const std::vector<Operation>& ops, uint64_t t, std::vector<uint64_t>* turned_pending) {
    std::vector<Operation> kept;
    for (Operation op : ops) {
      if (op.call > t) continue;
      if (!op.pending() && op.ret > t) {
        op.ret = kPendingTime;
        op.data.pending = true;
        op.data.result_kind = ResultKind::None;
        op.data.result = 0;
        op.data.out_begin = op.data.out_count = 0;
        if (turned_pending) turned_pending->push_back(op.id);
      }
      kept.push_back(op);
    }
    return kept;
  }

 private:
  // Searches event times for an early refuted cut. Refuted cuts need not be
  // monotone in t, so only verified cuts are kept. The first guess is where
  // the refuting search was stuck: the operation it could not linearize
  // returned then, and cuts there usually leave few operations running
  // (each running one becomes pending, and pending operations make a
  // search branch). From the best cut the search gallops down, then
  // bisects the last gap.
  void cut_at_earliest_refuted_time(Result& out, uint64_t stuck_at) {
    std::vector<uint64_t> times;
    for (const Operation& op : out.history.ops) {
      times.push_back(op.call);
      if (!op.pending()) times.push_back(op.ret);
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    size_t lo = 0, hi = times.size();  // hi == size: no cut
    auto refuted_at = [&](size_t i) { return refuted(cut(out.history.ops, times[i], nullptr)); };
    if (stuck_at > 0) {
      const size_t guess = size_t(std::lower_bound(times.begin(), times.end(), stuck_at) - times.begin());
      if (guess < hi && refuted_at(guess)) hi = guess;
    }
    for (size_t step = 1; hi > lo && !gave_up_; step *= 2) {
      const size_t probe = hi > lo + step ? hi - step : lo;
      if (refuted_at(probe)) {
        hi = probe;
      } else {
        lo = probe + 1;
        break;
      }
    }
    while (lo < hi && !gave_up_) {
      const size_t mid = lo + (hi - lo) / 2;
      if (refuted_at(mid)) hi = mid; else lo = mid + 1;
    }
    if (hi < times.size()) out.history.ops = cut(out.history.ops, times[hi], &out.cut);
  }

  // ddmin over the droppable operations: chunks first, then single ones
  // until a whole pass drops nothing.
  void drop_state_preserving_ops(std::vector<Operation>& ops) {
    for (size_t chunk = std::max<size_t>(1, ops.size() / 2);; chunk = std::max<size_t>(1, chunk / 2)) {
      bool dropped = false;
      for (size_t start = 0; start < ops.size() && !gave_up_;) {
        if (try_without(ops, start, chunk)) dropped = true; else start += chunk;
      }
      if (gave_up_ || (chunk == 1 && !dropped)) return;
    }
  }

  // Drops the droppable operations among ops[start, start + count).
  bool try_without(std::vector<Operation>& ops, size_t start, size_t count) {
    candidate_.clear();
    bool any = false;
    for (size_t i = 0; i < ops.size(); ++i) {
      const bool in_chunk = i >= start && i < start + count;
      if (in_chunk && ModelTraits<Model>::leaves_state_unchanged(ops[i].data)) { any = true; continue; }
      candidate_.push_back(ops[i]);
    }
    if (!any || candidate_.empty() || !refuted(candidate_)) return false;
    ops.swap(candidate_);
    return true;
  }

  bool refuted(const std::vector<Operation>& ops) {
    scratch_.ops = ops;
    indices_.resize(ops.size());
    std::iota(indices_.begin(), indices_.end(), 0u);
    SearchOutcome o = search_.run(scratch_, indices_, budget_).outcome;
    if (o != SearchOutcome::Violation && o != SearchOutcome::Linearizable) gave_up_ = true;
    return o == SearchOutcome::Violation;
  }

  Search<Model>& search_;
  Budget& budget_;
  History scratch_;
  std::vector<Operation> candidate_;
  std::vector<uint32_t> indices_;
  bool gave_up_ = false;
};

}  // namespace warpcheck::detail
