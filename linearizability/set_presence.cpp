// The set presence procedure (set_presence.hpp), and the argument for
// the greedy order (detail/presence_order.hpp) it shares with the map.
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
//    if the state is its own, else waits; a map's upsert (a blind write of
//    present) goes at t where the key is present, else both waits for
//    present and may be taken as an up;
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

#include <span>

#include "linearizability/detail/decide_by_key.hpp"
#include "linearizability/detail/presence_order.hpp"

namespace warpcheck {

namespace {

class PresenceDecision : public detail::HistoryDecision {
 public:
  using HistoryDecision::HistoryDecision;

  bool decide(int64_t key, std::span<const uint32_t> ops, std::vector<uint32_t>& order) {
    result_ = {};
    order.clear();
    if (std::optional<std::string> why = greedy_.find(h_, ops, order))
      return undecided(*why + " (key " + std::to_string(key) + ")");
    return true;
  }

 private:
  detail::PresenceOrder greedy_;
};

}  // namespace

DistinctValueCheck check_set_presence(const History& h) {
  if (h.meta.model != ModelId::Set) return {DistinctValueCheck::Outcome::NotApplicable, "not a set history", {}, {}};
  detail::reserve_long_step(h.ops.size() * 64);
  return detail::decide_by_key<PresenceDecision>(h, /*by_key=*/true);
}

}  // namespace warpcheck
