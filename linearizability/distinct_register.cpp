// The distinct-value register procedure; its argument is in
// distinct_register.hpp.
#include "linearizability/distinct_register.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <span>

#include "linearizability/detail/decide_by_key.hpp"
#include "linearizability/detail/dense_values.hpp"
#include "linearizability/detail/radix_order.hpp"
#include "linearizability/detail/register_chains.hpp"
#include "linearizability/detail/stretch_cover.hpp"

namespace warpcheck {

namespace {

using namespace detail::register_chains;

// One register's decision, and its working set, kept from key to key to
// spare the allocations.
class RegisterDecision : public detail::HistoryDecision {
 public:
  using HistoryDecision::HistoryDecision;

  bool decide(int64_t, std::span<const uint32_t> ops, std::vector<uint32_t>& order) {
    result_ = {};
    clear();
    if (!classify(ops)) return false;
    settle_pending_writers();
    if (!link_chains() || !lay_out_chains()) return false;
    for (size_t k = 0; k < failed_.size(); ++k) {
      detail::poll_every(++polled_);
      if (!place_failed_cas(failed_[k], failed_expects_[k])) return false;
    }
    build_order(order);
    return true;
  }

 private:
  void clear() {
    values_.assign(1, RegisterValue{});
    met_.clear();
    slot_.clear();
    writes_.clear();
    failed_expects_.clear();
    reads_.clear();
    read_of_.clear();
    failed_.clear();
    pending_writers_.clear();
    spare_writes_.clear();
    spare_cases_.clear();
    chains_.clear();
    stretches_.clear();
    cover_.clear();
    at_one_moment_.clear();
    starts_.clear();
    moved_starts_.clear();
    placed_.clear();
    moves_ = 0;
  }

  // 0: what each operation names; the values are numbered once all are
  // met (detail/dense_values.hpp).
  bool classify(std::span<const uint32_t> ops) {
    met_.reserve(ops.size());
    for (uint32_t i : ops) {
      detail::poll_every(++polled_);
      const OpData& d = op(i).data;
      switch (d.kind) {
        case OpKind::Read:
          if (d.pending) break;
          read_of_.push_back(d.result_kind == ResultKind::Value ? met_.add(d.result) : kStartTicket);
          reads_.push_back(i);
          break;
        case OpKind::Write:
          writes_.push_back({i, met_.add(d.value), kNone});
          break;
        case OpKind::Cas:
          if (!d.pending && d.result == 0) {
            failed_.push_back(i);
            failed_expects_.push_back(met_.add(d.expected));
            break;
          }
          writes_.push_back({i, met_.add(d.value), met_.add(d.expected)});
          break;
        case OpKind::Append:
          return not_applicable("an append makes one value of several writes");
        default:
          return not_applicable("a register history holds " + describe(i));
      }
    }
    number_values();
    for (const Write& w : writes_)
      if (!take_writer(w.value, w.op, w.from)) return false;
    std::vector<uint32_t> begin;
    sorted_reads_ = detail::group_by_value(reads_, read_of_, values_.size(), begin);
    for (size_t v = 0; v < values_.size(); ++v) values_[v].reads_begin = begin[v], values_[v].reads_end = begin[v + 1];
    read_place_.assign(reads_.size(), Place{});
    for (RegisterValue& v : values_)
      if (v.reads_begin < v.reads_end) v.observer = sorted_reads_[v.reads_begin];
    return true;
  }

