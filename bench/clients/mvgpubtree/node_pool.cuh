// MVGpuBTree's tree nodes from a pool of ours (its Allocator), with the
// library's customization point for it: the client corpus's driver
// (driver.cu) and the B-Tree benchmark (bench/ext/btree_bench.cu) both
// instantiate gpu_blink_tree with it. Why not the library's own
// device_bump_allocator: its device context is built from the tree's
// private allocator_ (btree_kernels.hpp:526-534), which a kernel of ours
// cannot reach, and it checks no overflow (cuda_assert is empty,
// macros.hpp:38-41). This pool bump-allocates the same way (an elected
// lane's atomicAdd, shuffled to the tile) and traps, with a flag the host
// reads, rather than write past its end.
#pragma once
#include <gpu_btree.h>  // first: it enables the cooperative groups ABI the library wants

#include <cstdint>
#include <memory>

#include "stress/gpu/cuda_check.cuh"

namespace warpcheck::clients {

// A pool of tree nodes, bump-allocated by tiles: the tree's Allocator.
template <class T>
struct wc_node_pool {
  using value_type = T;
  using pointer_type = uint32_t;
  using size_type = uint32_t;

  // Nodes the next pool holds: the tree default-constructs its allocator
  // (gpu_blink_tree.hpp:79), so its user sets this before making a tree.
  static inline uint32_t next_capacity = 1u << 16;
  // The last pool's flag, for the host: the tree's own pool is private.
  // Shared, so that it outlives the pool (an error after the tree is gone
  // still reads it).
  static inline std::shared_ptr<const uint32_t> last_ran_out;

  T* nodes = nullptr;
  uint32_t* count = nullptr;
  uint32_t capacity = 0;
  uint32_t* ran_out = nullptr;       // host memory the device writes: 1 once the pool ran out
  uint32_t* ran_out_host = nullptr;
  std::shared_ptr<T> own_nodes;
  std::shared_ptr<uint32_t> own_count, own_ran_out;

  wc_node_pool() : capacity(next_capacity) {
    warpcheck::gpu::check(cudaMalloc(&nodes, uint64_t(capacity) * sizeof(T)), "allocating the tree's nodes");
    own_nodes.reset(nodes, [](T* p) { cudaFree(p); });
    warpcheck::gpu::check(cudaMalloc(&count, sizeof(uint32_t)), "allocating the node count");
    own_count.reset(count, [](uint32_t* p) { cudaFree(p); });
    warpcheck::gpu::check(cudaMemset(count, 0, sizeof(uint32_t)), "clearing the node count");
    warpcheck::gpu::check(cudaHostAlloc(reinterpret_cast<void**>(&ran_out_host), sizeof(uint32_t), cudaHostAllocMapped),
               "allocating the pool's flag");
    own_ran_out.reset(ran_out_host, [](uint32_t* p) { cudaFreeHost(p); });
    *ran_out_host = 0;
    last_ran_out = own_ran_out;
    warpcheck::gpu::check(cudaHostGetDevicePointer(reinterpret_cast<void**>(&ran_out), ran_out_host, 0), "mapping the pool's flag");
  }

  // Out of nodes: the run is void. The team says so where the host reads
  // it after the fault, and traps rather than write past the pool.
  template <class tile_type>
  __device__ uint32_t allocate(std::size_t n, const tile_type& tile) {
    uint32_t at = 0;
    if (tile.thread_rank() == 0) at = atomicAdd(count, static_cast<uint32_t>(n));
    at = tile.shfl(at, 0);
    if (uint64_t(at) + n > capacity) {
      *reinterpret_cast<volatile uint32_t*>(ran_out) = 1;
      __threadfence_system();
      __trap();
    }
    return at;
  }
  __device__ void deallocate(uint32_t, std::size_t) {}
  __host__ __device__ T* address(uint32_t p) const { return nodes + p; }
  uint32_t get_allocated_count() const {
    uint32_t n = 0;
    warpcheck::gpu::check(cudaMemcpy(&n, count, sizeof n, cudaMemcpyDeviceToHost), "reading the node count");
    return n;
  }
  void copy_buffer(T* out, std::size_t bytes) const {
    warpcheck::gpu::check(cudaMemcpy(out, nodes, bytes, cudaMemcpyDeviceToHost), "copying the nodes");
  }
  __host__ __device__ T* get_raw_buffer() { return nodes; }
  __device__ void set_allocated_count(uint32_t n) { *count = n; }
};

}  // namespace warpcheck::clients

// The library's customization point (gpu_btree.h:17-18), for the pool: the
// context holds nothing; the tree passes its own allocator to every call.
template <class T>
struct device_allocator_context<warpcheck::clients::wc_node_pool<T>> {
  using allocator_type = warpcheck::clients::wc_node_pool<T>;
  using value_type = T;
  using pointer = uint32_t;
  using size_type = uint32_t;

  __host__ __device__ device_allocator_context() {}
  template <class tile_type>
  __host__ __device__ device_allocator_context(allocator_type&, const tile_type&) {}

  template <class tile_type>
  __device__ pointer allocate(allocator_type& a, size_type n, const tile_type& tile) {
    return a.allocate(n, tile);
  }
  __device__ void deallocate(allocator_type& a, pointer p, size_type n) { a.deallocate(p, n); }
  __host__ __device__ bool is_allocated(pointer) { return true; }
  __host__ __device__ value_type* address(allocator_type& a, pointer p) const { return a.address(p); }
};
