#include "stress/seam/workload_options.hpp"

namespace warpcheck {

void check_op_mix(const std::string& text) { parse_op_mix(text); }

OptionTable warp_workload_options(const std::string& default_mix, uint64_t max_keys) {
  return {
      integer_option("teams", "teams (warps) in the run", Defaults{"3", "3", "64"}, 1, 1u << 20),
      integer_option("ops-per-lane", "operations each lane holds", "2", 1, 1u << 16),
      integer_option("keys", "keys drawn from [0, N)", "8", 1, max_keys),
      integer_option("prefill", "distinct keys, spread over the range, that one team inserts before the others start", "0", 0,
                     1u << 24),
      named_value("insert=W,erase=W,contains=W", text_option("mix", "relative weights of the operations (delete=, search= too)", default_mix, check_op_mix)),
      integer_option("hot-keys", "how many hot keys (0: none)", "0", 0, 1u << 30),
      real_option("hot-fraction", "the fraction of operations on the hot keys", "0.5", 0, 1),
      real_option("same-key", "the chance a lane takes the previous lane's key", "0", 0, 1),
      real_option("churn", "the chance an erase is followed, in its lane, by a re-insert of its key", "0", 0, 1),
  };
}

WarpWorkload warp_workload(const Options& o) {
  WarpWorkload w;
  w.teams = uint32_t(o.integer("teams"));
  w.ops_per_lane = uint32_t(o.integer("ops-per-lane"));
  w.keys = int64_t(o.integer("keys"));
  w.prefill = uint32_t(o.integer("prefill"));
  if (w.prefill > uint64_t(w.keys))
    throw std::invalid_argument("--prefill " + std::to_string(w.prefill) + ": at most --keys (" + std::to_string(w.keys) +
                                ") distinct keys");
  w.mix = parse_op_mix(o.text("mix"));
  w.knobs.hot_keys = uint32_t(o.integer("hot-keys"));
  w.knobs.hot_fraction = w.knobs.hot_keys ? o.real("hot-fraction") : 0;
  w.knobs.same_key_in_warp = o.real("same-key");
  w.knobs.churn = o.real("churn");
  return w;
}

}  // namespace warpcheck
