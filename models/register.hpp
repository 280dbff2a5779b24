// Single registers, for histories imported from other checkers' corpora.
// The register starts unwritten (Jepsen's nil): a read then returns absent.
// register: read / write. cas-register adds cas(expected, value) -> bool.
#pragma once

#include <optional>
#include <string>

#include "models/base/splitmix.hpp"
#include "models/detail/model_base.hpp"
#include "models/result_match.hpp"

namespace warpcheck {

struct RegisterState {
  bool written = false;
  int64_t value = 0;
  uint64_t hash() const { return written ? detail::mix64(static_cast<uint64_t>(value)) : 0; }
  size_t heap_bytes() const { return 0; }
  friend bool operator==(const RegisterState&, const RegisterState&) = default;
};

// The read/write/cas rules of one register, shared by the register,
// cas-register and key-value models.
inline bool register_step(RegisterState& r, const OpData& op) {
  switch (op.kind) {
    case OpKind::Read:
      return result_matches_value(op, r.written, r.value);
    case OpKind::Write:
      r = {true, op.value};
      return true;
    case OpKind::Cas: {
      const bool swapped = r.written && r.value == op.expected;
      if (!result_matches_bool(op, swapped)) return false;
      if (swapped) r.value = op.value;
      return true;
    }
    default:
      return false;
  }
}

// Reads, and CASes recorded as failed, leave a register as it was.
inline bool register_observes(const OpData& op) {
  return op.kind == OpKind::Read || (op.kind == OpKind::Cas && !op.pending && op.result == 0);
}

inline std::string describe_register(const RegisterState& r) {
  return r.written ? std::to_string(r.value) : "nil";
}

// Everything but the name and the operation list, shared by both registers.
struct RegisterModelBase : detail::ModelBase<RegisterState> {
  static constexpr bool partition_by_key = false;
  // Values are only compared with results and expected values.
  static constexpr bool opaque_values = true;

  // True when the operation cannot change any state (an observer, or an
  // update whose recorded result says it failed): the shrinker may drop it
  // without weakening the evidence.
  static bool leaves_state_unchanged(const OpData& op) { return register_observes(op); }
  static bool step(State& s, const OpData& op, const int64_t*, uint32_t) { return register_step(s, op); }
  static std::string describe(const State& s) { return describe_register(s); }
  static std::optional<int64_t> current_value(const State& s, const OpData&) {
    return s.written ? std::optional<int64_t>(s.value) : std::nullopt;
  }
};

struct RegisterModel : RegisterModelBase {
  static constexpr std::string_view name = "register";
  static constexpr OpSpec ops[] = {
      {OpKind::Read, 0, Returns::ValueOrAbsent},
      {OpKind::Write, kArgValue, Returns::Nothing},
  };
};

struct CasRegisterModel : RegisterModelBase {
  static constexpr std::string_view name = "cas-register";
  static constexpr OpSpec ops[] = {
      {OpKind::Read, 0, Returns::ValueOrAbsent},
      {OpKind::Write, kArgValue, Returns::Nothing},
      {OpKind::Cas, kArgExpected | kArgValue, Returns::Bool},
  };
};

}  // namespace warpcheck
