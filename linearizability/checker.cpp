#include "linearizability/checker.hpp"

#include <omp.h>

#include <limits>
#include <thread>
#include <utility>

#include "linearizability/detail/bulk.hpp"
#include "linearizability/detail/parallel_parts.hpp"
#include "linearizability/detail/search_parts.hpp"
#include "linearizability/distinct_key_pq.hpp"
#include "linearizability/distinct_map.hpp"
#include "linearizability/distinct_multimap.hpp"
#include "linearizability/distinct_queue.hpp"
#include "linearizability/distinct_register.hpp"
#include "linearizability/distinct_stack.hpp"
#include "linearizability/partition.hpp"
#include "linearizability/set_presence.hpp"
#include "linearizability/witness.hpp"

namespace warpcheck {

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Linearizable: return "LINEARIZABLE";
    case Verdict::Violation: return "VIOLATION";
    case Verdict::Unknown: return "UNKNOWN";
  }
  return "?";
}

int verdict_exit_code(Verdict v) { return v == Verdict::Linearizable ? 0 : v == Verdict::Violation ? 1 : 2; }

int check_exit_code(const History& h, Verdict v) {
  return h.meta.failure && v != Verdict::Violation ? kExitRunFailed : verdict_exit_code(v);
}

namespace detail {

Clock::time_point after(double seconds) {
  const auto now = Clock::now();
  if (seconds <= 0 || seconds > 1e8) return seconds <= 0 ? now : Clock::time_point::max();
  return now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

unsigned threads_for(const History& h, const CheckOptions& opt) {
  if (opt.threads) return opt.threads;
  return worth_threads(h.ops.size()) ? std::max(1u, std::thread::hardware_concurrency()) : 1u;
}

std::vector<uint32_t> largest_first(const Partitions& parts) {
  std::vector<uint32_t> schedule(parts.count());
  for (uint32_t i = 0; i < schedule.size(); ++i) schedule[i] = i;
  std::stable_sort(schedule.begin(), schedule.end(), [&](uint32_t a, uint32_t b) { return parts.size(a) > parts.size(b); });
  return schedule;
}

std::string describe_stuck(const Partitions& parts, size_t p, const SearchResult& r) {
  std::string s = parts.by_key ? "key " + std::to_string(parts.key[p]) : std::string("the whole history");
  return s + " (" + std::to_string(parts.size(p)) + " ops, longest partial linearization " + std::to_string(r.deepest) +
         ", " + std::to_string(r.steps) + " steps)";
}

void decide_parts(unsigned threads, size_t count, const std::function<void(size_t i, unsigned worker)>& decide) {
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads) if (threads > 1)
  for (size_t i = 0; i < count; ++i) decide(i, unsigned(omp_get_thread_num()));
}

void mark_incomplete(CheckResult& r) {
  r.recorded_part = r.verdict;
  r.verdict = Verdict::Unknown;
  r.reason = "the run is incomplete (a log buffer overflowed and records were lost), so no verdict is sound; "
             "the recorded part alone is " + std::string(verdict_name(*r.recorded_part));
}

}  // namespace detail

