// A greedy order of one key's presence (absent or present), for a set's
// key and for a map's key once its values are collapsed (distinct_map.cpp):
// every operation kept is a flip (up, down), a read of one state, a find
// of one value (distinct values: it goes while the up that wrote it is the
// last, its write forced at its response if need be), or a blind write of
// present (an upsert: a flip up where the key is absent, nothing where it
// is present; not with finds of values, whose value it would change). A pending insert, upsert or erase is an
// optional flip (it may take effect after its invocation, or never); a
// pending read is left out. set_presence.cpp has the argument: the order
// keeps each operation inside its interval and each result true, so it is
// a witness by construction (the checker replays it anyway); where the
// greedy runs short it says why, and the caller searches instead.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <span>
#include <string>
#include <vector>

#include "linearizability/detail/radix_order.hpp"
#include "linearizability/distinct_value_check.hpp"

namespace warpcheck::detail {

enum class Presence : uint8_t { Up, Down, ReadPresent, ReadAbsent, ReadValue, Blind, Left, Unsupported };

// An operation's part in its key's presence (a set's or a map's).
inline Presence presence_of(const OpData& d) {
  if (d.pending) return d.kind == OpKind::Insert || d.kind == OpKind::Upsert ? Presence::Up
                        : d.kind == OpKind::Erase                            ? Presence::Down
                                                                             : Presence::Left;
  const bool yes = d.result != 0;
  switch (d.kind) {
    case OpKind::Insert: return yes ? Presence::Up : Presence::ReadPresent;
    case OpKind::Erase: return yes ? Presence::Down : Presence::ReadAbsent;
    case OpKind::Contains: return yes ? Presence::ReadPresent : Presence::ReadAbsent;
    case OpKind::Upsert: return Presence::Blind;
    case OpKind::Find: return d.result_kind == ResultKind::Absent ? Presence::ReadAbsent
                              : d.result_kind == ResultKind::Value ? Presence::ReadValue
                                                                   : Presence::Unsupported;
    default: return Presence::Unsupported;
  }
}

class PresenceOrder {
 public:
  // Appends an order of `ops` (indices into h.ops, one key's) to `order`,
  // or returns why it found none.
  // Blind writes are tried lazily first (each put back as nothing where it
  // can be), then, where that runs short, eagerly: a blind write whose
  // response leaves the key absent flips it up last, so that a later erase
  // finds it present (a warp batch's upserts after its erases).
  std::optional<std::string> find(const History& h, std::span<const uint32_t> ops, std::vector<uint32_t>& order) {
    const size_t begin = order.size();
    std::optional<std::string> lazy = attempt(h, ops, order, /*eager=*/false);
    if (!lazy || !had_blind_) return lazy;
    order.resize(begin);
    std::optional<std::string> eager = attempt(h, ops, order, /*eager=*/true);
    if (!eager) return std::nullopt;
    return *lazy + "; with blind writes taken eagerly: " + *eager;
  }

