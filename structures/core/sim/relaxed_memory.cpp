#include "structures/core/sim/relaxed_memory.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "models/base/splitmix.hpp"

namespace warpcheck::sim {

namespace {

constexpr uint32_t kNobody = UINT32_MAX;  // the writer of a word's value from before the run

bool acquires(core::order o) { return o == core::order::acquire || o == core::order::acq_rel || o == core::order::seq_cst; }
bool releases(core::order o) { return o == core::order::release || o == core::order::acq_rel || o == core::order::seq_cst; }

}  // namespace

// For each word, the oldest message (by number) that may still be read;
// words it does not name: any. Sorted by address.
struct RelaxedMemory::View {
  std::vector<std::pair<uintptr_t, uint64_t>> at;
  uint64_t of(uintptr_t a) const {
    auto it = std::lower_bound(at.begin(), at.end(), std::make_pair(a, uint64_t(0)));
    return it != at.end() && it->first == a ? it->second : 0;
  }
  void raise(uintptr_t a, uint64_t serial) {
    auto it = std::lower_bound(at.begin(), at.end(), std::make_pair(a, uint64_t(0)));
    if (it != at.end() && it->first == a) it->second = std::max(it->second, serial);
    else at.insert(it, {a, serial});
  }
  void join(const View& o) {
    if (o.at.empty()) return;
    std::vector<std::pair<uintptr_t, uint64_t>> merged;
    merged.reserve(at.size() + o.at.size());
    size_t i = 0, j = 0;
    while (i < at.size() || j < o.at.size()) {
      if (j == o.at.size() || (i < at.size() && at[i].first < o.at[j].first)) merged.push_back(at[i++]);
      else if (i == at.size() || o.at[j].first < at[i].first) merged.push_back(o.at[j++]);
      else {  // the same address in both: the later of the two
        merged.push_back({at[i].first, std::max(at[i].second, o.at[j].second)});
        ++i, ++j;
      }
    }
    at = std::move(merged);
  }
};

struct RelaxedMemory::Message {
  uint64_t value = 0;
  uint64_t serial = 0;   // its place in the word's coherence order
  uint64_t written = 0;  // the step it was stored at
  uint32_t writer = kNobody;
  std::shared_ptr<const View> release;  // what it publishes to an acquire (null: nothing)
  core::scope scope = core::scope::gpu;  // of that release
};

struct RelaxedMemory::Word {
  uint8_t bytes = 0;
  std::vector<Message> messages;  // oldest first; the last is memory's value
  uint64_t next_serial = 1;
};

struct RelaxedMemory::TeamState {
  View view;
  // Releases that relaxed loads read, for the next acquire fence: from the
  // team's block (any fence scope synchronizes), from other blocks of its
  // side at gpu or system scope (a gpu or system fence does), and from the
  // other side (GPU or host) at system scope (a system fence does).
  View pending_block, pending_gpu, pending_system;
  std::shared_ptr<const View> fence_release;  // the view at the last release fence: later relaxed stores carry it
  core::scope fence_scope = core::scope::gpu;
  size_t pruned_size = 0;  // the view's size after it was last pruned
};

RelaxedMemory::RelaxedMemory(const RelaxedConfig& c)
    : config_(c), sc_system_(std::make_unique<View>()), sc_device_{std::make_unique<View>(), std::make_unique<View>()} {
  if (c.teams == 0 || c.teams_per_block == 0) throw std::invalid_argument("relaxed memory: teams and teams per block must be at least 1");
  if (c.host_teams > c.teams) throw std::invalid_argument("relaxed memory: more host teams than teams");
  if (!(c.stale_chance >= 0 && c.stale_chance <= 1)) throw std::invalid_argument("relaxed memory: the stale-read chance must be in [0, 1]");
  if (c.visibility_steps == 0) throw std::invalid_argument("relaxed memory: visibility steps must be at least 1");
  teams_.resize(c.teams);
  for (uint32_t b = 0; b <= block_of(c.teams - 1); ++b) sc_cta_.push_back(std::make_unique<View>());
}

RelaxedMemory::~RelaxedMemory() = default;

bool RelaxedMemory::on_host(uint32_t team) const { return team != kNobody && team >= config_.teams - config_.host_teams; }

// The GPU's teams by blocks of teams_per_block; each host team alone after them.
uint32_t RelaxedMemory::block_of(uint32_t team) const {
  const uint32_t gpu_teams = config_.teams - config_.host_teams;
  const uint32_t gpu_blocks = (gpu_teams + config_.teams_per_block - 1) / config_.teams_per_block;
  return on_host(team) ? gpu_blocks + (team - gpu_teams) : team / config_.teams_per_block;
}

bool RelaxedMemory::same_block(uint32_t a, uint32_t b) const {
  return a != kNobody && b != kNobody && block_of(a) == block_of(b);
}

// A writer from before the run (kNobody) counts as the reader's side.
bool RelaxedMemory::same_device(uint32_t a, uint32_t b) const {
  return a == kNobody || b == kNobody || on_host(a) == on_host(b);
}

// Morally strong: each scope includes the other team (cta its block, gpu
// its side, system everyone).
bool RelaxedMemory::synchronizes(const Message& m, uint32_t team, core::scope reader) const {
  if (!m.release) return false;
  if (same_block(m.writer, team)) return true;
  if (same_device(m.writer, team)) return m.scope != core::scope::cta && reader != core::scope::cta;
  return m.scope == core::scope::system && reader == core::scope::system;
}

std::vector<uintptr_t> RelaxedMemory::other_width_words(uintptr_t a, size_t bytes) const {
  std::vector<uintptr_t> out;
  auto add = [&](uintptr_t at, size_t width) {
    const auto it = words_.find(at);
    if (it != words_.end() && it->second.bytes == width) out.push_back(at);
  };
  if (bytes == 8) {
    add(a, 4);
    add(a + 4, 4);
  } else {
    add(a - a % 8, 8);
  }
  return out;
}

RelaxedMemory::Word* RelaxedMemory::word_for(const void* address, size_t bytes, bool create, uint64_t current) {
  const auto a = reinterpret_cast<uintptr_t>(address);
  auto it = words_.find(a);
  if (it != words_.end() && it->second.bytes == bytes) return &it->second;
  if (!create) return nullptr;  // a load of the other width reads memory (load()); the histories stay
  // Mixed widths on one word are not modelled: a store of the other width
  // ends the histories it overlaps (its word is then sequentially
  // consistent until stored to again). What their newest stores published
  // stays published: an acquire that reads the new history's first
  // message (memory's value) synchronizes with them.
  Message initial;
  initial.value = current;
  for (uintptr_t o : other_width_words(a, bytes)) {
    const Message& newest = words_.at(o).messages.back();
    if (newest.release && !initial.release) {
      initial.release = newest.release, initial.scope = newest.scope, initial.writer = newest.writer;
    } else if (newest.release) {
      auto both = std::make_shared<View>(*initial.release);
      both->join(*newest.release);
      initial.release = std::move(both);
      if (newest.writer != initial.writer) initial.writer = kNobody;
      if (newest.scope == core::scope::cta) initial.scope = core::scope::cta;
    }
    words_.erase(o);
  }
  Word& w = words_[a];
  w.bytes = static_cast<uint8_t>(bytes);
  w.messages.push_back(std::move(initial));
  return &w;
}

void RelaxedMemory::read_other_width(TeamState& t, uint32_t team, uintptr_t a, size_t bytes, core::order o, core::scope s) {
  for (uintptr_t at : other_width_words(a, bytes)) {
    const Message& newest = words_.at(at).messages.back();
    t.view.raise(at, newest.serial);  // coherence: no older value at the other width afterwards
    acquire_from(t, team, newest, o, s);
  }
}

void RelaxedMemory::acquire_from(TeamState& t, uint32_t team, const Message& m, core::order o, core::scope s) {
  if (!m.release) return;
  if (acquires(o)) {
    if (synchronizes(m, team, s)) t.view.join(*m.release);
  } else if (same_block(m.writer, team)) {
    t.pending_block.join(*m.release);
  } else if (same_device(m.writer, team)) {
    if (m.scope != core::scope::cta) t.pending_gpu.join(*m.release);
  } else if (m.scope == core::scope::system) {
    t.pending_system.join(*m.release);
  }
}

uint64_t RelaxedMemory::load(uint32_t team, const void* address, size_t bytes, core::order o, core::scope s, uint64_t step,
                             uint64_t& as_of) {
  as_of = step;
  uint64_t current = 0;
  std::memcpy(&current, address, bytes);
  if (o == core::order::seq_cst) fence(team, core::order::seq_cst, s);
  Word* w = word_for(address, bytes, false, 0);
  last_load = LastLoad{};
  if (!w) {  // not stored to at this width in this run: memory's value, the newest
    read_other_width(teams_[team], team, reinterpret_cast<uintptr_t>(address), bytes, o, s);
    return current;
  }
  TeamState& t = teams_[team];
  const std::vector<Message>& ms = w->messages;
  const size_t n = ms.size();
  // The oldest message this team may still read: its view, and visibility.
  const auto a = reinterpret_cast<uintptr_t>(address);
  const uint64_t floor = t.view.of(a);
  ++loads_;
  size_t lo = 0;
  while (lo + 1 < n && (ms[lo].serial < floor || step - ms[lo + 1].written >= config_.visibility_steps)) ++lo;
  size_t pick = n - 1;
  if (lo + 1 < n) {
    // Not from the address: memory moves between runs, a replay must not.
    const uint64_t draw = detail::mix_pair(detail::mix_pair(config_.seed, step), loads_ ^ (uint64_t(team) << 48));
    if (double(draw >> 11) * 0x1.0p-53 < config_.stale_chance) {
      pick = lo + static_cast<size_t>(detail::mix64(draw) % (n - 1 - lo));
      ++stale_loads_;
    }
  }
  if (pick + 1 < n) as_of = ms[pick + 1].written - 1;
  last_load = LastLoad{true, ms[pick].serial, ms[n - 1].serial, floor, ms[pick].written, ms[pick].writer,
                       bool(ms[pick].release), n - lo};
  t.view.raise(a, ms[pick].serial);
  acquire_from(t, team, ms[pick], o, s);
  return ms[pick].value;
}

void RelaxedMemory::forget_settled(View& v, uint64_t step) const {
  // A word whose newest store every team sees, or whose oldest kept store
  // the entry already allows, constrains nothing.
  std::erase_if(v.at, [&](const std::pair<uintptr_t, uint64_t>& e) {
    const auto it = words_.find(e.first);
    if (it == words_.end()) return true;
    const std::vector<Message>& ms = it->second.messages;
    return e.second <= ms.front().serial || step - ms.back().written >= config_.visibility_steps;
  });
}

void RelaxedMemory::append(TeamState& t, uint32_t team, uintptr_t address, Word& w, uint64_t value,
                           std::shared_ptr<const View> release, core::scope s, uint64_t step) {
  Message m;
  m.value = value;
  m.serial = w.next_serial++;
  m.written = step;
  m.writer = team;
  m.release = std::move(release);
  m.scope = s;
  w.messages.push_back(std::move(m));
  t.view.raise(address, w.messages.back().serial);
  // Messages nobody can read any more: the next store to the word is old enough.
  size_t gone = 0;
  while (gone + 1 < w.messages.size() && step - w.messages[gone + 1].written >= config_.visibility_steps) ++gone;
  if (gone) w.messages.erase(w.messages.begin(), w.messages.begin() + std::ptrdiff_t(gone));
  if (t.view.at.size() > 2 * t.pruned_size + 64) {
    forget_settled(t.view, step);
    t.pruned_size = t.view.at.size();
  }
}

void RelaxedMemory::store(uint32_t team, void* address, size_t bytes, uint64_t value, core::order o, core::scope s,
                          uint64_t step) {
  uint64_t current = 0;
  std::memcpy(&current, address, bytes);
  if (o == core::order::seq_cst) fence(team, core::order::seq_cst, s);
  Word* w = word_for(address, bytes, true, current);
  TeamState& t = teams_[team];
  const auto a = reinterpret_cast<uintptr_t>(address);
  if (releases(o)) {
    auto v = std::make_shared<View>(t.view);
    v->raise(a, w->next_serial);  // the message itself
    append(t, team, a, *w, value, std::move(v), s, step);
  } else {
    append(t, team, a, *w, value, t.fence_release, t.fence_scope, step);
  }
}

void RelaxedMemory::rmw(uint32_t team, void* address, size_t bytes, uint64_t before, uint64_t after, core::order o,
                        core::scope s, uint64_t step) {
  if (o == core::order::seq_cst) fence(team, core::order::seq_cst, s);
  Word* w = word_for(address, bytes, true, before);
  TeamState& t = teams_[team];
  const auto a = reinterpret_cast<uintptr_t>(address);
  const Message newest = w->messages.back();  // atomic: it reads the newest
  t.view.raise(a, newest.serial);
  acquire_from(t, team, newest, o, s);
  if (after == before) return;  // nothing stored (a failed CAS)
  std::shared_ptr<const View> release = t.fence_release;
  core::scope scope = t.fence_scope;
  if (releases(o)) {
    auto v = std::make_shared<View>(t.view);
    v->raise(a, w->next_serial);
    release = std::move(v);
    scope = s;
  }
  if (newest.release) {  // a release sequence goes on through read-modify-writes
    if (!release) {
      release = newest.release;
      scope = newest.scope;
    } else {
      auto both = std::make_shared<View>(*release);
      both->join(*newest.release);
      release = std::move(both);
    }
  }
  append(t, team, a, *w, after, std::move(release), scope, step);
}

void RelaxedMemory::fence(uint32_t team, core::order o, core::scope s) {
  TeamState& t = teams_[team];
  if (acquires(o)) {
    t.view.join(t.pending_block);
    t.pending_block.at.clear();
    if (s != core::scope::cta) {
      t.view.join(t.pending_gpu);
      t.pending_gpu.at.clear();
    }
    if (s == core::scope::system) {
      t.view.join(t.pending_system);
      t.pending_system.at.clear();
    }
  }
  if (o == core::order::seq_cst) {
    // A fence meets those of its scope: its block's, its side's, or (system)
    // its side's and every system fence, which orders it after both.
    if (s == core::scope::cta) {
      View& sc = *sc_cta_[block_of(team)];
      t.view.join(sc);
      sc = t.view;
    } else {
      View& side = *sc_device_[on_host(team) ? 1 : 0];
      t.view.join(side);
      if (s == core::scope::system) t.view.join(*sc_system_);
      side = t.view;
      if (s == core::scope::system) *sc_system_ = t.view;
    }
  }
  if (releases(o)) {
    t.fence_release = std::make_shared<const View>(t.view);
    t.fence_scope = s;
  }
}

}  // namespace warpcheck::sim
