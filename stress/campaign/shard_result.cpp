#include "stress/campaign/shard_result.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>

#include "linearizability/detail/json_cursor.hpp"
#include "linearizability/json_string.hpp"

namespace warpcheck::campaign {

namespace {

constexpr const char* kFormat = "warpcheck-campaign-shard/1";

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
  append_json_string(s, kFormat);
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
      else if (key == "shard") r.shard = uint32_t(c.parse_u64());
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
  if (format != kFormat) throw std::invalid_argument(where + ": not a shard result of this warpcheck (format '" + format + "')");
  return r;
}

}  // namespace warpcheck::campaign
