// Key-value store: one cas-register per key (Jepsen's independent keys).
#pragma once

#include <string>

#include "models/detail/model_base.hpp"
#include "models/register.hpp"

namespace warpcheck {

struct KvModel : detail::PairsModelBase {
  static constexpr std::string_view name = "kv";
  static constexpr bool partition_by_key = true;
  static constexpr OpSpec ops[] = {
      {OpKind::Read, kArgKey, Returns::ValueOrAbsent},
      {OpKind::Write, kArgKey | kArgValue, Returns::Nothing},
      {OpKind::Cas, kArgKey | kArgExpected | kArgValue, Returns::Bool},
  };
  // State: one (key, value) entry per written key.

  // True when the operation cannot change any state (an observer, or an
  // update whose recorded result says it failed): the shrinker may drop it
  // without weakening the evidence.
  static bool leaves_state_unchanged(const OpData& op) { return register_observes(op); }

  static bool step(State& s, const OpData& op, const int64_t*, uint32_t) {
    const uint32_t at = s.find_key(op.key);
    RegisterState r{at != s.size(), at != s.size() ? s.at(at).second : 0};
    const RegisterState before = r;
    if (!register_step(r, op)) return false;
    if (!(r == before)) s.assign(op.key, r.value);
    return true;
  }
};

}  // namespace warpcheck
