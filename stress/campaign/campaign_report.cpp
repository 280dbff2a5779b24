#include "stress/campaign/campaign_report.hpp"

#include <algorithm>
#include <cstdio>

#include "linearizability/json_string.hpp"

namespace warpcheck::campaign {

namespace {

// A cell of a markdown table: one line, no column break.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else out += c == '\n' ? ' ' : c;
  }
  return out;
}

std::string seconds(uint64_t ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", double(ms) / 1000);
  return buf;
}

uint64_t per_second(uint64_t n, uint64_t us) { return us ? uint64_t(double(n) * 1e6 / double(us)) : 0; }

std::string seed_range(const ShardRange& r) {
  return std::to_string(r.first_seed) + " to " + std::to_string(r.first_seed + r.seeds - 1);
}

// Every listed failure of the finished shards, by seed.
std::vector<const CampaignFailure*> failures_by_seed(const CampaignState& s) {
  std::vector<const CampaignFailure*> all;
  for (const ShardResult& r : s.finished)
    for (const CampaignFailure& f : r.failures) all.push_back(&f);
  std::sort(all.begin(), all.end(), [](auto* a, auto* b) { return a->seed < b->seed; });
  return all;
}

}  // namespace

void write_report(const CampaignState& s, const ReportOptions& o, std::ostream& out) {
  const CampaignCounts& c = s.total;
  out << "# warpcheck campaign: " << s.request.structure->spec.name << "\n\n"
      << "run: `" << run_flags(s.request) << "`\n"
      << "seeds " << seed_range({s.plan.first_seed, s.plan.seeds}) << " in " << s.plan.shards.size() << " shards: "
      << s.finished.size() << " finished (" << s.seeds_finished() << " seeds), " << s.unfinished.size() << " not\n\n";
  out << "| runs | operations | LINEARIZABLE | VIOLATION | UNKNOWN | faults | invariants broken | failing runs | run ops/s | check ops/s |\n"
      << "|---|---|---|---|---|---|---|---|---|---|\n"
      << "| " << c.runs << " | " << c.operations << " | " << c.linearizable << " | " << c.violations << " | " << c.unknown << " | "
      << c.faults << " | " << c.invariants_broken << " | " << c.failing_runs << " | " << per_second(c.operations, c.run_us) << " | "
      << per_second(c.operations, c.check_us) << " |\n";
  if (c.points_explained + c.points_not_explained)
    out << "\nproof's points hold in " << c.points_explained << " of " << c.points_explained + c.points_not_explained << " runs\n";

  if (!s.finished.empty()) {
    uint64_t first = UINT64_MAX, last = 0, busy = 0;
    for (const ShardResult& r : s.finished) {
      first = std::min(first, r.started_ms);
      last = std::max(last, r.finished_ms);
      busy += r.finished_ms - r.started_ms;
    }
    const uint64_t wall = last - first;
    out << "\nthroughput: " << per_second(c.runs, wall * 1000) << " seeds/s, " << c.runs << " seeds in " << seconds(wall)
        << " s from the first shard's start to the last one's end; " << seconds(busy) << " s in shards (" << per_second(c.runs, busy * 1000)
        << " seeds/s a shard)\n";
  }

  if (!s.unfinished.empty()) {
    out << "\n## Shards not finished: " << s.unfinished.size() << "\n\n| shard | seeds | why |\n|---|---|---|\n";
    for (const UnfinishedShard& u : s.unfinished) out << "| " << u.shard << " | " << seed_range(u.range) << " | " << cell(u.why) << " |\n";
    out << "\nresume (runs only these; add --slurm or --gpus to run them there): `warpcheck campaign --resume " << o.folder << "`\n";
  }

  if (c.failing_runs) {
    const auto all = failures_by_seed(s);
    out << "\n## Failing runs: " << c.failing_runs << "\n\n| seed | what failed | replay |\n|---|---|---|\n";
    for (size_t i = 0; i < all.size() && i < o.failures; ++i)
      out << "| " << all[i]->seed << " | " << cell(all[i]->what) << " | `" << replay_line(s.request, all[i]->seed)
          << "` |\n";
    const uint64_t unlisted = c.failing_runs - std::min<uint64_t>(c.failing_runs, std::min(all.size(), o.failures));
    if (unlisted) out << "\n" << unlisted << " more not listed here" << (o.failures < all.size() ? " (the report file lists them)" : "") << "\n";
    out << "\neach failing run's history, with what failed in it: " << (o.folder.empty() ? std::string("DIR") : o.folder)
        << "/histories/seed-K-FAILED.bin or -VIOLATION.bin (`warpcheck check` or `warpcheck repro` on it); add `--out DIR` to a replay "
           "line for the failure's report and shrunk workload\n";
  }

  if (o.per_shard && !s.finished.empty()) {
    out << "\n## Shards\n\n| shard | seeds | runs | failing runs | LINEARIZABLE | VIOLATION | UNKNOWN | seconds | host |\n"
        << "|---|---|---|---|---|---|---|---|---|\n";
    for (const ShardResult& r : s.finished)
      out << "| " << r.shard << " | " << seed_range({r.first_seed, r.seeds}) << " | " << r.counts.runs << " | " << r.counts.failing_runs
          << " | " << r.counts.linearizable << " | " << r.counts.violations << " | " << r.counts.unknown << " | "
          << seconds(r.finished_ms - r.started_ms) << " | " << cell(r.host + (r.devices.empty() ? "" : ", GPU " + r.devices)) << " |\n";
  }
}

std::string summary_json(const CampaignState& s) {
  std::string j = "{\"structure\":";
  append_json_string(j, s.request.structure->spec.name);
  j += ",\"run\":";
  append_json_string(j, run_flags(s.request));
  j += ",\"first_seed\":" + std::to_string(s.plan.first_seed) + ",\"seeds\":" + std::to_string(s.plan.seeds) +
       ",\"shards\":" + std::to_string(s.plan.shards.size()) + ",\"finished_shards\":" + std::to_string(s.finished.size()) +
       ",\"counts\":" + counts_json(s.total) + ",\"unfinished\":[";
  for (size_t i = 0; i < s.unfinished.size(); ++i) {
    const UnfinishedShard& u = s.unfinished[i];
    j += (i ? ",{\"shard\":" : "{\"shard\":") + std::to_string(u.shard) + ",\"first_seed\":" + std::to_string(u.range.first_seed) +
         ",\"seeds\":" + std::to_string(u.range.seeds) + ",\"why\":";
    append_json_string(j, u.why);
    j += '}';
  }
  j += "],\"failures\":[";
  const auto all = failures_by_seed(s);
  for (size_t i = 0; i < all.size(); ++i) {
    j += (i ? ",{\"seed\":" : "{\"seed\":") + std::to_string(all[i]->seed) + ",\"what\":";
    append_json_string(j, all[i]->what);
    j += ",\"replay\":";
    append_json_string(j, replay_line(s.request, all[i]->seed));
    j += '}';
  }
  return j + "]}\n";
}

}  // namespace warpcheck::campaign
