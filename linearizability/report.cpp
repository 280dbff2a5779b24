#include "linearizability/report.hpp"

#include "linearizability/json_string.hpp"
#include "linearizability/op_place.hpp"
#include "models/base/quote.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string_view>

namespace warpcheck {

namespace {

std::string interval(const Operation& op) {
  std::string s = "[";
  s.append(std::to_string(op.call)).append(", ").append(op.pending() ? "pending" : std::to_string(op.ret)).append("]");
  return s;
}

std::string id_list(const History& h, const std::vector<uint32_t>& ops) {
  std::string s;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(h.ops[ops[i]].id);
  }
  return s;
}

std::string all_ids(const History& h) {
  std::string s;
  for (size_t i = 0; i < h.ops.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(h.ops[i].id);
  }
  return s;
}

// One operation a line: "  id 7  warp 1 job slot 3  [10, 20]  insert(5) -> true".
void write_operation(const History& h, const Operation& op, const OpPlaces& place, std::string_view indent, std::ostream& out) {
  out << indent << "id " << op.id << "  " << place(op) << "  " << interval(op) << "  " << describe_operation(h, op) << "\n";
}

// `place`: the whole history's words (a projected counterexample's history may not keep them).
void write_counterexample(const Counterexample& cx, const OpPlaces& place, std::ostream& out) {
  const History& c = cx.history;
  out << "counterexample: " << c.ops.size() << " operation(s) from the " << cx.shrunk_from << " refuted"
      << (cx.key ? " on key " + std::to_string(*cx.key) : std::string()) << ", "
      << (cx.minimal ? "minimal (no droppable operation or earlier cut left)" : "not shrunk to minimal (budget)") << "\n";
  if (!cx.projected_keys.empty()) {
    out << "  (each operation cut down to the key(s)";
    for (int64_t k : cx.projected_keys) out << " " << k;
    out << ": pushes keep only these, pops return only these and ask for as many fewer)\n";
  }
  if (!cx.cut.empty()) out << "  (a time cut made " << cx.cut.size() << " operation(s) pending: they were still running at the cut)\n";
  for (size_t i = 0; i < c.ops.size(); ++i) {
    write_operation(c, c.ops[i], place, "  ", out);
    if (i < cx.longest_with.size()) {
      out << "      longest partial linearization with it (" << cx.longest_with[i].size() << " ops):";
      if (cx.longest_with[i].empty()) out << " none reaches it";
      for (uint32_t j : cx.longest_with[i]) out << " " << c.ops[j].id;
      out << "\n";
    }
  }
}

void write_context(const History& h, const Counterexample& cx, const OpPlaces& place, const ReportOptions& opt, std::ostream& out) {
  const std::vector<uint32_t> ops = context_of(h, cx, *opt.context);
  out << "  context: " << ops.size() << " other operation(s) within " << *opt.context << " stamps of its span";
  if (ops.size() > opt.max_context_ops) out << " (first " << opt.max_context_ops << "; --json gives all)";
  out << (ops.empty() ? "\n" : ":\n");
  for (size_t i = 0; i < ops.size() && i < opt.max_context_ops; ++i) write_operation(h, h.ops[ops[i]], place, "    ", out);
}

void write_counterexample_json(const Counterexample& cx, std::ostream& out) {
  out << "{\"ops\":[" << all_ids(cx.history) << "],\"cut_to_pending\":[";
  for (size_t i = 0; i < cx.cut.size(); ++i) out << (i ? "," : "") << cx.cut[i];
  out << "],\"minimal\":" << (cx.minimal ? "true" : "false") << ",\"shrunk_from\":" << cx.shrunk_from;
  if (cx.key) out << ",\"key\":" << *cx.key;
  if (!cx.projected_keys.empty()) {
    out << ",\"projected_keys\":[";
    for (size_t i = 0; i < cx.projected_keys.size(); ++i) out << (i ? "," : "") << cx.projected_keys[i];
    out << "]";
  }
  out << ",\"longest_partial\":{";
  for (size_t i = 0; i < cx.longest_with.size(); ++i)
    out << (i ? "," : "") << "\"" << cx.history.ops[i].id << "\":[" << id_list(cx.history, cx.longest_with[i]) << "]";
  out << "}}";
}

}  // namespace

