// The general linearizability search for one (sub-)history: Wing & Gong's
// backtracking over the operations that may take effect next, in Lowe's
// just-in-time form (an operation is tried only while no response of an
// unlinearized operation precedes its invocation), with memoization of
// visited (linearized set, model state) configurations.
//
// Calls and responses form one doubly linked list in time order; linearizing
// an operation unlinks its two entries, and backtracking relinks them in the
// reverse order (dancing links), so each step is O(1) besides the model.
// Touching intervals (a response at the same time as an invocation) count as
// concurrent: at equal times, invocations come first in the list.
// Pending operations respond at +infinity: they may take effect or not.
//
// Observers (operations that cannot change the state: reads, failed
// updates) never branch. If an observer is callable now and the state
// satisfies it, a linearization extends the current prefix iff one extends
// it with the observer next: in any extension, moving the observer forward
// keeps every state (it changes none) and every real-time constraint (all
// operations that returned before its invocation are already linearized).
// So matching callable observers are linearized at once ("forced"), and a
// forced step that fails means the configuration before it fails too.
//
// Equivalent operations (identical arguments, results and pending flag, so
// the same effect on every state) are tried earliest response first: if b
// can come next, so can an equivalent a with a.ret <= b.ret, by swapping
// the two in the extension (states are unchanged; everything between them
// was invoked before a returned; both are callable now).
//
// Written values that no completed result and no CAS expected value
// mentions are renamed to one placeholder before searching, where the model
// says it compares values only with observed ones (OpaqueValuesModel): no
// step changes outcome, and concurrent unread writes become equivalent.
//
// A pending operation is never linearized where it changes nothing: it is
// optional, so any extension that places it there stays valid without it.
//
// Lazy operations (the model says which: priority-queue pushes) are tried
// only when a callable operation they help is waiting, or when their own
// response blocks the scan. Any valid extension can move each lazy
// operation later, to just before the first operation it helps or its
// real-time deadline, and both of those placements are explored.
//
// Invertible operations (the model says which: their successful effect is
// fixed, see InvertibleModel) are applied to the state in place and undone on
// backtracking, and a configuration whose operations are all invertible
// keeps no state in the memo: its state follows from its linearized set.
// A priority queue's state is the whole queue; copies of it per step were
// what bounded the search before.
//
// Two rules hold where every key is supplied once (a priority queue whose
// pushed keys are distinct; the model names suppliers and anchors). Queues
// and stacks with distinct values have anchors too (completed removals that
// returned a value: forced when the value is next out, models/detail/
// sequence_model_base.hpp has why), but no blocks: their additions are not
// lazy, so they are tried on their own, and a removal never goes first.
//  - A completed pop whose keys are the smallest now is linearized at once
//    (forced, like an observer). Take a valid extension with the pop Q
//    later: Q's keys stay in the queue until Q (nothing else can return
//    them), so every pop between returned only keys smaller than Q's (a
//    full pop) or could not have run (a partial pop takes the whole queue);
//    pending pops between took only keys smaller than Q's too. Removing Q's
//    keys first changes none of their results.
//  - Otherwise the next completed pop Q ("anchor") comes with its block: the
//    pushes not yet linearized that hold one of its keys. In a valid
//    extension each push can move to just before the first operation it
//    helps (the lazy rule), and pushes commute, so some valid extension
//    starts with Q's block in position order, then Q. The search branches
//    over anchors only, never over subsets of pushes; a block whose pushes
//    cannot all be called now, or after which Q's keys would not be the
//    smallest, is skipped without being applied.
// With both, a violating batched history is refuted about as fast as a
// linearizable one is proved: backtracking meets forced frames and anchors
// that fail their cheap test, not every subset of concurrent pushes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "linearizability/budget.hpp"
#include "linearizability/detail/equivalent_ops.hpp"
#include "linearizability/detail/memo_cache.hpp"
#include "linearizability/detail/radix_order.hpp"
#include "linearizability/history.hpp"
#include "models/base/long_step.hpp"
#include "models/base/value_strings.hpp"
#include "models/model_traits.hpp"