namespace {

using detail::after;
using detail::Budget;
using detail::Clock;
using detail::largest_first;
using detail::refute;
using detail::Search;
using detail::SearchOutcome;
using detail::SearchResult;
using detail::threads_for;

std::string budget_name(const detail::BudgetExhausted& e) {
  return e.why == detail::BudgetStop::Memory ? "memory" : "time";
}

// The distinct-value decision procedures, for the models that have one.
struct DistinctValueProcedure {
  const char* name;
  DistinctValueCheck (*decide)(const History&);
  const char* pending_removals;  // what a pending removal could have done instead
};

constexpr DistinctValueProcedure kRegisterProcedure{
    "distinct-value register checker (per register: chains of CASes, their sure stretches, failed CASes at free moments, O(n log n))",
    check_distinct_register, "spare pending writes took effect"};

constexpr std::pair<ModelId, DistinctValueProcedure> kDistinctValueProcedures[] = {
    {ModelId::Queue,
     {"distinct-value queue checker (FIFO order from real-time constraints, O(n log n))", check_distinct_queue,
      "pending dequeues took other values than it guessed"}},
    {ModelId::Stack,
     {"distinct-value stack checker (removes a value that can be at the bottom, O(n log n) a value tried)", check_distinct_stack,
      "pending pops took values"}},
    {ModelId::Multimap,
     {"distinct-value multimap checker (per key: each value's sure lifetime, absent answers at free moments, O(n log n))",
      check_distinct_multimap, "pending erases removed values"}},
    {ModelId::Map,
     {"distinct-value map checker (per key: each value's sure stretch, values collapsed to one moment, the rest ordered by the "
      "key's presence or searched like a set)",
      check_distinct_map, "pending operations took effect elsewhere"}},
    {ModelId::Set,
     {"set presence procedure (per key: a greedy order of the key's presence, lazy flips, earliest response first, O(n log n))",
      check_set_presence, "nothing (it only proves)"}},
    {ModelId::Register, kRegisterProcedure},
    {ModelId::CasRegister, kRegisterProcedure},
    {ModelId::Kv, kRegisterProcedure},
};

std::optional<DistinctValueProcedure> distinct_value_procedure(ModelId model) {
  for (const auto& [m, procedure] : kDistinctValueProcedures)
    if (m == model) return procedure;
  return std::nullopt;
}

// A distinct-value procedure's verdicts are checked before they are
// given: a witness by the independent replay (witness.hpp), a violation's
// evidence by the general search, which also shrinks it. nullopt, with
// why, when it does not decide: the general search does.
template <class Model>
std::optional<CheckResult> decide_distinct_values(const History& h, const CheckOptions& opt, const DistinctValueProcedure& procedure,
                                                  std::string& why_not) {
  Budget budget;
  budget.deadline = std::min(opt.deadline, after(opt.timeout_seconds));
  budget.memory_limit = opt.memory_limit_bytes;
  budget.resident_limit = opt.resident_limit_bytes;
  CheckResult r;
  r.operations = h.ops.size();
  r.partitions = h.ops.empty() ? 0 : 1;
  r.algorithm = procedure.name;
  DistinctValueCheck fast;
  std::optional<std::string> witness_wrong;
  try {
    const auto poller = budget.install();
    fast = procedure.decide(h);
    if (fast.outcome == DistinctValueCheck::Outcome::Linearizable) witness_wrong = witness_error(h, fast.order);
  } catch (const detail::BudgetExhausted& e) {
    r.reason = budget_name(e) + " budget ran out in the " + std::string(procedure.name, std::string_view(procedure.name).find(" ("));
    return r;
  }
  r.partitions = h.ops.empty() ? 0 : fast.parts;
  if (fast.outcome == DistinctValueCheck::Outcome::Linearizable && !witness_wrong) {
    r.verdict = Verdict::Linearizable;
    r.partitions_linearizable = r.partitions;
    r.steps = fast.order.size();
    r.witness = std::move(fast.order);
    return r;
  }
  if (witness_wrong) {
    why_not = "its witness does not replay: " + *witness_wrong;
    return std::nullopt;
  }
  if (fast.evidence.empty()) {
    why_not = fast.detail;
    return std::nullopt;
  }
  Partitions evidence;
  evidence.ops = fast.evidence;
  evidence.begin = {0, evidence.ops.size()};
  if constexpr (ModelTraits<Model>::partition_by_key) {  // a keyed procedure's evidence lies on one key
    evidence.by_key = true;
    evidence.key = {h.ops[evidence.ops.front()].data.key};
  }
  Search<Model> search;
  const SearchResult confirmed = search.run(h, evidence.ops, budget);
  r.steps = confirmed.steps;
  if (confirmed.outcome == SearchOutcome::OutOfTime || confirmed.outcome == SearchOutcome::OutOfMemory) {
    r.reason = std::string(confirmed.outcome == SearchOutcome::OutOfMemory ? "memory" : "time") + " budget ran out confirming the " +
               std::string(procedure.name, std::string_view(procedure.name).find(" (")) + "'s finding on " +
               std::to_string(evidence.ops.size()) + " operation(s): " + fast.detail;
    return r;
  }
  if (confirmed.outcome != SearchOutcome::Violation) {
    why_not = fast.outcome == DistinctValueCheck::Outcome::Violation ? "its finding was not confirmed: " + fast.detail
                                                                     : fast.detail + ", unless " + procedure.pending_removals;
    return std::nullopt;
  }
  r.verdict = Verdict::Violation;
  r.algorithm += "; the finding confirmed and shrunk by the wing-gong-lowe search";
  r.counterexample = refute<Model>(h, evidence, 0, opt, budget.deadline, search, confirmed.stuck_at);
  const Counterexample& cx = *r.counterexample;
  r.reason = "no linearization exists for " + std::to_string(cx.history.ops.size()) + " operation(s)" +
             (cx.minimal ? " (minimal)" : " (not shrunk to minimal)") + ": " + fast.detail;
  return r;
}

std::optional<CheckResult> decide_distinct_values(const History& h, const CheckOptions& opt, std::string& why_not) {
  const std::optional<DistinctValueProcedure> procedure = distinct_value_procedure(h.meta.model);
  if (!procedure) return std::nullopt;
  if (h.meta.model == ModelId::Queue) return decide_distinct_values<QueueModel>(h, opt, *procedure, why_not);
  switch (h.meta.model) {
    case ModelId::Multimap: return decide_distinct_values<MultimapModel>(h, opt, *procedure, why_not);
    case ModelId::Set: return decide_distinct_values<SetModel>(h, opt, *procedure, why_not);
    case ModelId::Map: return decide_distinct_values<MapModel>(h, opt, *procedure, why_not);
    case ModelId::Register: return decide_distinct_values<RegisterModel>(h, opt, *procedure, why_not);
    case ModelId::CasRegister: return decide_distinct_values<CasRegisterModel>(h, opt, *procedure, why_not);
    case ModelId::Kv: return decide_distinct_values<KvModel>(h, opt, *procedure, why_not);
    default: return decide_distinct_values<StackModel>(h, opt, *procedure, why_not);
  }
}

// A priority-queue history with distinct keys refuted on a few operations
// cut down to a few keys (distinct_key_pq.hpp), the cut-down history
// confirmed and shrunk by the search. nullopt, with why when a finding was
// not confirmed, when it does not decide: the search does.
std::optional<CheckResult> refute_on_few_keys(const History& h, const CheckOptions& opt, std::string& why_not) {
  Budget budget;
  budget.deadline = std::min(opt.deadline, after(opt.timeout_seconds));
  budget.memory_limit = opt.memory_limit_bytes;
  budget.resident_limit = opt.resident_limit_bytes;
  std::optional<KeyProjection> found;
  History cut;
  try {
    const auto poller = budget.install();
    found = refute_distinct_key_pq(h);
    if (!found) return std::nullopt;
    cut = project_onto_keys(h, *found);
  } catch (const detail::BudgetExhausted&) {
    return std::nullopt;  // the search, under the same deadline, says why
  }
  const Partitions whole = partition_history(cut, /*by_key=*/false);
  Search<PriorityQueueModel> search;
  const SearchResult confirmed = search.run(cut, whole.ops, budget);
  if (confirmed.outcome != SearchOutcome::Violation) {
    why_not = "the few-keys refutation was not confirmed by the search: " + found->why;
    return std::nullopt;
  }
  CheckResult r;
  r.operations = h.ops.size();
  r.partitions = 1;
  r.steps = confirmed.steps;
  r.verdict = Verdict::Violation;
  r.algorithm = "distinct-key priority-queue refutation (a key a pop passed over, or two pops neither of which can go first, "
                "on the operations cut down to a few keys); confirmed and shrunk by the wing-gong-lowe search";
  r.counterexample = refute<PriorityQueueModel>(cut, whole, 0, opt, budget.deadline, search, confirmed.stuck_at);
  Counterexample& cx = *r.counterexample;
  cx.shrunk_from = h.ops.size();
  cx.projected_keys = found->keys;
  r.reason = "no linearization exists for " + std::to_string(cx.history.ops.size()) + " operation(s) cut down to " +
             std::to_string(found->keys.size()) + " key(s)" + (cx.minimal ? " (minimal)" : " (not shrunk to minimal)") + ": " + found->why;
  return r;
}

CheckResult replay_only(const History& h, HintReplay replay) {
  CheckResult r;
  r.operations = h.ops.size();
  r.partitions = h.ops.empty() ? 0 : 1;
  r.algorithm = "linearization-point replay";
  if (replay.outcome == HintReplay::Outcome::Explained) {
    r.verdict = Verdict::Linearizable;
    r.partitions_linearizable = r.partitions;
    r.witness = replay.order;
  } else {
    r.reason = replay.detail + " (replay alone cannot refute a history; --algo auto searches)";
  }
  r.hint_replay = std::move(replay);
  return r;
}

// CheckOptions::all_parts, on a model split by key: each key checked as a
// history of its own (the history is linearizable iff each key's is), so
// that every refuted key gets its counterexample whichever checker decides
// it (the search, or a distinct-value procedure). Keys run on the threads,
// largest first, each check on one; the answer is gathered in key order.
CheckResult check_each_key(const History& h, const CheckOptions& opt) {
  const Partitions parts = partition_history(h, /*by_key=*/true);
  const size_t count = parts.count();
  CheckOptions each = opt;
  each.all_parts = false;
  each.deadline = std::min(opt.deadline, after(opt.timeout_seconds));  // the whole check's
  each.timeout_seconds = std::numeric_limits<double>::infinity();
  each.threads = 1;
  const unsigned workers = threads_for(h, opt);
  // The searches' own memory is shared out between the keys running at once.
  if (opt.memory_limit_bytes != SIZE_MAX) each.memory_limit_bytes = opt.memory_limit_bytes / workers;
  const std::vector<uint32_t> schedule = largest_first(parts);
  std::vector<CheckResult> results(count);
  detail::parallel_parts_on(workers, count, 1, [&](size_t i, unsigned) {
    const uint32_t p = schedule[i];
    History key_history = restrict_history(h, std::span<const uint32_t>(parts.ops.data() + parts.begin[p], parts.size(p)));
    key_history.meta.incomplete = false;  // said once, of the whole history
    results[p] = check_history(key_history, each);
  });

  CheckResult r;
  r.all_parts = true;
  r.operations = h.ops.size();
  r.partitions = count;
  std::vector<std::vector<uint32_t>> orders(count);
  std::vector<std::pair<std::string, size_t>> checkers;  // each checker that decided, and on how many keys
  std::optional<size_t> first_refuted, first_undecided;
  size_t undecided = 0;
  for (size_t p = 0; p < count; ++p) {
    CheckResult& k = results[p];
    r.steps += k.steps;
    auto used = std::find_if(checkers.begin(), checkers.end(), [&](const auto& c) { return c.first == k.algorithm; });
    if (used == checkers.end()) checkers.emplace_back(k.algorithm, 1);
    else ++used->second;
    if (k.hint_replay && k.hint_replay->outcome == HintReplay::Outcome::NotExplained && !r.hint_replay) {
      r.hint_replay = std::move(k.hint_replay);
      r.hint_replay->order.clear();  // the key's positions, not the history's
    }
    switch (k.verdict) {
      case Verdict::Linearizable:
        ++r.partitions_linearizable;
        for (uint32_t i : k.witness) orders[p].push_back(parts.ops[parts.begin[p] + i]);
        break;
      case Verdict::Violation:
        if (r.counterexample) r.more_counterexamples.push_back(std::move(*k.counterexample));
        else r.counterexample = std::move(k.counterexample);
        if (!first_refuted) first_refuted = p;
        break;
      case Verdict::Unknown:
        ++undecided;
        if (!first_undecided) first_undecided = p;
    }
  }
  r.algorithm = "each key checked apart (all parts)";
  for (size_t c = 0; c < checkers.size(); ++c)
    r.algorithm += (c ? "; " : ": ") + checkers[c].first + " (" + std::to_string(checkers[c].second) + " keys)";
  const std::string keys = " of " + std::to_string(count) + " keys";
  const std::string undecided_why =
      first_undecided ? std::to_string(undecided) + " undecided (the first, key " + std::to_string(parts.key[*first_undecided]) + ": " +
                            results[*first_undecided].reason + ")"
                      : std::string();
  if (first_refuted) {
    r.verdict = Verdict::Violation;
    r.reason = std::to_string(r.refuted_parts()) + keys + " refuted, the first: " + results[*first_refuted].reason;
    if (undecided) r.reason += "; " + undecided_why;
  } else if (undecided) {
    r.reason = "none" + keys + " refuted, " + std::to_string(r.partitions_linearizable) + " proved linearizable, " + undecided_why;
  } else {
    r.verdict = Verdict::Linearizable;
    r.witness = merge_orders(h, orders);
  }
  return r;
}

}  // namespace

