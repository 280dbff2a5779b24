// The set presence procedure (set_presence.hpp).
//
// Keys are decided apart (P-compositionality); fix one. Its state is
// absent or present, so an operation is one of: an up (an insert that
// returned true: absent -> present), a down (an erase that returned
// true), a read of present (an insert that returned false, a contains
// that returned true), a read of absent (an erase that returned false, a
// contains that returned false). A pending insert or erase is an optional
// up or down (it may take effect, after its invocation, or never); a
// pending contains is left out. A witness gives each operation it keeps a
// point in its interval, ties in any order, such that the ups and downs
// alternate from absent and each read sees its state.
//
// The greedy walks the stamps in time order, keeping the state as it is
// for as long as nothing forces a change (lazy):
//  - an operation invoked at t joins the ups or downs that may go next
//    (earliest response first, optional ones last), or, a read, goes at t
//    if the state is its own, else waits;
//  - at the response t of an up, a down or a waiting read not yet placed,
//    the fewest flips at t that place them all: the forced ups and downs
//    first, then the waiting ones with the earliest responses; every read
//    waiting for the state a flip reaches goes right after it.
// Every point is inside its operation's interval (an operation goes at
// its invocation, a flip's moment, or its response), so real-time order
// holds, and the state it sees is the one its result names: the witness is
// valid by construction, and the checker replays it anyway. The greedy
// does not claim completeness: where the flips at a moment need an up or
// a down that nobody invoked yet, it stops and the search decides the
// whole history.
#include "linearizability/set_presence.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <span>
#include <string>

#include "linearizability/detail/decide_by_key.hpp"

namespace warpcheck {

namespace {

constexpr uint32_t kNone = UINT32_MAX;

enum class Role : uint8_t { Up, Down, ReadPresent, ReadAbsent, Left };

class PresenceDecision : public detail::HistoryDecision {
 public:
  using HistoryDecision::HistoryDecision;

  bool decide(int64_t, std::span<const uint32_t> ops, std::vector<uint32_t>& order) {
    result_ = {};
    order.clear();
    clear();
    for (uint32_t i : ops) {
      const Role r = role(i);
      if (r == Role::Left) continue;
      by_call_.push_back(i);
      if (!op(i).pending()) by_ret_.push_back(i);
    }
    std::sort(by_call_.begin(), by_call_.end(), [&](uint32_t a, uint32_t b) { return op(a).call < op(b).call; });
    std::sort(by_ret_.begin(), by_ret_.end(), [&](uint32_t a, uint32_t b) { return op(a).ret < op(b).ret; });
    order_ = &order;
    size_t c = 0, r = 0;
    while (c < by_call_.size() || r < by_ret_.size()) {
      detail::poll_every(c + r);
      const uint64_t t = std::min(c < by_call_.size() ? op(by_call_[c]).call : kPendingTime,
                                  r < by_ret_.size() ? op(by_ret_[r]).ret : kPendingTime);
      for (; c < by_call_.size() && op(by_call_[c]).call == t; ++c) release(by_call_[c]);
      forced_ups_.clear();
      forced_downs_.clear();
      bool forced_read = false;  // a read waiting for the other state
      for (; r < by_ret_.size() && op(by_ret_[r]).ret == t; ++r) {
        const uint32_t i = by_ret_[r];
        if (placed(i)) continue;
        switch (role(i)) {
          case Role::Up: forced_ups_.push_back(i); break;
          case Role::Down: forced_downs_.push_back(i); break;
          default: forced_read = true;
        }
      }
      if ((!forced_ups_.empty() || !forced_downs_.empty() || forced_read) && !flip_at(t, forced_read)) return false;
    }
    return true;
  }

 private:
  using Waiting = std::priority_queue<std::pair<uint64_t, uint32_t>, std::vector<std::pair<uint64_t, uint32_t>>, std::greater<>>;

