// Stadium hashing on the GPU, the paper's evaluation (PACT 2015, section IV
// and Figure 19): 2^25 distinct pairs at load factors 0.8 and 0.85, the
// table in GPU memory (in core) and in pinned, mapped host memory (out of
// core), Stash, clStash and the hybrid, key and value sizes varied, ticket
// sizes 1 to 8; each row a fresh table filled by one kernel, then every key
// retrieved, then half present and half absent keys retrieved, then every
// key deleted; recording off and on. Out of core, the host link's measured
// bandwidth over the bytes of a bucket is the bound no kernel can pass.
// The corrected algorithm throughout, and beside it the printed one with
// only its reservation fixed (S1; without it a retrieval waits for access
// bits no one sets), run by Stash: what the claims and tombstones cost.
// (Not by clStash or the hybrid: the printed queue push, S5, loses a
// quarter of the inserts on an H100.)
//
// For cuCollections' static_map, the rows with 4- or 8-byte keys and
// values in core have the same pair counts and load factors: its numbers
// go beside those (built on the GPU machine from a fetched copy).
//
// Recorded histories are checked when a row has at most 2^20 pairs (the
// four phases are one history: kernel boundaries are exact cuts); every
// row's table is checked after the inserts and after the deletes.
// Prints one markdown table, rows numbered. Usage: stadium_gpu_bench
// [--quick] [--rows FIRST-LAST] (only those rows, to resume a cut run)
// [--oversize] (one row: a host table larger than the device's memory).
// Exits 77 when there is no GPU.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

#include "bench/bench_args.hpp"
#include "linearizability/checker.hpp"
#include "stress/gpu/device_info.hpp"
#include "stress/recorder/recorded_history.hpp"
#include "stress/stadium/gpu.hpp"

using namespace warpcheck;
using structures::stadium_kernel;

