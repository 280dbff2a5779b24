// MVGpuBTree's B-link tree, GpuBTree::gpu_blink_tree<uint32_t, uint32_t,
// 16> (owensgroup/MVGpuBTree, include/gpu_blink_tree.hpp: "reference B-Tree
// that doesn't support snapshots", README.md:26), driven through its device
// API and recorded with the drop-in recorder.
//
// How a kernel calls it (the library's own kernels, btree_kernels.hpp:
// 671-760, 762-875, 877-913): the tree object goes to the kernel by value (a
// shallow copy), a tile of tiled_partition<branching_factor> (16) calls
// cooperative_insert(key, value, tile, allocator),
// cooperative_find(key, tile, allocator, concurrent) and
// cooperative_erase(key, tile, allocator, concurrent), every thread with the
// same arguments; `allocator` is a device_allocator_context of the tree's
// allocator type (gpu_btree.h:17-18, the customization point).
//
// What the documentation says of concurrent operations (copy at commit
// f755006):
//   README.md:15  "A fully concurrent GPU B-Tree that supports versioning
//                 (snapshots) and linearizable multipoint queries. Using our
//                 data structure and the tools we provide, you can launch
//                 one (or more) kernels where inside each kernel, you
//                 concurrently perform queries (e.g., point or range
//                 queries) and mutations (e.g., insert or update)."
//                 (of the multiversion tree; this one is its "reference
//                 B-Tree", README.md:26)
//   apis.md:21-22, :31  (the multiversion tree's find and erase; the blink
//                 tree's take the same flag, gpu_blink_tree.hpp:227-245,
//                 :277-281, :357-361) "Set the concurrent flag to true if
//                 concurrent updates are running"
//   apis.md:46    "Performs concurrent find and erase"; apis.md:51
//                 "Performs concurrent insertions and range queries": the
//                 blink tree ships both, concurrent_find_erase and
//                 concurrent_insert_range (gpu_blink_tree.hpp:148-216).
// So: inserts with inserts (its insert kernel), erases with erases (its
// erase kernel), finds with erases (concurrent_find_erase), inserts with
// range queries (concurrent_insert_range) are the library's own mixes;
// finds with inserts are covered by the concurrent flag and README.md:15;
// inserts with erases in one kernel are nowhere said or shipped. Nothing
// says the blink tree's point operations are linearizable; README.md:15's
// "linearizable" is the multiversion tree's multipoint queries. This driver
// passes concurrent = true to every find and erase (what the library's
// concurrent kernels pass), whatever the shape.
//
// The calls, and how they are mapped:
//   insert overwrites: "if the key exists, we update the value"
//     (node.hpp:262-265), and cooperative_insert returns true whatever
//     happened (gpu_blink_tree.hpp:721-725): it is an upsert, recorded as
//     one (kUpsert: the plan's inserts are OpKind::Upsert, no result).
//   find returns the value, or invalid_value (UINT32_MAX) when the key is
//     absent (gpu_blink_tree.hpp:74-75, node.hpp:235-239).
//   erase returns whether the leaf held the key (gpu_blink_tree.hpp:381-384,
//     node.hpp:285-306).
//   "Keys and values must have a type of unsigned 32-bit" (README.md:76);
//   key 0 is the tree's own minimum, a pair {0, 0} in the first leaf
//   (gpu_blink_tree.hpp:99, :1157-1158), and UINT32_MAX is invalid_key: the
//   plan's key k is the tree's key k + 1. Values are the plan's (>= 1, below
//   2^32 - 1 while blocks * threads / 16 * ops stays below 2^32 - 2).
//
// The allocator: the library's default, device_bump_allocator, holds 2^26
// nodes (8 GiB; device_bump_allocator.hpp:20-21), checks no overflow
// (cuda_assert is empty, macros.hpp:38-41), and its device context is built
// from the tree's private allocator_ (btree_kernels.hpp:526-534), which a
// kernel of ours cannot reach. So the tree is instantiated with an
// allocator of ours, the same bump allocation (an elected lane's atomicAdd,
// shuffled to the tile), sized by --capacity (nodes of 16 pairs, 128 bytes
// each; default 65536 = 8 MiB), that traps when it runs out (the kernel
// fails and the run exits 2) rather than write past its pool, and its
// device_allocator_context specialization, which needs nothing but a tile.
// Nodes are never freed by the blink tree (erase leaves a leaf in place).
//
// At rest, the driver reads the tree back with the library's own range
// query (host range_query over [1, UINT32_MAX)), for the duplicate-key scan.
//
// Read in the code, not run (what a history may show):
//   cooperative_erase locks a node it read as a leaf and erases in it
//   without asking again whether it is one (gpu_blink_tree.hpp:373-384);
//   the root alone turns from leaf to inner node, in place, under that
//   lock (node.hpp:171, gpu_blink_tree.hpp:684-703). An erase that waited
//   on the root's lock through its first split answers false for a present
//   key, or, asked the right child's first key, drops that router and
//   answers true with the key still in the tree; inserts into that child
//   once it is full then restart from the root for ever (:585-591).
//   Nodes are written and read a lane at a time (node.hpp:46-54, relaxed
//   64-bit accesses, no reader fence): a find beside an insert or erase
//   that shifts a leaf may read it half old, half new.
#include "bench/clients/mvgpubtree/node_pool.cuh"  // first: gpu_btree.h enables the cooperative groups ABI the library wants