namespace warpcheck::detail {

enum class SearchOutcome { Linearizable, Violation, OutOfTime, OutOfMemory, Cancelled };

struct SearchResult {
  SearchOutcome outcome = SearchOutcome::Violation;
  std::vector<uint32_t> order;  // Linearizable: history indices in linearization order
  uint64_t steps = 0;           // model steps tried
  size_t deepest = 0;           // longest partial linearization reached
  // Violation: the latest response time at which the search was stuck (no
  // way to linearize that operation before it returned). The shrinker's
  // first guess for the earliest refuted time cut.
  uint64_t stuck_at = 0;
  // Filled in explain mode only: for each operation (by position in the
  // searched list), the longest partial linearization that contained it.
  std::vector<std::vector<uint32_t>> longest_with;
};

template <SequentialModel Model>
class Search {
  using State = typename Model::State;
  using Traits = ModelTraits<Model>;  // the optional capabilities, with their defaults

 public:
  // Searches the operations `indices` (history indices) of `h`.
  // `prune` off gives the plain search (no rule below the header's first
  // paragraph), the reference the pruned search is cross-checked against.
  SearchResult run(const History& h, std::span<const uint32_t> indices, Budget& budget, bool explain = false,
                   bool prune = true) {
    // Long model steps and cache growth poll the budget and throw when it
    // is spent; the search's state is then discarded.
    const detail::ScopedLongStepPoller poller = budget.install();
    const detail::ScopedValueStrings strings(h.strings);
    SearchResult result;
    size_t reported_bytes = 0;
    try {
      return search(h, indices, budget, explain, prune, result, reported_bytes);
    } catch (const BudgetExhausted& e) {
      budget.memory_used.fetch_sub(reported_bytes, std::memory_order_relaxed);
      stack_.clear();
      saved_states_.clear();
      result.outcome = e.why == BudgetStop::Memory   ? SearchOutcome::OutOfMemory
                       : e.why == BudgetStop::Time ? SearchOutcome::OutOfTime
                                                   : SearchOutcome::Cancelled;
      return result;
    }
  }