void write_failure_record(const FailureRecord& f, std::ostream& out) {
  out << "RUN FAILED: " << failure_oracle_name(f.oracle) << ": " << f.message << "\n";
  size_t at = 0;
  while (at < f.details.size()) {  // each line of the details indented under it
    const size_t end = std::min(f.details.find('\n', at), f.details.size());
    out << "  " << std::string_view(f.details).substr(at, end - at) << "\n";
    at = end + 1;
  }
  if (!f.evidence.empty()) {
    out << "  operations it names:";
    for (uint64_t id : f.evidence) out << " " << id;
    out << "\n";
  }
  if (!f.reproduce.empty()) out << "  reproduce: " << f.reproduce << "\n";
}

std::vector<uint32_t> context_of(const History& h, const Counterexample& cx, uint64_t margin) {
  if (cx.history.ops.empty()) return {};
  std::vector<uint64_t> ids;
  for (const Operation& op : cx.history.ops) ids.push_back(op.id);
  std::sort(ids.begin(), ids.end());
  // The span of the counterexample's operations as the history has them (a
  // shrink's time cut made some pending): a pending one reaches the last stamp.
  uint64_t lo = kPendingTime, hi = 0, last = 0;
  for (const Operation& op : h.ops) last = std::max(last, op.pending() ? op.call : op.ret);
  for (const Operation& op : h.ops)
    if (std::binary_search(ids.begin(), ids.end(), op.id)) {
      lo = std::min(lo, op.call);
      hi = std::max(hi, op.pending() ? last : op.ret);
    }
  if (lo == kPendingTime) return {};
  const uint64_t from = lo > margin ? lo - margin : 0, to = hi > kPendingTime - 1 - margin ? kPendingTime - 1 : hi + margin;
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < h.ops.size(); ++i) {
    const Operation& op = h.ops[i];
    if (op.call > to || (!op.pending() && op.ret < from)) continue;
    if (!std::binary_search(ids.begin(), ids.end(), op.id)) out.push_back(i);
  }
  std::stable_sort(out.begin(), out.end(), [&](uint32_t a, uint32_t b) { return h.ops[a].call < h.ops[b].call; });
  return out;
}

