#include "linearizability/html_report.hpp"

#include "linearizability/json_string.hpp"
#include "linearizability/op_place.hpp"
#include "models/base/value_strings.hpp"
#include "models/model_traits.hpp"

#include <algorithm>
#include <map>
#include <sstream>

namespace warpcheck {

namespace {

// JSON string literal, safe inside a <script> element.
std::string js_string(std::string_view s) { return json_string(s, /*inside_script=*/true); }

// Model states before and after each of the first `limit` operations of
// `order`, replayed from the initial state, each cut to 160 characters.
// For display only: a nondeterministic step takes its first possible
// effect, and states after a step the model refuses are "?".
template <class Model>
std::vector<std::pair<std::string, std::string>> states_along(const History& h, const std::vector<uint32_t>& order, size_t limit) {
  std::vector<std::pair<std::string, std::string>> out;
  typename Model::State s = Model::initial();
  bool known = true;
  auto describe = [](const typename Model::State& st) {
    std::string d = ModelTraits<Model>::describe(st);
    return d.size() > 160 ? d.substr(0, 157) + "..." : d;
  };
  for (uint32_t i : order) {
    if (out.size() >= limit) break;
    std::string before = known ? describe(s) : "?";
    bool stepped = false;
    const OpData& d = h.ops[i].data;
    for (uint32_t c = 0; known && c < ModelTraits<Model>::choices(s, d, h.key_pool.data()) && !stepped; ++c) {
      auto next = s;
      if (Model::step(next, d, h.key_pool.data(), c)) {
        s = std::move(next);
        stepped = true;
      }
    }
    known = known && stepped;
    out.emplace_back(std::move(before), known ? describe(s) : "?");
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> states(const History& h, const std::vector<uint32_t>& order, size_t limit) {
  const detail::ScopedValueStrings strings(h.strings);
  return visit_model(h.meta.model, [&](auto model) { return states_along<decltype(model)>(h, order, limit); });
}

class PartWriter {
 public:
  // Times are written relative to `origin` (the history's first stamp): a
  // GPU clock's stamps pass 2^53, past which JavaScript numbers round.
  // `place`: the whole history's words for teams (a counterexample's
  // projection may not keep them).
  PartWriter(const History& h, const OpPlaces& place, std::ostringstream& out, size_t max_steps, uint64_t origin)
      : h_(h), place_(place), out_(out), max_steps_(max_steps), origin_(origin) {}

  // ops: history indices shown; order: the part's linearization (may be empty).
  void write(const std::string& title, const std::vector<uint32_t>& ops, const std::vector<uint32_t>& order,
             const std::vector<std::vector<uint32_t>>* partials) {
    std::map<uint32_t, size_t> position;
    for (size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
    const auto along = states(h_, order, max_steps_);
    out_ << (first_ ? "" : ",") << "{\"title\":" << js_string(title) << ",\"ops\":[";
    first_ = false;
    for (size_t k = 0; k < ops.size(); ++k) {
      const Operation& op = h_.ops[ops[k]];
      auto it = position.find(ops[k]);
      out_ << (k ? "," : "") << "{\"id\":" << op.id << ",\"team\":" << op.team << ",\"where\":" << js_string(place_(op))
           << ",\"call\":" << op.call - origin_ << ",\"ret\":" << (op.pending() ? std::string("null") : std::to_string(op.ret - origin_))
           << ",\"desc\":" << js_string(describe_operation(h_, op));
      if (it != position.end()) out_ << ",\"pos\":" << it->second;
      if (it != position.end() && it->second < along.size())
        out_ << ",\"before\":" << js_string(along[it->second].first)
             << ",\"after\":" << js_string(along[it->second].second);
      if (partials && k < partials->size()) {
        const auto& seq = (*partials)[k];
        const auto seq_states = states(h_, seq, seq.size());
        out_ << ",\"partial\":[";
        for (size_t j = 0; j < seq.size(); ++j)
          out_ << (j ? "," : "") << "[" << h_.ops[seq[j]].id << "," << js_string(seq_states[j].first) << ","
               << js_string(seq_states[j].second) << "]";
        out_ << "]";
      }
      out_ << "}";
    }
    out_ << "]}";
  }

 private:
  const History& h_;
  const OpPlaces& place_;
  std::ostringstream& out_;
  size_t max_steps_;
  uint64_t origin_;
  bool first_ = true;
};

// The page: data first, then the renderer. Plain DOM, no libraries.
constexpr const char* kPage = R"PAGE(<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>warpcheck report</title>
<style>
body{font:13px system-ui,sans-serif;margin:16px;color:#222}
h1{font-size:18px;margin:0 0 4px} .meta{color:#555;margin-bottom:12px}
.LINEARIZABLE{color:#17803d}.VIOLATION,.FAILED{color:#b3261e}.UNKNOWN{color:#8a6d00}
#failure{border:2px solid #b3261e;background:#fdf0ef;padding:8px;margin:0 404px 12px 0;white-space:pre-wrap;font:12px monospace}
#parts{margin-right:404px}
.op.ev{outline:2px solid #b3261e;z-index:2}
.part{margin:14px 0;border-top:1px solid #ddd;padding-top:6px}
.lane{position:relative;height:16px;margin:1px 0;background:#fafafa}
.team{font-size:11px;color:#777;margin-top:4px}
.op{position:absolute;top:1px;height:13px;border-radius:3px;background:#9db7d8;font-size:10px;overflow:hidden;
 white-space:nowrap;cursor:default;box-sizing:border-box;padding:0 2px}
.op.lin{background:#8fd19e}.op.cx{background:#f2a49c}.op.pending{border:1px dashed #555;background:#ddd}
.op.hl{outline:2px solid #1b4fd8;z-index:2}.op.me{outline:2px solid #000;z-index:3}
#info{position:fixed;right:12px;top:72px;width:380px;max-height:80vh;overflow:auto;background:#fff;border:1px solid #bbb;
 padding:8px;box-shadow:0 2px 8px rgba(0,0,0,.15);font:12px monospace;white-space:pre-wrap}
</style></head><body>
<h1>warpcheck: <span id="verdict"></span></h1><div class="meta" id="meta"></div>
<div id="failure" hidden></div><div id="parts"></div><div id="info">hover an operation</div>
<div id="status" data-rendered="0" data-errors="0" data-ms="0" data-load-ms="0"></div>
<script>
var DATA = @DATA@;
var errors = 0;
window.onerror = function () { errors++; document.getElementById('status').dataset.errors = errors; };
(function () {
  var t0 = performance.now();
  // A run that failed says so first: the checker's verdict is only about its history.
  var f = DATA.failure, evidence = {};
  document.getElementById('verdict').textContent = f ? 'RUN FAILED (' + f.oracle + ')' : DATA.verdict;
  document.getElementById('verdict').className = f ? 'FAILED' : DATA.verdict;
  document.getElementById('meta').textContent = 'model ' + DATA.model + ' | ' + (f ? 'the checker on the history: ' + DATA.verdict + ' | ' : '') +
      DATA.algorithm + (DATA.reason ? ' | ' + DATA.reason : '') + ' | ' + DATA.shown + ' of ' + DATA.total +
      ' operations shown | times from stamp ' + DATA.origin;
  if (f) {
    var box = document.getElementById('failure');
    box.hidden = false;
    box.textContent = f.oracle + ': ' + f.message + (f.details ? '\n' + f.details : '') +
        (f.evidence.length ? '\noperations it names (outlined in red): ' + f.evidence.join(' ') : '') +
        (f.reproduce ? '\nreproduce: ' + f.reproduce : '');
    f.evidence.forEach(function (id) { evidence[id] = true; });
  }
  var info = document.getElementById('info'), rendered = 0, byId = {};
  function show(op, el) {
    var all = document.querySelectorAll('.hl,.me');
    for (var i = 0; i < all.length; i++) all[i].classList.remove('hl', 'me');
    el.classList.add('me');
    var s = 'id ' + op.id + '  ' + op.where + '\n' + op.desc + '\n[' + op.call + ', ' +
            (op.ret === null ? 'pending' : op.ret) + ']\n';
    if (op.pos !== undefined) s += '\nstep ' + (op.pos + 1) + ' of the witness\nbefore ' + op.before + '\nafter  ' + op.after + '\n';
    if (op.partial) {
      s += '\nlongest partial linearization with it (' + op.partial.length + '):\n';
      for (var j = 0; j < op.partial.length; j++) {
        var p = op.partial[j];
        s += (j + 1) + '. id ' + p[0] + '  ' + p[1] + ' -> ' + p[2] + '\n';
        if (byId[p[0]]) byId[p[0]].classList.add('hl');
      }
      if (!op.partial.length) s += 'none reaches it\n';
    }
    info.textContent = s;
  }
  var root = document.getElementById('parts');
  DATA.parts.forEach(function (part) {
    var div = document.createElement('div');
    div.className = 'part';
    var h = document.createElement('div');
    h.textContent = part.title + ' (' + part.ops.length + ' operations)';
    div.appendChild(h);
    var lo = Infinity, hi = -Infinity;
    part.ops.forEach(function (o) { lo = Math.min(lo, o.call); hi = Math.max(hi, o.ret === null ? o.call : o.ret); });
    var span = Math.max(1, hi - lo) * 1.05;
    var teams = {};
    part.ops.forEach(function (o) { (teams[o.team] = teams[o.team] || []).push(o); });
    Object.keys(teams).sort(function (a, b) { return a - b; }).forEach(function (team) {
      var label = document.createElement('div');
      label.className = 'team';
      label.textContent = DATA.team_word + ' ' + team;
      div.appendChild(label);
      var lanes = [];  // each lane: end of its last bar; overlapping bars take new lanes
      teams[team].sort(function (a, b) { return a.call - b.call; }).forEach(function (o) {
        var end = o.ret === null ? lo + span : o.ret, l = 0;
        while (l < lanes.length && lanes[l].end >= o.call) l++;
        if (l === lanes.length) {
          var row = document.createElement('div');
          row.className = 'lane';
          div.appendChild(row);
          lanes.push({end: -Infinity, row: row});
        }
        lanes[l].end = end;
        var el = document.createElement('div');
        el.className = 'op' + (o.pos !== undefined ? ' lin' : '') + (o.partial ? ' cx' : '') + (o.ret === null ? ' pending' : '') +
                       (evidence[o.id] ? ' ev' : '');
        el.style.left = (100 * (o.call - lo) / span) + '%';
        el.style.width = 'max(3px,' + (100 * (end - o.call) / span) + '%)';
        el.textContent = (o.pos !== undefined ? (o.pos + 1) + ': ' : '') + o.desc;
        el.onmouseenter = function () { show(o, el); };
        byId[o.id] = el;
        lanes[l].row.appendChild(el);
        rendered++;
      });
    });
    root.appendChild(div);
  });
  // A counterexample opens on its operation with the longest partial linearization.
  var best = null;
  DATA.parts.forEach(function (part) {
    part.ops.forEach(function (o) { if (o.partial && (!best || o.partial.length > best.partial.length)) best = o; });
  });
  if (best) show(best, byId[best.id]);
  var status = document.getElementById('status');
  status.dataset.rendered = rendered;
  status.dataset.ms = Math.round(performance.now() - t0);           // rendering
  status.dataset.loadMs = Math.round(performance.now());            // since navigation start: open, parse, render
})();
</script></body></html>
)PAGE";

}  // namespace

void write_html_report(const History& h, const CheckResult& r, std::ostream& out, const HtmlReportOptions& opt) {
  std::ostringstream data;
  uint64_t origin = UINT64_MAX;
  for (const Operation& op : h.ops) origin = std::min(origin, op.call);
  if (r.counterexample)
    for (const Operation& op : r.counterexample->history.ops) origin = std::min(origin, op.call);
  if (origin == UINT64_MAX) origin = 0;
  const OpPlaces place(h.meta);  // read from the configuration once
  PartWriter parts(h, place, data, opt.max_ops, origin);
  size_t shown = 0;
  data << "{\"model\":" << js_string(h.model().name) << ",\"verdict\":" << js_string(verdict_name(r.verdict))
       << ",\"algorithm\":" << js_string(r.algorithm) << ",\"reason\":" << js_string(r.reason)
       << ",\"team_word\":" << js_string(place.team_word()) << ",\"total\":" << h.ops.size() << ",\"origin\":" << js_string(std::to_string(origin));
  if (h.meta.failure) data << ",\"failure\":" << failure_record_json(*h.meta.failure, /*inside_script=*/true);
  data << ",\"parts\":[";
  if (r.counterexample) {
    const Counterexample& cx = *r.counterexample;
    PartWriter cx_parts(cx.history, place, data, opt.max_ops, origin);
    std::vector<uint32_t> all(cx.history.ops.size());
    for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
    std::string title = "counterexample";
    if (cx.key) title.append(" on key ").append(std::to_string(*cx.key));
    if (!cx.projected_keys.empty()) title.append(", each operation cut down to the key(s)");
    for (int64_t k : cx.projected_keys) title.append(" ").append(std::to_string(k));
    cx_parts.write(title, all, {}, &cx.longest_with);
    shown = all.size();
  } else {
    // Parts by key (or the whole history), in witness order where there is one.
    const bool by_key = h.model().partition_by_key;
    std::map<int64_t, std::vector<uint32_t>> ops_of, order_of;
    for (uint32_t i = 0; i < h.ops.size(); ++i) ops_of[by_key ? h.ops[i].data.key : 0].push_back(i);
    for (uint32_t i : r.witness) order_of[by_key ? h.ops[i].data.key : 0].push_back(i);
    for (auto& [key, ops] : ops_of) {
      if (shown + ops.size() > opt.max_ops && shown > 0) break;
      if (ops.size() > opt.max_ops) ops.resize(opt.max_ops);
      parts.write(by_key ? "key " + std::to_string(key) : std::string("whole history"), ops, order_of[key], nullptr);
      shown += ops.size();
    }
  }
  data << "],\"shown\":" << shown << "}";
  std::string page = kPage;
  page.replace(page.find("@DATA@"), 6, data.str());
  out << page;
}

}  // namespace warpcheck
