// What failed in the run that recorded a history, kept in the history
// itself (binary and JSON lines), so that a failure folder tells the truth
// on its own: `warpcheck check` reports it as its own outcome (exit 4),
// never as LINEARIZABLE, and the HTML report draws it above the timeline.
// Deadlocks, broken invariants, zombie traversals, shadow-state events and
// structure checks are caught by oracles other than the checker; a history
// alone would look linearizable.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpcheck {

// The oracles that fail a run, by the names reports and records carry
// (stress's Oracle bits are 1 << each, stress/seam/structure.hpp).
enum class FailureOracle : uint8_t {
  Checker,         // the checker refuted the history
  Invariants,      // the structure broke an invariant at quiescence
  Shadow,          // the shadow state saw an access it forbids (use after free, ...)
  Deadlock,        // a spin ran past its bound: a deadlock or a livelock
  StructureCheck,  // the structure's own check failed (full, allocator exhausted, a cycle)
  Points,          // the proof's linearization points do not explain the history
  Fault,           // any other fault (a stuck collective, the step limit, a GPU fault)
  Zombie,          // a decision rested on a unit read after it became a zombie
};

inline constexpr FailureOracle kFailureOracles[] = {
    FailureOracle::Checker,        FailureOracle::Invariants, FailureOracle::Shadow, FailureOracle::Deadlock,
    FailureOracle::StructureCheck, FailureOracle::Points,     FailureOracle::Fault,  FailureOracle::Zombie,
};

inline std::string_view failure_oracle_name(FailureOracle o) {
  switch (o) {
    case FailureOracle::Checker: return "checker";
    case FailureOracle::Invariants: return "invariants";
    case FailureOracle::Shadow: return "shadow state";
    case FailureOracle::Deadlock: return "deadlock detector";
    case FailureOracle::StructureCheck: return "structure check";
    case FailureOracle::Points: return "linearization points";
    case FailureOracle::Fault: return "fault";
    case FailureOracle::Zombie: return "zombie detector";
  }
  return "fault";
}

inline std::optional<FailureOracle> parse_failure_oracle(std::string_view name) {
  for (FailureOracle o : kFailureOracles)
    if (failure_oracle_name(o) == name) return o;
  return std::nullopt;
}

struct FailureRecord {
  FailureOracle oracle = FailureOracle::Fault;
  std::string message;             // one line: what the oracle saw
  std::string details;             // more lines: the blocked teams and the wait-for cycle, other broken invariants
  std::vector<uint64_t> evidence;  // ids of the operations it names (a violation's counterexample)
  std::string reproduce;           // a command line that runs the failure again

  friend bool operator==(const FailureRecord&, const FailureRecord&) = default;
};

// A byte no record's text holds: a control byte (newlines and tabs allowed
// in the details, `lines`). Writers turn such bytes into spaces; readers
// refuse them.
inline bool forbidden_in_record(char c, bool lines) {
  const auto b = static_cast<unsigned char>(c);
  return (b < 0x20 && !(lines && (c == '\n' || c == '\t'))) || b == 0x7f;
}

// The record as one JSON object ({"oracle":...,"evidence":[...]}), for
// check --json and the HTML report (inside_script: safe in <script>).
std::string failure_record_json(const FailureRecord& r, bool inside_script);

// Why a record read from a file cannot be what a run wrote, or nullopt:
// a one-line message without control bytes, details without control bytes
// but newlines and tabs, valid UTF-8, evidence naming operations of the
// history (`ids`, sorted).
std::optional<std::string> failure_record_error(const FailureRecord& r, const std::vector<uint64_t>& sorted_ids);

}  // namespace warpcheck