#include <memory>
#include <stdexcept>
#include <string>

#include "bench/clients/common/client_driver.cuh"

namespace warpcheck::clients {

struct mvgpubtree_blink {
  static constexpr int kBranching = 16;
  using key_type = uint32_t;
  using value_type = uint32_t;
  using pool_type = wc_node_pool<GpuBTree::node_type<key_type, value_type, kBranching>>;
  using tree_type = GpuBTree::gpu_blink_tree<key_type, value_type, kBranching, pool_type>;
  using context_type = typename tree_type::device_allocator_context_type;

  static constexpr const char* kName = "mvgpubtree_blink";
  static constexpr const char* kLibrary = "MVGpuBTree";
  static constexpr const char* kModel = "map";
  static constexpr uint32_t kTile = tree_type::branching_factor;
  static constexpr bool kErase = true;
  static constexpr bool kUpsert = true;  // node.hpp:262-265

  struct table {
    std::unique_ptr<tree_type> tree;
    // After a kernel fault (the pool's trap, say) every CUDA call fails,
    // and the library's deleters then end the process (cuda_try:
    // std::terminate): leave the tree to the process's exit instead, so
    // the run exits 2.
    ~table() {
      if (!tree || cudaDeviceSynchronize() == cudaSuccess) return;
      if (pool_type::last_ran_out && *pool_type::last_ran_out)
        std::fprintf(stderr, "%s: the tree ran out of its %u nodes: the run is void (try a larger --capacity)\n",
                     kName, pool_type::next_capacity);
      (void)tree.release();
    }
  };
  static std::unique_ptr<table> make(uint64_t capacity) {
    // The library's CUDA checks terminate the process; ask for a device first.
    int devices = 0;
    cuda_check(cudaGetDeviceCount(&devices), "looking for a CUDA device");
    // Child indices share a word with two flag bits (node.hpp:493-500).
    if (capacity < 2 || capacity > (uint64_t(1) << 30)) throw std::invalid_argument("--capacity: 2 to 2^30 nodes");
    pool_type::next_capacity = static_cast<uint32_t>(capacity);
    auto t = std::make_unique<table>();
    t->tree = std::make_unique<tree_type>();  // builds the root leaf (gpu_blink_tree.hpp:1170-1182)
    return t;
  }

  // The tree by value, as the library passes it to its own kernels.
  using ref = tree_type;
  static ref device_ref(table& t) { return *t.tree; }

  static __device__ key_type tree_key(int64_t key) { return static_cast<key_type>(key + 1); }

  template <class G>
  __device__ static void upsert(ref& r, const G& g, int64_t key, int64_t value) {
    context_type allocator;
    r.cooperative_insert(tree_key(key), static_cast<value_type>(value), g, allocator);
  }
  template <class G>
  __device__ static bool find(ref& r, const G& g, int64_t key, int64_t& value) {
    context_type allocator;
    const value_type v = r.cooperative_find(tree_key(key), g, allocator, true);
    if (v == tree_type::invalid_value) return false;
    value = v;
    return true;
  }
  template <class G>
  __device__ static bool erase(ref& r, const G& g, int64_t key) {
    context_type allocator;
    return r.cooperative_erase(tree_key(key), g, allocator, true);
  }

  // The tree at rest, through its host range query over every key.
  static std::vector<std::pair<int64_t, int64_t>> contents(table& t) {
    using pair_type = typename tree_type::pair_type;
    using size_type = typename tree_type::size_type;
    key_type* bounds = nullptr;
    size_type* count = nullptr;
    pair_type* pairs = nullptr;
    const key_type h_bounds[2] = {1, tree_type::invalid_key};
    size_type n = 0;
    cudaError_t e = cudaMalloc(&bounds, sizeof h_bounds);
    if (e == cudaSuccess) e = cudaMalloc(&count, sizeof(size_type));
    if (e == cudaSuccess) e = cudaMemcpy(bounds, h_bounds, sizeof h_bounds, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) {
      t.tree->range_query(bounds, bounds + 1, nullptr, count, 0, 1);  // count only
      e = cudaMemcpy(&n, count, sizeof n, cudaMemcpyDeviceToHost);
    }
    std::vector<pair_type> h(n);
    if (e == cudaSuccess && n) e = cudaMalloc(&pairs, n * sizeof(pair_type));
    if (e == cudaSuccess && n) {
      t.tree->range_query(bounds, bounds + 1, pairs, count, n, 1);
      e = cudaMemcpy(h.data(), pairs, n * sizeof(pair_type), cudaMemcpyDeviceToHost);
    }
    cudaFree(bounds);
    cudaFree(count);
    cudaFree(pairs);
    cuda_check(e, "reading the tree back");
    std::vector<std::pair<int64_t, int64_t>> all;
    all.reserve(n);
    for (const pair_type& p : h) all.emplace_back(int64_t(p.first) - 1, p.second);
    return all;
  }
};

}  // namespace warpcheck::clients

int main(int argc, char** argv) {
  return warpcheck::clients::client_main<warpcheck::clients::mvgpubtree_blink>(argc, argv);
}
