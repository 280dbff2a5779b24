// The drop-in recorder's host side: what a recording is (its settings),
// buffers in host memory (HostRecorder: host threads, the simulator), and
// the call that turns any recorder's buffers, once in host memory, into a
// binary history file. The GPU's Recorder (device_recorder.cuh) copies its
// buffers back and writes through the same call.
//
// Plain C++ and light (no History here): kernels' translation units include
// it through warpcheck/record.cuh. recorded_history.hpp gives the History
// itself, for checking in the same process.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "structures/core/recorder/drop_in_log.hpp"
#include "structures/core/recorder/host_log.hpp"

namespace warpcheck::record {

struct Settings {
  std::string model;              // a model name: "queue", "stack", "set", "map", ... (models/registry.hpp)
  team_kind team = team_kind::thread;
  uint32_t tile_size = 0;         // team_kind::tile: threads a tile (2 to 32, a power of two); 0 otherwise
  uint32_t teams = 0;             // streams: threads, tiles, warps or blocks of the run (teams_for)
  uint32_t ops_per_team = 0;      // records one team's stream holds
  core::clock_kind clock = core::clock_kind::global_timer;  // host: a steady clock; ticket: exact order, one shared counter
  uint64_t seed = 0;              // stored in the history's header
  std::string config;             // the run's parameters, a JSON object (or empty), stored in the header
};

// Throws std::invalid_argument, saying what is wrong: an unknown model, a
// tile size that is not one (or given for another team kind), no teams or
// no room for records, buffers past what can be addressed, a configuration
// that is not a JSON object.
void validate(const Settings& s);

// Why `tile_size` does not fit `team` (tile teams: 2 to 32, a power of
// two; other kinds: 0), or nothing.
std::optional<std::string> tile_size_error(team_kind team, uint32_t tile_size);

// Teams of a launch of `blocks` blocks of `threads_per_block` threads:
// threads, tiles of `tile_size` or warps (whole or partial, per block),
// or blocks.
uint64_t teams_for_launch(team_kind team, uint64_t blocks, uint64_t threads_per_block, uint32_t tile_size = 0);

// The same, for Settings::teams: checked to fit a recorder (1 to 2^32-1)
// and the tile size to fit the kind (std::invalid_argument otherwise).
// Host and CUDA builds alike; host threads are
// teams_for(team_kind::thread, 1, threads). CUDA builds also take a
// launch's shapes: teams_for(team, dim3 grid, dim3 block[, tile_size])
// (device_recorder.cuh).
uint32_t teams_for(team_kind team, uint64_t blocks, uint64_t threads_per_block, uint32_t tile_size = 0);

std::string_view team_kind_name(team_kind team);

// What a recording holds, and why it is incomplete when it is.
struct Summary {
  uint64_t operations = 0, pending = 0;
  uint64_t lost = 0;        // operations that did not fit their team's stream
  uint64_t unrecorded = 0;  // operations of teams past the recorder's
  uint32_t needed_per_team = 0;  // the most records one team wanted (with what it lost)
  bool incomplete() const { return lost || unrecorded; }
  std::string message;      // empty when complete; otherwise what was lost and the size that holds it
};

Summary summarize(const HostLog& log, const Settings& s, uint64_t unrecorded);

// The history of a recording, in binary (docs/history-format.md), at
// `path`. Throws std::runtime_error for a record that is not an operation
// of the model (the message names the team and the record) or a file that
// cannot be written. An incomplete recording is written, marked
// incomplete: `warpcheck check` then answers UNKNOWN, never LINEARIZABLE.
// Defined in recorded_history.cpp, with the rest that needs History.
Summary write_history(const HostLog& log, const Settings& s, uint64_t unrecorded, const std::string& path);

// Host buffers for `s` (a recording, or a device recording's copy);
// std::runtime_error, saying how much, when the memory is not there.
std::unique_ptr<HostLog> make_host_log(const Settings& s);

// Buffers in host memory: host threads record with view().begin_on(...),
// teams of the simulator with view().begin(t, ...).
class HostRecorder {
 public:
  explicit HostRecorder(Settings s);  // validates (std::invalid_argument)
  HostRecorder(const HostRecorder&) = delete;
  HostRecorder& operator=(const HostRecorder&) = delete;

  const log_view& view() const { return view_; }
  Summary summary() const { return summarize(*log_, settings_, unrecorded_); }
  Summary write(const std::string& path) const { return write_history(*log_, settings_, unrecorded_, path); }
  void reset();  // empty again, for the next run

  const Settings& settings() const { return settings_; }
  const HostLog& log() const { return *log_; }
  uint64_t unrecorded() const { return unrecorded_; }

 private:
  Settings settings_;
  std::unique_ptr<HostLog> log_;
  uint32_t unrecorded_ = 0;
  log_view view_;
};

}  // namespace warpcheck::record