  // A RegisterValue for each value a read, write or CAS names (ascending, after
  // the start); the tickets turned into value indices. A failed CAS's
  // expected value is one only where something else names it (kNone else).
  void number_values() {
    met_.number();
    constexpr uint32_t kNamed = 0;  // below every value's index
    slot_.assign(met_.size(), kNone);
    for (uint32_t t : read_of_)
      if (t != kStartTicket) slot_[met_.index(t)] = kNamed;
    for (const Write& w : writes_) {
      slot_[met_.index(w.value)] = kNamed;
      if (w.from != kNone) slot_[met_.index(w.from)] = kNamed;
    }
    for (uint32_t d = 0; d < met_.size(); ++d)
      if (slot_[d] == kNamed) slot_[d] = uint32_t(values_.size()), values_.push_back(RegisterValue{met_.value(d)});
    for (uint32_t& t : read_of_) t = t == kStartTicket ? kStart : slot_[met_.index(t)];
    for (Write& w : writes_) {
      w.value = slot_[met_.index(w.value)];
      if (w.from != kNone) w.from = slot_[met_.index(w.from)];
    }
    for (uint32_t& t : failed_expects_) t = slot_[met_.index(t)];
  }

  // The index of a value some read, write or CAS names, or kNone.
  uint32_t value_named(int64_t value) const {
    const std::optional<uint32_t> d = met_.find(value);
    return d ? slot_[*d] : kNone;
  }

  bool failed_cas_expects(uint32_t writer) const {
    const uint32_t v = value_named(op(writer).data.value);
    return v != kNone && values_[v].failed_cas_expects;
  }

  bool take_writer(uint32_t v, uint32_t i, uint32_t from) {
    if (values_[v].writer != kNone)
      return not_applicable("the value " + std::to_string(values_[v].value) + " is written more than once" + on_key(i));
    values_[v].writer = i;
    values_[v].from = from;
    if (op(i).pending()) pending_writers_.push_back(v);
    else if (from != kNone && values_[from].observer == kNone) values_[from].observer = i;
    return true;
  }

  std::string on_key(uint32_t i) const {
    return h_.model().partition_by_key ? " (key " + std::to_string(op(i).data.key) + ")" : std::string();
  }

  // 0: a pending writer whose value somebody saw took effect (and a
  // pending CAS then saw the value it replaced, transitively); the others
  // are spare.
  void settle_pending_writers() {
    std::vector<uint32_t> work;
    for (uint32_t v : pending_writers_)
      if (values_[v].observer != kNone) work.push_back(v);
    while (!work.empty()) {
      const uint32_t v = work.back();
      work.pop_back();
      const uint32_t from = values_[v].from;
      if (from == kNone || values_[from].observer != kNone) continue;
      values_[from].observer = values_[v].writer;
      if (values_[from].writer != kNone && op(values_[from].writer).pending()) work.push_back(from);
    }
    for (uint32_t v : pending_writers_) {
      RegisterValue& value = values_[v];
      if (value.observer != kNone) continue;
      if (value.from == kNone) spare_writes_.emplace(op(value.writer).call, value.writer);
      else spare_cases_.emplace(value.from, value.writer);
      value.writer = kNone;
      value.from = kNone;
    }
    for (uint32_t e : failed_expects_)
      if (e != kNone) values_[e].failed_cas_expects = true;
  }

  // 1: values seen but never written, CASes from them, two CASes from one
  // value, cycles; then the chains, each checked in its own order.
  bool link_chains() {
    for (uint32_t v = 1; v < values_.size(); ++v) {
      detail::poll_every(++polled_);
      RegisterValue& value = values_[v];
      if (value.writer == kNone) {
        if (value.observer != kNone)
          return violation(closure({value.observer}), describe(value.observer) + " saw a value never written");
        continue;
      }
      if (value.from == kNone) continue;
      RegisterValue& from = values_[value.from];
      if (from.writer == kNone)
        return violation(closure({value.writer}), describe(value.writer) + " replaced a value never written");
      if (from.succ != kNone)
        return violation(closure({from.succ, value.writer}),
                         describe(from.succ) + " and " + describe(value.writer) + " both replaced one value");
      from.succ = value.writer;
      from.next = v;
    }
    for (uint32_t v = 0; v < values_.size(); ++v) {
      const bool head = v == kStart || (values_[v].writer != kNone && values_[v].from == kNone);
      if (!head) continue;
      Chain c;
      c.head = v;
      for (uint32_t w = v, position = 0; w != kNone; w = values_[w].next, ++position) {
        values_[w].chain = uint32_t(chains_.size());
        values_[w].position = position;
      }
      chains_.push_back(c);
    }
    for (uint32_t v = 1; v < values_.size(); ++v)
      if (values_[v].writer != kNone && values_[v].chain == kNone) {
        // Back from v until a value repeats: v's CASes lead into a cycle.
        std::vector<uint32_t> walked, evidence;
        for (uint32_t w = v; std::find(walked.begin(), walked.end(), w) == walked.end(); w = values_[w].from) {
          walked.push_back(w);
          evidence.push_back(values_[w].writer);
          if (op(values_[w].writer).pending()) evidence.push_back(values_[w].observer);  // who saw its value
        }
        return violation(evidence, describe(values_[v].writer) + " follows a cycle of CASes that no write starts");
      }
    if (chains_.size() >= (uint64_t(1) << 29)) return undecided("too many chains for the witness's layout");
    for (uint32_t c = 0; c < chains_.size(); ++c)
      if (!check_chain(c)) return false;
    return true;
  }