 private:
  SearchResult search(const History& h, std::span<const uint32_t> indices, Budget& budget, bool explain, bool prune,
                      SearchResult& result, size_t& reported_bytes) {
    prune_ = prune;
    stack_heap_bytes_ = 0;
    prepare(h, indices, budget);
    if (explain) result.longest_with.assign(n_, {});
    const int64_t* pool = h.key_pool.data();
    State state = Model::initial();
    uint64_t hash = 0;
    int32_t low = 0, high = -1;
    stack_.clear();
    saved_states_.clear();
    int32_t entry = next_[head()];
    uint32_t choice = 0;
    uint64_t iterations = 0;
    bool force = true;  // force observers before branching in a new configuration
    uint32_t dependent = 0;  // linearized operations that are not invertible
    // Linearizes `op` unless the configuration was seen before. With `next`,
    // the post-state is there; without, `state` was already stepped in place
    // (invertible operations), and is undone if the configuration was seen.
    auto advance = [&](uint32_t op, uint32_t with_choice, State* next, bool forced) {
      const State& post = next ? *next : state;
      set_bit(op);
      const int32_t next_high = std::max(high, int32_t(op));
      int32_t next_low = low;
      if (int32_t(op) == low)
        while (next_low < int32_t(n_) && test_bit(uint32_t(next_low))) ++next_low;
      const uint64_t next_hash = hash ^ zobrist(op);
      const uint32_t next_dependent = dependent + (invertible_[op] ? 0 : 1);
      if (!cache_.insert(next_hash ^ mix64(Traits::hash(post)), next_low, next_high, bits_.data(), post, next_dependent > 0)) {
        clear_bit(op);
        if (!next) Traits::undo(state, data_[op], pool);
        return false;
      }
      if (next) {
        stack_heap_bytes_ += state_heap_bytes(state);
        stack_heap_bytes_ += sizeof(State);
        saved_states_.push_back(std::move(state));
        stack_.push_back(Frame{op, with_choice, call_entry_[op], forced, false, hash, low, high, dependent});
        state = std::move(*next);
      } else {
        stack_.push_back(Frame{op, with_choice, call_entry_[op], forced, true, hash, low, high, dependent});
      }
      dependent = next_dependent;
      if (!data_[op].pending) --completed_left_;
      hash = next_hash;
      low = next_low;
      high = next_high;
      lift(op);
      if (stack_.size() > result.deepest) result.deepest = stack_.size();
      if (explain) record_partial(result);
      return true;
    };
    // Applies `op` with `choice` and linearizes it. Invertible operations
    // (observers included) step in place; others step a copy, and a pending
    // one that would change nothing is not linearized there.
    auto apply = [&](uint32_t op, uint32_t with_choice, bool forced) {
      ++result.steps;
      const OpData& d = data_[op];
      if (!Traits::admits(state, d, pool)) return false;
      if (invertible_[op]) return Model::step(state, d, pool, with_choice) && advance(op, with_choice, nullptr, forced);
      State next = state;
      return Model::step(next, d, pool, with_choice) && !(prune_ && d.pending && next == state) &&
             advance(op, with_choice, &next, forced);
    };
    // Forces every callable observer the state satisfies, and every anchor
    // whose keys are the smallest now; false when one leads to a
    // configuration already explored (so this one fails).
    auto force_observers = [&] {
      for (int32_t e = next_[head()]; e != end() && !is_return(e);) {
        const uint32_t op = entry_op_[e];
        if ((observer_[op] || anchor_[op]) && (++result.steps, Traits::admits(state, data_[op], pool)) &&
            Model::step(state, data_[op], pool, 0)) {
          if (!advance(op, 0, nullptr, /*forced=*/true)) return false;
          // Observers change nothing, so the scan goes on after e's live
          // predecessor (e's own next may be the unlinked response); a
          // forced anchor changed the state, so the scan starts over.
          e = observer_[op] ? next_[prev_[e]] : next_[head()];
        } else {
          e = next_[e];
        }
      }
      return true;
    };
    // Linearizes anchor `op` after its block of pushes (see the header);
    // false, with nothing linearized, when the block cannot go now or the
    // anchor would fail after it.
    auto apply_block = [&](int32_t anchor_entry) {
      const uint32_t op = entry_op_[anchor_entry];
      int32_t first_return = next_[head()];
      while (first_return != end() && !is_return(first_return)) first_return = next_[first_return];
      block_.clear();
      block_data_.clear();
      for (uint32_t i = supplier_begin_[op]; i < supplier_begin_[op + 1]; ++i) {
        const uint32_t push = suppliers_[i];
        if (test_bit(push)) continue;
        // Callable: its invocation comes before the first pending response.
        if (first_return != end() && call_entry_[push] > first_return) return false;
        block_.push_back(push);
        block_data_.push_back(&data_[push]);
      }
      ++result.steps;
      if (!Traits::admits_after(state, data_[op], block_data_, pool)) return false;
      const size_t depth = stack_.size();
      for (size_t i = 0; i < block_.size(); ++i) {
        ++result.steps;
        Model::step(state, data_[block_[i]], pool, 0);
        // The block's first frame holds the alternatives: backtracking to it
        // resumes the scan after the anchor. The rest are forced.
        if (!advance(block_[i], 0, nullptr, /*forced=*/i > 0)) {
          unwind(depth, state, hash, low, high, dependent);
          return false;
        }
        if (i == 0) stack_.back().resume = anchor_entry;
      }
      if (!apply(op, 0, /*forced=*/!block_.empty())) {
        unwind(depth, state, hash, low, high, dependent);
        return false;
      }
      return true;
    };
    auto finish = [&](SearchOutcome outcome) {
      budget.memory_used.fetch_sub(reported_bytes, std::memory_order_relaxed);
      result.outcome = outcome;
      return std::move(result);
    };
    auto linearizable = [&] {
      for (const Frame& f : stack_) result.order.push_back(global_[f.op]);
      return finish(SearchOutcome::Linearizable);
    };
    while (true) {
      // Budgets are checked every 1024 iterations, and sooner when large
      // states have been stored since the last check.
      if ((++iterations & 1023) == 0 || cache_.bytes() + stack_heap_bytes_ > reported_bytes + (size_t(64) << 20)) {
        const size_t bytes = cache_.bytes() + stack_.capacity() * sizeof(Frame) + stack_heap_bytes_;
        budget.memory_used.fetch_add(bytes - reported_bytes, std::memory_order_relaxed);
        reported_bytes = bytes;
        switch (budget.stop()) {
          case BudgetStop::Cancelled: return finish(SearchOutcome::Cancelled);
          case BudgetStop::Memory: return finish(SearchOutcome::OutOfMemory);
          case BudgetStop::Time: return finish(SearchOutcome::OutOfTime);
          case BudgetStop::None: break;
        }
        if (stack_.size() == stack_.capacity()) budget.reserve(stack_.capacity() * sizeof(Frame));
      }
      if (force) {
        force = false;
        if (!force_observers()) {
          if (!backtrack(entry, choice, state, hash, low, high, dependent)) return finish(SearchOutcome::Violation);
          continue;
        }
        entry = next_[head()];
        choice = 0;
      }
      // Every completed operation linearized: the pending ones left may not
      // have taken effect at all.
      if (entry == end() || completed_left_ == 0) return linearizable();
      const uint32_t op = entry_op_[entry];
      if (!is_return(entry)) {
        if (observer_[op]) {  // observers are only ever forced
          entry = next_[entry];
          continue;
        }
        // Tried later: a lazy operation when something needs it or at its
        // deadline; a dominated one never (an equivalent one returns sooner).
        if ((lazy_[op] && !needed(op)) || dominated(op)) {
          entry = next_[entry];
          choice = 0;
          continue;
        }
        if (anchor_[op]) {
          if (choice == 0 && apply_block(entry)) {
            force = true;
          } else {
            entry = next_[entry];
            choice = 0;
          }
          continue;
        }
        const uint32_t choices = Traits::choices(state, data_[op], pool);
        bool advanced = false;
        for (; choice < choices && !advanced; ++choice) advanced = apply(op, choice, /*forced=*/false);
        if (advanced) {
          force = true;
        } else {
          entry = next_[entry];
          choice = 0;
        }
        continue;
      }
      // A response: its operation must be linearized before anything after it.
      if (data_[op].pending) return linearizable();  // only pending responses remain
      if (!data_[op].pending) result.stuck_at = std::max(result.stuck_at, ret_[op]);
      if (lazy_[op]) {  // its deadline: it goes now, or this configuration fails
        // Every alternative here was tried before the scan reached this
        // response, so the frame is a last resort: backtracking pops through.
        if (apply(op, 0, /*forced=*/true)) {
          force = true;
          continue;
        }
      }
      if (!backtrack(entry, choice, state, hash, low, high, dependent)) return finish(SearchOutcome::Violation);
    }
  }

