#include "stress/campaign/plan.hpp"

#include <set>
#include <stdexcept>

#include "linearizability/json_cursor.hpp"
#include "linearizability/json_string.hpp"

namespace warpcheck::campaign {

namespace {

constexpr const char* kPlanFormat = "warpcheck-campaign-plan/1";

// A configuration's structure and options by name ("structure" among them).
std::map<std::string, std::string> configuration_values(const std::string& configuration) {
  std::map<std::string, std::string> v;
  try {
    detail::JsonCursor c(configuration);
    c.parse_object([&](const std::string& key) {
      if (key == "structure") v["structure"] = c.parse_string();
      else if (key == "options") c.parse_object([&](const std::string& name) { v[name] = c.parse_string(); });
      else v[key] = std::string(c.skip_value());
    });
  } catch (const detail::JsonCursor::Error&) {
    v["(configuration)"] = configuration;  // compared whole
  }
  return v;
}

}  // namespace

std::vector<ShardRange> split_seeds(uint64_t first_seed, uint64_t seeds, uint32_t shards) {
  if (shards == 0 || shards > seeds) throw std::invalid_argument("--shards must be in [1, " + std::to_string(seeds) + "] (one seed at least a shard), got " + std::to_string(shards));
  std::vector<ShardRange> out;
  uint64_t next = first_seed;
  for (uint32_t i = 0; i < shards; ++i) {
    const uint64_t n = seeds / shards + (i < seeds % shards ? 1 : 0);
    out.push_back({next, n});
    next += n;
  }
  return out;
}

CampaignPlan make_plan(const StressRequest& request, uint32_t shards) {
  const Options& o = request.options;
  if (request.workload || !request.schedule.empty() || request.repro_seed)
    throw std::invalid_argument("a campaign runs each seed's own workload and schedule: --workload and --schedule replay one run (warpcheck repro)");
  CampaignPlan plan;
  plan.first_seed = o.integer("seed");
  plan.seeds = o.integer("seeds");
  if (plan.first_seed + (plan.seeds - 1) < plan.first_seed)
    throw std::invalid_argument("--seed " + std::to_string(plan.first_seed) + " --seeds " + std::to_string(plan.seeds) + " runs past the last seed");
  plan.shards = split_seeds(plan.first_seed, plan.seeds, shards);
  const SeedRunner runner(request);
  plan.configuration = run_configuration(*request.structure, runner.options(), nullptr);
  plan.session["timeout"] = o.text("timeout");
  plan.session["keep"] = o.text("keep");  // the histories each shard keeps in DIR/histories
  return plan;
}

std::string plan_json(const CampaignPlan& p) {
  std::string s = "{\"format\":";
  append_json_string(s, kPlanFormat);
  s += ",\n\"configuration\":" + p.configuration + ",\n\"session\":{";
  bool first = true;
  for (const auto& [k, v] : p.session) {
    if (!first) s += ',';
    first = false;
    append_json_string(s, k);
    s += ':';
    append_json_string(s, v);
  }
  s += "},\n\"first_seed\":" + std::to_string(p.first_seed) + ",\"seeds\":" + std::to_string(p.seeds) + ",\n\"shards\":[";
  for (size_t i = 0; i < p.shards.size(); ++i)
    s += (i ? ",\n[" : "\n[") + std::to_string(p.shards[i].first_seed) + "," + std::to_string(p.shards[i].seeds) + "]";
  return s + "]}\n";
}

CampaignPlan parse_plan(const std::string& text, const std::string& where) {
  CampaignPlan p;
  std::string format;
  bool have_range = false;
  try {
    detail::JsonCursor c(text);
    c.parse_object([&](const std::string& key) {
      if (key == "format") format = c.parse_string();
      else if (key == "configuration") p.configuration = std::string(c.skip_value());
      else if (key == "session") c.parse_object([&](const std::string& name) { p.session[name] = c.parse_string(); });
      else if (key == "first_seed") p.first_seed = c.parse_u64(), have_range = true;
      else if (key == "seeds") p.seeds = c.parse_u64();
      else if (key == "shards")
        c.parse_array([&] {
          ShardRange r;
          c.expect('[');
          r.first_seed = c.parse_u64();
          c.expect(',');
          r.seeds = c.parse_u64();
          c.expect(']');
          p.shards.push_back(r);
        });
      else c.fail("unknown member " + detail::quoted(key));
    });
    if (!c.at_end()) c.fail("text after the plan");
  } catch (const detail::JsonCursor::Error& e) {
    throw std::invalid_argument(where + ": not a campaign plan: column " + std::to_string(e.column) + ": " + e.message);
  }
  if (format != kPlanFormat) throw std::invalid_argument(where + ": not a campaign plan of this warpcheck (format '" + format + "')");
  // The shards must tile the range, so that the merged counts are the range's.
  uint64_t next = p.first_seed, total = 0;
  for (const ShardRange& r : p.shards) {
    if (r.first_seed != next || r.seeds == 0) throw std::invalid_argument(where + ": the shards do not tile the seed range");
    next += r.seeds;
    total += r.seeds;
  }
  if (!have_range || p.configuration.empty() || p.shards.empty() || total != p.seeds)
    throw std::invalid_argument(where + ": the plan lacks its configuration, seed range or shards");
  return p;
}

std::vector<std::string> plan_differences(const CampaignPlan& stored, const CampaignPlan& asked) {
  std::vector<std::string> d;
  auto differ = [&](const std::string& name, const std::map<std::string, std::string>& a, const std::map<std::string, std::string>& b) {
    const auto x = a.find(name), y = b.find(name);
    const std::string was = x == a.end() ? "(unset)" : x->second, is = y == b.end() ? "(unset)" : y->second;
    if (was != is) d.push_back("--" + name + ": stored " + was + ", asked " + is);
  };
  const auto was = configuration_values(stored.configuration), is = configuration_values(asked.configuration);
  std::set<std::string> names;
  for (const auto* m : {&was, &is, &stored.session, &asked.session})
    for (const auto& [k, v] : *m) names.insert(k);
  for (const std::string& n : names) {
    differ(n, was, is);
    differ(n, stored.session, asked.session);
  }
  if (stored.first_seed != asked.first_seed)
    d.push_back("--seed: stored " + std::to_string(stored.first_seed) + ", asked " + std::to_string(asked.first_seed));
  if (stored.seeds != asked.seeds) d.push_back("--seeds: stored " + std::to_string(stored.seeds) + ", asked " + std::to_string(asked.seeds));
  if (stored.shards.size() != asked.shards.size())
    d.push_back("--shards: stored " + std::to_string(stored.shards.size()) + ", asked " + std::to_string(asked.shards.size()));
  return d;
}

StressRequest shard_request(const Registry& registry, const CampaignPlan& plan, const std::string& where) {
  return request_from_configuration(registry, plan.configuration, where, plan.session, {"keep-going", "no-shrink", "quiet"});
}

std::string run_flags(const StressRequest& request) {
  return "--structure " + request.structure->spec.name + request.options.run_flags();
}

std::string replay_line(const StressRequest& request, uint64_t seed) {
  return "warpcheck repro " + std::to_string(seed) + " " + run_flags(request);
}

}  // namespace warpcheck::campaign
