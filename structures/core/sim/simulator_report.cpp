// What the simulator says about a run: lanes, teams and units by name,
// shadow-state faults, and at a suspected deadlock every blocked team, what
// it waits on, lock owners and the wait-for cycle.
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "structures/core/sim/detail/simulator_state.hpp"
#include "structures/core/sim/scheduler.hpp"

namespace warpcheck::sim {

std::string Simulator::team_word() const { return team_word_for(config_.lanes, config_.team_word); }

std::string Simulator::team_name(uint32_t team) const { return team_word() + " " + std::to_string(team); }

std::string Simulator::lane_name(uint32_t lane) const {
  return lane_place(team_word(), lanes_[lane].team, lanes_[lane].lane);
}

// A shadow-state fault: who touched which unit in which state ("a zombie"
// for a retired one, with who marked it and when).
std::string Simulator::unit_fault_message(uint32_t lane, std::string_view access, const void* address,
                                          core::unit_state state) const {
  std::ostringstream m;
  m << lane_name(lane) << ": " << access << " of " << describe(address) << ", ";
  if (state == core::unit_state::retired) {
    m << "a zombie";
    const auto base = shadow_.unit_base(address);
    const auto it = base ? retired_.find(*base) : retired_.end();
    if (it != retired_.end()) m << " (marked by " << team_name(it->second.team) << " at step " << it->second.step << ")";
  } else {
    m << "a" << (state == core::unit_state::uninitialized || state == core::unit_state::allocated ? "n " : " ")
      << unit_state_name(state) << " unit";
  }
  m << ", at step " << step_;
  return m.str();
}

std::string Simulator::describe(const void* address) const {
  std::ostringstream s;
  if (auto name = shadow_.name_of(address)) return *name;
  s << address;
  return s.str();
}

void Simulator::describe_blocked(RunReport& r) const {
  std::ostringstream d;
  std::map<uint32_t, std::set<uint32_t>> waits_for;  // team -> lock-owning teams it waits on
  auto owner_of = [&](const void* lock) -> std::optional<uint32_t> {
    for (auto& [l, team] : lock_owner_)
      if (l == lock) return team;
    return std::nullopt;
  };
  for (uint32_t t = 0; t < config_.teams; ++t) {
    std::vector<std::string> parts;
    uint32_t done = 0;
    for (uint32_t i = 0; i < config_.lanes;) {
      const Lane& l = lanes_[t * config_.lanes + i];
      if (l.state == Lane::State::Done) {
        ++done;
        ++i;
        continue;
      }
      // Lanes in a row doing the same thing are listed once.
      uint32_t j = i + 1;
      while (j < config_.lanes) {
        const Lane& m = lanes_[t * config_.lanes + j];
        const bool same = m.state == l.state && m.spin_on == l.spin_on &&
                          (l.spin_on || (m.waiting == l.waiting && m.on == l.on && m.at == l.at));
        if (!same) break;  // lanes spinning on one word group together, whichever step of the loop they are at
        ++j;
      }
      std::ostringstream p;
      const std::string team = team_word();
      const char* word = team == "block" ? "thread" : "lane";
      if (team != "thread") {  // a thread's name says it all
        p << word << (j - i > 1 ? "s " : " ") << i;
        if (j - i > 1) p << "-" << j - 1;
      }
      if (l.spin_on) {
        p << " spinning on " << describe(l.spin_on) << " (" << l.spins << " iterations";
        if (auto o = owner_of(l.spin_on)) {
          p << ", held by " << team_name(*o) << (*o == t ? ", itself" : "");
          waits_for[t].insert(*o);
        }
        p << ")";
      } else if (l.state == Lane::State::Blocked) {
        p << " waiting at " << collective_name(l.at);
      } else if (l.state == Lane::State::Gated) {
        p << " " << engine_->scheduler->gate_of(t * config_.lanes + i);
      } else if (l.beginning) {
        p << " runnable, next: begins an operation";
      } else {
        p << " runnable, next " << access_name(l.waiting);
        if (l.on) p << " of " << describe(l.on);
      }
      parts.push_back(p.str());
      i = j;
    }
    if (parts.empty()) continue;
    d << "  " << team_name(t) << ":";
    for (size_t k = 0; k < parts.size(); ++k) d << (k ? "; " : parts[k][0] == ' ' ? "" : " ") << parts[k];
    if (done) d << "; " << done << (team_word() == "block" ? " threads finished" : " lanes finished");
    d << "\n";
  }
  for (auto& [lock, team] : lock_owner_) d << "  lock " << describe(lock) << " held by " << team_name(team) << "\n";
  // A wait-for cycle, starting from the faulting team when it is on one.
  std::vector<uint32_t> starts{r.team};
  for (auto& [t, _] : waits_for) starts.push_back(t);
  for (uint32_t start : starts) {
    std::vector<uint32_t> path{start};
    std::set<uint32_t> seen{start};
    while (waits_for.count(path.back())) {
      const uint32_t next = *waits_for.at(path.back()).begin();
      if (next == start) {
        r.wait_cycle = path;
        break;
      }
      if (!seen.insert(next).second) break;
      path.push_back(next);
    }
    if (!r.wait_cycle.empty()) break;
  }
  if (!r.wait_cycle.empty()) {
    d << "  wait-for cycle:";
    for (uint32_t t : r.wait_cycle) d << " " << team_name(t) << " ->";
    d << " " << team_name(r.wait_cycle.front()) << "\n";
  }
  r.details += d.str();
}

}  // namespace warpcheck::sim
