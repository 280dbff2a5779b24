// cuCollections' cuco::static_set (NVIDIA/cuCollections), driven through
// its device ref and recorded with the drop-in recorder. Contract
// (static_set.cuh:58-62, static_set_ref.cuh:37): "Concurrent modify and
// lookup will be supported if both kinds of operators are specified
// during the ref construction"; erase needs an erased-key sentinel. The
// ref here has insert, contains and erase. WC_CG: the probing's
// cooperative-group size (1, or 4: the library's default).
#include "bench/ext/cccl3_compat.hpp"  // before cuCollections (its 2024 snapshot predates CCCL 3)
#include <cuco/static_set.cuh>
#include <thrust/device_vector.h>

#include "bench/clients/common/client_driver.cuh"

#ifndef WC_CG
#define WC_CG 1
#endif

namespace warpcheck::clients {

struct cuco_static_set {
  using key_type = int32_t;
  static constexpr const char* kName = WC_CG == 1 ? "cuco_static_set" : "cuco_static_set_cg4";
  static constexpr const char* kLibrary = "cuCollections";
  static constexpr const char* kModel = "set";
  static constexpr uint32_t kTile = WC_CG;
  static constexpr bool kErase = true;

  using set_type = cuco::static_set<key_type, cuco::extent<std::size_t>, cuda::thread_scope_device,
                                    thrust::equal_to<key_type>,
                                    cuco::linear_probing<WC_CG, cuco::default_hash_function<key_type>>>;
  struct table {
    set_type set;
    explicit table(uint64_t capacity) : set(capacity, cuco::empty_key{key_type(-1)}, cuco::erased_key{key_type(-2)}) {}
  };
  static std::unique_ptr<table> make(uint64_t capacity) { return std::make_unique<table>(capacity); }

  using ref = decltype(std::declval<set_type&>().ref(cuco::insert, cuco::contains, cuco::erase));
  static ref device_ref(table& t) { return t.set.ref(cuco::insert, cuco::contains, cuco::erase); }

  static std::vector<std::pair<int64_t, int64_t>> contents(table& t) {
    thrust::device_vector<key_type> keys(t.set.capacity());
    const size_t n = t.set.retrieve_all(keys.begin()) - keys.begin();
    std::vector<key_type> k(n);
    thrust::copy(keys.begin(), keys.begin() + n, k.begin());
    std::vector<std::pair<int64_t, int64_t>> out(n);
    for (size_t i = 0; i < n; ++i) out[i] = {k[i], 0};
    return out;
  }

  template <class G>
  __device__ static bool insert(ref r, const G& g, int64_t key, int64_t) {
    if constexpr (WC_CG == 1) return r.insert(key_type(key));
    else return r.insert(g, key_type(key));
  }
  template <class G>
  __device__ static bool contains(ref r, const G& g, int64_t key) {
    if constexpr (WC_CG == 1) return r.contains(key_type(key));
    else return r.contains(g, key_type(key));
  }
  template <class G>
  __device__ static bool erase(ref r, const G& g, int64_t key) {
    if constexpr (WC_CG == 1) return r.erase(key_type(key));
    else return r.erase(g, key_type(key));
  }
};

}  // namespace warpcheck::clients

int main(int argc, char** argv) { return warpcheck::clients::client_main<warpcheck::clients::cuco_static_set>(argc, argv); }
