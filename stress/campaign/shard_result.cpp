#include "stress/campaign/shard_result.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>

#include "linearizability/json_cursor.hpp"
#include "linearizability/json_string.hpp"

namespace warpcheck::campaign {

namespace {

constexpr const char* kShardFormat = "warpcheck-campaign-shard/1";

// Each count once, by its name in the files: the writer, the reader and
// the sum walk the same list, so no count can be written and not read.
struct CountField {
  const char* name;
  uint64_t CampaignCounts::*member;
  bool timing;  // differs between runs of the same seeds
};
constexpr CountField kCountFields[] = {
    {"runs", &CampaignCounts::runs, false},
    {"operations", &CampaignCounts::operations, false},
    {"steps", &CampaignCounts::steps, false},
    {"linearizable", &CampaignCounts::linearizable, false},
    {"violations", &CampaignCounts::violations, false},
    {"unknown", &CampaignCounts::unknown, false},
    {"faults", &CampaignCounts::faults, false},
    {"invariants_broken", &CampaignCounts::invariants_broken, false},
    {"failing_runs", &CampaignCounts::failing_runs, false},
    {"points_explained", &CampaignCounts::points_explained, false},
    {"points_not_explained", &CampaignCounts::points_not_explained, false},
    {"run_us", &CampaignCounts::run_us, true},
    {"check_us", &CampaignCounts::check_us, true},
};

}  // namespace

CampaignCounts& CampaignCounts::operator+=(const CampaignCounts& o) {
  for (const CountField& f : kCountFields) this->*f.member += o.*f.member;
  return *this;
}

bool CampaignCounts::same_verdicts(const CampaignCounts& o) const {
  for (const CountField& f : kCountFields)
    if (!f.timing && this->*f.member != o.*f.member) return false;
  return true;
}

CampaignCounts counts_of(const StressSummary& s, bool points_judged) {
  CampaignCounts c;
  c.runs = s.runs;
  c.operations = s.operations;
  c.steps = s.steps;
  c.linearizable = s.linearizable;
  c.violations = s.violations;
  c.unknown = s.unknown;
  c.faults = s.faults;
  c.invariants_broken = s.invariant_failures;
  c.failing_runs = s.failed_runs;
  if (points_judged) {
    c.points_explained = s.points_explained;
    c.points_not_explained = s.points_not_explained;
  }
  c.run_us = uint64_t(s.run_seconds * 1e6);
  c.check_us = uint64_t(s.check_seconds * 1e6);
  return c;
}

std::string counts_json(const CampaignCounts& c) {
  std::string s = "{";
  for (const CountField& f : kCountFields) {
    if (s.size() > 1) s += ',';
    append_json_string(s, f.name);
    s += ':' + std::to_string(c.*f.member);
  }
  return s + "}";
}

std::string shard_result_json(const ShardResult& r) {
  std::string s = "{\"format\":";
  append_json_string(s, kShardFormat);
  s += ",\"shard\":" + std::to_string(r.shard) + ",\"first_seed\":" + std::to_string(r.first_seed) +
       ",\"seeds\":" + std::to_string(r.seeds) + ",\"counts\":" + counts_json(r.counts) +
       ",\"started_ms\":" + std::to_string(r.started_ms) + ",\"finished_ms\":" + std::to_string(r.finished_ms) + ",\"host\":";
  append_json_string(s, r.host);
  s += ",\"devices\":";
  append_json_string(s, r.devices);
  s += ",\"failures\":[";
  for (size_t i = 0; i < r.failures.size(); ++i) {
    s += (i ? ",{\"seed\":" : "{\"seed\":") + std::to_string(r.failures[i].seed) + ",\"what\":";
    append_json_string(s, r.failures[i].what);
    s += '}';
  }
  return s + "],\"failures_not_listed\":" + std::to_string(r.failures_not_listed) + "}\n";
}

ShardResult parse_shard_result(const std::string& text, const std::string& where) {
  ShardResult r;
  std::string format;
  try {
    detail::JsonCursor c(text);
    c.parse_object([&](const std::string& key) {
      if (key == "format") format = c.parse_string();
      else if (key == "shard") {
        const uint64_t shard = c.parse_u64();
        if (shard > UINT32_MAX) c.fail("shard " + std::to_string(shard) + " is past the last shard a plan can have");
        r.shard = uint32_t(shard);
      }
      else if (key == "first_seed") r.first_seed = c.parse_u64();
      else if (key == "seeds") r.seeds = c.parse_u64();
      else if (key == "started_ms") r.started_ms = c.parse_u64();
      else if (key == "finished_ms") r.finished_ms = c.parse_u64();
      else if (key == "host") r.host = c.parse_string();
      else if (key == "devices") r.devices = c.parse_string();
      else if (key == "failures_not_listed") r.failures_not_listed = c.parse_u64();
      else if (key == "counts")
        c.parse_object([&](const std::string& name) {
          const auto f = std::find_if(std::begin(kCountFields), std::end(kCountFields),
                                      [&](const CountField& f) { return name == f.name; });
          if (f == std::end(kCountFields)) c.fail("unknown count " + detail::quoted(name));
          r.counts.*f->member = c.parse_u64();
        });
      else if (key == "failures")
        c.parse_array([&] {
          CampaignFailure f;
          c.parse_object([&](const std::string& name) {
            if (name == "seed") f.seed = c.parse_u64();
            else if (name == "what") f.what = c.parse_string();
            else c.fail("unknown member " + detail::quoted(name));
          });
          r.failures.push_back(std::move(f));
        });
      else c.fail("unknown member " + detail::quoted(key));
    });
    if (!c.at_end()) c.fail("text after the result");
  } catch (const detail::JsonCursor::Error& e) {
    throw std::invalid_argument(where + ": not a shard result: column " + std::to_string(e.column) + ": " + e.message);
  }
  if (format != kShardFormat) throw std::invalid_argument(where + ": not a shard result of this warpcheck (format '" + format + "')");
  return r;
}

std::optional<std::string> shard_result_problem(const ShardResult& r, uint32_t shard, const ShardRange& range) {
  const auto n = [](uint64_t v) { return std::to_string(v); };
  const CampaignCounts& c = r.counts;
  const uint64_t last = range.first_seed + range.seeds - 1;
  if (r.shard != shard) return "it says it is shard " + n(r.shard) + ", in shard " + n(shard) + "'s file";
  if (r.first_seed != range.first_seed || r.seeds != range.seeds)
    return "seeds " + n(r.first_seed) + " to " + n(r.first_seed + r.seeds - 1) + ", but the plan's shard " + n(shard) + " has seeds " +
           n(range.first_seed) + " to " + n(last);
  if (c.runs != range.seeds) return n(c.runs) + " runs of its " + n(range.seeds) + " seeds";
  // Each count at most the runs first, so that the sums below cannot wrap.
  for (const CountField& f : kCountFields)
    if (!f.timing && f.member != &CampaignCounts::operations && f.member != &CampaignCounts::steps && c.*f.member > c.runs)
      return n(c.runs) + " runs, but " + f.name + " " + n(c.*f.member);
  if (c.linearizable + c.violations + c.unknown != c.runs)
    return n(c.runs) + " runs, but LINEARIZABLE + VIOLATION + UNKNOWN = " + n(c.linearizable + c.violations + c.unknown);
  if (c.points_explained + c.points_not_explained > c.runs)
    return n(c.runs) + " runs, but the proof's points were judged in " + n(c.points_explained + c.points_not_explained);
  // A run fails by a violation, a fault, a broken invariant or (where they must hold) the proof's points.
  if (c.failing_runs < std::max({c.violations, c.faults, c.invariants_broken}))
    return n(c.failing_runs) + " failing runs, fewer than its violations, faults or broken invariants";
  if (c.failing_runs > c.violations + c.faults + c.invariants_broken + c.points_not_explained)
    return n(c.failing_runs) + " failing runs, more than its violations, faults, broken invariants and unexplained points";
  if (r.failures.size() + r.failures_not_listed != c.failing_runs)
    return n(c.failing_runs) + " failing runs, but " + n(r.failures.size()) + " listed with their seeds and " + n(r.failures_not_listed) +
           " counted as not listed";
  if (r.failures_not_listed && r.failures.size() != kMaxListedFailures)
    return n(r.failures_not_listed) + " failing runs not listed, with " + n(r.failures.size()) + " listed (a shard lists " +
           n(kMaxListedFailures) + " first)";
  for (size_t i = 0; i < r.failures.size(); ++i) {
    const uint64_t seed = r.failures[i].seed;
    if (seed < range.first_seed || seed > last)
      return "failing seed " + n(seed) + " is outside its seeds " + n(range.first_seed) + " to " + n(last);
    if (i && seed <= r.failures[i - 1].seed) return "failing seed " + n(seed) + " listed twice or out of order";
  }
  if (r.finished_ms < r.started_ms) return "it finished (" + n(r.finished_ms) + " ms) before it started (" + n(r.started_ms) + " ms)";
  return std::nullopt;
}

}  // namespace warpcheck::campaign
