// Deciding linearizability of a history against its model.
//
// The history is split by key where the model allows it (a history is
// linearizable iff each per-key sub-history is: P-compositionality), the
// parts are searched in parallel, and the verdict is one of:
//  - LINEARIZABLE, with a witness order of every operation that took effect;
//  - VIOLATION, with a shrunk sub-history that is still not linearizable and,
//    per operation in it, the longest partial linearization the search found:
//    that of the first refuted key in key order, whatever the threads'
//    timing (with all_parts, every refuted key's);
//  - UNKNOWN, with the reason (budget spent, incomplete run) and progress.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "linearizability/hint_replay.hpp"
#include "linearizability/history.hpp"

namespace warpcheck {

enum class Verdict { Linearizable, Violation, Unknown };

std::string_view verdict_name(Verdict v);
int verdict_exit_code(Verdict v);  // 0, 1, 2

// A history whose run failed (its failure record, failure_record.hpp) is
// not a linearizable one: exit 4, unless the check itself refutes it (1).
inline constexpr int kExitRunFailed = 4;
int check_exit_code(const History& h, Verdict v);

// auto: replay linearization-point hints when every completed operation has
// one, and search when they are absent or do not explain the history.
enum class Algorithm { Auto, Search, HintReplay };

struct CheckOptions {
  Algorithm algorithm = Algorithm::Auto;
  double timeout_seconds = 60;      // whole check, shrinking included
  // An earlier end for the whole check, when the caller's clock started
  // before it (the command line counts reading the file).
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  double shrink_seconds = 10;       // at most this much of it spent shrinking
  size_t memory_limit_bytes = size_t(4) << 30;  // what the searches' caches and stacks may hold
  size_t resident_limit_bytes = SIZE_MAX;       // what the whole process may have resident (RSS)
  unsigned threads = 0;             // 0: one per core, for histories large enough to pay for threads
  bool partition = true;            // split by key where the model allows
  bool shrink = true;
  bool prune = true;                // the search's pruning rules (off: the plain search, for cross-checks)
  // Decide every part, each key as a history of its own, and give every
  // refuted key's counterexample (not only the first's). The timeout is
  // still the whole check's; shrink_seconds is each refuted key's.
  bool all_parts = false;
};

// A refuted sub-history that is evidence against the whole history: it was
// obtained only by steps that keep a linearizable history linearizable
// (restricting to one key, cutting at a time, dropping operations that
// cannot change state), so its violation implies the history's.
struct Counterexample {
  History history;                 // the shrunk sub-history; operations keep their ids
  std::vector<uint64_t> cut;       // ids of operations a time cut turned pending
  bool minimal = false;            // no single droppable operation or earlier cut left
  size_t shrunk_from = 0;          // operations in the refuted part
  std::optional<int64_t> key;      // the part's key, when split by key
  // When not empty: the operations are cut down to these keys (a priority
  // queue's refutation on a few keys, distinct_key_pq.hpp): pushes keep
  // only these, pops return only these and ask for as many fewer.
  std::vector<int64_t> projected_keys;
  // For each operation of `history` (same position): the longest partial
  // linearization containing it, as positions in `history.ops`.
  std::vector<std::vector<uint32_t>> longest_with;
};

struct CheckResult {
  Verdict verdict = Verdict::Unknown;
  std::string algorithm;            // which checker decided
  std::string reason;               // UNKNOWN: why; VIOLATION: a one-line summary
  std::vector<uint32_t> witness;    // LINEARIZABLE: history indices in a valid order
  std::optional<Counterexample> counterexample;  // the first refuted part's (in key order)
  // CheckOptions::all_parts: every part was decided or ran out of budget
  // (none was left for another's refutation), and these are the other
  // refuted parts' counterexamples, in key order.
  bool all_parts = false;
  std::vector<Counterexample> more_counterexamples;
  // The linearization-point replay, when it ran: kept apart from the verdict,
  // since points that do not explain a history are a finding about the
  // proof, not about the structure.
  std::optional<HintReplay> hint_replay;
  // UNKNOWN because the run was incomplete: what the recorded part gave.
  std::optional<Verdict> recorded_part;
  // Parts proved linearizable and model steps, all parts'; on a violation
  // without all_parts, only those of the parts up to the first refuted one
  // (in key order), so that the answer does not depend on how far the
  // threads got past it.
  size_t operations = 0, partitions = 0, partitions_linearizable = 0;
  uint64_t steps = 0;
  double seconds = 0;

  size_t refuted_parts() const { return counterexample ? 1 + more_counterexamples.size() : 0; }
};

CheckResult check_history(const History& h, const CheckOptions& options = {});

}  // namespace warpcheck
