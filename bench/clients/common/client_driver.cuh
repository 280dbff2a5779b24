// What every client driver shares: its options, the operations each team
// runs, the launches of a shape, and the history they leave. A driver
// names its library's table and how one operation is called on it (a
// Client, below); nothing here knows any library.
//
// A Client (one per driver, bench/clients/<client>/driver.cu):
//   static constexpr const char* kName, kLibrary, kModel ("map" or "set");
//   static constexpr uint32_t kTile;          // threads an operation (1: a thread; 2-32: a cg tile)
//   static constexpr bool kErase;             // the library can erase
//   struct table;                             // owns the library's structure
//   static std::unique_ptr<table> make(uint64_t capacity);
//   using ref = ...;                          // what a kernel takes (copied at the launch, on the
//                                             //   host; by reference in the kernel after that)
//   static ref device_ref(table&);
//   template <class G> __device__ static bool insert(ref, const G&, int64_t key, int64_t value);
//   template <class G> __device__ static bool find(ref, const G&, int64_t key, int64_t& value);  // map
//   template <class G> __device__ static bool contains(ref, const G&, int64_t key);             // set
//   template <class G> __device__ static bool erase(ref, const G&, int64_t key);
// G is the calling group: cg::thread_block_tile<kTile> (every thread of
// the tile calls, with the same arguments) or, for kTile 1, a
// one_thread group. Optionally:
//   static void bulk(table&, const record::log_view&, const client_options&);   // --shape bulk:
//     the library's host-side bulk calls, recorded with record::begin_bulk/end_bulk
//   static std::vector<std::pair<int64_t, int64_t>> contents(table&);   // the table at rest,
//     read with the library's own retrieval (key, value; value 0 for a set), for the scan below
//   static constexpr bool kUpsert = true;     // map: the library's insert overwrites a present
//     key's value and says nothing of whether it was there. The plan's inserts are then
//     recorded as upserts (no result), through
//     template <class G> __device__ static void upsert(ref, const G&, int64_t key, int64_t value);
//   static constexpr bool kUniqueInserts = true;   // the library's contract: a key is inserted
//     at most once. A team's i-th operation, when an insert, then takes key team * ops + i (new
//     in the run), and --keys is set to the teams' operations, the range lookups draw from.
#pragma once
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <warpcheck/record.cuh>

#include "bench/clients/common/client_options.hpp"