  // Every operation of a chain in its order, at or after the latest
  // invocation before it; a(C), b(C), and each value's A_e and B_e.
  bool check_chain(uint32_t c) {
    Chain& chain = chains_[c];
    uint64_t latest = 0;
    uint32_t latest_op = kNone;
    auto fits = [&](uint32_t i) {
      const Operation& o = op(i);
      if (latest_op != kNone && o.ret < latest)
        return violation(closure({i, latest_op}), describe(i) + " returned before " + describe(latest_op) +
                                                      " was invoked, though the chain of CASes puts it after");
      if (o.ret < chain.a) chain.a = o.ret, chain.a_op = i;
      if (o.call >= chain.b) chain.b = o.call, chain.b_op = i;
      return true;
    };
    for (uint32_t v = chain.head; v != kNone; v = values_[v].next) {
      RegisterValue& value = values_[v];
      if (value.writer != kNone) {
        if (!fits(value.writer)) return false;
        if (op(value.writer).call >= latest) latest = op(value.writer).call, latest_op = value.writer;
      }
      uint64_t reads_latest = latest;
      uint32_t reads_latest_op = latest_op;
      for (uint32_t k = value.reads_begin; k < value.reads_end; ++k) {
        const uint32_t r = sorted_reads_[k];
        if (!fits(r)) return false;
        if (op(r).call >= reads_latest) reads_latest = op(r).call, reads_latest_op = r;
        if (op(r).call >= value.live_to) value.live_to = op(r).call, value.live_to_op = r;
      }
      latest = reads_latest;
      latest_op = reads_latest_op;
      if (value.succ != kNone && op(value.succ).call >= value.live_to) value.live_to = op(value.succ).call, value.live_to_op = value.succ;
    }
    // A_e: the earliest response from w(e) on, back to front.
    uint64_t earliest = kNever;
    uint32_t earliest_op = kNone;
    chain_values_.clear();
    for (uint32_t v = chain.head; v != kNone; v = values_[v].next) chain_values_.push_back(v);
    for (auto it = chain_values_.rbegin(); it != chain_values_.rend(); ++it) {
      RegisterValue& value = values_[*it];
      for (uint32_t k = value.reads_begin; k < value.reads_end; ++k)
        if (op(sorted_reads_[k]).ret <= earliest) earliest = op(sorted_reads_[k]).ret, earliest_op = sorted_reads_[k];
      if (value.writer != kNone && op(value.writer).ret <= earliest) earliest = op(value.writer).ret, earliest_op = value.writer;
      value.live_from = earliest;
      value.live_from_op = earliest_op;
    }
    return true;
  }

