// Key-value store: one cas-register per key (Jepsen's independent keys),
// plus append for string values (Porcupine's key-value model: the key's
// string grows by the appended piece; appending to an unwritten key writes
// the piece).
#pragma once

#include <string>

#include "models/base/value_strings.hpp"
#include "models/detail/model_base.hpp"
#include "models/register.hpp"

namespace warpcheck {

struct KvModel : detail::PairsModelBase {
  static constexpr std::string_view name = "kv";
  static constexpr bool partition_by_key = true;
  // Values are only compared with results and expected values (appended
  // pieces by their joined text: the search renames nothing where an
  // append is).
  static constexpr bool opaque_values = true;
  static constexpr OpSpec ops[] = {
      {OpKind::Read, kArgKey, Returns::ValueOrAbsent},
      {OpKind::Write, kArgKey | kArgValue, Returns::Nothing},
      {OpKind::Cas, kArgKey | kArgExpected | kArgValue, Returns::Bool},
      {OpKind::Append, kArgKey | kArgValue, Returns::Nothing},
  };
  // State: per written key, its value as pieces: entries (key, position <<
  // 32 | piece), the written value at position 0 and each appended piece
  // after it. Without appends that is one entry (key, value), as for a
  // register. Two states equal as strings but cut into different pieces
  // compare unequal: the memo then prunes less, never wrongly.

  // True when the operation cannot change any state (an observer, or an
  // update whose recorded result says it failed): the shrinker may drop it
  // without weakening the evidence.
  static bool leaves_state_unchanged(const OpData& op) { return register_observes(op); }

  static bool step(State& s, const OpData& op, const int64_t*, uint32_t) {
    const uint32_t at = s.find_key(op.key);
    uint32_t pieces = 0;
    while (at + pieces < s.size() && s.at(at + pieces).first == op.key) ++pieces;
    if (op.kind == OpKind::Append) {
      s.insert(op.key, int64_t(uint64_t(pieces) << 32 | uint64_t(op.value)));
      return true;
    }
    if (pieces > 1) return step_on_pieces(s, op, at, pieces);
    RegisterState r{pieces == 1, pieces == 1 ? s.at(at).second : 0};
    const RegisterState before = r;
    if (!register_step(r, op)) return false;
    if (!(r == before)) s.assign(op.key, r.value);
    return true;
  }

 private:
  static int64_t piece(int64_t entry) { return int64_t(uint64_t(entry) & 0xffffffffu); }

  // A key whose value was appended to: compared by text.
  static bool step_on_pieces(State& s, const OpData& op, uint32_t at, uint32_t pieces) {
    auto equals = [&](int64_t id) {
      std::string_view want = detail::value_text(id);
      for (uint32_t i = 0; i < pieces; ++i) {
        std::string_view p = detail::value_text(piece(s.at(at + i).second));
        if (want.substr(0, p.size()) != p) return false;
        want.remove_prefix(p.size());
      }
      return want.empty();
    };
    switch (op.kind) {
      case OpKind::Read:
        return op.pending || (op.result_kind == ResultKind::Value && equals(op.result));
      case OpKind::Write:
        s.assign(op.key, op.value);
        return true;
      case OpKind::Cas: {
        const bool swapped = equals(op.expected);
        if (!result_matches_bool(op, swapped)) return false;
        if (swapped) s.assign(op.key, op.value);
        return true;
      }
      default:
        return false;
    }
  }
};

}  // namespace warpcheck
