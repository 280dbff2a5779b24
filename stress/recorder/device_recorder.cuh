// The drop-in recorder's buffers on the GPU: a Recorder allocates one
// stream of records a team in device memory, its view() goes to kernels by
// value, and write() copies the buffers back and writes the history through
// the host side's write_history (recorder.hpp), the same path host
// recordings take. Host code only (the CUDA runtime API): header-only, so
// that the installed recorder library needs no CUDA.
#pragma once
#include <cuda_runtime.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "stress/recorder/recorder.hpp"

namespace warpcheck::record {

// Teams of a launch's grid and block shape (any dimensions): the host's
// teams_for (recorder.hpp) on their sizes.
inline uint32_t teams_for(team_kind team, dim3 grid, dim3 block, uint32_t tile_size = 0) {
  return teams_for(team, uint64_t(grid.x) * grid.y * grid.z, uint64_t(block.x) * block.y * block.z, tile_size);
}

class Recorder {
 public:
  // Validates the settings (std::invalid_argument) and allocates the
  // buffers (std::runtime_error naming the CUDA error).
  explicit Recorder(Settings s) : settings_(std::move(s)) {
    validate(settings_);
    const size_t records = size_t(settings_.teams) * settings_.ops_per_team;
    // Records, then per team its count and what it lost, then the
    // unrecorded counter, then the ticket (8-byte aligned: records are 64).
    counts_at_ = records * sizeof(log_record);
    lost_at_ = counts_at_ + settings_.teams * sizeof(uint32_t);
    unrecorded_at_ = lost_at_ + settings_.teams * sizeof(uint32_t);
    ticket_at_ = (unrecorded_at_ + sizeof(uint32_t) + 7) / 8 * 8;
    bytes_ = ticket_at_ + sizeof(uint64_t);
    void* p = nullptr;
    check(cudaMalloc(&p, bytes_), "allocating " + std::to_string(bytes_) + " bytes of device memory");
    memory_.reset(static_cast<char*>(p));
    base_ = memory_.get();
    view_.log.records = reinterpret_cast<log_record*>(base_);
    view_.log.counts = reinterpret_cast<uint32_t*>(base_ + counts_at_);
    view_.log.lost = reinterpret_cast<uint32_t*>(base_ + lost_at_);
    view_.log.ticket = reinterpret_cast<uint64_t*>(base_ + ticket_at_);
    view_.log.streams = settings_.teams;
    view_.log.capacity = settings_.ops_per_team;
    view_.log.clock = settings_.clock;
    view_.team = settings_.team;
    view_.tile_size = settings_.tile_size;
    view_.unrecorded = reinterpret_cast<uint32_t*>(base_ + unrecorded_at_);
    reset();
  }
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // For kernels, by value.
  const log_view& view() const { return view_; }
  const Settings& settings() const { return settings_; }

  // Empty again (counts, losses, the ticket), for the next run.
  void reset() { check(cudaMemset(base_ + counts_at_, 0, bytes_ - counts_at_), "clearing the recorder"); }

  // The buffers in host memory, after every kernel on the device has
  // finished (a kernel's error is reported here).
  std::unique_ptr<HostLog> to_host(uint64_t* unrecorded) const {
    check(cudaDeviceSynchronize(), "waiting for the recorded kernels");
    auto h = make_host_log(settings_);
    check(cudaMemcpy(h->records.data(), base_, counts_at_, cudaMemcpyDeviceToHost), "copying the records back");
    check(cudaMemcpy(h->counts.data(), base_ + counts_at_, settings_.teams * sizeof(uint32_t), cudaMemcpyDeviceToHost),
          "copying the counts back");
    check(cudaMemcpy(h->lost.data(), base_ + lost_at_, settings_.teams * sizeof(uint32_t), cudaMemcpyDeviceToHost),
          "copying the losses back");
    uint32_t n = 0;
    check(cudaMemcpy(&n, base_ + unrecorded_at_, sizeof n, cudaMemcpyDeviceToHost), "copying the unrecorded count back");
    *unrecorded = n;
    return h;
  }

  Summary summary() const {
    uint64_t unrecorded = 0;
    const auto h = to_host(&unrecorded);
    return summarize(*h, settings_, unrecorded);
  }
  // The history file (binary); an incomplete recording is written marked so.
  Summary write(const std::string& path) const {
    uint64_t unrecorded = 0;
    const auto h = to_host(&unrecorded);
    return write_history(*h, settings_, unrecorded, path);
  }

 private:
  static void check(cudaError_t e, const std::string& what) {
    if (e != cudaSuccess) throw std::runtime_error("recorder: " + what + ": " + cudaGetErrorString(e));
  }

  struct device_free {
    void operator()(char* p) const { cudaFree(p); }
  };
  Settings settings_;
  std::unique_ptr<char, device_free> memory_;
  char* base_ = nullptr;
  size_t counts_at_ = 0, lost_at_ = 0, unrecorded_at_ = 0, ticket_at_ = 0, bytes_ = 0;
  log_view view_;
};

}  // namespace warpcheck::record