  void clear() {
    if (placed_.size() < h_.ops.size()) placed_.resize(h_.ops.size());
    for (uint32_t i : by_call_) placed_[i] = 0;
    by_call_.clear();
    by_ret_.clear();
    ups_ = Waiting();
    downs_ = Waiting();
    reads_[0].clear();
    reads_[1].clear();
    present_ = false;
  }

  Role role(uint32_t i) const {
    const OpData& d = op(i).data;
    if (d.pending) return d.kind == OpKind::Insert ? Role::Up : d.kind == OpKind::Erase ? Role::Down : Role::Left;
    const bool yes = d.result != 0;
    switch (d.kind) {
      case OpKind::Insert: return yes ? Role::Up : Role::ReadPresent;
      case OpKind::Erase: return yes ? Role::Down : Role::ReadAbsent;
      default: return yes ? Role::ReadPresent : Role::ReadAbsent;
    }
  }

  bool placed(uint32_t i) const { return placed_[i]; }
  void place(uint32_t i) {
    placed_[i] = 1;
    order_->push_back(i);
  }

  void release(uint32_t i) {
    switch (role(i)) {
      case Role::Up: ups_.emplace(op(i).ret, i); break;
      case Role::Down: downs_.emplace(op(i).ret, i); break;
      case Role::ReadPresent:
      case Role::ReadAbsent: {
        const bool wants = role(i) == Role::ReadPresent;
        if (wants == present_) place(i);
        else reads_[wants].push_back(i);
        break;
      }
      default: break;
    }
  }

  // The next up (or down) for a flip: a forced one, else the waiting one
  // with the earliest response.
  uint32_t next_flip(std::vector<uint32_t>& forced, Waiting& waiting) {
    if (!forced.empty()) {
      const uint32_t i = forced.back();
      forced.pop_back();
      return i;
    }
    while (!waiting.empty() && placed(waiting.top().second)) waiting.pop();
    if (waiting.empty()) return kNone;
    const uint32_t i = waiting.top().second;
    waiting.pop();
    return i;
  }

  // The fewest alternating flips at t that place the forced ups and downs
  // and reach the state the forced reads wait for.
  bool flip_at(uint64_t t, bool forced_read) {
    const size_t a = forced_ups_.size(), b = forced_downs_.size();
    size_t ups, downs;
    if (!present_) {
      ups = std::max({a, b, size_t(forced_read)});
      downs = std::max(b, ups - 1);
    } else {
      downs = std::max({a, b, size_t(forced_read)});
      ups = std::max(a, downs - 1);
    }
    for (size_t k = 0; k < ups + downs; ++k) {
      const bool up = !present_;
      const uint32_t i = up ? next_flip(forced_ups_, ups_) : next_flip(forced_downs_, downs_);
      if (i == kNone)
        return undecided("at time " + std::to_string(t) + " the greedy order needed " + (up ? "an insert" : "an erase") +
                         " to take effect and none was invoked and unused" + on_key());
      place(i);
      present_ = up;
      for (uint32_t w : reads_[present_]) place(w);
      reads_[present_].clear();
    }
    return true;
  }

  std::string on_key() const {
    return by_call_.empty() ? std::string() : " (key " + std::to_string(op(by_call_.front()).data.key) + ")";
  }

  std::vector<uint32_t> by_call_, by_ret_;
  std::vector<uint8_t> placed_;  // by history index, reset key by key
  Waiting ups_, downs_;
  std::vector<uint32_t> reads_[2];  // waiting reads, by the state they want (1: present)
  bool present_ = false;
  std::vector<uint32_t>* order_ = nullptr;
  std::vector<uint32_t> forced_ups_, forced_downs_;
};

}  // namespace

DistinctValueCheck check_set_presence(const History& h) {
  if (h.meta.model != ModelId::Set) return {DistinctValueCheck::Outcome::NotApplicable, "not a set history", {}, {}};
  detail::reserve_long_step(h.ops.size() * 64);
  return detail::decide_by_key<PresenceDecision>(h, /*by_key=*/true);
}

}  // namespace warpcheck
