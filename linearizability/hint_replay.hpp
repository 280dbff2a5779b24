// Linearization-point replay: when a structure records where its proof says
// each operation takes effect (the history's hint field), replaying the
// operations in hint order either proves the history linearizable (that
// order is a witness) or shows that the claimed points do not explain it.
// The second is a finding about the proof (or the recording), not a verdict
// on the history: the general checker still decides that.
#pragma once

#include <string>
#include <vector>

#include "linearizability/history.hpp"

namespace warpcheck {

struct HintReplay {
  enum class Outcome { NotApplicable, Explained, NotExplained };
  Outcome outcome = Outcome::NotApplicable;
  std::string detail;           // why not applicable, or the first operation not explained
  std::vector<uint32_t> order;  // history indices in hint order (Explained: a witness)
};

// Applicable when every completed operation carries a hint. Pending
// operations with a hint took effect there; without one, they did not.
// Equal hints are ordered by invocation, then id.
HintReplay replay_hints(const History& h);

}  // namespace warpcheck