 private:
  std::optional<std::string> attempt(const History& h, std::span<const uint32_t> ops, std::vector<uint32_t>& order, bool eager) {
    h_ = &h;
    order_ = &order;
    reset(ops);
    bool blind = false, named = false;
    for (uint32_t i : ops) {
      const Presence p = role(i);
      if (p == Presence::Unsupported) return "it holds " + describe_operation(h, h.ops[i]) + ", which it cannot order";
      if (p == Presence::Left) continue;
      blind |= p == Presence::Blind;
      named |= p == Presence::ReadValue;
      by_call_.push_back(i);
      if (!op(i).pending()) by_ret_.push_back(i);
    }
    had_blind_ = blind;
    // A blind write put back as nothing would change the value a find sees.
    if (blind && named) return "it holds both upserts and finds that name a value";
    if (named)
      for (uint32_t i : by_call_)
        if (role(i) == Presence::Up) writer_of_[op(i).data.value] = i;
    // The times kept in sorted order: the sweep reads them in sequence.
    radix_order_by(by_call_, [&](uint32_t i) { return op(i).call; }, &calls_);
    radix_order_by(by_ret_, [&](uint32_t i) { return op(i).ret; }, &rets_);
    size_t c = 0, r = 0;
    while (c < by_call_.size() || r < by_ret_.size()) {
      poll_every(c + r);
      const uint64_t t = std::min(c < by_call_.size() ? calls_[c] : kPendingTime, r < by_ret_.size() ? rets_[r] : kPendingTime);
      for (; c < by_call_.size() && calls_[c] == t; ++c) release(by_call_[c]);
      forced_ups_.clear();
      forced_downs_.clear();
      forced_blinds_.clear();
      bool forced_other = false;  // a read (or blind write) waiting for the state it is not
      for (; r < by_ret_.size() && rets_[r] == t; ++r) {
        const uint32_t i = by_ret_[r];
        if (placed(i)) continue;
        switch (role(i)) {
          case Presence::Up: forced_ups_.push_back(i); break;
          case Presence::Down: forced_downs_.push_back(i); break;
          case Presence::Blind:
            // Decided after the flips at t: an up where they need one (it
            // costs no up a later moment may need), else the last flip up
            // where the key is left absent and a down waits (an up now may be
            // what that down needs), else back as nothing where it first saw
            // present. One that never saw present needs the key present now.
            forced_blinds_.push_back(i);
            if (slot_[i] == kNoSlot) forced_other = true;
            break;
          case Presence::ReadValue: {
            // Its value's write goes now (with the find right after it).
            const auto w = writer_of_.find(op(i).data.result);
            if (w == writer_of_.end() || placed(w->second) || op(w->second).call > t)
              return "at time " + std::to_string(t) + " " + describe_operation(*h_, op(i)) +
                     " needs its value written then, and the greedy order cannot";
            forced_ups_.push_back(w->second);
            break;
          }
          default: forced_other = true;  // waits for the other state
        }
      }
      if (named && forced_ups_.size() > 1) {  // a find's write may be forced twice
        std::sort(forced_ups_.begin(), forced_ups_.end());
        forced_ups_.erase(std::unique(forced_ups_.begin(), forced_ups_.end()), forced_ups_.end());
      }
      if (!forced_ups_.empty() || !forced_downs_.empty() || forced_other)
        if (std::optional<std::string> why = flip_at(t, forced_other)) return why;
      if (!present_ && (eager || down_waiting()))
        if (const uint32_t i = forced_blind(); i != kNone) flip(i, true, t);
      // The other forced blind writes saw present, at t or before.
      for (uint32_t i : forced_blinds_)
        if (!placed(i)) put_back(i);
    }
    merge_put_back();
    return std::nullopt;
  }

  using Waiting = std::priority_queue<std::pair<uint64_t, uint32_t>, std::vector<std::pair<uint64_t, uint32_t>>, std::greater<>>;
  static constexpr uint32_t kNone = UINT32_MAX;
  static constexpr size_t kNoSlot = SIZE_MAX;

  const Operation& op(uint32_t i) const { return h_->ops[i]; }
  Presence role(uint32_t i) const { return presence_of(op(i).data); }
  bool placed(uint32_t i) const { return placed_[i]; }
  void place(uint32_t i) {
    placed_[i] = 1;
    order_->push_back(i);
  }

  void reset(std::span<const uint32_t> ops) {
    if (placed_.size() < h_->ops.size()) placed_.resize(h_->ops.size()), slot_.resize(h_->ops.size()), slot_moment_.resize(h_->ops.size());
    for (uint32_t i : ops) placed_[i] = 0, slot_[i] = kNoSlot;
    begin_ = order_->size();
    put_back_.clear();
    by_call_.clear();
    by_ret_.clear();
    ups_ = Waiting();
    downs_ = Waiting();
    waiting_[0].clear();
    waiting_[1].clear();
    waiting_value_.clear();
    writer_of_.clear();
    present_ = false;
  }

  // Invoked: a flip waits to be taken; a read goes now if the state is its
  // own, else waits; a blind write waits to be taken as an up, noting the
  // first moment it sees present (it may go there, as nothing, instead).
  void release(uint32_t i) {
    switch (role(i)) {
      case Presence::Up: ups_.emplace(op(i).ret, i); break;
      case Presence::Down: downs_.emplace(op(i).ret, i); break;
      case Presence::Blind:
        // Undecided until it must be: taken as an up, or at its response
        // put back as nothing at the first moment it saw present.
        ups_.emplace(op(i).ret, i);
        if (present_) slot_[i] = order_->size(), slot_moment_[i] = op(i).call;
        else waiting_[1].push_back(i);
        break;
      case Presence::ReadValue:
        if (present_ && current_ == op(i).data.result) place(i);
        else waiting_value_[op(i).data.result].push_back(i);
        break;
      default: {
        const bool wants = role(i) == Presence::ReadPresent;
        if (wants == present_) place(i);
        else waiting_[wants].push_back(i);
      }
    }
  }

  bool down_waiting() {
    while (!downs_.empty() && placed(downs_.top().second)) downs_.pop();
    return !downs_.empty();
  }

  // A blind write forced now and not yet placed, or kNone.
  uint32_t forced_blind() const {
    for (uint32_t i : forced_blinds_)
      if (!placed(i)) return i;
    return kNone;
  }

