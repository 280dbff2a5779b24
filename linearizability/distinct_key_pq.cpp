// Refuting a batched priority queue on a few operations.
//
// The model (models/priority_queue.hpp): push adds a batch of keys; pop(n)
// removes and returns the min(n, size) smallest, so a completed pop P
// that returned the set S_P returned the |S_P| smallest keys in the queue
// at its point, and all of them when it returned fewer than it asked for
// (P is "short"). Here every pushed key is distinct, so a key is removed
// at most once: by the completed pop that returned it, or, if none did,
// possibly by a pending pop. a precedes b in real time when a.ret < b.call.
//
// Four findings, each refuting the history outright (the search then
// confirms the projection shown, and shrinks it):
//  0. a completed pop returned a key nobody pushed, or two returned one key;
//  1. (a key passed over) push(x) returned before P was invoked, x is not
//     in S_P, x < max S_P or P is short, and whatever can remove x (the
//     completed pop that returned it, else every pending pop) was invoked
//     after P returned. In any linearization x is in the queue at P, so P
//     had to return it;
//  2. (two pops, neither first) P and Q overlap in time; some x in S_Q was
//     pushed before P was invoked with x < max S_P (or P short), and some u
//     in S_P was pushed before Q was invoked with u < max S_Q (or Q short).
//     If P goes first, x (removed by Q alone) is in the queue at P, which
//     had to return it; if Q goes first, the same for u.
//
// What is shown is the operations named, cut down to the keys named
// (project_onto_keys): pushes keep those keys, a pop returns those of them
// it returned and asks for as many fewer as it returns fewer. The same
// argument refutes the cut-down history, on 2 to 6 operations; among the
// keys that make the argument, those pushed by the fewest batches are
// named.
//
// Cost: O(n log n) in keys and operations for 0 and 1 (an offline
// dominance query: keys pushed before P's invocation whose remover comes
// after P's response, the smallest); 2 visits pairs of overlapping pops
// whose key ranges meet, within a fixed budget of pairs and key visits,
// past which it says nothing (the search decides, as without it).
#include "linearizability/distinct_key_pq.hpp"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <limits>

#include "linearizability/detail/radix_order.hpp"
#include "linearizability/distinct_value_check.hpp"

namespace warpcheck {

namespace {

using detail::kNone;
using detail::kNever;
constexpr int64_t kNoKey = std::numeric_limits<int64_t>::max();
constexpr size_t kPairVisits = size_t(1) << 26;  // finding 2's budget

struct KeyRecord {
  int64_t key;
  uint32_t push;
  uint32_t pop = kNone;       // the completed pop that returned it (history index)
  uint32_t pop_at = kNone;    // and its position among the completed pops
};

// Prefix minima of keys over positions, updated point-wise.
class MinFenwick {
 public:
  explicit MinFenwick(size_t n) : tree_(n + 1, kNoKey) {}
  void lower(size_t i, int64_t key) {
    for (++i; i < tree_.size(); i += i & (~i + 1)) tree_[i] = std::min(tree_[i], key);
  }
  int64_t min_below(size_t n) const {  // over positions [0, n)
    int64_t m = kNoKey;
    for (size_t i = n; i > 0; i -= i & (~i + 1)) m = std::min(m, tree_[i]);
    return m;
  }

 private:
  std::vector<int64_t> tree_;
};

class PqRefuter {
 public:
  explicit PqRefuter(const History& h) : h_(h) {}

  std::optional<KeyProjection> run() {
    if (h_.meta.model != ModelId::PriorityQueue || !index_keys()) return std::nullopt;
    if (found_) return std::move(found_);
    if (pass_over()) return std::move(found_);
    neither_first();
    return std::move(found_);
  }

 private:
  const Operation& op(uint32_t i) const { return h_.ops[i]; }
  bool completed_pop(uint32_t i) const { return op(i).data.kind == OpKind::Pop && !op(i).pending(); }
  bool is_short(uint32_t p) const { return int64_t(op(p).data.out_count) < op(p).data.value; }
  std::span<const int64_t> popped(uint32_t p) const { return h_.popped_keys(op(p)); }
  const KeyRecord* record(int64_t key) const {
    const auto it = std::lower_bound(keys_.begin(), keys_.end(), key, [](const KeyRecord& r, int64_t k) { return r.key < k; });
    return it == keys_.end() || it->key != key ? nullptr : &*it;
  }
  uint64_t pushed_by(int64_t key) const { return op(record(key)->push).ret; }
  int64_t largest(uint32_t p) const { return popped(p).empty() ? kNoKey : *std::max_element(popped(p).begin(), popped(p).end()); }
  // Keys below `bound` sink P's going first: x < max S_P, any x when P is
  // short, none when P asked for nothing.
  int64_t bound(uint32_t p) const {
    if (is_short(p)) return kNoKey;
    return popped(p).empty() ? std::numeric_limits<int64_t>::min() : largest(p);
  }

