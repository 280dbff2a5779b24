// The simulator's relaxed memory (SimConfig::memory_model = relaxed): an
// operational model of what the PTX memory model guarantees, in which a
// load may return an older value than the newest store to its word, as
// long as nothing the loading team knows of rules it out.
//
// Each word written during a run keeps its stores in coherence order
// (messages, numbered); memory itself holds the newest. Each team has a
// view: for each word, the oldest message it may still read, raised by
// what it reads and writes (coherence: CoRR, CoWR, CoRW, CoWW) and by what
// it learns. A release store or read-modify-write carries the writer's
// view (cumulative: what it has read, too), and an acquire that reads it
// joins that view, when the two are morally strong (both scopes include
// the other: teams of one block for cta scope, the GPU's teams for gpu
// scope, every team for system scope): MP, WRC. Host teams (the last
// `host_teams`: CPU threads on host memory beside the kernel) are outside
// the GPU: only system-scope releases, fences and acquires order anything
// between them and the GPU's teams. A relaxed store after a release fence carries the view
// at the fence, and what a relaxed load reads waits for the team's next
// acquire fence. Sequentially consistent fences meet in one view per scope
// (SB and IRIW are then forbidden). A load reads any message no older than
// its team's view allows and still visible (a store is seen by everyone
// once the next store to its word is `visibility_steps` old: stores become
// visible eventually, so spin loops end): the newest, or with
// `stale_chance` an older one, drawn from the seed, the step, the team and
// the load's rank in the run (a replayed schedule reads the same values).
// Read-modify-writes act on the newest message (they are atomic) and carry
// a release sequence on.
//
// What it does not model (docs/relaxed-memory.md, the litmus table):
// load buffering (it never reads a value from the future), lanes of one
// team (they share one clock: a warp that syncs between its lanes' accesses
// is what the structures do), and mixed-size accesses to one word: a load
// of the other width reads the newest value (and synchronizes with it as
// its order says), a store of the other width ends the history there (the
// word is then sequentially consistent; what its newest store released
// stays released).
#pragma once
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "structures/core/memory_order.hpp"

namespace warpcheck::sim {

struct RelaxedConfig {
  uint32_t teams = 1;
  uint32_t teams_per_block = 1;   // cta scope spans the teams of one block
  uint32_t host_teams = 0;        // the last teams are CPU threads: outside gpu scope, each a block of its own
  uint64_t seed = 1;
  double stale_chance = 0.5;      // a load with older readable values takes one of them this often
  uint64_t visibility_steps = 4000;
};

class RelaxedMemory {
 public:
  explicit RelaxedMemory(const RelaxedConfig& c);
  ~RelaxedMemory();

  // The value `team`'s load of the word at `address` (4 or 8 bytes)
  // returns (memory holds the newest), and in `as_of` the last step at
  // which that value was the newest: when the load took its value, for
  // the zombie detector and the recorded points.
  uint64_t load(uint32_t team, const void* address, size_t bytes, core::order o, core::scope s, uint64_t step,
                uint64_t& as_of);
  // A store: called before memory is overwritten with `value`.
  void store(uint32_t team, void* address, size_t bytes, uint64_t value, core::order o, core::scope s, uint64_t step);
  // A read-modify-write that read `before` (the newest) and leaves `after`
  // (a failed CAS: after == before, and no store); called before memory is
  // written.
  void rmw(uint32_t team, void* address, size_t bytes, uint64_t before, uint64_t after, core::order o, core::scope s,
           uint64_t step);
  void fence(uint32_t team, core::order o, core::scope s);

  // Loads that returned an older value than the newest (for reports and tests).
  uint64_t stale_loads() const { return stale_loads_; }

  // Diagnostics (WARPCHECK_TRACE): what the last load() read.
  struct LastLoad {
    bool tracked = false;       // the word has a history at this width
    uint64_t serial = 0, newest = 0, floor = 0, written = 0;
    uint32_t writer = UINT32_MAX;
    bool released = false;      // the message read carries a release view
    size_t readable = 0;        // messages it could have read
  };
  LastLoad last_load;

 private:
  struct View;
  struct Message;
  struct Word;
  struct TeamState;
  Word* word_for(const void* address, size_t bytes, bool create, uint64_t current);
  // The words of the other width with a history that overlap [a, a + bytes).
  std::vector<uintptr_t> other_width_words(uintptr_t a, size_t bytes) const;
  // A load of words whose history is at the other width: it reads memory,
  // the newest of each, and learns what an acquire of those stores would.
  void read_other_width(TeamState& t, uint32_t team, uintptr_t a, size_t bytes, core::order o, core::scope s);
  bool on_host(uint32_t team) const;
  uint32_t block_of(uint32_t team) const;
  bool same_block(uint32_t a, uint32_t b) const;
  bool same_device(uint32_t a, uint32_t b) const;  // both on the GPU, or both on the host
  bool synchronizes(const Message& m, uint32_t team, core::scope reader) const;
  void acquire_from(TeamState& t, uint32_t team, const Message& m, core::order o, core::scope s);
  void append(TeamState& t, uint32_t team, uintptr_t address, Word& w, uint64_t value, std::shared_ptr<const View> release,
              core::scope s, uint64_t step);
  void forget_settled(View& v, uint64_t step) const;  // keeps views small

  RelaxedConfig config_;
  std::unordered_map<uintptr_t, Word> words_;
  std::vector<TeamState> teams_;
  std::unique_ptr<View> sc_system_;               // where system-scope seq_cst fences meet
  std::unique_ptr<View> sc_device_[2];            // the GPU's (0) and the host's (1) gpu-scope ones, and system ones there
  std::vector<std::unique_ptr<View>> sc_cta_;     // per block, for cta-scope ones
  uint64_t stale_loads_ = 0;
  uint64_t loads_ = 0;  // of words with a history: the stale draws' input
};

}  // namespace warpcheck::sim
