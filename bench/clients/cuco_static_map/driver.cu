// cuCollections' cuco::static_map (NVIDIA/cuCollections), driven through
// its device ref and recorded with the drop-in recorder. The library's
// contract (static_map.cuh, static_map_ref.cuh): "Concurrent modify and
// lookup will be supported if both kinds of operators are specified
// during the ref construction"; erase needs an erased-key sentinel. The
// ref here has insert, find and erase. Built as several clients
// (bench/clients/build.sh): WC_KEY_BITS 32 (a packable pair) or 64 (a
// 16-byte pair), WC_CG the probing's cooperative-group size (1, as the
// library's device_ref example, or 4, its default).
#include "bench/ext/cccl3_compat.hpp"  // before cuCollections (its 2024 snapshot predates CCCL 3)
#include <cuco/static_map.cuh>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/tabulate.h>
#include <thrust/device_vector.h>

#include "bench/clients/common/client_driver.cuh"

#ifndef WC_KEY_BITS
#define WC_KEY_BITS 32
#endif
#ifndef WC_CG
#define WC_CG 1
#endif

namespace warpcheck::clients {

struct cuco_static_map {
  using key_type = std::conditional_t<WC_KEY_BITS == 32, int32_t, int64_t>;
  using value_type = key_type;
  static constexpr const char* kName = WC_KEY_BITS == 32 ? (WC_CG == 1 ? "cuco_static_map" : "cuco_static_map_cg4")
                                                         : (WC_CG == 1 ? "cuco_static_map_wide" : "cuco_static_map_wide_cg4");
  static constexpr const char* kLibrary = "cuCollections";
  static constexpr const char* kModel = "map";
  static constexpr uint32_t kTile = WC_CG;
  static constexpr bool kErase = true;
  static constexpr key_type kEmpty = -1, kErased = -2;

  using map_type = cuco::static_map<key_type, value_type, cuco::extent<std::size_t>, cuda::thread_scope_device,
                                    thrust::equal_to<key_type>,
                                    cuco::linear_probing<WC_CG, cuco::default_hash_function<key_type>>>;
  struct table {
    map_type map;
    explicit table(uint64_t capacity)
        : map(capacity, cuco::empty_key{kEmpty}, cuco::empty_value{value_type(-1)}, cuco::erased_key{kErased}) {}
  };
  static std::unique_ptr<table> make(uint64_t capacity) { return std::make_unique<table>(capacity); }

  using ref = decltype(std::declval<map_type&>().ref(cuco::insert, cuco::find, cuco::erase));
  static ref device_ref(table& t) { return t.map.ref(cuco::insert, cuco::find, cuco::erase); }

  template <class G>
  __device__ static bool insert(ref r, const G& g, int64_t key, int64_t value) {
    const cuco::pair<key_type, value_type> p{key_type(key), value_type(value)};
    if constexpr (WC_CG == 1) return r.insert(p);
    else return r.insert(g, p);
  }
  template <class G>
  __device__ static bool find(ref r, const G& g, int64_t key, int64_t& value) {
    auto it = [&] {
      if constexpr (WC_CG == 1) return r.find(key_type(key));
      else return r.find(g, key_type(key));
    }();
    if (it == r.end()) return false;
    value = it->second;
    return true;
  }
  template <class G>
  __device__ static bool erase(ref r, const G& g, int64_t key) {
    if constexpr (WC_CG == 1) return r.erase(key_type(key));
    else return r.erase(g, key_type(key));
  }

  static std::vector<std::pair<int64_t, int64_t>> contents(table& t) {
    thrust::device_vector<key_type> keys(t.map.capacity());
    thrust::device_vector<value_type> values(t.map.capacity());
    const auto ends = t.map.retrieve_all(keys.begin(), values.begin());
    const size_t n = ends.first - keys.begin();
    std::vector<key_type> k(n);
    std::vector<value_type> v(n);
    thrust::copy(keys.begin(), keys.begin() + n, k.begin());
    thrust::copy(values.begin(), values.begin() + n, v.begin());
    std::vector<std::pair<int64_t, int64_t>> out(n);
    for (size_t i = 0; i < n; ++i) out[i] = {k[i], v[i]};
    return out;
  }

  // The host bulk calls: insert_and_find (each element's inserted flag),
  // then find (each element's value, or the empty sentinel), on keys the
  // plan draws; every call's elements concurrent, the calls in order.
  static void bulk(table& t, const record::log_view& log, const client_options& o) {
    const uint64_t n = o.bulk_size;
    const op_plan p = o.plan;
    thrust::device_vector<cuco::pair<key_type, value_type>> pairs(n);
    thrust::device_vector<key_type> queries(n);
    thrust::device_vector<value_type> found(n);
    thrust::device_vector<bool> inserted(n);
    thrust::device_vector<record::op_handle> handles(n);
    auto* pr = thrust::raw_pointer_cast(pairs.data());
    auto* qr = thrust::raw_pointer_cast(queries.data());
    auto* fr = thrust::raw_pointer_cast(found.data());
    auto* ir = thrust::raw_pointer_cast(inserted.data());
    auto* hr = thrust::raw_pointer_cast(handles.data());
    static_assert(2 * 4 <= kBulkRecordsPerElement, "4 rounds of two calls");
    for (uint32_t round = 0; round < 4; ++round) {  // insert_and_find, then find
      thrust::tabulate(pairs.begin(), pairs.end(), [=] __device__(uint64_t i) {
        const planned_op op = plan_op(p, i + (uint64_t(round) << 40), 0, false);
        return cuco::pair<key_type, value_type>{key_type(op.key), value_type(uint64_t(round) * n + i + 1)};
      });
      thrust::tabulate(queries.begin(), queries.end(), [=] __device__(uint64_t i) {
        return key_type(detail::mix64(p.seed ^ (i + (uint64_t(round) << 40) + 7)) % (2 * p.keys));
      });
      record::begin_bulk(log, n, hr, [=] __device__(uint64_t i) {
        return record::bulk_op{OpKind::Insert, pr[i].first, pr[i].second};
      });
      t.map.insert_and_find(pairs.begin(), pairs.end(), thrust::make_discard_iterator(), inserted.begin());
      record::end_bulk(log, n, hr, [=] __device__(uint64_t i) { return record::bulk_result{ResultKind::Bool, ir[i]}; });
      record::begin_bulk(log, n, hr, [=] __device__(uint64_t i) { return record::bulk_op{OpKind::Find, qr[i]}; });
      t.map.find(queries.begin(), queries.end(), found.begin());
      record::end_bulk(log, n, hr, [=] __device__(uint64_t i) {
        return fr[i] == value_type(-1) ? record::bulk_result{ResultKind::Absent, 0}
                                       : record::bulk_result{ResultKind::Value, fr[i]};
      });
    }
    cuda_check(cudaDeviceSynchronize(), "the bulk calls");
  }
};

}  // namespace warpcheck::clients

int main(int argc, char** argv) { return warpcheck::clients::client_main<warpcheck::clients::cuco_static_map>(argc, argv); }