void write_text_report(const History& h, const CheckResult& r, std::ostream& out, const ReportOptions& opt) {
  char timing[64];
  std::snprintf(timing, sizeof timing, "%.3f s", r.seconds);
  // A failed run says so first: the verdict below is only the history's.
  if (h.meta.failure) {
    write_failure_record(*h.meta.failure, out);
    out << "the checker on the history: ";
  }
  out << verdict_name(r.verdict) << ": model " << h.model().name << ", " << r.operations << " operations, " << r.partitions
      << (r.partitions == 1 ? " part" : " parts") << ", " << r.steps << " model steps, " << timing << "\n";
  out << "checker: " << r.algorithm << "\n";
  if (h.meta.seed || !h.meta.config.empty()) {
    // A configuration can hold a whole workload: its start says what ran.
    constexpr size_t kShown = 400;
    const std::string& c = h.meta.config;
    // Escaped: a configuration is JSON, but its strings may hold bytes a terminal acts on.
    out << "run: seed " << h.meta.seed << (c.empty() ? "" : " config " + detail::escaped(c.substr(0, kShown)));
    if (c.size() > kShown) out << "... (" << c.size() - kShown << " more characters)";
    out << "\n";
  }
  if (!r.reason.empty()) out << "reason: " << r.reason << "\n";
  if (r.hint_replay && r.hint_replay->outcome == HintReplay::Outcome::NotExplained && r.algorithm != "linearization-point replay")
    out << "linearization points: NOT explained: " << r.hint_replay->detail << "\n"
        << "  (a finding about the claimed points; the verdict above is the general search's)\n";
  if (r.verdict == Verdict::Linearizable) {
    out << "witness (operation ids in linearization order";
    if (r.witness.size() > opt.max_witness_ops) out << ", first " << opt.max_witness_ops << " of " << r.witness.size() << "; --json gives all";
    out << "):";
    for (size_t i = 0; i < r.witness.size() && i < opt.max_witness_ops; ++i) out << " " << h.ops[r.witness[i]].id;
    out << "\n";
  }
  if (r.all_parts && r.counterexample) {
    out << "refuted parts: " << r.refuted_parts() << " of " << r.partitions;
    if (r.counterexample->key) {
      out << ", keys " << *r.counterexample->key;
      for (const Counterexample& cx : r.more_counterexamples) out << " " << *cx.key;
    }
    out << "\n";
  }
  const OpPlaces place(h.meta);  // read from the configuration once
  auto counterexample = [&](const Counterexample& cx) {
    write_counterexample(cx, place, out);
    if (opt.context) write_context(h, cx, place, opt, out);
  };
  if (r.counterexample) counterexample(*r.counterexample);
  for (const Counterexample& cx : r.more_counterexamples) counterexample(cx);
}

void write_json_report(const History& h, const CheckResult& r, std::ostream& out, const ReportOptions& opt) {
  // A counterexample's object, with its "context" ids under --context.
  auto counterexample = [&](const Counterexample& cx) {
    std::ostringstream object;
    write_counterexample_json(cx, object);
    std::string text = object.str();
    if (opt.context) {  // inside the object, before its closing brace
      text.pop_back();
      text += ",\"context\":[" + id_list(h, context_of(h, cx, *opt.context)) + "]}";
    }
    out << text;
  };
  out << "{\"verdict\":\"" << verdict_name(r.verdict) << "\",\"model\":\"" << h.model().name << "\",\"algorithm\":"
      << json_string(r.algorithm) << ",\"operations\":" << r.operations << ",\"parts\":" << r.partitions
      << ",\"parts_linearizable\":" << r.partitions_linearizable << ",\"steps\":" << r.steps << ",\"seconds\":" << r.seconds
      << ",\"seed\":" << h.meta.seed << ",\"outcome\":\"" << (h.meta.failure ? "RUN FAILED" : verdict_name(r.verdict)) << "\"";
  if (h.meta.failure) out << ",\"run_failed\":" << failure_record_json(*h.meta.failure, /*inside_script=*/false);
  if (!r.reason.empty()) out << ",\"reason\":" << json_string(r.reason);
  if (r.recorded_part) out << ",\"recorded_part\":\"" << verdict_name(*r.recorded_part) << "\"";
  if (r.hint_replay) {
    static constexpr const char* kOutcome[] = {"not_applicable", "explained", "not_explained"};
    out << ",\"hint_replay\":{\"outcome\":\"" << kOutcome[int(r.hint_replay->outcome)] << "\",\"detail\":"
        << json_string(r.hint_replay->detail) << "}";
  }
  if (r.verdict == Verdict::Linearizable) out << ",\"witness\":[" << id_list(h, r.witness) << "]";
  if (r.counterexample) {
    out << ",\"counterexample\":";
    counterexample(*r.counterexample);
  }
  if (r.all_parts) {
    out << ",\"refuted_parts\":" << r.refuted_parts() << ",\"counterexamples\":[";
    if (r.counterexample) counterexample(*r.counterexample);
    for (const Counterexample& cx : r.more_counterexamples) {
      out << ",";
      counterexample(cx);
    }
    out << "]";
  }
  out << "}\n";
}

}  // namespace warpcheck
