#include "stress/seam/recipe.hpp"

#include <algorithm>
#include <charconv>
#include <set>
#include <stdexcept>

namespace warpcheck {

namespace {

constexpr uint32_t kMaxDelayNs = 10000000;  // 10 ms
constexpr uint32_t kMaxHammer = 1024, kMaxLines = 4096, kMaxOcc = 32, kMaxTeamDen = 1024;
constexpr uint64_t kApartAlign = 256, kMaxApart = uint64_t(1) << 28;  // 256 MB

constexpr std::pair<PerturbRecipe::Point, const char*> kPoints[] = {
    {PerturbRecipe::Load, "load"}, {PerturbRecipe::Store, "store"}, {PerturbRecipe::Rmw, "rmw"},
    {PerturbRecipe::Fence, "fence"}, {PerturbRecipe::Lock, "lock"}, {PerturbRecipe::Spin, "spin"}};

[[noreturn]] void bad(std::string_view token, const std::string& why) {
  throw std::invalid_argument("--recipe '" + std::string(token) + "': " + why + " (docs/gpu-perturbation.md)");
}

uint64_t number(std::string_view token, std::string_view item, std::string_view v, uint64_t lo, uint64_t hi) {
  uint64_t n = 0;
  const auto r = std::from_chars(v.data(), v.data() + v.size(), n);
  if (v.empty() || r.ec != std::errc() || r.ptr != v.data() + v.size() || n < lo || n > hi)
    bad(token, std::string(item) + " takes a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got '" +
                   std::string(v) + "'");
  return n;
}

// "0.05" -> 50000 parts per million: at most six decimals, in (0, 1].
uint32_t probability_ppm(std::string_view token, std::string_view v) {
  const std::string why = "p= takes a probability in (0, 1] with at most six decimals, got '" + std::string(v) + "'";
  const size_t dot = v.find('.');
  const std::string_view whole = v.substr(0, dot), frac = dot == std::string_view::npos ? std::string_view{} : v.substr(dot + 1);
  if (whole.empty() || frac.size() > 6 || (dot != std::string_view::npos && frac.empty())) bad(token, why);
  for (char c : whole) if (c < '0' || c > '9') bad(token, why);
  for (char c : frac) if (c < '0' || c > '9') bad(token, why);
  if (whole.size() > 1) bad(token, why);
  uint64_t ppm = uint64_t(whole[0] - '0') * PerturbRecipe::kMillion;
  uint64_t scale = PerturbRecipe::kMillion / 10;
  for (char c : frac) {
    ppm += uint64_t(c - '0') * scale;
    scale /= 10;
  }
  if (ppm == 0 || ppm > PerturbRecipe::kMillion) bad(token, why);
  return static_cast<uint32_t>(ppm);
}

std::string ppm_text(uint32_t ppm) {
  if (ppm >= PerturbRecipe::kMillion) return "1";
  std::string digits = std::to_string(ppm);
  digits.insert(0, 6 - digits.size(), '0');
  while (!digits.empty() && digits.back() == '0') digits.pop_back();
  return "0." + digits;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (;;) {
    const size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return out;
    start = end + 1;
  }
}

const char* kItems = "p=, delay=, wait=, at=, split, teams=, hammer=, lines=, shuffle, occ=, apart=, seed=";

// "4M", "256K" or "4096": bytes, a multiple of 256 in [256, 256M].
uint64_t apart_bytes(std::string_view token, std::string_view given) {
  std::string_view v = given;
  uint64_t unit = 1;
  if (!v.empty() && (v.back() == 'K' || v.back() == 'M')) {
    unit = v.back() == 'K' ? 1024 : 1024 * 1024;
    v.remove_suffix(1);
  }
  const uint64_t n = number(token, "apart=", v, 1, kMaxApart / unit) * unit;
  if (n % kApartAlign) bad(token, "apart= takes bytes in multiples of 256 (or K, M), got '" + std::string(given) + "'");
  return n;
}

std::string apart_text(uint64_t bytes) {
  if (bytes % (1024 * 1024) == 0) return std::to_string(bytes / (1024 * 1024)) + "M";
  if (bytes % 1024 == 0) return std::to_string(bytes / 1024) + "K";
  return std::to_string(bytes);
}

}  // namespace

const std::vector<RecipePreset>& recipe_presets() {
  static const std::vector<RecipePreset> presets = {
      {"delays", "p=0.05,delay=exp:2000,at=load+store+rmw+lock",
       "every team: 5% of its loads, stores, atomics and lock holds wait about 2 us"},
      {"tear", "p=0.2,delay=uniform:4000,at=load,split",
       "a fifth of the team-wide loads are torn: some lanes load up to 4 us after the others"},
      {"hammer", "hammer=32,lines=4,shuffle",
       "32 warps hammer the first 4 lines of every array with atomic ORs of zero; shuffled blocks"},
      {"storm", "p=0.02,delay=exp:1000,at=all,split,teams=1/2,hammer=8,shuffle,occ=2",
       "half the teams delayed at every point, torn loads, 8 hammer warps, shuffled blocks, 2 blocks an SM"},
  };
  return presets;
}

PerturbRecipe parse_recipe(std::string_view text) {
  PerturbRecipe r;
  if (text == "off") return r;
  if (text.rfind("preset:", 0) == 0) {
    const std::string_view name = text.substr(7);
    std::string known;
    for (const RecipePreset& p : recipe_presets()) {
      if (p.name == name) return parse_recipe(p.recipe);
      known += (known.empty() ? "" : ", ") + p.name;
    }
    bad(text, "no preset '" + std::string(name) + "' (presets: " + known + ")");
  }
  if (text.empty()) bad(text, "empty: give 'off', 'preset:NAME' or items (" + std::string(kItems) + ")");
  std::set<std::string, std::less<>> seen;
  bool delay_given = false;
  for (std::string_view item : split(text, ',')) {
    if (item.empty()) bad(text, "an empty item (two commas, or a comma at an end)");
    const size_t eq = item.find('=');
    const std::string_view key = item.substr(0, eq);
    const std::string_view v = eq == std::string_view::npos ? std::string_view{} : item.substr(eq + 1);
    const bool valued = eq != std::string_view::npos;
    if (!seen.insert(std::string(key)).second) bad(text, "'" + std::string(key) + "' given twice");
    auto needs_value = [&] {
      if (!valued) bad(text, std::string(key) + " needs a value (" + std::string(key) + "=...)");
    };
    auto no_value = [&] {
      if (valued) bad(text, std::string(key) + " takes no value");
    };
    if (key == "p") {
      needs_value();
      r.p_ppm = probability_ppm(text, v);
    } else if (key == "delay") {
      needs_value();
      const size_t colon = v.find(':');
      if (colon == std::string_view::npos) bad(text, "delay= takes fixed:NS, uniform:NS or exp:NS, got '" + std::string(v) + "'");
      const std::string_view kind = v.substr(0, colon);
      if (kind == "fixed") r.dist = PerturbRecipe::Dist::Fixed;
      else if (kind == "uniform") r.dist = PerturbRecipe::Dist::Uniform;
      else if (kind == "exp") r.dist = PerturbRecipe::Dist::Exponential;
      else bad(text, "delay= takes fixed:NS, uniform:NS or exp:NS, got '" + std::string(v) + "'");
      r.delay_ns = static_cast<uint32_t>(number(text, "delay=" + std::string(kind) + ":", v.substr(colon + 1), 1, kMaxDelayNs));
      delay_given = true;
    } else if (key == "wait") {
      needs_value();
      if (v == "sleep") r.wait = PerturbRecipe::Wait::Sleep;
      else if (v == "spin") r.wait = PerturbRecipe::Wait::Spin;
      else bad(text, "wait= takes sleep or spin, got '" + std::string(v) + "'");
    } else if (key == "at") {
      needs_value();
      const std::vector<std::string_view> names = split(v, '+');
      for (std::string_view name : names) {
        uint32_t bit = 0;
        if (name == "all") {
          if (names.size() > 1) bad(text, "at=all stands alone");
          bit = PerturbRecipe::AllPoints;
        }
        for (auto [b, n] : kPoints)
          if (name == n) bit = b;
        if (!bit) bad(text, "at= takes points joined by '+' from load, store, rmw, fence, lock, spin, all; got '" + std::string(name) + "'");
        if (r.points & bit) bad(text, "at= names '" + std::string(name) + "' twice");
        r.points |= bit;
      }
    } else if (key == "split") {
      no_value();
      r.split = true;
    } else if (key == "teams") {
      needs_value();
      if (v == "all") {
        r.team_num = r.team_den = 1;
      } else if (v == "one") {
        r.one_team = true;
      } else {
        const size_t slash = v.find('/');
        if (slash == std::string_view::npos) bad(text, "teams= takes all, one or K/N (K of every N teams), got '" + std::string(v) + "'");
        r.team_den = static_cast<uint32_t>(number(text, "teams= N", v.substr(slash + 1), 2, kMaxTeamDen));
        r.team_num = static_cast<uint32_t>(number(text, "teams= K", v.substr(0, slash), 1, r.team_den - 1));
      }
    } else if (key == "hammer") {
      needs_value();
      const size_t colon = v.find(':');
      r.hammer = static_cast<uint32_t>(number(text, "hammer=", v.substr(0, colon), 1, kMaxHammer));
      if (colon != std::string_view::npos) {
        const std::string_view mode = v.substr(colon + 1);
        if (mode == "rmw") r.hammer_mode = PerturbRecipe::Hammer::Rmw;
        else if (mode == "load") r.hammer_mode = PerturbRecipe::Hammer::Load;
        else if (mode == "evict") r.hammer_mode = PerturbRecipe::Hammer::Evict;
        else bad(text, "hammer=N: takes rmw, load or evict, got '" + std::string(mode) + "'");
      }
    } else if (key == "lines") {
      needs_value();
      r.lines = static_cast<uint32_t>(number(text, "lines=", v, 1, kMaxLines));
    } else if (key == "shuffle") {
      no_value();
      r.shuffle = true;
    } else if (key == "occ") {
      needs_value();
      r.occ = static_cast<uint32_t>(number(text, "occ=", v, 1, kMaxOcc));
    } else if (key == "apart") {
      needs_value();
      r.apart = apart_bytes(text, v);
    } else if (key == "seed") {
      needs_value();
      r.seed = number(text, "seed=", v, 0, UINT64_MAX);
    } else if (key == "off" || key.rfind("preset:", 0) == 0) {
      bad(text, "'" + std::string(key) + "' stands alone, not among other items");
    } else {
      bad(text, "unknown item '" + std::string(item) + "' (items: " + kItems + ")");
    }
  }
  // Delays need both their probability and their length; what shapes them needs them.
  if (r.p_ppm && !delay_given) bad(text, "p= needs delay= (how long a point that fires waits)");
  if (delay_given && !r.p_ppm) bad(text, "delay= needs p= (the chance that a point fires)");
  if (!delay_given)
    for (const char* k : {"at", "wait", "split", "teams"})
      if (seen.count(k)) bad(text, std::string(k) + (std::string_view(k) == "split" ? "" : "=") + " shapes delays: it needs p= and delay=");
  if (delay_given && !r.points) r.points = PerturbRecipe::Load | PerturbRecipe::Store | PerturbRecipe::Rmw;
  if (r.split && !(r.points & PerturbRecipe::Load)) bad(text, "split tears loads: at= must include load");
  if (r.lines && !r.hammer) bad(text, "lines= says where hammer warps go: it needs hammer=");
  if (r.lines && r.hammer_mode == PerturbRecipe::Hammer::Evict) bad(text, "lines= has no meaning with hammer=N:evict (it streams over a scratch buffer)");
  if (r.hammer && r.hammer_mode != PerturbRecipe::Hammer::Evict && !r.lines) r.lines = 8;
  if (r.off()) bad(text, "perturbs nothing: seed= alone changes no run; say 'off'");
  return r;
}

std::string format_recipe(const PerturbRecipe& r) {
  if (r.off()) return "off";
  std::vector<std::string> items;
  if (r.delays()) {
    items.push_back("p=" + ppm_text(r.p_ppm));
    const char* dist = r.dist == PerturbRecipe::Dist::Fixed ? "fixed" : r.dist == PerturbRecipe::Dist::Uniform ? "uniform" : "exp";
    items.push_back(std::string("delay=") + dist + ":" + std::to_string(r.delay_ns));
    if (r.wait == PerturbRecipe::Wait::Spin) items.push_back("wait=spin");
    std::string at;
    if ((r.points & PerturbRecipe::AllPoints) == PerturbRecipe::AllPoints) {
      at = "all";
    } else {
      for (auto [b, n] : kPoints)
        if (r.points & b) at += (at.empty() ? "" : "+") + std::string(n);
    }
    items.push_back("at=" + at);
    if (r.split) items.push_back("split");
    if (r.one_team) items.push_back("teams=one");
    else if (r.team_num < r.team_den) items.push_back("teams=" + std::to_string(r.team_num) + "/" + std::to_string(r.team_den));
  }
  if (r.hammer) {
    const char* mode = r.hammer_mode == PerturbRecipe::Hammer::Rmw ? "" : r.hammer_mode == PerturbRecipe::Hammer::Load ? ":load" : ":evict";
    items.push_back("hammer=" + std::to_string(r.hammer) + mode);
    if (r.hammer_mode != PerturbRecipe::Hammer::Evict) items.push_back("lines=" + std::to_string(r.hammer_lines()));
  }
  if (r.shuffle) items.push_back("shuffle");
  if (r.occ) items.push_back("occ=" + std::to_string(r.occ));
  if (r.apart) items.push_back("apart=" + apart_text(r.apart));
  if (r.seed) items.push_back("seed=" + std::to_string(r.seed));
  std::string s;
  for (const std::string& i : items) s += (s.empty() ? "" : ",") + i;
  return s;
}

std::string canonical_recipe(std::string_view text) { return format_recipe(parse_recipe(text)); }

std::string simulator_analogue(const PerturbRecipe& r) {
  if (!r.delays()) return "";
  // The simulator's delays make a team sit out scheduler steps; one step a
  // nanosecond of the mean delay is a rough analogue, no more.
  const uint32_t mean = r.dist == PerturbRecipe::Dist::Uniform ? r.delay_ns / 2 : r.delay_ns;
  const uint32_t steps = std::clamp<uint32_t>(mean, 100, 100000);
  std::string s = " --delays " + ppm_text(r.p_ppm) + " --delay-steps " + std::to_string(steps);
  if (r.points & PerturbRecipe::Load) s += " --delay-loads";
  return s;
}

}  // namespace warpcheck
