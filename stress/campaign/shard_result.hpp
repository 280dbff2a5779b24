// One shard's result, as the shard writes it on completion (one JSON
// object), and the counts that add up across shards to the campaign's.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stress/campaign/plan.hpp"
#include "stress/seam/stress_loop.hpp"

namespace warpcheck::campaign {

// What `warpcheck stress` counts, summed exactly over shards.
struct CampaignCounts {
  uint64_t runs = 0, operations = 0, steps = 0;
  uint64_t linearizable = 0, violations = 0, unknown = 0, faults = 0, invariants_broken = 0, failing_runs = 0;
  uint64_t points_explained = 0, points_not_explained = 0;  // zero where the points are not judged
  uint64_t run_us = 0, check_us = 0;                       // microseconds spent running and checking
  CampaignCounts& operator+=(const CampaignCounts& o);
  // Everything a verdict depends on (not the times).
  bool same_verdicts(const CampaignCounts& o) const;
};

CampaignCounts counts_of(const StressSummary& s, bool points_judged);

struct CampaignFailure {
  uint64_t seed = 0;
  std::string what;  // one line: describe_failure's
};

struct ShardResult {
  uint32_t shard = 0;
  uint64_t first_seed = 0, seeds = 0;
  CampaignCounts counts;
  uint64_t started_ms = 0, finished_ms = 0;  // Unix time in milliseconds
  std::string host;
  std::string devices;  // its CUDA_VISIBLE_DEVICES (--gpus: the one GPU it ran on); empty when unset
  std::vector<CampaignFailure> failures;  // the first kMaxListedFailures, by seed
  uint64_t failures_not_listed = 0;
};

// A shard lists this many failures; the counts cover every one.
inline constexpr size_t kMaxListedFailures = 1000;

std::string counts_json(const CampaignCounts& c);
std::string shard_result_json(const ShardResult& r);
ShardResult parse_shard_result(const std::string& text, const std::string& where);  // throws std::invalid_argument

// What is wrong with `r` as the result of the plan's shard `shard`, over
// `range` ("800 runs, but LINEARIZABLE + VIOLATION + UNKNOWN = 5700");
// nullopt when nothing is. A result without a problem adds exactly its
// range's runs to a merge, each run with one verdict, and lists each
// failing run it counts with a seed of its range (past kMaxListedFailures,
// counts it as not listed).
std::optional<std::string> shard_result_problem(const ShardResult& r, uint32_t shard, const ShardRange& range);

}  // namespace warpcheck::campaign