  // 2 and 3: the stretches, a moment for every other chain, each
  // operation's place.
  bool lay_out_chains() {
    const Chain& start = chains_[kStart];  // the start's chain: reads of the unwritten register
    const bool start_read = start.b_op != kNone;
    for (uint32_t c = 1; c < chains_.size(); ++c) {
      if (start_read && chains_[c].a < start.b)
        return violation(closure({start.b_op, chains_[c].a_op}), describe(start.b_op) + " saw the register unwritten though " +
                                                                     describe(chains_[c].a_op) + " returned before it was invoked");
      if (chains_[c].stretch()) stretches_.push_back(c);
      else at_one_moment_.push_back(c);
    }
    std::sort(stretches_.begin(), stretches_.end(), [&](uint32_t x, uint32_t y) { return chains_[x].a < chains_[y].a; });
    for (size_t k = 1; k < stretches_.size(); ++k) {
      const Chain& x = chains_[stretches_[k - 1]];
      const Chain& y = chains_[stretches_[k]];
      if (y.a < x.b)
        return violation(closure({x.a_op, x.b_op, y.a_op, y.b_op}),
                         "two chains of writes are each surely current while the other is: " + describe(x.a_op) + " .. " +
                             describe(x.b_op) + " and " + describe(y.a_op) + " .. " + describe(y.b_op));
    }
    for (uint32_t c : stretches_) {
      lay_out_stretch(c);
      cover_.add(chains_[c].a, chains_[c].b, c);
    }
    cover_.seal();
    // Of the chains with no free moment, the refutation naming the fewest
    // operations is given.
    std::vector<uint32_t> fewest;
    std::string why;
    for (uint32_t c : at_one_moment_) {
      const Chain& chain = chains_[c];
      const uint64_t from = std::max(chain.b, start_read ? start.b : 0);
      if (const std::optional<uint64_t> t = cover_.first_free(from, chain.a)) {
        put_chain_at(c, *t, kChainAtOneMoment);
        continue;
      }
      // Stretches are disjoint, so one covers [from, a] (from <= a: the start's reads were checked).
      const uint32_t z = cover_.covering(from, from).front();
      std::vector<uint32_t> named = blocked(c, z, start.b > chain.b ? start.b_op : kNone);
      if (!fewest.empty() && named.size() >= fewest.size()) continue;
      fewest = std::move(named);
      why = "the chain of " + describe(chain.a_op) + " has no moment outside the stretch where the chain of " +
            describe(chains_[z].a_op) + " is surely current";
      if (fewest.size() <= 3) break;
    }
    if (!fewest.empty()) return violation(fewest, why);
    const RegisterValue& unwritten = values_[kStart];
    for (uint32_t k = unwritten.reads_begin; k < unwritten.reads_end; ++k) read_place_[k] = at(op(sorted_reads_[k]).call, kStartRead);
    chains_[kStart].start = at(0, kBeforeAll);
    for (uint32_t c = 1; c < chains_.size(); ++c) starts_.emplace_back(chains_[c].start, c);
    std::sort(starts_.begin(), starts_.end());
    at_one_moment_by_b_ = at_one_moment_;
    std::sort(at_one_moment_by_b_.begin(), at_one_moment_by_b_.end(), [&](uint32_t x, uint32_t y) { return chains_[x].b < chains_[y].b; });
    return true;
  }

  // The refutation of chain c having no moment outside stretch z (and, when
  // `start_read` is named, after the reads of the unwritten start), with as
  // few operations as the argument needs: z is current from its head's
  // write on, so that write's response bounds its stretch when it still
  // holds c's moments; c's head write alone, when its interval fits.
  std::vector<uint32_t> blocked(uint32_t c, uint32_t z, uint32_t start_read) const {
    const Chain& chain = chains_[c];
    const Chain& stretch = chains_[z];
    const uint32_t z_head = values_[stretch.head].writer;
    const uint64_t from = std::max(chain.b, start_read == kNone ? 0 : op(start_read).call);
    const bool head_bounds = op(z_head).ret < from;
    const uint64_t left = head_bounds ? op(z_head).ret : stretch.a;
    const uint32_t c_head = values_[chain.head].writer;
    const bool head_fits = left < std::max(op(c_head).call, start_read == kNone ? 0 : op(start_read).call) && op(c_head).ret < stretch.b;
    std::vector<uint32_t> named = {stretch.b_op, start_read};
    if (!head_bounds) named.push_back(stretch.a_op);
    if (head_fits) named.push_back(c_head);
    else named.insert(named.end(), {chain.a_op, chain.b_op});
    named = closure(named);
    std::sort(named.begin(), named.end());
    named.erase(std::unique(named.begin(), named.end()), named.end());
    return named;
  }