namespace {

double mops(uint64_t n, double ms) { return ms > 0 ? double(n) / ms / 1e3 : 0; }

const char* kernel_name(stadium_kernel k) {
  return k == stadium_kernel::stash ? "Stash" : k == stadium_kernel::clstash ? "clStash" : "hybrid";
}

// The phases' histories as one (ids renumbered), checked.
std::string checked(const std::vector<History>& phases) {
  History all;
  all.meta.model = ModelId::Multimap;
  for (const History& h : phases) {
    all.meta.incomplete = all.meta.incomplete || h.meta.incomplete;
    for (Operation op : h.ops) {
      op.id = all.ops.size();
      all.ops.push_back(op);
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  const CheckResult r = check_history(all);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return std::string(verdict_name(r.verdict)) + " (" + std::to_string(r.operations) + " ops, " + std::to_string(int(s)) + " s)";
}

struct Row {
  bool host;
  double load;
  uint32_t key_bytes, value_bytes, ticket_bits;
  stadium_kernel kernel;
  bool printed;  // the printed algorithm with S1 fixed only
  bool record;
  uint64_t pairs = 0;  // 0: the run's
};

// The out-of-core row whose table does not fit the device's memory: 8-byte
// keys and 32-byte values (40-byte buckets) at load 0.8, the table 10% over
// the device's memory; 0 when the host's memory cannot hold it with a
// fifth to spare, or when it would need more than 2^31 pairs (the absent
// keys come from indices past the pairs, in 32 bits).
uint64_t oversize_pairs(double device_gib) {
  const double table_bytes = device_gib * 1.1 * double(uint64_t(1) << 30);
  const double host_bytes = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  const uint64_t per_team = uint64_t(32) * gpu::StadiumBenchSpec{}.ops_per_lane;
  const uint64_t pairs = uint64_t(table_bytes / 40 * 0.8) / per_team * per_team;
  if (table_bytes > 0.8 * host_bytes || pairs > (uint64_t(1) << 31)) return 0;
  return pairs;
}

// The paper's rows (Figure 19's sizes, both tables, the three kernels,
// recording off and on), then ticket sizes and the printed algorithm.
std::vector<Row> paper_rows(bool quick) {
  std::vector<Row> rows;
  const stadium_kernel kernels[] = {stadium_kernel::stash, stadium_kernel::clstash, stadium_kernel::hybrid};
  const std::vector<std::pair<uint32_t, uint32_t>> sizes =
      quick ? std::vector<std::pair<uint32_t, uint32_t>>{{4, 4}, {8, 16}}
            : std::vector<std::pair<uint32_t, uint32_t>>{{4, 4}, {8, 8}, {4, 16}, {8, 32}};
  const std::vector<double> loads = quick ? std::vector<double>{0.8} : std::vector<double>{0.8, 0.85};
  for (bool host : {false, true})
    for (double load : loads)
      for (auto [k, v] : sizes)
        for (stadium_kernel kernel : kernels)
          for (bool record : {false, true})
            if (!record || kernel == stadium_kernel::hybrid || quick) rows.push_back({host, load, k, v, 4, kernel, false, record});
  // Ticket sizes (Figure 19's lines), and the printed algorithm beside.
  for (bool host : {false, true}) {
    for (uint32_t bits : {1u, 2u, 8u}) rows.push_back({host, 0.85, 8, 8, bits, stadium_kernel::hybrid, false, false});
    rows.push_back({host, 0.8, 4, 4, 4, stadium_kernel::stash, true, false});
    rows.push_back({host, 0.8, 8, 8, 4, stadium_kernel::stash, true, false});
  }
  return rows;
}

// FIRST-LAST, 1 <= FIRST <= LAST.
bool parse_rows(const char* text, size_t& first, size_t& last) {
  const std::vector<uint64_t> r = bench::whole_numbers(text, '-', SIZE_MAX);
  if (r.size() != 2 || r[0] < 1 || r[0] > r[1]) return false;
  first = r[0];
  last = r[1];
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, oversize = false;
  size_t first_row = 1, last_row = SIZE_MAX;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) {
      quick = true;
    } else if (!std::strcmp(argv[i], "--oversize")) {
      oversize = true;
    } else if (!std::strcmp(argv[i], "--rows") && i + 1 < argc && parse_rows(argv[++i], first_row, last_row)) {
    } else {
      std::fprintf(stderr, "usage: stadium_gpu_bench [--quick] [--rows FIRST-LAST] [--oversize]\n");
      return 2;
    }
  }
  const uint64_t pairs = quick ? uint64_t(1) << 18 : uint64_t(1) << 25;
  // --oversize: its pair count comes from the device's memory, below.
  std::vector<Row> rows =
      oversize ? std::vector<Row>{{true, 0.8, 8, 32, 4, stadium_kernel::hybrid, false, false, 0}} : paper_rows(quick);
  if (first_row > rows.size()) {
    std::fprintf(stderr, "error: --rows %zu-%zu: this run has %zu rows\n", first_row, last_row, rows.size());
    return 2;
  }
  const gpu::DeviceInfo dev = gpu::device_info();
  if (!dev.present) {
    std::printf("SKIP: no CUDA device (%s): the Stadium hashing benchmark needs one\n", dev.why_absent.c_str());
    return 77;
  }
  const double to_device = gpu::host_link_gbs(true), from_device = gpu::host_link_gbs(false);
  std::printf("device: %s, %d SMs, peak memory bandwidth %.0f GB/s; host link (pinned copies): %.1f GB/s to the device, "
              "%.1f GB/s from it\n",
              dev.name.c_str(), dev.sms, dev.peak_bandwidth_gbs, to_device, from_device);
  std::printf("paper: GTX 780 over PCI Express 3.0 x16; out of core, a bucket crosses the link once an insert (written) "
              "and once a present retrieval (read)\n\n");

  if (oversize) {
    const uint64_t big = oversize_pairs(dev.memory_gib);
    if (!big) {
      std::printf("SKIP: a table 10%% over the device's %.0f GiB does not fit this host's memory with a fifth to spare, "
                  "or needs more than 2^31 pairs\n", dev.memory_gib);
      return 77;
    }
    rows[0].pairs = big;
    std::printf("oversize: %llu pairs at load 0.8, about %.0f GiB of 40-byte buckets in host memory\n\n",
                static_cast<unsigned long long>(big), double(big) / 0.8 * 40 / double(uint64_t(1) << 30));
  }

  std::printf("| row | table | load | key B | value B | ticket bits | kernel | algorithm | rec | buckets | insert M/s | find present M/s | "
              "find half absent M/s | delete M/s | host-link bound M/s (insert, find) | check |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  int bad = 0;
  for (size_t n = first_row; n <= std::min(last_row, rows.size()); ++n) {
    const Row& row = rows[n - 1];
    gpu::StadiumBenchSpec spec;
    spec.pairs = row.pairs ? row.pairs : pairs;
    spec.load = row.load;
    spec.key_bytes = row.key_bytes;
    spec.value_bytes = row.value_bytes;
    spec.ticket_bits = row.ticket_bits;
    spec.host_table = row.host;
    spec.kernel = row.kernel;
    spec.fixes = row.printed ? structures::stadium_fix::reserve_by_cas : structures::stadium_fix::kAll;
    spec.record = row.record;
    spec.keep_log = row.record && spec.pairs <= (uint64_t(1) << 20);
    // 1-bit tickets have no room for a tombstone: with deletes possible, an
    // absent key's retrieval probes every bucket.
    spec.absent_lookups = row.ticket_bits > 1 || row.printed;
    spec.repeats = quick || oversize ? 1 : 3;
    const gpu::StadiumBenchResult r = gpu::run_stadium_bench(spec);
    std::string check = spec.keep_log ? checked(r.histories) : "-";
    if (spec.keep_log) bad += check.rfind("LINEARIZABLE", 0) != 0;
    if (r.faults || !r.invariant_violations.empty()) {
      ++bad;
      check += " FAULTS " + std::to_string(r.faults) + (r.invariant_violations.empty() ? "" : " BROKEN: " + r.invariant_violations[0]);
    } else {
      check += ", invariants hold";
    }
    structures::stadium_detail::bucket_layout layout;
    layout.key_bytes = row.key_bytes;
    layout.value_bytes = row.value_bytes;
    const uint32_t bucket_bytes = layout.bucket_bytes();
    const std::string bound = row.host ? std::to_string(int(from_device * 1e3 / bucket_bytes)) + ", " +
                                             std::to_string(int(to_device * 1e3 / bucket_bytes))
                                       : "-";
    const std::string half = spec.absent_lookups ? std::to_string(int(mops(spec.pairs, r.find_half_ms))) : "- (probes every bucket)";
    std::printf("| %zu | %s | %.2f | %u | %u | %u | %s | %s | %s | %u | %.0f | %.0f | %s | %.0f | %s | %s |\n", n,
                row.host ? "host" : "device",
                row.load, row.key_bytes, row.value_bytes, row.ticket_bits, kernel_name(row.kernel),
                row.printed ? "printed + S1 fix" : "fixed", row.record ? "on" : "off", r.buckets, mops(spec.pairs, r.insert_ms),
                mops(spec.pairs, r.find_ms), half.c_str(), mops(spec.pairs, r.erase_ms), bound.c_str(), check.c_str());
    std::fflush(stdout);
  }
  std::printf("\nrows judged a violation, faulted or with broken invariants: %d\n", bad);
  return bad ? 1 : 0;
}