namespace warpcheck::clients {

namespace cg = cooperative_groups;

// One thread as a group: what a kTile-1 client's calls take.
struct one_thread {
  __device__ unsigned thread_rank() const { return 0; }
  __device__ void sync() const {}
};

template <class Client>
constexpr bool upserts() {
  if constexpr (requires { Client::kUpsert; }) return Client::kUpsert;
  else return false;
}

template <class Client>
constexpr bool unique_inserts() {
  if constexpr (requires { Client::kUniqueInserts; }) return Client::kUniqueInserts;
  else return false;
}

// The ref by reference: a library whose device handle is its table object
// (a host-only copy constructor) is copied once, at the launch.
template <class Client, class G>
__device__ inline void run_op(typename Client::ref& ref, const G& g, const record::log_view& log, const planned_op& op) {
  const bool records = g.thread_rank() == 0;  // one thread of the team records
  constexpr bool is_map = Client::kModel[0] == 'm';
  static_assert(is_map || !upserts<Client>(), "kUpsert is for a map");
  // The team's other threads touch the table too: none may start before
  // the invocation stamp and its fence, nor finish after the response's
  // (docs/team-and-memory-layer.md). A tile syncs around both; a thread
  // is its own team.
  record::op_handle h{};
  const auto begin = [&](OpKind kind, int64_t key, int64_t value) {
    if (records) h = log.begin(kind, key, value);
    g.sync();
  };
  const auto end = [&](ResultKind kind, int64_t result) {
    g.sync();
    if (records) log.end(h, kind, result);
  };
  if (op.kind == OpKind::Insert) {
    if constexpr (upserts<Client>()) {
      begin(OpKind::Upsert, op.key, op.value);
      Client::upsert(ref, g, op.key, op.value);
      end(ResultKind::None, 0);
    } else {
      begin(OpKind::Insert, op.key, is_map ? op.value : 0);
      const bool ok = Client::insert(ref, g, op.key, op.value);
      end(ResultKind::Bool, ok);
    }
  } else if (op.kind == OpKind::Erase) {
    begin(OpKind::Erase, op.key, 0);
    const bool ok = Client::erase(ref, g, op.key);
    end(ResultKind::Bool, ok);
  } else if constexpr (is_map) {
    begin(OpKind::Find, op.key, 0);
    int64_t v = 0;
    const bool found = Client::find(ref, g, op.key, v);
    end(found ? ResultKind::Value : ResultKind::Absent, v);
  } else {
    begin(OpKind::Contains, op.key, 0);
    const bool found = Client::contains(ref, g, op.key);
    end(ResultKind::Bool, found);
  }
}

// Every team runs its planned operations, one at a time. `only` set: every
// operation is of that kind (a phase), its key from the plan.
template <class Client>
__global__ void run_teams(typename Client::ref ref, record::log_view log, op_plan p, int only_kind, uint32_t phase) {
  constexpr uint32_t T = Client::kTile;
  const uint64_t thread = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  const uint64_t team = thread / T;
  const uint64_t teams = uint64_t(gridDim.x) * blockDim.x / T;
  auto body = [&](const auto& g) {
    for (uint32_t i = 0; i < p.ops_per_team; ++i) {
      planned_op op = plan_op(p, team + (uint64_t(phase) << 40), i, Client::kErase);
      if (only_kind >= 0) op.kind = static_cast<OpKind>(only_kind);
      if constexpr (unique_inserts<Client>())
        if (op.kind == OpKind::Insert) op.key = static_cast<int64_t>(team * p.ops_per_team + i);
      // Distinct over the whole run, and under 2^31: the libraries store 32-bit values.
      op.value = static_cast<int64_t>(1 + (uint64_t(phase) * teams + team) * p.ops_per_team + i);
      run_op<Client>(ref, g, log, op);
    }
  };
  if constexpr (T == 1) {
    body(one_thread{});
  } else {
    body(cg::tiled_partition<T>(cg::this_thread_block()));
  }
}

// A bulk shape's records an element: its calls, one after another (a
// client's bulk() makes at most this many).
inline constexpr uint32_t kBulkRecordsPerElement = 8;

template <class Client>
constexpr bool has_bulk() {
  return requires { &Client::bulk; };
}

// The table at rest, after the run, as the library reads it out: how many
// entries, and how many keys it holds more than once (a unique-key table
// never should). "" when the client has no retrieval.
template <class Client>
std::string scan_at_rest(typename Client::table& t) {
  if constexpr (requires { Client::contents(t); }) {
    std::vector<std::pair<int64_t, int64_t>> all = Client::contents(t);
    std::sort(all.begin(), all.end());
    uint64_t duplicate_keys = 0, example = 0;
    for (size_t i = 1; i < all.size(); ++i)
      if (all[i].first == all[i - 1].first && (i < 2 || all[i - 2].first != all[i].first)) {
        if (!duplicate_keys) example = static_cast<uint64_t>(all[i].first);
        ++duplicate_keys;
      }
    std::string out = ",\"at_rest\":{\"entries\":" + std::to_string(all.size()) +
                      ",\"duplicate_keys\":" + std::to_string(duplicate_keys);
    if (duplicate_keys) out += ",\"example_key\":" + std::to_string(example);
    return out + "}";
  } else {
    return "";
  }
}

inline void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// Waits for the launched kernels, at most `deadline_s`: a library's kernel
// that does not finish by then is reported as a hang (one line, exit 5)
// and the process ends without waiting for it (the context dies with it).
inline void finish_or_report_hang(const char* client, double deadline_s, const char* what) {
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    const cudaError_t e = cudaStreamQuery(0);
    if (e != cudaErrorNotReady) return cuda_check(e, what);
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > deadline_s) {
      std::printf("{\"client\":\"%s\",\"hang\":\"%s did not finish in %.0f s\"}\n", client, what, deadline_s);
      std::fflush(stdout);
      std::_Exit(5);
    }
    struct timespec nap{0, 1000000};
    nanosleep(&nap, nullptr);
  }
}