  void lay_out_stretch(uint32_t c) {
    Chain& chain = chains_[c];
    uint64_t latest = chain.a;
    auto place = [&](uint32_t i, uint32_t layer) {
      const uint64_t point = std::max(latest, op(i).call);
      chain.last_point = std::max(chain.last_point, point);
      return at(point, point == chain.a ? kChainStarting : kChainGoingOn, uint64_t(c) << 32 | layer);
    };
    for (uint32_t v = chain.head; v != kNone; v = values_[v].next) {
      RegisterValue& value = values_[v];
      value.written = place(value.writer, 2 * value.position);
      latest = std::max(latest, op(value.writer).call);
      uint64_t reads_latest = latest;
      for (uint32_t k = value.reads_begin; k < value.reads_end; ++k) {
        read_place_[k] = place(sorted_reads_[k], 2 * value.position + 1);
        reads_latest = std::max(reads_latest, op(sorted_reads_[k]).call);
      }
      latest = reads_latest;
    }
    chain.start = values_[chain.head].written;
  }

  // A chain of 2 back to back at moment t: at its own moment (ties by
  // chain), or moved there by a failed CAS's repair (ties by move, so a
  // chain moved after another, to end its last value, goes after it).
  void put_chain_at(uint32_t c, uint64_t t, Rank rank) {
    Chain& chain = chains_[c];
    const uint64_t tie = uint64_t(rank == kMovedChain ? moves_++ : c) << 32;
    for (uint32_t v = chain.head; v != kNone; v = values_[v].next) {
      RegisterValue& value = values_[v];
      value.written = at(t, rank, tie | (2 * value.position));
      for (uint32_t k = value.reads_begin; k < value.reads_end; ++k) read_place_[k] = at(t, rank, tie | (2 * value.position + 1));
    }
    chain.last_point = t;
    chain.start = values_[chain.head].written;
  }

  // The first chain start after `after` (chains that moved kept apart).
  std::optional<std::pair<Place, uint32_t>> next_start(Place after) const {
    std::optional<std::pair<Place, uint32_t>> best;
    for (auto it = std::upper_bound(starts_.begin(), starts_.end(), std::make_pair(after, kNone),
                                    [](const auto& x, const auto& y) { return x.first < y.first; });
         it != starts_.end(); ++it)
      if (!chains_[it->second].moved) {
        best = *it;
        break;
      }
    const auto moved = moved_starts_.upper_bound(std::make_pair(after, kNone));
    if (moved != moved_starts_.end() && (!best || moved->first < best->first)) best = *moved;
    return best;
  }

  void move_chain(uint32_t c, uint64_t t) {
    Chain& chain = chains_[c];
    chain.moved = chain.pinned = true;
    put_chain_at(c, t, kMovedChain);
    moved_starts_.emplace(chain.start, c);
  }

