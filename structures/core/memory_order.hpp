// Orders and scopes of accesses to shared words, with CUDA's (PTX) meaning.
// The structures name them, every access both; each back-end maps them: PTX
// ld/st/atom qualifiers on the GPU, std::atomic_ref orders in the
// real-threads mode, and in the simulator nothing in its sequentially
// consistent mode, what a load may see in its relaxed mode
// (sim/relaxed_memory.hpp).
#pragma once
#include <cstdint>

namespace warpcheck::core {

enum class order : uint8_t {
  weak,     // plain, non-atomic access: only for words no other team touches concurrently
  relaxed,
  acquire,  // loads and read-modify-writes
  release,  // stores, read-modify-writes and fences
  acq_rel,
  seq_cst,
};

// cta: the teams of one thread block; gpu: the device; system: the host too.
enum class scope : uint8_t { cta, gpu, system };

// What a team is doing at a scheduling point (simulator reports, shadow checks).
enum class access : uint8_t { load, store, rmw, fence, collective, spin, exit };

}  // namespace warpcheck::core