// The driver: parse, build the table, run the shape, write the history,
// print one line of what was run.
template <class Client>
int client_main(int argc, char** argv) {
  client_options o;
  if (int rc = parse_client_options(argc, argv, Client::kName, o); rc >= 0) return rc;
  try {
    if (o.shape == "bulk" && !has_bulk<Client>()) throw std::invalid_argument(std::string(Client::kName) + " has no bulk shape");
    if (o.plan.erase && !Client::kErase && o.plan.insert + o.plan.find == 0)
      throw std::invalid_argument("the mix has only erases, and this library cannot erase");
    if (!Client::kErase) o.plan.erase = 0;  // what runs, and what the header says
    auto table = Client::make(o.capacity);
    const uint32_t threads = o.threads, blocks = o.blocks;
    if (threads % Client::kTile) throw std::invalid_argument("--threads must be a multiple of the tile size");
    if constexpr (unique_inserts<Client>()) {
      if (o.shape != "bulk") {  // lookups draw from the keys the teams' inserts may take
        const uint64_t slots = uint64_t(blocks) * (threads / Client::kTile) * o.plan.ops_per_team;
        if (slots > (uint64_t(1) << 30)) throw std::invalid_argument("blocks x teams x ops over 2^30 keys");
        o.plan.keys = static_cast<uint32_t>(slots);
      }
    }
    const uint32_t phases = o.shape == "phases" ? (Client::kErase ? 5 : 2) : 1;
    if (uint64_t(blocks) * (threads / Client::kTile) * o.plan.ops_per_team * phases >= (uint64_t(1) << 31))
      throw std::invalid_argument("blocks x teams x ops x phases must stay under 2^31 (values are 32-bit)");
    record::Settings s;
    s.model = Client::kModel;
    // A bulk call's elements are thread streams (record::begin_bulk), whatever the tile.
    const bool tiles = Client::kTile > 1 && o.shape != "bulk";
    s.team = tiles ? record::team_kind::tile : record::team_kind::thread;
    s.tile_size = tiles ? Client::kTile : 0;
    s.teams = o.shape == "bulk" ? static_cast<uint32_t>(o.bulk_size) : record::teams_for(s.team, blocks, threads, s.tile_size);
    s.ops_per_team = o.shape == "bulk" ? kBulkRecordsPerElement : o.plan.ops_per_team * phases;
    s.seed = o.plan.seed;
    s.config = "{\"client\":\"" + std::string(Client::kName) + "\",\"library\":\"" + Client::kLibrary +
               "\",\"shape\":\"" + o.shape + "\",\"keys\":" + std::to_string(o.plan.keys) +
               ",\"blocks\":" + std::to_string(blocks) + ",\"threads\":" + std::to_string(threads) +
               ",\"tile\":" + std::to_string(Client::kTile) + ",\"capacity\":" + std::to_string(o.capacity) +
               ",\"mix\":\"insert=" + std::to_string(o.plan.insert) + ",erase=" + std::to_string(o.plan.erase) +
               ",find=" + std::to_string(o.plan.find) + "\"}";
    record::Recorder rec(s);
    const auto start = std::chrono::steady_clock::now();
    if (o.shape == "bulk") {
      if constexpr (has_bulk<Client>()) Client::bulk(*table, rec.view(), o);
    } else if (o.shape == "phases") {
      // The library's phase rule: a kernel of inserts, then of finds (then
      // of erases, of inserts again, and of finds); a launch boundary
      // between kinds.
      const OpKind lookup = Client::kModel[0] == 'm' ? OpKind::Find : OpKind::Contains;
      const OpKind order[5] = {OpKind::Insert, lookup, OpKind::Erase, OpKind::Insert, lookup};
      for (uint32_t ph = 0; ph < phases; ++ph) {
        op_plan p = o.plan;
        p.absent = ph > 0;
        run_teams<Client><<<blocks, threads>>>(Client::device_ref(*table), rec.view(), p, int(order[ph]), ph);
        cuda_check(cudaGetLastError(), "launching a phase");
        finish_or_report_hang(Client::kName, o.deadline_s, "a phase's kernel");
      }
    } else {
      run_teams<Client><<<blocks, threads>>>(Client::device_ref(*table), rec.view(), o.plan, -1, 0);
      cuda_check(cudaGetLastError(), "launching the mix");
      finish_or_report_hang(Client::kName, o.deadline_s, "the mix's kernel");
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const record::Summary sum = rec.write(o.out);
    const std::string at_rest = scan_at_rest<Client>(*table);
    std::printf("{\"client\":\"%s\",\"shape\":\"%s\",\"seed\":%llu,\"operations\":%llu,\"pending\":%llu,"
                "\"seconds\":%.4f,\"history\":\"%s\"%s%s%s%s}\n",
                Client::kName, o.shape.c_str(), (unsigned long long)o.plan.seed, (unsigned long long)sum.operations,
                (unsigned long long)sum.pending, seconds, o.out.c_str(), at_rest.c_str(),
                sum.incomplete() ? ",\"incomplete\":\"" : "", sum.incomplete() ? sum.message.c_str() : "",
                sum.incomplete() ? "\"" : "");
    return sum.incomplete() ? 3 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", Client::kName, e.what());
    return 2;
  }
}

}  // namespace warpcheck::clients
