// BGHT's hash tables (owensgroup/BGHT), map int32_t -> int32_t, driven
// through their device API and recorded with the drop-in recorder. Built as
// several clients (bench/clients/clients.txt): WC_BGHT_TABLE 0 (default)
// bght::bcht, the bucketed cuckoo table; 1 bght::iht, the iceberg table;
// 2 bght::p2bht, the power-of-two table. All three with the library's
// default bucket of 16 slots, MurmurHash3_32, and device scope.
//
// How a kernel calls them (README.md:91-107, .ext/BGHT/examples/array_example.cu:10-31):
// the table object itself goes to the kernel by value (a shallow copy), a
// tile of tiled_partition<HashMap::bucket_size> calls
// insert(pair, tile) and find(key, tile), every thread with the same
// arguments; "A cooperative group tile with a size that must match the
// bucket size of the hash map (i.e., `bucket_size`)" (bcht.hpp:140). No
// erase in any of them.
//
// What the documentation says of concurrent operations (copy at commit
// 7584547):
//   README.md:142  "Currently hash tables based on cuckoo hashing do not
//                  support concurrent insertion and queries. IHT and P2BHT
//                  support concurrent insertions and queries."
//   README.md:143-144  "For hash tables that use a probing scheme other
//                  than IHT: * Keys must be unique."
//   README.md:145  "Construction of the data structures offered *may*
//                  fail. In these scenarios, reconstructing the table using
//                  a larger capacity or a lower load factor should be
//                  considered."
//   bcht.hpp:112, p2bht.hpp:111 (host insert)  "All keys in the range must
//                  be unique and must not exist in the hash table."
// So: bcht: inserts alongside inserts, and finds alongside finds, are
// allowed (the host insert is one such kernel); inserts alongside finds are
// forbidden (--shape phases is its contract); every key inserted at most
// once. p2bht: inserts and finds together allowed; keys at most once.
// iht: inserts and finds together allowed, and a key may be inserted again:
// "inserts a single pair into the hash map if the key does not exist"
// (iht.hpp:147-148); .ext/BGHT/examples/histogram.cu:52-93 inserts repeated keys from
// many tiles of one kernel.
//
// The results, as documented and as mapped here:
//   find: "The value of the key if it exists in the map or the
//     `sentinel_value` if the key does not exist" (bcht.hpp:161-162); the
//     sentinel value is -1 and the plan's values are >= 1.
//   iht insert: "the second element is a boolean indicating success (true)
//     or failure (false) of the insertion operation. If insertion succeeded
//     or the key exists, the first element in the pair contain a pointer to
//     the inserted or old key-value pair" (iht.hpp:155-158): its false is
//     the key present (iht_impl.cuh:203-207, :238-248; the only other
//     false, the sentinel key, is never asked), the map model's false.
//   bcht and p2bht insert: "A boolean indicating success (true) or failure
//     (false) of the insertion operation" (bcht.hpp:146-147), with no
//     check for a present key (they must not be asked one: kUniqueInserts,
//     so every insert of the run takes a new key). Their false is not the
//     map's "present": bcht's is a cuckoo chain that ran out (7 log2
//     capacity evictions, bcht_impl.cuh:71-74, :246-247), after which "we
//     might insert the key but we exchanged another key"
//     (bcht_impl.cuh:222-223): some other key, maybe one whose insert has
//     returned, is gone, and README.md:145 says rebuild the table. p2bht's
//     is both its buckets full (p2bht_impl.cuh:198-199), nothing written.
//     Neither fits the model, so neither is recorded: the team writes the
//     key to a host flag and traps; the kernel fails, the run exits 2 with
//     no history, and this driver says which key (stderr). Run with
//     --capacity well above the teams' operations.
//   iht has no failure: on a full table its insert probes for ever
//     (iht_impl.cuh:216-253).
#include <bght/bcht.hpp>
#include <bght/iht.hpp>
#include <bght/p2bht.hpp>

#include <type_traits>

#include "bench/clients/common/client_driver.cuh"

#ifndef WC_BGHT_TABLE
#define WC_BGHT_TABLE 0
#endif
static_assert(WC_BGHT_TABLE >= 0 && WC_BGHT_TABLE <= 2, "WC_BGHT_TABLE: 0 bcht, 1 iht, 2 p2bht");

namespace warpcheck::clients {

// The slots of an iht, read as .ext/BGHT/examples/histogram.cu:29-49 reads them.
template <class Map>
__global__ void bght_read_slots(Map map, typename Map::value_type* out, uint64_t n) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = (map.begin() + i)->load(cuda::memory_order_relaxed);
}

