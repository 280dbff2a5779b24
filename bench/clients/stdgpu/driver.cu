// stdgpu's stdgpu::unordered_map<int32_t, int32_t> and
// stdgpu::unordered_set<int32_t> (stotko/stdgpu; WC_STDGPU_SET 1 builds the
// set), driven through their native device API, one operation a thread,
// and recorded with the drop-in recorder. Built against a fetched copy with
// bench/clients/stdgpu_build.sh (config.h and the library's compiled
// sources); created with createDeviceObject(capacity), destroyed with
// destroyDeviceObject; the object itself is what a kernel takes, by value
// (as in README.md:116-120 and .ext/stdgpu/examples/cuda/unordered_map.cu:54).
//
// The calls, as documented (src/stdgpu/unordered_map.cuh):
//   insert: "An iterator to the inserted pair and true if the insertion
//     was successful, end() and false otherwise" (:340); the driver's
//     insert is its .second.
//   find: "An iterator to the position of the requested key if it was
//     found, end() otherwise" (:286); the driver reads ->second at once.
//   the set's contains: "True if the requested key was found, false
//     otherwise" (src/stdgpu/unordered_set.cuh:311); its insert and erase
//     are documented as the map's (:329, :369).
//   erase: "1 if there was a value with key and it got erased, 0
//     otherwise" (:380).
//
// What stdgpu's documentation says about concurrent device operations
// (headers, README.md, docs/, examples/ of the copy at commit 22599cf):
// nothing. No page or comment says which of insert, erase and find may run
// in one kernel on one container, or forbids any mix; there is no phase
// rule. What comes closest:
//   unordered_map.cuh:62  "No guaranteed valid state when reaching capacity limit"
//   unordered_map.cuh:65  "Iterators may point at non-occupied and non-valid hash entry"
//   (unordered_set.cuh:53 and :56 say the same of the set)
//   README.md:144-146     a kernel calls contains() on one map and insert()
//                         on another container (a set), never both on one
//   .ext/stdgpu/examples/cuda/unordered_map.cu:66  a kernel of emplace() only
// The implementation (not its user documentation) is written for
// concurrency: impl/unordered_base.cuh:44 "failed_collision /**< Operation
// failed because of a conflict with another thread */", :538 "The locks
// used to insert and erase entries"; impl/unordered_base_detail.cuh:784-785
// "Connect new linked list end ... as try_erase is not resetting offsets"
// and :888-889 "Do not reset the offset of the erased linked list entry as
// another thread executing find() might still need it". Its tests
// (.ext/stdgpu/tests/stdgpu/unordered_datastructure.inc:2083-2118) run insert then
// erase of distinct keys in one kernel, never a find beside them.
//
// Limits here: keys and values are 32-bit (the plan's values fit while
// blocks*threads*ops stays below 2^31); insert also returns false, with the
// key absent, once the table is full or its excess list is empty
// (impl/unordered_base_detail.cuh:980-981), so run it with capacity well
// above --keys. No bulk shape: the range insert/erase return no
// per-element result.
#include <stdgpu/unordered_map.cuh>
#include <stdgpu/unordered_set.cuh>

#include <type_traits>

#include "bench/clients/common/client_driver.cuh"

#ifndef WC_STDGPU_SET
#define WC_STDGPU_SET 0
#endif

namespace warpcheck::clients {

struct stdgpu_table {
  using key_type = int32_t;
  using mapped_type = int32_t;
  static constexpr bool kSet = WC_STDGPU_SET != 0;
  using container = std::conditional_t<kSet, stdgpu::unordered_set<key_type>, stdgpu::unordered_map<key_type, mapped_type>>;
  static constexpr const char* kName = kSet ? "stdgpu_unordered_set" : "stdgpu_unordered_map";
  static constexpr const char* kLibrary = "stdgpu";
  static constexpr const char* kModel = kSet ? "set" : "map";
  static constexpr uint32_t kTile = 1;
  static constexpr bool kErase = true;

  struct table {
    container c;
    explicit table(uint64_t capacity) : c(container::createDeviceObject(static_cast<stdgpu::index_t>(capacity))) {}
    ~table() { container::destroyDeviceObject(c); }
    table(const table&) = delete;
    table& operator=(const table&) = delete;
  };
  static std::unique_ptr<table> make(uint64_t capacity) {
    // index_t is 32-bit (STDGPU_USE_32_BIT_INDEX): bucket_count (capacity
    // rounded up to a power of two) plus the excess list must fit.
    if (capacity > (uint64_t(1) << 30)) throw std::invalid_argument("stdgpu: --capacity at most 2^30 (32-bit index_t)");
    // stdgpu std::terminate()s on a CUDA error (cuda/impl/error.h); ask
    // CUDA first, so that no device is a clean error.
    cuda_check(cudaFree(nullptr), "starting CUDA");
    return std::make_unique<table>(capacity);
  }

  using ref = container;  // the device object: a handle to device memory, copied into kernels
  static ref device_ref(table& t) { return t.c; }

  // The container's type a template parameter (C = ref), so that the map's
  // calls are not compiled for the set, nor the set's for the map.
  template <class G, class C>
  __device__ static bool insert(C c, const G&, int64_t key, int64_t value) {
    if constexpr (kSet) return c.insert(key_type(key)).second;
    else return c.insert(typename C::value_type(key_type(key), mapped_type(value))).second;
  }
  template <class G, class C>
  __device__ static bool find(C c, const G&, int64_t key, int64_t& value) {
    const auto it = c.find(key_type(key));
    if (it == c.end()) return false;
    value = it->second;
    return true;
  }
  template <class G, class C>
  __device__ static bool contains(C c, const G&, int64_t key) {
    return c.contains(key_type(key));
  }
  template <class G, class C>
  __device__ static bool erase(C c, const G&, int64_t key) {
    return c.erase(key_type(key)) == 1;
  }
};

}  // namespace warpcheck::clients

int main(int argc, char** argv) { return warpcheck::clients::client_main<warpcheck::clients::stdgpu_table>(argc, argv); }
