// The public SlabHash (owensgroup/SlabHash with SlabAlloc; Ashkiani,
// Farach-Colton, Owens, IPDPS 2018) on the same operations as this
// project's slab_hash_gpu_bench (stress/slab_hash/bench_ops.hpp): 2^22
// distinct keys, buckets from slabs a bucket as ours computes them, then
// the same phases, each contract on its own fresh table:
//  - duplicates allowed (our multimap's INSERT): build with its buildBulk
//    (insertPair, no uniqueness check), search present and absent (its
//    searchKey, one query a thread in the warp work-sharing loop, and its
//    bulk searchKeyBulk), and the three concurrent mixes through its
//    batched_operations kernel (inserts, then deletes, then searches, each
//    lane's one operation);
//  - unique keys (our map's REPLACE): build with buildBulkWithUniqueKeys
//    (insertPairUnique), and the same mixes through batched_unique below,
//    its kernel with insertPairUnique in place of insertPair (rows
//    *_unique).
// Median of --repeats fresh tables after one warm-up table. Prints one
// machine-readable line a measurement:
//   ROW impl=public beta=B buckets=N util=U phase=P mops=M ms=T
// and a markdown table. The public code is not part of this repository:
// bench/ext/slab_hash_public_build.sh builds this file against a fetched copy.
// Usage: slab_hash_public_bench [--elements N] [--betas 0.2,0.5,...]
//        [--repeats R] [--seed S] [--quick]. Exits 77 without a GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "slab_hash.cuh"  // the public code (its src/ and SlabAlloc/src/ on the include path)
#include "models/base/median.hpp"
#include "stress/gpu/cuda_check.cuh"
#include "stress/slab_hash/bench_ops.hpp"

namespace {

using namespace warpcheck::gpu::slab_bench;

using warpcheck::gpu::check;  // throws "CUDA: what: error"; main prints it and exits 1

// Fills the public arrays for one phase: keys and values (build, searches)
// or the batched kernel's words (code << 30 | key).
__global__ void fill_phase(phase_gen gen, uint64_t count, uint32_t* keys, uint32_t* values, uint32_t* words) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const bench_op op = gen(i);
  if (keys) keys[i] = op.key;
  if (values) values[i] = op.value;
  if (words) words[i] = uint32_t(op.code) << 30 | op.key;
}

using map_context = GpuSlabHashContext<uint32_t, uint32_t, SlabHashTypeT::ConcurrentMap>;

// The public batched_operations kernel (its concurrent_kernel.cuh), written
// again here with insertPairUnique in place of insertPair: the same
// work-sharing loops in the same order, the unique-key contract.
__global__ void batched_unique(const uint32_t* words, uint32_t* results, uint32_t count, map_context table) {
  uint32_t tid = threadIdx.x + blockIdx.x * blockDim.x;  // not const: its initAllocator takes references
  uint32_t lane = threadIdx.x & 0x1F;
  if (tid - lane >= count) return;  // whole warps only: the loops below are warp-wide
  AllocatorContextT alloc(table.getAllocatorContext());
  alloc.initAllocator(tid, lane);
  uint32_t code = 0, key = 0, value = 0, bucket = 0;
  if (tid < count) {
    code = words[tid] >> 30;
    key = words[tid] & 0x3FFFFFFF;
    bucket = table.computeBucket(key);
    value = key;  // as its kernel does
  }
  bool to_insert = code == kInsert, to_delete = code == kErase, to_search = code == kSearch;
  table.insertPairUnique(to_insert, lane, key, value, bucket, alloc);
  table.deleteKey(to_delete, lane, key, bucket);
  table.searchKey(to_search, lane, key, value, bucket);
  if (code == kSearch && value != SEARCH_NOT_FOUND) results[tid] = value;
}

// A table of the public code whose device context this program holds (its
// GpuSlabHash keeps its own private): the same construction, bucket array
// all EMPTY and the hash drawn as GpuSlabHash draws it.
struct unique_table {
  uint32_t* slabs = nullptr;
  map_context context;
  unique_table(uint32_t buckets, DynamicAllocatorT& allocator, uint64_t seed) {
    const size_t bytes = map_context::getSlabUnitSize() * buckets;
    check(cudaMalloc(&slabs, bytes), "cudaMalloc");
    check(cudaMemset(slabs, 0xFF, bytes), "cudaMemset");
    std::mt19937 rng(static_cast<uint32_t>(seed));
    constexpr uint32_t kPrime = 4294967291u;
    const uint32_t x = std::max<uint32_t>(rng() % kPrime, 1), y = rng() % kPrime;
    context.initParameters(buckets, x, y, reinterpret_cast<int8_t*>(slabs), allocator.getContextPtr());
  }
  ~unique_table() { cudaFree(slabs); }
  unique_table(const unique_table&) = delete;
  unique_table& operator=(const unique_table&) = delete;
};