  // 4: a failed CAS of e at a moment e is not current.
  bool place_failed_cas(uint32_t x, uint32_t expects) {
    const Operation& o = op(x);
    if (expects == kNone || values_[expects].writer == kNone) {
      placed_.emplace_back(at(o.call, kBeforeAll, x), x);  // e is never current
      return true;
    }
    RegisterValue& e = values_[expects];
    Chain& chain = chains_[e.chain];
    if (e.live_from < o.call && o.ret < e.live_to)
      return violation(closure({x, e.live_from_op, e.live_to_op}),
                       describe(x) + " failed though its expected value is surely current throughout it (" +
                           describe(e.live_from_op) + " .. " + describe(e.live_to_op) + ")");
    if (o.call <= e.written.point) {
      chain.pinned = true;
      placed_.emplace_back(at(o.call, kBeforeAll, x), x);
      return true;
    }
    std::optional<std::pair<Place, uint32_t>> end;
    if (e.succ != kNone) end = std::make_pair(values_[e.next].written, e.chain);
    else end = next_start(chain.start);
    if (end && end->first.point <= o.ret) {
      chain.pinned = chains_[end->second].pinned = true;
      placed_.emplace_back(end->first.point >= o.call ? at(end->first.point, kAfterAll, x) : at(o.call, kBeforeAll, x), x);
      return true;
    }
    if (e.succ == kNone && take_ender(x, e, chain)) return true;
    if (!chain.stretch() && !chain.pinned && e.chain != kStart) {
      // The chain of e can go later, after X's invocation.
      const uint64_t from = std::max({chain.b, o.call, chains_[kStart].b});
      if (const std::optional<uint64_t> t = cover_.first_free(from, chain.a)) {
        move_chain(e.chain, *t);
        placed_.emplace_back(at(o.call, kBeforeAll, x), x);
        return true;
      }
    }
    return undecided(describe(x) + " failed, and the witness found no moment of it at which its expected value is not current" +
                     on_key(x));
  }

  // A writer that ends e's time inside X's interval, after e's chain: a
  // spare pending write or CAS from e, or a chain of 2 that can move.
  bool take_ender(uint32_t x, const RegisterValue& e, const Chain& chain) {
    const Operation& o = op(x);
    const uint64_t from = std::max(o.call, chain.last_point);
    if (from > o.ret) return false;
    auto use = [&](uint32_t writer) {
      const uint64_t t = std::max(from, op(writer).call);
      placed_.emplace_back(at(t, kSpareWriter, writer), writer);
      placed_.emplace_back(at(t, kAfterAll, x), x);
    };
    // A spare CAS from e takes effect (e is current); a spare write takes
    // any. Either writes a value nobody saw, unless a failed CAS expects it.
    for (auto [it, last] = spare_cases_.equal_range(uint32_t(&e - values_.data())); it != last; ++it)
      if (op(it->second).call <= o.ret && !failed_cas_expects(it->second)) {
        use(it->second);
        spare_cases_.erase(it);
        return true;
      }
    for (auto it = spare_writes_.upper_bound({o.ret, kNone}); it != spare_writes_.begin();) {
      --it;
      if (failed_cas_expects(it->second)) continue;
      use(it->second);
      spare_writes_.erase(it);
      return true;
    }
    // A chain of 2 whose moments reach into [from, o.ret], nothing relying on it.
    size_t tried = 0;
    const uint64_t floor = chains_[kStart].b;
    for (auto it = std::upper_bound(at_one_moment_by_b_.begin(), at_one_moment_by_b_.end(), o.ret,
                                    [&](uint64_t t, uint32_t c) { return t < chains_[c].b; });
         it != at_one_moment_by_b_.begin() && tried < 64; ++tried) {
      --it;
      Chain& d = chains_[*it];
      if (d.pinned || &d == &chain || d.a < from) continue;
      const uint64_t t = std::max({d.b, from, floor});
      if (t > std::min(d.a, o.ret)) continue;
      move_chain(*it, t);
      placed_.emplace_back(at(t, kAfterAll, x), x);
      return true;
    }
    return false;
  }