  // The next flip up (or down): a forced one, else (up) a forced blind
  // write, else the waiting one with the earliest response.
  uint32_t next_flip(std::vector<uint32_t>& forced, Waiting& waiting) {
    if (!forced.empty()) {
      const uint32_t i = forced.back();
      forced.pop_back();
      return i;
    }
    if (&waiting == &ups_)
      if (const uint32_t i = forced_blind(); i != kNone) return i;
    while (!waiting.empty() && placed(waiting.top().second)) waiting.pop();
    if (waiting.empty()) return kNone;
    const uint32_t i = waiting.top().second;
    waiting.pop();
    return i;
  }

  // The fewest alternating flips at t that place the forced ups and downs
  // and reach the state the forced reads wait for.
  std::optional<std::string> flip_at(uint64_t t, bool forced_other) {
    const size_t a = forced_ups_.size(), b = forced_downs_.size();
    size_t ups, downs;
    if (!present_) {
      ups = std::max({a, b, size_t(forced_other)});
      downs = std::max(b, ups - 1);
    } else {
      downs = std::max({a, b, size_t(forced_other)});
      ups = std::max(a, downs - 1);
    }
    for (size_t k = 0; k < ups + downs; ++k) {
      const bool up = !present_;
      const uint32_t i = up ? next_flip(forced_ups_, ups_) : next_flip(forced_downs_, downs_);
      if (i == kNone)
        return "at time " + std::to_string(t) + " the greedy order needed " + (up ? "an insert" : "an erase") +
               " to take effect and none was invoked and unused";
      flip(i, up, t);
    }
    return std::nullopt;
  }

  // Operation i flips the key at t; the reads waiting for the new state go
  // right after it, and blind writes waiting for present note it.
  void flip(uint32_t i, bool up, uint64_t t) {
    place(i);
    present_ = up;
    if (up) {
      current_ = op(i).data.value;
      if (const auto seen = waiting_value_.find(current_); seen != waiting_value_.end()) {
        for (uint32_t w : seen->second) place(w);
        waiting_value_.erase(seen);
      }
    }
    for (uint32_t w : waiting_[present_]) {
      if (placed(w)) continue;
      if (role(w) == Presence::Blind) slot_[w] = order_->size(), slot_moment_[w] = t;
      else place(w);
    }
    waiting_[present_].clear();
  }

  void put_back(uint32_t i) {
    placed_[i] = 1;
    put_back_.push_back({slot_[i], slot_moment_[i], i});
  }

  // The blind writes that went as nothing, each at the order's position of
  // the first moment it saw present: merged in, in position order.
  void merge_put_back() {
    if (put_back_.empty()) return;
    // At one position, by the moment each saw present there.
    std::stable_sort(put_back_.begin(), put_back_.end(),
                     [](const PutBack& a, const PutBack& b) { return a.slot < b.slot || (a.slot == b.slot && a.moment < b.moment); });
    std::vector<uint32_t> merged;
    merged.reserve(order_->size() - begin_ + put_back_.size());
    size_t k = 0;
    for (size_t pos = begin_; pos <= order_->size(); ++pos) {
      for (; k < put_back_.size() && put_back_[k].slot == pos; ++k) merged.push_back(put_back_[k].op);
      if (pos < order_->size()) merged.push_back((*order_)[pos]);
    }
    order_->resize(begin_);
    order_->insert(order_->end(), merged.begin(), merged.end());
  }

  const History* h_ = nullptr;
  std::vector<uint32_t>* order_ = nullptr;
  std::vector<uint32_t> by_call_, by_ret_;
  std::vector<uint64_t> calls_, rets_;  // their times
  std::vector<uint8_t> placed_;  // by history index, reset key by key
  std::vector<size_t> slot_;     // a blind write's first position at present, or kNoSlot
  std::vector<uint64_t> slot_moment_;  // the moment it saw present there
  struct PutBack {
    size_t slot;
    uint64_t moment;
    uint32_t op;
  };
  std::vector<PutBack> put_back_;
  size_t begin_ = 0;             // where this key's order starts
  Waiting ups_, downs_;
  std::vector<uint32_t> waiting_[2];  // by the state waited for (1: present)
  std::vector<uint32_t> forced_ups_, forced_downs_, forced_blinds_;
  bool present_ = false;
  bool had_blind_ = false;  // the last attempt met a blind write
  int64_t current_ = 0;  // the value written by the last up, while present
  absl::flat_hash_map<int64_t, uint32_t> writer_of_;                // a value's up
  absl::flat_hash_map<int64_t, std::vector<uint32_t>> waiting_value_;  // finds waiting for their value
};

}  // namespace warpcheck::detail
