// The general search over a history's parts (its keys where the model is
// split by key, else the whole history): every part searched, on threads,
// and the first refuted part in key order refuted again and shrunk. What
// check_history (checker.cpp) runs when no faster procedure decides, and
// all that check_against_model (check_model.hpp) runs. Templates over the
// model; the threads' loop lives in checker.cpp, so that a model's own
// translation unit needs no OpenMP.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "linearizability/checker.hpp"
#include "linearizability/detail/search.hpp"
#include "linearizability/detail/shrink.hpp"
#include "linearizability/partition.hpp"

namespace warpcheck::detail {

using Clock = std::chrono::steady_clock;

// Defined in checker.cpp:
// the time `seconds` from now (now for 0 or less, never past 1e8 s).
Clock::time_point after(double seconds);
// Unless asked for a number, threads only for histories large enough to
// pay for them (bulk.hpp): a small check never wakes a thread team.
unsigned threads_for(const History& h, const CheckOptions& opt);
// Parts largest first, for load balance.
std::vector<uint32_t> largest_first(const Partitions& parts);
std::string describe_stuck(const Partitions& parts, size_t p, const SearchResult& r);
// Calls decide(i, worker) for every i in [0, count) on `threads` OpenMP
// threads (worker < threads), 16 at a time.
void decide_parts(unsigned threads, size_t count, const std::function<void(size_t i, unsigned worker)>& decide);
// Records lost to a full log buffer could explain anything: no verdict on
// what was recorded is a verdict on the run.
void mark_incomplete(CheckResult& r);

template <SequentialModel Model>
Counterexample refute(const History& h, const Partitions& parts, size_t part, const CheckOptions& opt,
                      Clock::time_point deadline, Search<Model>& search, uint64_t stuck_at) {
  Counterexample cx;
  cx.shrunk_from = parts.size(part);
  if (parts.by_key) cx.key = parts.key[part];
  const std::vector<uint32_t> ops(parts.ops.begin() + long(parts.begin[part]), parts.ops.begin() + long(parts.begin[part + 1]));
  Budget budget;
  budget.deadline = opt.shrink ? std::min(deadline, after(opt.shrink_seconds)) : after(0);
  budget.memory_limit = opt.memory_limit_bytes;
  budget.resident_limit = opt.resident_limit_bytes;
  detail::Shrinker<Model> shrinker(search, budget);
  auto shrunk = shrinker.shrink(h, ops, stuck_at);
  cx.history = std::move(shrunk.history);
  cx.cut = std::move(shrunk.cut);
  cx.minimal = shrunk.minimal;
  // Explaining tracks the longest partial linearization of every operation,
  // quadratic in depth: affordable on a shrunk history only.
  if (cx.history.ops.size() <= 256) {
    Budget explain_budget;
    explain_budget.deadline = std::min(deadline, after(std::max(1.0, opt.shrink_seconds)));
    explain_budget.memory_limit = opt.memory_limit_bytes;
    explain_budget.resident_limit = opt.resident_limit_bytes;
    std::vector<uint32_t> all(cx.history.ops.size());
    for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
    SearchResult r = search.run(cx.history, all, explain_budget, /*explain=*/true);
    // The search numbers operations in invocation order, as the shrunk
    // history already is, so positions line up.
    if (r.outcome == SearchOutcome::Violation) cx.longest_with = std::move(r.longest_with);
  }
  return cx;
}

template <SequentialModel Model>
CheckResult search_parts(const History& h, const CheckOptions& opt) {
  CheckResult result;
  result.operations = h.ops.size();
  Budget budget;
  budget.deadline = std::min(opt.deadline, after(opt.timeout_seconds));
  budget.memory_limit = opt.memory_limit_bytes;
  budget.resident_limit = opt.resident_limit_bytes;

  const Partitions parts = partition_history(h, opt.partition && ModelTraits<Model>::partition_by_key);
  const size_t count = parts.count();
  result.partitions = count;
  result.algorithm = opt.prune ? "wing-gong-lowe search (just-in-time, memoized, pruned)"
                               : "wing-gong-lowe search (just-in-time, memoized, plain)";
  result.algorithm += parts.by_key ? ", partitioned by key into " + std::to_string(count) + " parts" : ", unpartitioned";

  const std::vector<uint32_t> schedule = largest_first(parts);
  const unsigned threads = unsigned(std::max<size_t>(1, std::min<size_t>(threads_for(h, opt), count)));
  std::vector<Search<Model>> searches(threads);
  std::vector<SearchResult> results(count);
  auto decide = [&](size_t p, Search<Model>& search) {
    try {
      results[p] = search.run(h, std::span<const uint32_t>(parts.ops.data() + parts.begin[p], parts.size(p)), budget,
                              /*explain=*/false, opt.prune);
    } catch (...) {
      // Nothing may escape an OpenMP region. What a search can throw is an
      // allocation failure (bad_alloc, length_error): out of memory.
      results[p].outcome = SearchOutcome::OutOfMemory;
      budget.cancelled = true;
    }
    if (results[p].outcome == SearchOutcome::Violation) budget.cancelled = true;
  };

  decide_parts(threads, count, [&](size_t i, unsigned worker) { decide(schedule[i], searches[worker]); });

  // The answer is the first refuted part in key order (parts are in key
  // order), not whichever the threads refuted first: the parts before it
  // that a refutation cancelled are decided now, in order, up to the first
  // refuted one. Parts past it do not count (see CheckResult).
  std::optional<size_t> refuted;
  for (size_t p = 0; p < count && !refuted; ++p)
    if (results[p].outcome == SearchOutcome::Violation) refuted = p;
  if (refuted) {
    budget.cancelled = false;
    for (size_t p = 0; p < *refuted; ++p) {
      if (results[p].outcome != SearchOutcome::Cancelled) continue;
      decide(p, searches[0]);
      if (results[p].outcome == SearchOutcome::Violation) refuted = p;
    }
  }

  // The undecided part reported is the one the search got furthest in.
  std::optional<size_t> undecided;
  size_t undecided_count = 0;
  for (size_t p = 0; p < (refuted ? *refuted + 1 : count); ++p) {
    result.steps += results[p].steps;
    switch (results[p].outcome) {
      case SearchOutcome::Linearizable: ++result.partitions_linearizable; break;
      case SearchOutcome::Violation: break;
      default:
        ++undecided_count;
        if (!undecided || results[p].steps > results[*undecided].steps) undecided = p;
    }
  }

  if (refuted) {
    result.verdict = Verdict::Violation;
    result.counterexample = refute(h, parts, *refuted, opt, budget.deadline, searches[0], results[*refuted].stuck_at);
    const Counterexample& cx = *result.counterexample;
    result.reason = "no linearization exists for " + std::to_string(cx.history.ops.size()) + " operation(s)" +
                    (cx.key ? " on key " + std::to_string(*cx.key) : std::string()) + (cx.minimal ? " (minimal)" : " (not shrunk to minimal)");
    // A budget that ran out on an earlier key leaves open whether it was the first.
    if (undecided_count) result.reason += "; " + std::to_string(undecided_count) + " part(s) before it undecided (budget ran out)";
  } else if (undecided) {
    result.verdict = Verdict::Unknown;
    const SearchResult& r = results[*undecided];
    result.reason = std::string(r.outcome == SearchOutcome::OutOfMemory ? "memory budget" : "time budget") + " ran out: " +
                    std::to_string(result.partitions_linearizable) + " of " + std::to_string(count) +
                    " parts proved linearizable, none refuted, " + std::to_string(undecided_count) +
                    " undecided; furthest: " + describe_stuck(parts, *undecided, r);
  } else {
    result.verdict = Verdict::Linearizable;
    std::vector<std::vector<uint32_t>> orders(count);
    for (size_t p = 0; p < count; ++p) orders[p] = std::move(results[p].order);
    result.witness = merge_orders(h, orders);
  }
  return result;
}

}  // namespace warpcheck::detail
