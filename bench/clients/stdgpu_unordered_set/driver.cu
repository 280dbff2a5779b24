// stdgpu's stdgpu::unordered_set<int32_t> (stotko/stdgpu), driven through
// its native device API, one operation a thread, and recorded with the
// drop-in recorder. Built against a fetched copy with
// bench/clients/stdgpu_build.sh (config.h and the library's compiled
// sources); created with createDeviceObject(capacity), destroyed with
// destroyDeviceObject; the object itself is what a kernel takes, by value
// (as in README.md:116-120 and .ext/stdgpu/examples/cuda/unordered_set.cu:36).
//
// The calls, as documented (src/stdgpu/unordered_set.cuh):
//   insert: "An iterator to the inserted pair and true if the insertion
//     was successful, end() and false otherwise" (:329); the driver's
//     insert is its .second.
//   contains: "True if the requested key was found, false otherwise" (:311).
//   erase: "1 if there was a value with key and it got erased, 0
//     otherwise" (:369).
//
// What stdgpu's documentation says about concurrent device operations
// (headers, README.md, docs/, examples/ of the copy at commit 22599cf):
// nothing. No page or comment says which of insert, erase and contains
// may run in one kernel on one container, or forbids any mix; there is no
// phase rule. What comes closest:
//   unordered_set.cuh:53  "No guaranteed valid state when reaching capacity limit"
//   unordered_set.cuh:56  "Iterators may point at non-occupied and non-valid hash entry"
//   README.md:144-146     a kernel calls contains() on one map and insert()
//                         on another container (a set), never both on one
//   .ext/stdgpu/examples/cuda/unordered_set.cu:48  a kernel of insert() only
// The implementation (not its user documentation) is written for
// concurrency: impl/unordered_base.cuh:44 "failed_collision /**< Operation
// failed because of a conflict with another thread */", :538 "The locks
// used to insert and erase entries"; impl/unordered_base_detail.cuh:784-785
// "Connect new linked list end ... as try_erase is not resetting offsets"
// and :888-889 "Do not reset the offset of the erased linked list entry as
// another thread executing find() might still need it". Its tests
// (.ext/stdgpu/tests/stdgpu/unordered_datastructure.inc:2083-2118) run insert then
// erase of distinct keys in one kernel, never a lookup beside them.
//
// Limits here: keys are 32-bit; insert also returns false, with the key
// absent, once the table is full or its excess list is empty
// (impl/unordered_base_detail.cuh:980-981), so run it with capacity well
// above --keys. No bulk shape: the range insert/erase return no
// per-element result.
#include <stdgpu/unordered_set.cuh>

#include "bench/clients/common/client_driver.cuh"

namespace warpcheck::clients {

struct stdgpu_unordered_set {
  using key_type = int32_t;
  using set_type = stdgpu::unordered_set<key_type>;
  static constexpr const char* kName = "stdgpu_unordered_set";
  static constexpr const char* kLibrary = "stdgpu";
  static constexpr const char* kModel = "set";
  static constexpr uint32_t kTile = 1;
  static constexpr bool kErase = true;

  struct table {
    set_type set;
    explicit table(uint64_t capacity) : set(set_type::createDeviceObject(static_cast<stdgpu::index_t>(capacity))) {}
    ~table() { set_type::destroyDeviceObject(set); }
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

  using ref = set_type;  // the device object: a handle to device memory, copied into kernels
  static ref device_ref(table& t) { return t.set; }

  template <class G>
  __device__ static bool insert(ref s, const G&, int64_t key, int64_t) {
    return s.insert(key_type(key)).second;
  }
  template <class G>
  __device__ static bool contains(ref s, const G&, int64_t key) {
    return s.contains(key_type(key));
  }
  template <class G>
  __device__ static bool erase(ref s, const G&, int64_t key) {
    return s.erase(key_type(key)) == 1;
  }
};

}  // namespace warpcheck::clients

int main(int argc, char** argv) {
  return warpcheck::clients::client_main<warpcheck::clients::stdgpu_unordered_set>(argc, argv);
}
