#include "linearizability/op_place.hpp"

#include "linearizability/json_cursor.hpp"

namespace warpcheck {

namespace {

struct RecordedBy {
  std::string team;   // "warp", "block", "thread", "tile", or empty
  bool stress_run = false;
};

// The configuration names its teams as "team" (a stress run) or as
// "recorder": {"team": ...} (the drop-in recorder).
RecordedBy recorded_by(const std::string& config) {
  RecordedBy r;
  if (config.empty()) return r;
  try {
    detail::JsonCursor c(config);
    c.parse_object([&](const std::string& key) {
      if (key == "structure") {
        r.stress_run = true;
        c.skip_value();
      } else if (key == "team" && c.peek() == '"') {
        r.team = c.parse_string();
      } else if (key == "recorder" && c.peek() == '{') {
        c.parse_object([&](const std::string& k) {
          if (k == "team" && c.peek() == '"') r.team = c.parse_string();
          else c.skip_value();
        });
      } else {
        c.skip_value();
      }
    });
  } catch (const detail::JsonCursor::Error&) {
    return {};  // not a run's configuration: say nothing of its teams
  }
  if (r.team != "warp" && r.team != "block" && r.team != "thread" && r.team != "tile") r.team.clear();
  return r;
}

}  // namespace

OpPlaces::OpPlaces(const HistoryMeta& meta) {
  const RecordedBy r = recorded_by(meta.config);
  if (r.team.empty()) return;
  team_ = r.team;
  if (r.stress_run) {
    slot_ = "job slot";
  } else {
    slot_ = team_ == "block" ? "thread" : team_ == "thread" ? "job" : "lane";
    slot_when_zero_ = team_ != "thread";
  }
}

std::string OpPlaces::operator()(const Operation& op) const {
  std::string s = team_ + " " + std::to_string(op.team);
  if (op.lane != 0 || slot_when_zero_) s += " " + slot_ + " " + std::to_string(op.lane);
  return s;
}

}  // namespace warpcheck