struct bght_table {
  using key_type = int32_t;
  using mapped_type = int32_t;
  using map_type = std::conditional_t<WC_BGHT_TABLE == 0, bght::bcht<key_type, mapped_type>,
                                      std::conditional_t<WC_BGHT_TABLE == 1, bght::iht<key_type, mapped_type>,
                                                         bght::p2bht<key_type, mapped_type>>>;
  static constexpr bool kIceberg = WC_BGHT_TABLE == 1;
  static constexpr const char* kName = WC_BGHT_TABLE == 0 ? "bght_bcht" : kIceberg ? "bght_iht" : "bght_p2bht";
  static constexpr const char* kLibrary = "BGHT";
  static constexpr const char* kModel = "map";
  static constexpr uint32_t kTile = map_type::bucket_size;
  static constexpr bool kErase = false;
  static constexpr bool kUniqueInserts = !kIceberg;  // README.md:143-144
  static constexpr key_type kEmptyKey = -1;
  static constexpr mapped_type kEmptyValue = -1;

  // Where a team leaves the key of an insert the library reported failed
  // before it traps: host memory the device writes (-1: none).
  struct failure_flag {
    int64_t* host = nullptr;
    int64_t* device = nullptr;
    failure_flag() {
      cuda_check(cudaHostAlloc(reinterpret_cast<void**>(&host), sizeof(int64_t), cudaHostAllocMapped),
                 "allocating the failure flag");
      *host = -1;
      cuda_check(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device), host, 0), "mapping the failure flag");
    }
    ~failure_flag() {
      if (*host >= 0)
        std::fprintf(stderr,
                     "%s: the insert of key %lld reported failure (%s); the library's contract says the table "
                     "must be rebuilt (README.md:145), and it is outside the map model: the run is void. "
                     "Try a larger --capacity.\n",
                     kName, static_cast<long long>(*host),
                     WC_BGHT_TABLE == 0 ? "its cuckoo chain ran out: another key may be gone" : "both buckets full");
      cudaFreeHost(host);
    }
  };

  struct table {
    failure_flag failed;  // first: it outlives the map's use
    std::unique_ptr<map_type> map;
    explicit table(uint64_t capacity) : map(std::make_unique<map_type>(capacity, kEmptyKey, kEmptyValue)) {}
    // After a kernel fault (a trap above, say) every CUDA call fails, and
    // BGHT's deleters then end the process (cuda_try: std::terminate):
    // leave the map to the process's exit instead, so the run exits 2.
    ~table() {
      if (cudaDeviceSynchronize() != cudaSuccess) (void)map.release();
    }
  };
  static std::unique_ptr<table> make(uint64_t capacity) {
    // BGHT's own CUDA checks terminate the process; ask for a device first.
    int devices = 0;
    cuda_check(cudaGetDeviceCount(&devices), "looking for a CUDA device");
    if (capacity > (uint64_t(1) << 31)) throw std::invalid_argument("--capacity over 2^31 slots");
    return std::make_unique<table>(capacity);
  }

  // The table by value, as the library passes it to its own kernels (a
  // shallow copy: the copy constructor runs on the host, at the launch).
  struct ref {
    map_type map;
    int64_t* failed;
  };
  static ref device_ref(table& t) { return ref{*t.map, t.failed.device}; }

  template <class G>
  __device__ static void give_up(ref& r, const G&, int64_t key) {
    *reinterpret_cast<volatile int64_t*>(r.failed) = key;
    __threadfence_system();
    __trap();
  }

  template <class G>
  __device__ static bool insert(ref& r, const G& g, int64_t key, int64_t value) {
    const typename map_type::value_type pair{key_type(key), mapped_type(value)};
    if constexpr (kIceberg) {
      return r.map.insert(pair, g).second;  // false: the key is present
    } else {
      if (!r.map.insert(pair, g)) give_up(r, g, key);
      return true;
    }
  }
  template <class G>
  __device__ static bool find(ref& r, const G& g, int64_t key, int64_t& value) {
    const mapped_type v = r.map.find(key_type(key), g);
    if (v == kEmptyValue) return false;
    value = v;
    return true;
  }
  template <class G>
  __device__ static bool erase(ref&, const G&, int64_t) {
    __trap();  // never called: kErase is false, so no plan erases
    return false;
  }

#if WC_BGHT_TABLE == 1
  // The table at rest: every slot, through the iht's begin() (iht.hpp:212-217).
  static std::vector<std::pair<int64_t, int64_t>> contents(table& t) {
    using slot = typename map_type::value_type;
    const uint64_t n = t.map->max_size();
    slot* d = nullptr;
    cuda_check(cudaMalloc(&d, n * sizeof(slot)), "allocating the slots' copy");
    std::vector<slot> h(n);
    bght_read_slots<<<static_cast<unsigned>((n + 255) / 256), 256>>>(*t.map, d, n);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaMemcpy(h.data(), d, n * sizeof(slot), cudaMemcpyDeviceToHost);
    cudaFree(d);
    cuda_check(e, "reading the slots");
    std::vector<std::pair<int64_t, int64_t>> all;
    for (const slot& s : h)
      if (s.first != kEmptyKey) all.emplace_back(s.first, s.second);
    return all;
  }
#endif
};

}  // namespace warpcheck::clients

int main(int argc, char** argv) { return warpcheck::clients::client_main<warpcheck::clients::bght_table>(argc, argv); }
