// cuCollections' static_map on the rows of stadium_gpu_bench that it can
// hold (4- or 8-byte keys and values): the same pairs (bench_keys.hpp), the
// same load factors, the same four phases (insert every pair, find every
// key, find half present and half absent, erase every key), the table in GPU
// memory or in pinned, mapped host memory (its allocator swapped), the
// median of three fresh tables. Every table is built with static_map's
// default Scope, cuda::thread_scope_device; each out-of-core (host) table is
// built a second time for cuda::thread_scope_system, the scope a user whose
// host may touch the table would pick (issue 32), and printed as its own row
// right after the device-scope one. In-core (device) tables are built for
// device scope only. The last column tells the rows apart: scope=device or
// scope=system. cuCollections is not part of this repository:
// bench/ext/build_cuco_bench.sh builds this file against a fetched copy.
// Usage: cuco_static_map_gpu_bench [--quick]; exits 77 without a GPU.
#include "bench/ext/cccl3_compat.hpp"  // before cuCollections
#include <cuco/static_map.cuh>
#include <thrust/count.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/tabulate.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "models/base/median.hpp"
#include "stress/gpu/device_buffer.cuh"  // check, timed_launch
#include "stress/stadium/bench_keys.hpp"

namespace {

using warpcheck::gpu::check;
using warpcheck::gpu::key_of_index;
using warpcheck::gpu::timed_launch;

// Pinned host memory mapped into the device's address space (unified
// addressing: the host pointer is the device pointer).
template <class T>
struct mapped_host_allocator {
  using value_type = T;
  mapped_host_allocator() = default;
  template <class U>
  mapped_host_allocator(const mapped_host_allocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    void* p = nullptr;
    check(cudaHostAlloc(&p, sizeof(T) * n, cudaHostAllocMapped), "cudaHostAlloc (mapped)");
    void* d = nullptr;
    check(cudaHostGetDevicePointer(&d, p, 0), "cudaHostGetDevicePointer");
    if (d != p) throw std::runtime_error("mapped host memory has another device address (no unified addressing)");
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t) noexcept { cudaFreeHost(p); }
  template <class U>
  bool operator==(const mapped_host_allocator<U>&) const noexcept { return true; }
  template <class U>
  bool operator!=(const mapped_host_allocator<U>&) const noexcept { return false; }
};

using warpcheck::detail::median;

double mops(uint64_t n, double ms) { return ms > 0 ? double(n) / ms / 1e3 : 0; }

template <class K, class V>
struct make_pair_op {
  __device__ cuco::pair<K, V> operator()(uint64_t i) const { return {K(key_of_index(i)), V(i + 1)}; }
};
template <class K>
struct key_op {
  uint64_t pairs;
  bool half_absent;
  __device__ K operator()(uint64_t i) const { return K(key_of_index(half_absent && (i & 1) ? pairs + i : i)); }
};
template <class V>
struct value_is_own {
  __device__ bool operator()(thrust::tuple<uint64_t, V> t) const { return thrust::get<1>(t) == V(thrust::get<0>(t) + 1); }
};

// The row's tag for a map built for Scope.
template <cuda::thread_scope Scope>
constexpr const char* scope_tag() {
  static_assert(Scope == cuda::thread_scope_device || Scope == cuda::thread_scope_system);
  return Scope == cuda::thread_scope_system ? "scope=system" : "scope=device";
}

template <class K, class V, class Alloc, cuda::thread_scope Scope>
void run(bool host, uint64_t pairs, double load, int repeats) {
  using map_type = cuco::static_map<K, V, cuco::extent<std::size_t>, Scope, thrust::equal_to<K>,
                                    cuco::linear_probing<4, cuco::default_hash_function<K>>, Alloc, cuco::storage<1>>;
  // Sentinels no benchmark key takes (the keys are 32-bit; the 4-byte
  // table reserves two of them: checked below).
  const K empty = K(~K(0)), erased = K(~K(0) - 1);
  thrust::device_vector<cuco::pair<K, V>> pairs_d(pairs);
  thrust::device_vector<K> keys(pairs), mixed(pairs);
  thrust::device_vector<V> found(pairs);
  thrust::tabulate(thrust::device, pairs_d.begin(), pairs_d.end(), make_pair_op<K, V>{});
  thrust::tabulate(thrust::device, keys.begin(), keys.end(), key_op<K>{pairs, false});
  thrust::tabulate(thrust::device, mixed.begin(), mixed.end(), key_op<K>{pairs, true});
  if (thrust::count(keys.begin(), keys.end(), empty) + thrust::count(keys.begin(), keys.end(), erased) +
          thrust::count(mixed.begin(), mixed.end(), empty) + thrust::count(mixed.begin(), mixed.end(), erased) != 0) {
    std::fprintf(stderr, "error: a benchmark key is a sentinel\n");
    std::exit(1);
  }
  std::vector<double> ms[4];
  std::size_t capacity = 0;
  bool ok = true;
  for (int rep = 0; rep < repeats; ++rep) {
    map_type map{std::size_t(std::ceil(double(pairs) / load)), cuco::empty_key<K>{empty}, cuco::empty_value<V>{V(0)},
                 cuco::erased_key<K>{erased}, thrust::equal_to<K>{}, {}, cuco::cuda_thread_scope<Scope>{}, {},
                 Alloc{}};
    capacity = map.capacity();
    check(cudaDeviceSynchronize(), "map construction");
    ms[0].push_back(timed_launch([&] { map.insert_async(pairs_d.begin(), pairs_d.end()); }));
    ms[1].push_back(timed_launch([&] { map.find_async(keys.begin(), keys.end(), found.begin()); }));
    if (rep == 0) {
      ok = ok && map.size() == pairs;
      const auto first = thrust::make_zip_iterator(thrust::counting_iterator<uint64_t>(0), found.begin());
      ok = ok && uint64_t(thrust::count_if(thrust::device, first, first + pairs, value_is_own<V>{})) == pairs;
    }
    ms[2].push_back(timed_launch([&] { map.find_async(mixed.begin(), mixed.end(), found.begin()); }));
    ms[3].push_back(timed_launch([&] { map.erase_async(keys.begin(), keys.end()); }));
    if (rep == 0) ok = ok && map.size() == 0;
  }
  std::printf(
      "| %s | %.2f | %zu | %zu | cuCollections static_map (linear probing, CG 4) | %zu | %.0f | %.0f | %.0f | %.0f | %s | %s |\n",
      host ? "host" : "device", load, sizeof(K), sizeof(V), capacity, mops(pairs, median(ms[0])),
      mops(pairs, median(ms[1])), mops(pairs, median(ms[2])), mops(pairs, median(ms[3])),
      ok ? "every key found with its value, emptied" : "WRONG: a key missing or a value not its own", scope_tag<Scope>());
  std::fflush(stdout);
  if (!ok) std::exit(1);
}

template <class K, class V>
void both_tables(uint64_t pairs, double load, int repeats) {
  using in_core = cuco::cuda_allocator<cuco::pair<K, V>>;
  using out_of_core = mapped_host_allocator<cuco::pair<K, V>>;
  run<K, V, in_core, cuda::thread_scope_device>(false, pairs, load, repeats);
  run<K, V, out_of_core, cuda::thread_scope_device>(true, pairs, load, repeats);
  run<K, V, out_of_core, cuda::thread_scope_system>(true, pairs, load, repeats);
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc == 2 && std::strcmp(argv[1], "--quick") == 0;
  if (argc > 2 || (argc == 2 && !quick)) {
    std::fprintf(stderr, "usage: cuco_static_map_gpu_bench [--quick]\n");
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no CUDA device: the cuCollections comparison needs one\n");
    return 77;
  }
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, 0);
  std::printf("device: %s; cuCollections static_map, the same pairs as stadium_gpu_bench\n\n", p.name);
  std::printf("| table | load | key B | value B | map | slots | insert M/s | find present M/s | find half absent M/s | "
              "erase M/s | check | scope |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  const uint64_t pairs = quick ? uint64_t(1) << 18 : uint64_t(1) << 25;
  const int repeats = quick ? 1 : 3;
  try {
    for (double load : quick ? std::vector<double>{0.8} : std::vector<double>{0.8, 0.85}) {
      both_tables<uint32_t, uint32_t>(pairs, load, repeats);
      both_tables<uint64_t, uint64_t>(pairs, load, repeats);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
