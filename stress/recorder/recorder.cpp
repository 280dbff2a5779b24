#include "stress/recorder/recorder.hpp"

#include <algorithm>
#include <new>
#include <optional>
#include <stdexcept>

#include "linearizability/formats.hpp"
#include "linearizability/json_cursor.hpp"

namespace warpcheck::record {

std::string_view team_kind_name(team_kind team) {
  switch (team) {
    case team_kind::thread: return "thread";
    case team_kind::warp: return "warp";
    case team_kind::block: return "block";
    case team_kind::tile: return "tile";
  }
  return "?";
}

void validate(const Settings& s) {
  if (!find_model(s.model))
    throw std::invalid_argument("recorder: model \"" + s.model + "\" is not one of " + model_names());
  if (auto err = tile_size_error(s.team, s.tile_size)) throw std::invalid_argument("recorder: " + *err);
  if (s.teams == 0) throw std::invalid_argument("recorder: no teams to record (teams is 0)");
  if (s.ops_per_team == 0) throw std::invalid_argument("recorder: no room for records (ops_per_team is 0)");
  // Streams are indexed by 32-bit slots, and the buffers must be allocatable.
  const uint64_t records = uint64_t(s.teams) * s.ops_per_team;
  constexpr uint64_t kMaxBytes = uint64_t(1) << 40;
  if (records > kMaxBytes / sizeof(log_record))
    throw std::invalid_argument("recorder: " + std::to_string(s.teams) + " teams x " + std::to_string(s.ops_per_team) +
                                " records need " + std::to_string(records * sizeof(log_record) >> 30) +
                                " GiB, past the 1 TiB the recorder allocates");
  if (!s.config.empty())
    if (auto err = detail::json_object_line_error(s.config))
      throw std::invalid_argument("recorder: the configuration must be one line of JSON holding an object: " + *err);
}

std::optional<std::string> tile_size_error(team_kind team, uint32_t tile_size) {
  if (team != team_kind::tile) {
    if (tile_size == 0) return std::nullopt;
    return "tile_size " + std::to_string(tile_size) + " is for tile teams only (the team kind is " +
           std::string(team_kind_name(team)) + ")";
  }
  if (tile_size < 2 || tile_size > 32 || (tile_size & (tile_size - 1)))
    return "tile teams need tile_size a power of two from 2 to 32 (cg::tiled_partition's sizes), not " +
           std::to_string(tile_size);
  return std::nullopt;
}

uint64_t teams_for_launch(team_kind team, uint64_t blocks, uint64_t threads_per_block, uint32_t tile_size) {
  switch (team) {
    case team_kind::thread: return blocks * threads_per_block;
    case team_kind::warp: return blocks * ((threads_per_block + 31) / 32);
    case team_kind::block: return blocks;
    case team_kind::tile: return tile_size ? blocks * ((threads_per_block + tile_size - 1) / tile_size) : 0;
  }
  return 0;
}

uint32_t teams_for(team_kind team, uint64_t blocks, uint64_t threads_per_block, uint32_t tile_size) {
  if (auto err = tile_size_error(team, tile_size)) throw std::invalid_argument("recorder: " + *err);
  const bool overflows = threads_per_block != 0 && blocks > UINT64_MAX / threads_per_block;
  const uint64_t n = overflows ? 0 : teams_for_launch(team, blocks, threads_per_block, tile_size);
  if (n == 0 || n > UINT32_MAX)
    throw std::invalid_argument("recorder: a launch of " +
                                (overflows ? std::string("more than 2^64") : std::to_string(n)) + " " +
                                std::string(team_kind_name(team)) + " teams cannot be recorded (1 to 2^32-1)");
  return static_cast<uint32_t>(n);
}

Summary summarize(const HostLog& log, const Settings& s, uint64_t unrecorded) {
  Summary out;
  out.unrecorded = unrecorded;
  const history_log& v = log.view();
  uint32_t fullest = 0;
  for (uint32_t t = 0; t < v.streams; ++t) {
    const uint32_t kept = std::min(log.counts[t], v.capacity);
    out.operations += kept;
    for (uint32_t i = 0; i < kept; ++i) out.pending += log.records[size_t(t) * v.capacity + i].ret == kLogPending;
    out.lost += log.lost[t];
    const uint64_t wanted = uint64_t(kept) + log.lost[t];
    if (wanted > out.needed_per_team) {
      out.needed_per_team = static_cast<uint32_t>(std::min<uint64_t>(wanted, UINT32_MAX));
      fullest = t;
    }
  }
  if (out.lost)
    out.message = "incomplete: " + std::to_string(out.lost) + " operation(s) did not fit their team's buffer (team " +
                  std::to_string(fullest) + " ran " + std::to_string(out.needed_per_team) + ", the recorder holds " +
                  std::to_string(s.ops_per_team) + " a team): make ops_per_team at least " +
                  std::to_string(out.needed_per_team);
  if (unrecorded) {
    if (!out.message.empty()) out.message += "; ";
    else out.message = "incomplete: ";
    out.message += std::to_string(unrecorded) + " operation(s) ran on " + std::string(team_kind_name(s.team)) +
                   " teams past the recorder's " + std::to_string(s.teams) +
                   ": make teams cover the launch (record::teams_for)";
  }
  if (!out.message.empty()) out.message += "; a check of this history answers UNKNOWN";
  return out;
}

std::unique_ptr<HostLog> make_host_log(const Settings& s) {
  try {
    return std::make_unique<HostLog>(s.teams, s.ops_per_team);
  } catch (const std::bad_alloc&) {
    throw std::runtime_error("recorder: cannot allocate " +
                             std::to_string(uint64_t(s.teams) * s.ops_per_team * sizeof(log_record) >> 20) +
                             " MiB of host memory for " + std::to_string(s.teams) + " teams x " +
                             std::to_string(s.ops_per_team) + " records");
  }
}

HostRecorder::HostRecorder(Settings s) : settings_(std::move(s)) {
  validate(settings_);
  log_ = make_host_log(settings_);
  view_.log = log_->view();
  view_.log.clock = settings_.clock;
  view_.team = settings_.team;
  view_.tile_size = settings_.tile_size;
  view_.unrecorded = &unrecorded_;
}

void HostRecorder::reset() {
  std::fill(log_->counts.begin(), log_->counts.end(), 0u);
  std::fill(log_->lost.begin(), log_->lost.end(), 0u);
  std::fill(log_->key_counts.begin(), log_->key_counts.end(), 0u);
  log_->ticket = 0;
  unrecorded_ = 0;
}

}  // namespace warpcheck::record