  struct Frame {
    uint32_t op;
    uint32_t choice;
    int32_t resume;  // backtracking resumes the scan here, with choice + 1
    bool forced;  // no alternatives: a forced observer, or a lazy operation at its deadline
    bool undo;    // invertible: undo the step; else the state before it is saved_states_.back()
    uint64_t hash;
    int32_t low, high;
    uint32_t dependent;
  };

  // Undoes linearizations back to the last one that has alternatives left
  // and places the cursor on it with its next choice; false when none does.
  // Forced frames have no alternatives: their configuration failing means
  // the one before fails too.
  bool backtrack(int32_t& entry, uint32_t& choice, State& state, uint64_t& hash, int32_t& low, int32_t& high,
                 uint32_t& dependent) {
    while (!stack_.empty()) {
      const bool forced = stack_.back().forced;
      backtrack_one(entry, choice, state, hash, low, high, dependent);
      if (!forced) return true;
    }
    return false;
  }

  // Undoes linearizations back to stack depth `depth` (a block that could
  // not be completed).
  void unwind(size_t depth, State& state, uint64_t& hash, int32_t& low, int32_t& high, uint32_t& dependent) {
    int32_t entry;
    uint32_t choice;
    while (stack_.size() > depth) backtrack_one(entry, choice, state, hash, low, high, dependent);
  }

  // Undoes the last linearization; the cursor goes to its resume entry.
  void backtrack_one(int32_t& entry, uint32_t& choice, State& state, uint64_t& hash, int32_t& low, int32_t& high,
                     uint32_t& dependent) {
    Frame& f = stack_.back();
    clear_bit(f.op);
    unlift(f.op);
    if (!data_[f.op].pending) ++completed_left_;
    if (f.undo) {
      Traits::undo(state, data_[f.op], pool_);
    } else {
      stack_heap_bytes_ -= state_heap_bytes(saved_states_.back()) + sizeof(State);
      state = std::move(saved_states_.back());
      saved_states_.pop_back();
    }
    dependent = f.dependent;
    hash = f.hash;
    low = f.low;
    high = f.high;
    entry = f.resume;
    choice = f.choice + 1;
    stack_.pop_back();
  }