CheckResult check_history(const History& h, const CheckOptions& options) {
  const auto started = Clock::now();
  if (options.all_parts && options.partition && h.model().partition_by_key) {
    CheckResult r = check_each_key(h, options);
    r.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    if (h.meta.incomplete) detail::mark_incomplete(r);
    return r;
  }
  std::optional<HintReplay> replay;
  if (options.algorithm != Algorithm::Search) {
    // The replay steps the model through every operation: it polls the
    // same budget as the search.
    Budget budget;
    budget.deadline = std::min(options.deadline, after(options.timeout_seconds));
    budget.resident_limit = options.resident_limit_bytes;
    const auto poller = budget.install();
    try {
      replay = replay_hints(h);
    } catch (const detail::BudgetExhausted& e) {
      CheckResult r;
      r.operations = h.ops.size();
      r.algorithm = "linearization-point replay";
      r.reason = budget_name(e) + " budget ran out while replaying the linearization points";
      r.all_parts = options.all_parts;
      r.seconds = std::chrono::duration<double>(Clock::now() - started).count();
      return r;
    }
    if (options.algorithm == Algorithm::HintReplay && replay->outcome == HintReplay::Outcome::NotApplicable)
      throw InputError("cannot replay linearization points: " + replay->detail);
  }
  CheckResult r;
  std::optional<CheckResult> fast;
  std::string fast_not_used;
  if (replay && (replay->outcome == HintReplay::Outcome::Explained || options.algorithm == Algorithm::HintReplay)) {
    r = replay_only(h, std::move(*replay));
  } else if (options.algorithm == Algorithm::Auto && h.meta.model == ModelId::PriorityQueue &&
             (fast = refute_on_few_keys(h, options, fast_not_used))) {
    r = std::move(*fast);
    r.hint_replay = std::move(replay);
  } else if (options.algorithm == Algorithm::Auto && (fast = decide_distinct_values(h, options, fast_not_used))) {
    r = std::move(*fast);
    r.hint_replay = std::move(replay);
  } else {
    r = visit_model(h.meta.model, [&](auto model) { return detail::search_parts<decltype(model)>(h, options); });
    if (!fast_not_used.empty())
      r.algorithm += " (the " + std::string(h.model().name) + "'s own procedure did not decide: " + fast_not_used + ")";
    r.hint_replay = std::move(replay);
  }
  r.all_parts = options.all_parts;  // one part, decided whole
  r.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  if (h.meta.incomplete) detail::mark_incomplete(r);
  return r;
}

}  // namespace warpcheck