  // Every pushed key once (else nothing is said), and its completed pop;
  // finding 0 on the way. One sort of every pushed and popped key, then
  // one scan: no hashing of millions of keys.
  bool index_keys() {
    struct Entry {
      int64_t key;
      uint32_t who;  // an operation index; a popped key's: kPopped | its pop's position
      bool operator<(const Entry& o) const { return key < o.key || (key == o.key && who < o.who); }
    };
    constexpr uint32_t kPopped = uint32_t(1) << 31;
    if (h_.ops.size() >= kPopped) return false;
    std::vector<Entry> entries;
    entries.reserve(h_.key_pool.size());
    for (uint32_t i = 0; i < h_.ops.size(); ++i) {
      detail::poll_every(i);
      const Operation& o = op(i);
      if (o.data.kind == OpKind::Pop && o.pending()) earliest_pending_pop_ = std::min(earliest_pending_pop_, o.call);
      if (o.data.kind == OpKind::Pop && !o.pending()) pops_.push_back(i);
      if (o.data.kind != OpKind::Push) continue;
      for (int64_t k : h_.pushed_keys(o)) entries.push_back({k, i});
    }
    for (uint32_t j = 0; j < pops_.size(); ++j)
      for (int64_t k : popped(pops_[j])) entries.push_back({k, kPopped | j});
    detail::poll_long_step();
    std::sort(entries.begin(), entries.end());  // pushes first among equal keys
    detail::poll_long_step();
    keys_.reserve(entries.size() / 2 + 1);
    for (size_t e = 0; e < entries.size();) {
      detail::poll_every(e);
      const int64_t k = entries[e].key;
      KeyRecord r{k, kNone};
      for (; e < entries.size() && entries[e].key == k; ++e) {
        const uint32_t w = entries[e].who;
        if (!(w & kPopped)) {
          if (r.push != kNone) return false;  // pushed twice: not this procedure's
          r.push = w;
          continue;
        }
        const uint32_t j = w & ~kPopped;
        if (r.push == kNone) {
          if (!found_) report({pops_[j]}, {k}, describe(pops_[j]) + " returned " + std::to_string(k) + ", which no push pushed");
        } else if (r.pop != kNone) {
          if (!found_)
            report({r.push, r.pop, pops_[j]}, {k}, describe(r.pop) + " and " + describe(pops_[j]) + " both returned " +
                                                     std::to_string(k) + ", pushed once by " + describe(r.push));
        } else {
          r.pop = pops_[j];
          r.pop_at = j;
        }
      }
      if (r.push != kNone) keys_.push_back(r);
    }
    return true;
  }

  // Finding 1: for each completed pop P, the smallest key pushed before P's
  // invocation whose remover comes after P's response.
  bool pass_over() {
    std::vector<uint64_t> pop_calls(pops_.size());
    std::vector<uint32_t> by_call(pops_.size());
    for (uint32_t j = 0; j < pops_.size(); ++j) pop_calls[j] = op(pops_[j]).call, by_call[j] = j;
    detail::radix_order(pop_calls, by_call);
    std::vector<uint32_t> call_rank(pops_.size());
    std::vector<uint64_t> sorted_calls(pops_.size());
    for (uint32_t r = 0; r < by_call.size(); ++r) call_rank[by_call[r]] = r, sorted_calls[r] = pop_calls[by_call[r]];

    // Keys with a completed push, by that push's response.
    std::vector<uint64_t> push_rets(keys_.size());
    std::vector<uint32_t> by_push;
    by_push.reserve(keys_.size());
    for (uint32_t k = 0; k < keys_.size(); ++k) {
      push_rets[k] = op(keys_[k].push).ret;
      if (push_rets[k] != kPendingTime) by_push.push_back(k);
    }
    detail::radix_order(push_rets, by_push);

    // Positions are pop-call ranks reversed, so "removed after P's
    // response" is a prefix; keys no completed pop returned sit apart.
    MinFenwick removed_later(pops_.size());
    int64_t never_removed = kNoKey;
    size_t next = 0;
    uint32_t first = kNone;
    int64_t first_x = kNoKey;
    for (uint32_t j : by_call) {  // pops by invocation
      const uint32_t p = pops_[j];
      for (; next < by_push.size() && push_rets[by_push[next]] < op(p).call; ++next) {
        detail::poll_every(next);
        const KeyRecord& r = keys_[by_push[next]];
        if (r.pop == kNone) never_removed = std::min(never_removed, r.key);
        else removed_later.lower(pops_.size() - 1 - call_rank[r.pop_at], r.key);
      }
      // Pops invoked after P's response: ranks from the first call > ret.
      const size_t after = size_t(std::upper_bound(sorted_calls.begin(), sorted_calls.end(), op(p).ret) - sorted_calls.begin());
      int64_t x = removed_later.min_below(pops_.size() - after);
      if (op(p).ret < earliest_pending_pop_) x = std::min(x, never_removed);
      if (x == kNoKey || x >= bound(p)) continue;
      if (first == kNone || p < first) first = p, first_x = x;
    }
    if (first == kNone) return false;
    const KeyRecord& x = *record(first_x);
    const std::string remover = x.pop != kNone ? describe(x.pop) + ", which removed it, was invoked after it returned"
                                               : "no pop that could have removed it was invoked before it returned";
    if (is_short(first)) {
      report({x.push, first}, {first_x}, describe(first) + " found the queue short though " + std::to_string(first_x) +
                                             " was in it: pushed by " + describe(x.push) + " before it was invoked, and " + remover);
      return true;
    }
    // A larger key it returned, from x's own push when there is one.
    int64_t y = largest(first);
    for (int64_t k : popped(first))
      if (k > first_x && record(k)->push == x.push) y = k;
    report({x.push, record(y)->push, first}, {first_x, y},
           describe(first) + " returned " + std::to_string(y) + " but not the smaller " + std::to_string(first_x) +
               ", pushed by " + describe(x.push) + " before it was invoked; " + remover);
    return true;
  }