  // Whether a callable, unlinearized operation equivalent to `op` returns
  // earlier (ties: invoked earlier), so that trying `op` now is redundant.
  bool dominated(uint32_t op) const {
    if (!prune_ || class_size_[class_[op]] < 2) return false;
    for (int32_t e = next_[head()]; e != end() && !is_return(e); e = next_[e]) {
      const uint32_t other = entry_op_[e];
      if (other != op && class_[other] == class_[op] &&
          (ret_[other] < ret_[op] || (ret_[other] == ret_[op] && other < op)))
        return true;
    }
    return false;
  }

  // Whether some callable, unlinearized, non-lazy operation is helped by
  // the lazy operation `op`.
  bool needed(uint32_t op) const {
    for (int32_t e = next_[head()]; e != end() && !is_return(e); e = next_[e]) {
      const uint32_t other = entry_op_[e];
      if (!lazy_[other] && !anchor_[other] && Traits::helps(data_[op], data_[other], pool_)) return true;
    }
    return false;
  }

  // Anchors and the positions supplying their keys, when every supplied key
  // is supplied once (see the header); otherwise no anchors.
  void prepare_blocks() {
    anchor_.assign(n_, 0);
    supplier_begin_.assign(n_ + 1, 0);
    suppliers_.clear();
    {
      if (!prune_) return;
      absl::flat_hash_map<int64_t, uint32_t> supply;  // key -> supplying position
      for (uint32_t i = 0; i < n_; ++i) {
        if (i % 65536 == 65535) poll_long_step();
        for (int64_t k : Traits::supplied_keys(data_[i], pool_))
          if (!supply.try_emplace(k, i).second) return;  // a key supplied twice: no anchors
      }
      for (uint32_t i = 0; i < n_; ++i) {
        if (i % 65536 == 65535) poll_long_step();
        anchor_[i] = !observer_[i] && Traits::is_anchor(data_[i]);
        const size_t first = suppliers_.size();
        if (anchor_[i])
          for (int64_t k : Traits::anchor_keys(data_[i], pool_)) {
            if (auto it = supply.find(k); it != supply.end()) suppliers_.push_back(it->second);
          }
        std::sort(suppliers_.begin() + long(first), suppliers_.end());
        suppliers_.erase(std::unique(suppliers_.begin() + long(first), suppliers_.end()), suppliers_.end());
        supplier_begin_[i + 1] = uint32_t(suppliers_.size());
      }
    }
  }

  int32_t head() const { return int32_t(2 * n_); }
  int32_t end() const { return int32_t(2 * n_ + 1); }
  bool is_return(int32_t entry) const { return entry_is_return_[entry]; }
  bool test_bit(uint32_t i) const { return (bits_[i >> 6] >> (i & 63)) & 1; }
  void set_bit(uint32_t i) { bits_[i >> 6] |= uint64_t(1) << (i & 63); }
  void clear_bit(uint32_t i) { bits_[i >> 6] &= ~(uint64_t(1) << (i & 63)); }
  static uint64_t zobrist(uint32_t op) { return mix64(uint64_t(op) * 0x9e3779b97f4a7c15ULL + 0x5851f42d4c957f2dULL); }

  void unlink(int32_t e) {
    next_[prev_[e]] = next_[e];
    prev_[next_[e]] = prev_[e];
  }
  void relink(int32_t e) {
    next_[prev_[e]] = e;
    prev_[next_[e]] = e;
  }
  void lift(uint32_t op) {
    unlink(call_entry_[op]);
    unlink(return_entry_[op]);
  }
  void unlift(uint32_t op) {
    relink(return_entry_[op]);
    relink(call_entry_[op]);
  }

  void record_partial(SearchResult& result) {
    for (const Frame& f : stack_) {
      auto& best = result.longest_with[f.op];
      if (best.size() >= stack_.size()) continue;
      best.clear();
      for (const Frame& g : stack_) best.push_back(global_[g.op]);
    }
  }

