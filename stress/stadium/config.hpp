// Stadium hashing's run configuration, memory (the ticket board and the
// table, with filler pairs at the load factor asked for), quiescent
// invariants, and its runs on the simulator (the GPU's in gpu.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "stress/harness/sim_harness.hpp"
#include "stress/seam/structure_memory.hpp"
#include "stress/seam/workload.hpp"
#include "structures/stadium/stadium_driver.hpp"

namespace warpcheck {

struct StadiumConfig : WarpWorkload {  // teams are warps
  uint32_t fixes = 0;  // structures::stadium_fix bits (0: as printed)
  structures::stadium_mutant mutant = structures::stadium_mutant::none;
  structures::stadium_kernel kernel = structures::stadium_kernel::stash;
  structures::stadium_access access = structures::stadium_access::wait;
  uint32_t ticket_bits = 4;
  bool host_table = false;
  uint32_t key_bytes = 4, value_bytes = 4;
  double load = 0.8;       // the table's load factor before the run (filler pairs)
  uint32_t buckets = 0;    // at least this many (rounded up to a prime); 0: room for every insert at `load`
  double switch_at = 0.5;  // hybrid: the fraction of each lane's operations Stash runs
  uint32_t log_capacity = 0;  // records a lane's operations may take (before the prefill's); 0: exactly enough
  // Simulator: CPU threads that run Stash retrievals on the host table
  // while the warps run (teams after the warps' lanes, outside gpu scope).
  uint32_t host_readers = 0;
};

// Throws std::invalid_argument for an impossible configuration.
void validate(const StadiumConfig& c);
WorkloadShape stadium_shape(const StadiumConfig& c);
uint32_t stadium_buckets(const StadiumConfig& c);  // N: a prime
uint32_t stadium_fillers(const StadiumConfig& c);  // pairs in the table before the run
// Hybrid: the rounds (operations a lane) Stash runs, of per_lane.
uint32_t stadium_switch_round(const StadiumConfig& c, uint32_t per_lane);
// Lanes a simulator team: 1 for Stash (a lane is a team), 32 otherwise.
uint32_t stadium_sim_lanes(const StadiumConfig& c);
// The history log's two parts (structures::stadium_logs): lanes' streams
// (Stash and the hybrid's Stash rounds: 32 a warp) and warps' streams
// (clStash and the hybrid's clStash rounds), each with room for its
// records, the prefill's included (warp 0 runs it first). A kernel that
// records nothing in a part has no streams there.
struct StadiumLogShape {
  uint32_t streams = 0, capacity = 0;
};
StadiumLogShape stadium_lane_log(const StadiumConfig& c);
StadiumLogShape stadium_warp_log(const StadiumConfig& c);
// The two parts as one history: lanes' streams are teams 0 .. 32 x teams - 1
// (then the host readers'), warps' follow them in the hybrid (team 32 x
// teams + warp), and are teams 0 .. teams - 1 for clStash.
History stadium_history(const StadiumConfig& c, const HostLog& lanes, const HostLog& warps, HistoryMeta meta);

// The ticket board (all ones: every ticket never used) and the buckets.
MemoryLayout stadium_layout(const StadiumConfig& c);
structures::stadium_hash stadium_view(const StadiumConfig& c, ArrayPointers arrays);
// The filler pairs (keys from `keys` up, never in a workload), placed as
// sequential inserts would place them.
void stadium_fill(const StadiumConfig& c, HostMemory& memory);

// Invariants of a quiescent table (over host memory), given the run's
// history: every operation of the history completed; the table's own
// (structures/stadium/stadium_invariants.hpp: no ticket held, info bits,
// whole values, reachability); and the live pairs exactly the fillers plus
// the pairs inserted minus those erased (their count is inserts minus
// successful deletes: an available ticket over a pair still live is
// named). Empty when they hold.
std::vector<std::string> check_stadium_invariants(const StadiumConfig& c, const structures::stadium_hash& s, const History& h);

// One run of `ops` (teams x 32 x ops_per_lane) under sim's schedule
// (sim.teams = c.teams, sim.lanes = stadium_sim_lanes(c)), after the
// prefill (c.prefill: warp 0 alone, its own simulator run).
CheckedRun run_stadium_sim(const StadiumConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops);
// The same on a table the caller keeps (stadium_layout, filled), to look at afterwards.
CheckedRun run_stadium_sim(const StadiumConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops,
                           HostMemory& memory);

}  // namespace warpcheck