  // Finding 2, over pairs of completed pops that overlap in time, in order
  // of invocation; the key ranges must meet both ways before the keys are
  // looked at.
  void neither_first() {
    std::vector<uint32_t> by_call(pops_);
    std::sort(by_call.begin(), by_call.end(), [&](uint32_t a, uint32_t b) { return op(a).call < op(b).call || (op(a).call == op(b).call && a < b); });
    std::vector<int64_t> lo(by_call.size(), kNoKey), sinks_below(by_call.size());
    for (size_t a = 0; a < by_call.size(); ++a) {
      detail::poll_every(a);
      const std::span<const int64_t> keys = popped(by_call[a]);
      if (!keys.empty()) lo[a] = *std::min_element(keys.begin(), keys.end());
      sinks_below[a] = bound(by_call[a]);
    }
    size_t visits = h_.key_pool.size(), polls = 0;
    for (size_t a = 0; a < by_call.size(); ++a) {
      const uint32_t p = by_call[a];
      for (size_t b = a + 1; b < by_call.size() && op(by_call[b]).call <= op(p).ret; ++b) {
        if (++visits > kPairVisits) return;  // said nothing: the search decides
        detail::poll_every(++polls);
        if (lo[b] >= sinks_below[a] || lo[a] >= sinks_below[b]) continue;  // no x, or no u
        if (neither_goes_first(p, by_call[b], visits)) return;
      }
    }
  }