  // The operations an argument about `ops` rests on: each, the writers of
  // its chain up to its value, and for a pending writer who saw its value.
  std::vector<uint32_t> closure(std::vector<uint32_t> ops) const {
    std::vector<uint32_t> out;
    const size_t longest = values_.size();  // a walk past it is in a cycle
    for (size_t k = 0; k < ops.size(); ++k) {
      const uint32_t i = ops[k];
      if (i == kNone) continue;
      out.push_back(i);
      const OpData& d = op(i).data;
      int64_t named = 0;
      if (d.kind == OpKind::Read && d.result_kind == ResultKind::Value) named = d.result;
      else if (d.kind == OpKind::Cas && !d.pending && d.result == 0) named = d.expected;
      else if (d.kind == OpKind::Write || d.kind == OpKind::Cas) named = d.value;
      else continue;
      const uint32_t found = value_named(named);
      if (found == kNone) continue;
      size_t walked = 0;
      for (uint32_t v = found; v != kNone && values_[v].writer != kNone && walked++ < longest; v = values_[v].from) {
        const uint32_t w = values_[v].writer;
        if (w != i) out.push_back(w);
        if (op(w).pending() && std::find(ops.begin(), ops.end(), values_[v].observer) == ops.end()) ops.push_back(values_[v].observer);
      }
    }
    return out;
  }

  void build_order(std::vector<uint32_t>& order) {
    for (const RegisterValue& value : values_)
      if (value.writer != kNone) placed_.emplace_back(value.written, value.writer);
    for (size_t k = 0; k < sorted_reads_.size(); ++k) placed_.emplace_back(read_place_[k], sorted_reads_[k]);
    sort_keys_.resize(placed_.size());
    positions_.resize(placed_.size());
    std::iota(positions_.begin(), positions_.end(), 0u);
    for (size_t k = 0; k < placed_.size(); ++k) sort_keys_[k] = placed_[k].first.order;
    detail::radix_order(sort_keys_, positions_);
    for (size_t k = 0; k < placed_.size(); ++k) sort_keys_[k] = placed_[k].first.point;
    detail::radix_order(sort_keys_, positions_);
    order.reserve(order.size() + positions_.size());
    for (uint32_t k : positions_) order.push_back(placed_[k].second);
  }

  bool violation(std::vector<uint32_t> ops, std::string why) { return found(Outcome::Violation, std::move(ops), std::move(why)); }

  size_t polled_ = 0;
  std::vector<RegisterValue> values_;
  detail::DenseValues met_;
  std::vector<uint32_t> slot_;  // by met_'s index: the value's index, or kNone
  struct Write {
    uint32_t op, value, from;  // tickets until numbered, then value indices
  };
  std::vector<Write> writes_;             // writes and CASes that may have taken effect
  std::vector<uint32_t> failed_expects_;  // by failed CAS: the value it expected
  std::vector<uint32_t> reads_, read_of_, sorted_reads_;
  std::vector<uint32_t> failed_, pending_writers_;
  std::set<std::pair<uint64_t, uint32_t>> spare_writes_;  // (invocation, operation)
  std::multimap<uint32_t, uint32_t> spare_cases_;         // value replaced -> pending CAS
  std::vector<Chain> chains_;
  std::vector<uint32_t> chain_values_, stretches_, at_one_moment_, at_one_moment_by_b_;
  detail::StretchCover cover_;  // the stretches, for free moments
  std::vector<std::pair<Place, uint32_t>> starts_;  // chains by where their heads go
  std::set<std::pair<Place, uint32_t>> moved_starts_;
  std::vector<Place> read_place_;                  // by position in sorted_reads_
  std::vector<std::pair<Place, uint32_t>> placed_;  // the rest of the witness: (place, operation)
  uint32_t moves_ = 0;
  std::vector<uint64_t> sort_keys_;
  std::vector<uint32_t> positions_;
};

}  // namespace

DistinctValueCheck check_distinct_register(const History& h) {
  const ModelId model = h.meta.model;
  if (model != ModelId::Register && model != ModelId::CasRegister && model != ModelId::Kv)
    return {DistinctValueCheck::Outcome::NotApplicable, "not a register, cas-register or kv history", {}, {}};
  detail::reserve_long_step(h.ops.size() * 128);
  return detail::decide_by_key<RegisterDecision>(h, h.model().partition_by_key);
}

}  // namespace warpcheck