__global__ void count_found(const uint32_t* results, uint64_t count, const uint32_t* values, unsigned long long* found,
                            unsigned long long* right) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  if (results[i] != SEARCH_NOT_FOUND) atomicAdd(found, 1ull);
  if (values && results[i] == values[i]) atomicAdd(right, 1ull);
}

using warpcheck::detail::median;

std::vector<double> parse_list(const char* s) {
  std::vector<double> out;
  std::string t(s);
  size_t at = 0;
  while (at <= t.size()) {
    const size_t comma = t.find(',', at);
    const std::string part = t.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    char* end = nullptr;
    const double v = std::strtod(part.c_str(), &end);
    if (part.empty() || *end || !(v > 0)) {
      std::fprintf(stderr, "error: bad list '%s'\n", s);
      std::exit(2);
    }
    out.push_back(v);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

// Rows: build, search present (individual, bulk), search absent
// (individual, bulk), three mixes (duplicates allowed); then build and the
// three mixes with unique keys.
constexpr int kRows = 12;
constexpr const char* kRowNames[kRows] = {
    "build_insert",       "search_present",  "search_present_bulk", "search_absent",
    "search_absent_bulk", "mix_50_50_0_0",   "mix_20_20_30_30",     "mix_10_10_40_40",
    "build_unique",       "mix_50_50_0_0_unique", "mix_20_20_30_30_unique", "mix_10_10_40_40_unique"};

int run(int argc, char** argv) {
  uint64_t n = uint64_t(1) << 22;
  std::vector<double> betas{0.2, 0.5, 1.0, 2.0};
  int repeats = 5;
  uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "error: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--elements") n = std::strtoull(value(), nullptr, 10);
    else if (a == "--betas") betas = parse_list(value());
    else if (a == "--repeats") repeats = std::atoi(value());
    else if (a == "--seed") seed = std::strtoull(value(), nullptr, 10);
    else if (a == "--quick") {
      n = uint64_t(1) << 16;
      betas = {0.6};
      repeats = 1;
    } else {
      std::fprintf(stderr,
                   "usage: slab_hash_public_bench [--elements N] [--betas 0.2,0.5,...] [--repeats R] [--seed S] [--quick]\n");
      return 2;
    }
  }
  if (n < 256 || n % 256 || n > (uint64_t(1) << 27) || repeats < 1) {
    std::fprintf(stderr, "error: elements must be a multiple of 256 in [256, 2^27], repeats at least 1\n");
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no CUDA device: the public SlabHash comparison needs one\n");
    return 77;
  }
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, 0), "device properties");
  std::printf("device: %s, %d SMs; public SlabHash (ConcurrentMap<uint32_t, uint32_t>, SlabAllocLight<%u, %u>), "
              "%llu keys, median of %d tables after one warm-up\n\n",
              p.name, p.multiProcessorCount, slab_alloc_par::log_num_mem_blocks, slab_alloc_par::num_super_blocks,
              (unsigned long long)n, repeats);

  uint32_t *keys, *values, *words, *results;
  check(cudaMalloc(&keys, n * 4), "malloc");
  check(cudaMalloc(&values, n * 4), "malloc");
  check(cudaMalloc(&words, n * 4), "malloc");
  check(cudaMalloc(&results, n * 4), "malloc");
  unsigned long long* counters;
  check(cudaMalloc(&counters, 16), "malloc");
  const uint32_t fill_blocks = static_cast<uint32_t>((n + 255) / 256);

  std::printf("| beta | buckets | utilization | build (insertPair) | search present | bulk | search absent | bulk | "
              "mix .5/.5/0/0 | mix .2/.2/.3/.3 | mix .1/.1/.4/.4 | build (insertPairUnique) | unique mixes | check |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  int bad = 0;
  for (double beta : betas) {
    const uint32_t buckets = buckets_for(n, beta);
    std::vector<double> ms[kRows];
    double util = 0;
    std::string verdict = "ok";
    for (int rep = 0; rep <= repeats; ++rep) {  // rep 0: warm-up
      DynamicAllocatorT allocator;
      GpuSlabHash<uint32_t, uint32_t, SlabHashTypeT::ConcurrentMap> table(buckets, &allocator, 0, seed * 7919 + rep);
      check(cudaDeviceSynchronize(), "table");
      const uint64_t salt = seed * 1000 + rep;
      auto fill = [&](int phase, bool as_words) {
        fill_phase<<<fill_blocks, 256>>>(phase_gen{n, phase, salt}, n, as_words ? nullptr : keys,
                                         as_words ? nullptr : values, as_words ? words : nullptr);
        check(cudaDeviceSynchronize(), "fill");
      };
      double t[kRows];
      fill(0, false);
      t[0] = warpcheck::gpu::timed_launch([&] { table.buildBulk(keys, values, uint32_t(n)); });
      const double lf = table.computeLoadFactor(0);
      for (int phase = 1; phase <= 2; ++phase) {
        fill(phase, false);
        check(cudaMemset(results, 0xFF, n * 4), "memset");
        t[2 * phase - 1] = warpcheck::gpu::timed_launch([&] { table.searchIndividual(keys, results, uint32_t(n)); });
        check(cudaMemset(counters, 0, 16), "memset");
        count_found<<<fill_blocks, 256>>>(results, n, nullptr, counters, counters + 1);
        unsigned long long found[2];
        check(cudaMemcpy(found, counters, 16, cudaMemcpyDeviceToHost), "copy");
        if ((phase == 1 && found[0] != n) || (phase == 2 && found[0] != 0)) {
          verdict = "WRONG: " + std::to_string(found[0]) + " of " + std::to_string(n) + " found in " + kRowNames[2 * phase - 1];
          ++bad;
        }
        check(cudaMemset(results, 0xFF, n * 4), "memset");
        t[2 * phase] = warpcheck::gpu::timed_launch([&] { table.searchBulk(keys, results, uint32_t(n)); });
        check(cudaMemset(counters, 0, 16), "memset");
        count_found<<<fill_blocks, 256>>>(results, n, nullptr, counters, counters + 1);
        check(cudaMemcpy(found, counters, 16, cudaMemcpyDeviceToHost), "copy");
        if ((phase == 1 && found[0] != n) || (phase == 2 && found[0] != 0)) {
          verdict = "WRONG: " + std::to_string(found[0]) + " of " + std::to_string(n) + " found in " + kRowNames[2 * phase];
          ++bad;
        }
      }
      for (int m = 0; m < 3; ++m) {
        fill(3 + m, true);
        check(cudaMemset(results, 0xFF, n * 4), "memset");
        t[5 + m] = warpcheck::gpu::timed_launch([&] { table.batchedOperation(words, results, uint32_t(n)); });
      }
      check(cudaDeviceSynchronize(), "phases");
      {  // the unique-key contract, on a fresh table of its own (and its own allocator)
        DynamicAllocatorT unique_allocator;
        unique_table unique(buckets, unique_allocator, seed * 7919 + rep);
        fill(0, false);
        t[8] = warpcheck::gpu::timed_launch([&] {
          build_table_with_unique_keys_kernel<uint32_t, uint32_t><<<fill_blocks * 2, 128>>>(keys, values, uint32_t(n), unique.context);
        });
        // Every build key is in with its value: a search of each (the build's
        // own keys and values, still in keys and values) finds it.
        check(cudaMemset(results, 0xFF, n * 4), "memset");
        search_table<uint32_t, uint32_t><<<fill_blocks * 2, 128>>>(keys, results, uint32_t(n), unique.context);
        check(cudaMemset(counters, 0, 16), "memset");
        count_found<<<fill_blocks, 256>>>(results, n, values, counters, counters + 1);
        unsigned long long found[2];
        check(cudaMemcpy(found, counters, 16, cudaMemcpyDeviceToHost), "copy");
        if (found[0] != n || found[1] != n) {
          verdict = "WRONG: " + std::to_string(found[0]) + " of " + std::to_string(n) + " found after build_unique, " +
                    std::to_string(found[1]) + " with their values";
          ++bad;
        }
        for (int m = 0; m < 3; ++m) {
          fill(3 + m, true);
          t[9 + m] = warpcheck::gpu::timed_launch(
              [&] { batched_unique<<<fill_blocks * 2, 128>>>(words, results, uint32_t(n), unique.context); });
        }
      }
      if (rep == 0) continue;
      for (int r = 0; r < kRows; ++r) ms[r].push_back(t[r]);
      util += lf / repeats;
    }
    double med[kRows];
    for (int r = 0; r < kRows; ++r) {
      med[r] = median(ms[r]);
      std::printf("ROW impl=public beta=%.2f buckets=%u util=%.4f phase=%s mops=%.1f ms=%.4f\n", beta, buckets, util,
                  kRowNames[r], med[r] > 0 ? double(n) / med[r] / 1e3 : 0.0, med[r]);
    }
    std::printf("| %.1f | %u | %.0f%% | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f / %.0f / %.0f | %s |\n",
                beta, buckets, 100 * util, n / med[0] / 1e3, n / med[1] / 1e3, n / med[2] / 1e3, n / med[3] / 1e3,
                n / med[4] / 1e3, n / med[5] / 1e3, n / med[6] / 1e3, n / med[7] / 1e3, n / med[8] / 1e3,
                n / med[9] / 1e3, n / med[10] / 1e3, n / med[11] / 1e3, verdict.c_str());
    std::fflush(stdout);
  }
  cudaFree(keys);
  cudaFree(values);
  cudaFree(words);
  cudaFree(results);
  cudaFree(counters);
  return bad ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // a failed CUDA call, said as check() says it
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