  // The exact test for one pair, naming the keys pushed by the fewest
  // batches when it holds.
  bool neither_goes_first(uint32_t p, uint32_t q, size_t& visits) {
    // Per push: the smallest key that sinks one pop's going first (x for P,
    // u for Q), and the largest key each pop returned.
    struct Roles {
      int64_t sinks_p = kNoKey, sinks_q = kNoKey;  // min x in S_Q, min u in S_P
      int64_t top_p = std::numeric_limits<int64_t>::min(), top_q = std::numeric_limits<int64_t>::min();
    };
    absl::flat_hash_map<uint32_t, Roles> by_push;
    const int64_t p_bound = bound(p), q_bound = bound(q);
    bool x_exists = false, u_exists = false;
    for (int64_t k : popped(q)) {
      Roles& r = by_push[record(k)->push];
      r.top_q = std::max(r.top_q, k);
      if (pushed_by(k) < op(p).call && k < p_bound) r.sinks_p = std::min(r.sinks_p, k), x_exists = true;
    }
    for (int64_t k : popped(p)) {
      Roles& r = by_push[record(k)->push];
      r.top_p = std::max(r.top_p, k);
      if (pushed_by(k) < op(q).call && k < q_bound) r.sinks_q = std::min(r.sinks_q, k), u_exists = true;
    }
    visits += popped(p).size() + popped(q).size();
    if (!x_exists || !u_exists) return false;

    // The fewest pushes whose keys make the argument: one, two, else the
    // extremes (at most four).
    auto holds = [&](const Roles& r) {
      return r.sinks_p != kNoKey && (is_short(p) || r.sinks_p < r.top_p) && r.sinks_q != kNoKey && (is_short(q) || r.sinks_q < r.top_q);
    };
    auto merged = [](const Roles& a, const Roles& b) {
      return Roles{std::min(a.sinks_p, b.sinks_p), std::min(a.sinks_q, b.sinks_q), std::max(a.top_p, b.top_p), std::max(a.top_q, b.top_q)};
    };
    std::vector<std::pair<uint32_t, Roles>> pushes(by_push.begin(), by_push.end());
    std::sort(pushes.begin(), pushes.end(), [](const auto& a, const auto& b) { return a.first < b.first; });  // deterministic
    std::optional<Roles> chosen;
    for (const auto& [g, r] : pushes)
      if (!chosen && holds(r)) chosen = r;
    const size_t pairs = pushes.size() * pushes.size();
    if (!chosen && pairs <= (size_t(1) << 22)) {
      for (size_t i = 0; i < pushes.size() && !chosen; ++i)
        for (size_t j = i + 1; j < pushes.size() && !chosen; ++j)
          if (const Roles r = merged(pushes[i].second, pushes[j].second); holds(r)) chosen = r;
      visits += pairs;
    }
    if (!chosen) {
      Roles all;
      for (const auto& [g, r] : pushes) all = merged(all, r);
      chosen = all;
    }
    const Roles& r = *chosen;
    std::vector<int64_t> keys = {r.sinks_p, r.sinks_q};
    if (!is_short(p)) keys.push_back(r.top_p);
    if (!is_short(q)) keys.push_back(r.top_q);
    std::vector<uint32_t> ops = {p, q};
    for (int64_t k : keys) ops.push_back(record(k)->push);
    auto shows = [&](uint32_t pop, int64_t sinks, int64_t top, uint32_t other) {
      return "if " + describe(pop) + " went first, " + std::to_string(sinks) + " (pushed by " + describe(record(sinks)->push) +
             " before it was invoked, removed only by " + describe(other) + ") was in the queue, and it " +
             (is_short(pop) ? std::string("found the queue short") : "returned the larger " + std::to_string(top));
    };
    report(std::move(ops), std::move(keys),
           "neither of two overlapping pops can go first: " + shows(p, r.sinks_p, r.top_p, q) + "; " + shows(q, r.sinks_q, r.top_q, p));
    return true;
  }

  std::string describe(uint32_t i) const {
    const Operation& o = op(i);
    return std::string(op_kind_name(o.data.kind)) + " id " + std::to_string(o.id) + " (team " + std::to_string(o.team) + ")";
  }

  void report(std::vector<uint32_t> ops, std::vector<int64_t> keys, std::string why) {
    std::sort(ops.begin(), ops.end());
    ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    found_ = KeyProjection{std::move(ops), std::move(keys), std::move(why)};
  }

  const History& h_;
  std::vector<KeyRecord> keys_;                   // by key
  std::vector<uint32_t> pops_;                    // completed pops, in history order
  uint64_t earliest_pending_pop_ = kNever;
  std::optional<KeyProjection> found_;
};

}  // namespace

std::optional<KeyProjection> refute_distinct_key_pq(const History& h) { return PqRefuter(h).run(); }

History project_onto_keys(const History& h, const KeyProjection& p) {
  History cut;
  cut.meta = h.meta;
  std::vector<uint32_t> order(p.ops);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return h.ops[a].call < h.ops[b].call; });
  auto kept = [&](int64_t k) { return std::binary_search(p.keys.begin(), p.keys.end(), k); };
  for (uint32_t i : order) {
    Operation o = h.ops[i];
    OpData& d = o.data;
    if (d.kind == OpKind::Push) {
      d.keys_begin = uint32_t(cut.key_pool.size());
      for (int64_t k : h.pushed_keys(h.ops[i]))
        if (kept(k)) cut.key_pool.push_back(k);
      d.keys_count = uint32_t(cut.key_pool.size() - d.keys_begin);
    } else if (d.kind == OpKind::Pop && !d.pending) {
      const int64_t fewer = d.value - int64_t(d.out_count);
      d.out_begin = uint32_t(cut.key_pool.size());
      for (int64_t k : h.popped_keys(h.ops[i]))
        if (kept(k)) cut.key_pool.push_back(k);
      d.out_count = uint32_t(cut.key_pool.size() - d.out_begin);
      d.value = int64_t(d.out_count) + fewer;
    }
    cut.ops.push_back(o);
  }
  compact_key_pool(cut);
  return cut;
}

}  // namespace warpcheck