  // Orders the operations by invocation and builds the event list.
  void prepare(const History& h, std::span<const uint32_t> indices, const Budget& budget) {
    n_ = uint32_t(indices.size());
    // Positions in invocation order (stable), then history indices.
    std::vector<uint64_t> times(n_);
    for (uint32_t i = 0; i < n_; ++i) times[i] = h.ops[indices[i]].call;
    std::vector<uint32_t> by_call(n_);
    std::iota(by_call.begin(), by_call.end(), 0u);
    radix_order(times, by_call);
    global_.resize(n_);
    for (uint32_t i = 0; i < n_; ++i) global_[i] = indices[by_call[i]];
    data_.resize(n_);
    observer_.resize(n_);
    lazy_.resize(n_);
    invertible_.resize(n_);
    pool_ = h.key_pool.data();
    ret_.resize(n_);
    for (uint32_t i = 0; i < n_; ++i) {
      data_[i] = h.ops[global_[i]].data;
      observer_[i] = prune_ && Traits::leaves_state_unchanged(data_[i]);
      lazy_[i] = prune_ && Traits::lazy(data_[i]);
      invertible_[i] = prune_ && (observer_[i] || Traits::invertible(data_[i]));
      ret_[i] = h.ops[global_[i]].ret;
    }
    poll_long_step();
    if (prune_ && Traits::opaque_values) rename_unobserved_values(data_, Model::ops);
    classify_equivalent(data_, h.key_pool.data(), class_, class_size_);
    poll_long_step();
    prepare_blocks();
    by_return_.resize(n_);
    for (uint32_t i = 0; i < n_; ++i) by_return_[i] = i;
    radix_order(ret_, by_return_);
    const size_t entries = 2 * size_t(n_) + 2;
    next_.resize(entries);
    prev_.resize(entries);
    entry_op_.resize(2 * n_);
    entry_is_return_.resize(2 * n_);
    call_entry_.resize(n_);
    return_entry_.resize(n_);
    // Merge invocations (already in order) with responses; on a tie the
    // invocation goes first, so touching intervals overlap.
    int32_t last = head();
    uint32_t c = 0, r = 0;
    for (int32_t e = 0; e < int32_t(2 * n_); ++e) {
      const bool take_call = c < n_ && (r == n_ || h.ops[global_[c]].call <= h.ops[global_[by_return_[r]]].ret);
      const uint32_t op = take_call ? c++ : by_return_[r++];
      entry_op_[e] = op;
      entry_is_return_[e] = !take_call;
      (take_call ? call_entry_ : return_entry_)[op] = e;
      next_[last] = e;
      prev_[e] = last;
      last = e;
    }
    next_[last] = end();
    prev_[end()] = last;
    bits_.assign((n_ + 63) / 64 + 1, 0);
    completed_left_ = 0;
    for (uint32_t i = 0; i < n_; ++i) completed_left_ += !data_[i].pending;
    poll_long_step();
    cache_.reset(n_, &budget);
  }

  uint32_t n_ = 0;
  uint32_t completed_left_ = 0;  // completed operations not linearized
  bool prune_ = true;
  size_t stack_heap_bytes_ = 0;  // heap owned by the states saved on the stack
  std::vector<uint32_t> global_;     // position (call order) -> history index
  std::vector<OpData> data_;         // position -> operation
  std::vector<uint8_t> observer_;    // position -> cannot change the state
  std::vector<uint8_t> lazy_;        // position -> tried only when needed or due
  std::vector<uint8_t> invertible_;  // position -> stepped in place, undone on backtracking
  std::vector<uint8_t> anchor_;      // position -> forced when admissible, else tried after its block
  std::vector<uint32_t> supplier_begin_, suppliers_;  // anchor -> positions of the ops supplying its keys
  std::vector<uint32_t> block_;
  std::vector<const OpData*> block_data_;
  const int64_t* pool_ = nullptr;
  std::vector<uint64_t> ret_;        // position -> response time
  std::vector<uint32_t> class_;      // position -> equivalence class
  std::vector<uint32_t> class_size_;
  std::vector<uint32_t> by_return_;  // positions sorted by response
  std::vector<int32_t> next_, prev_;
  std::vector<uint32_t> entry_op_;
  std::vector<uint8_t> entry_is_return_;
  std::vector<int32_t> call_entry_, return_entry_;
  std::vector<uint64_t> bits_;
  std::vector<Frame> stack_;
  std::vector<State> saved_states_;  // the states before the stack's non-invertible steps, in order
  MemoCache<State> cache_;
};

}  // namespace warpcheck::detail
