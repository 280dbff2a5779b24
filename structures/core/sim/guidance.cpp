#include "structures/core/sim/guidance.hpp"

#include <algorithm>
#include <stdexcept>

namespace warpcheck::sim {

namespace {

std::string result_text(ResultKind kind, int64_t result) {
  switch (kind) {
    case ResultKind::None: return "nothing";
    case ResultKind::Bool: return result ? "true" : "false";
    case ResultKind::Value: return std::to_string(result);
    case ResultKind::Absent: return "absent";
    case ResultKind::Keys: return "keys";
  }
  return "?";
}

std::string op_text(const GuideOp& o) {
  return "team " + std::to_string(o.stream) + " job " + std::to_string(o.job) + " " + std::string(op_kind_name(o.kind));
}

}  // namespace

std::string describe(const GuidanceReport& r) {
  std::string s = "results as on the GPU: " + std::to_string(r.equal) + " of " + std::to_string(r.compared) + " compared";
  if (!r.first_divergence.empty()) s += " (first unlike: " + r.first_divergence + ")";
  s += "; " + std::to_string(r.matched) + " of " + std::to_string(r.guide_ops) + " operations matched, " + std::to_string(r.gated) +
       " waited for the GPU's order, " + std::to_string(r.forced) + " released by force, " + std::to_string(r.unmatched) +
       " unmatched";
  if (r.conflicting) s += ", " + std::to_string(r.conflicting) + " in places the GPU's history gives another operation";
  if (!r.first_unmatched.empty()) s += " (first: " + r.first_unmatched + ")";
  return s;
}

Guidance::Guidance(std::shared_ptr<const Guide> guide, bool invocation_order)
    : guide_(std::move(guide)), invocation_order_(invocation_order) {
  if (!guide_) throw std::invalid_argument("guidance: no guide");
  const std::vector<GuideOp>& ops = guide_->ops;
  for (uint32_t i = 0; i < ops.size(); ++i) {
    const GuideOp& o = ops[i];
    if (o.responded() && o.ret < o.call) throw std::invalid_argument("guidance: " + op_text(o) + " responds before it is invoked");
    if (o.stream >= by_stream_.size()) by_stream_.resize(size_t(o.stream) + 1);
    std::vector<uint32_t>& s = by_stream_[o.stream];
    if (o.slot >= s.size()) s.resize(size_t(o.slot) + 1, kNone);
    if (s[o.slot] != kNone)
      throw std::invalid_argument("guidance: two operations at stream " + std::to_string(o.stream) + " slot " + std::to_string(o.slot));
    s[o.slot] = i;
  }
  state_.assign(ops.size(), State::waiting);
  build(responses_, true);
  build(invocations_, false);
  by_call_.resize(ops.size());
  for (uint32_t i = 0; i < ops.size(); ++i) by_call_[i] = i;
  std::stable_sort(by_call_.begin(), by_call_.end(), [&](uint32_t a, uint32_t b) { return ops[a].call < ops[b].call; });
  concurrent_left_.assign(ops.size(), 0);
  for (uint32_t i = 0; i < ops.size(); ++i) for_each_concurrent(i, [&](uint32_t) { ++concurrent_left_[i]; });
  report_.guide_ops = ops.size();
}

void Guidance::build(Order& o, bool by_response) {
  const std::vector<GuideOp>& ops = guide_->ops;
  auto time = [&](uint32_t i) { return by_response ? ops[i].ret : ops[i].call; };
  // An invocation stamp shared by a stream's operations (a warp's batch,
  // stamped once) proves that the first of them began then, not the
  // others: only that one counts in the invocations' order. Every one of
  // them responded by their shared response stamp.
  auto stamped = [&](uint32_t i) {
    const GuideOp& o = ops[i];
    if (o.slot == 0) return true;
    const uint32_t previous = by_stream_[o.stream][o.slot - 1];
    return previous == kNone || ops[previous].call != o.call;
  };
  for (uint32_t i = 0; i < ops.size(); ++i)
    if (by_response ? ops[i].responded() : stamped(i)) o.by_time.push_back(i);
  std::stable_sort(o.by_time.begin(), o.by_time.end(), [&](uint32_t a, uint32_t b) { return time(a) < time(b); });
  o.before.resize(ops.size());
  for (uint32_t i = 0; i < ops.size(); ++i) {
    // Those whose time is strictly before this one's invocation: a prefix.
    const auto end = std::lower_bound(o.by_time.begin(), o.by_time.end(), ops[i].call,
                                      [&](uint32_t j, uint64_t call) { return time(j) < call; });
    o.before[i] = static_cast<uint32_t>(end - o.by_time.begin());
  }
  o.released.assign(ops.size(), false);
}

// Each operation of another stream that overlaps `op` in the history.
template <class F>
void Guidance::for_each_concurrent(uint32_t op, F f) const {
  const std::vector<GuideOp>& ops = guide_->ops;
  const GuideOp& x = ops[op];
  // Those invoked by x's response (the rest were invoked after it), then
  // those of them that had not responded when x was invoked.
  const std::vector<uint32_t>& by_call = by_call_;
  const auto end = std::upper_bound(by_call.begin(), by_call.end(), x.ret, [&](uint64_t ret, uint32_t j) { return ret < ops[j].call; });
  for (auto it = by_call.begin(); it != end; ++it)
    if (ops[*it].stream != x.stream && !(ops[*it].ret < x.call)) f(*it);
}

void Guidance::stream_base(const void* log, uint32_t base) {
  for (auto& b : bases_)
    if (b.first == log) {
      b.second = base;
      return;
    }
  bases_.emplace_back(log, base);
}

uint32_t Guidance::stream_of(const void* log, uint32_t stream) const {
  for (const auto& b : bases_)
    if (b.first == log) return b.second + stream;
  return stream;
}

void Guidance::recorded(const void* log, uint32_t stream, uint32_t records) {
  const uint32_t s = stream_of(log, stream);
  if (s >= by_stream_.size()) return;
  for (uint32_t slot = 0; slot < records && slot < by_stream_[s].size(); ++slot)
    if (const uint32_t i = by_stream_[s][slot]; i != kNone && state_[i] == State::waiting) settle(i);
  advance(responses_, State::responded);
  advance(invocations_, State::began);
}

uint32_t Guidance::arrive(const void* log, uint32_t stream, uint32_t slot, uint32_t job, OpKind kind) {
  const uint32_t s = stream_of(log, stream);
  auto fits = [&](uint32_t i) {
    return i != kNone && state_[i] == State::waiting && guide_->ops[i].job == job && guide_->ops[i].kind == kind;
  };
  uint32_t found = kNone;
  if (s < by_stream_.size()) {
    const std::vector<uint32_t>& in = by_stream_[s];
    if (slot < in.size() && fits(in[slot])) found = in[slot];
    for (size_t k = 0; found == kNone && k < in.size(); ++k)
      if (fits(in[k])) found = in[k];
  }
  if (found == kNone) {
    if (s < by_stream_.size() && slot < by_stream_[s].size() && by_stream_[s][slot] != kNone) ++report_.conflicting;
    if (report_.unmatched++ == 0)
      report_.first_unmatched = "team " + std::to_string(s) + " slot " + std::to_string(slot) + " job " + std::to_string(job) + " " +
                                std::string(op_kind_name(kind));
    return kNone;
  }
  ++report_.matched;
  state_[found] = State::arrived;
  running_[(uint64_t(s) << 32) | slot] = found;
  if (!may_begin(found)) ++report_.gated;
  return found;
}

bool Guidance::may_begin(uint32_t op) const {
  if (op == kNone) return true;
  return responses_.before[op] <= responses_.reached &&
         (!invocation_order_ || invocations_.before[op] <= invocations_.reached);
}

void Guidance::begins(uint32_t op) {
  if (op == kNone) return;
  state_[op] = State::began;
  advance(invocations_, State::began);
}

uint32_t Guidance::end(const void* log, uint32_t stream, uint32_t slot, ResultKind kind, int64_t result) {
  const auto it = running_.find((uint64_t(stream_of(log, stream)) << 32) | slot);
  if (it == running_.end()) return kNone;
  const uint32_t i = it->second;
  running_.erase(it);
  const GuideOp& o = guide_->ops[i];
  settle(i);
  if (o.responded() && o.compare_result) {
    ++report_.compared;
    const bool valued = kind == ResultKind::Bool || kind == ResultKind::Value;
    if (kind == o.result_kind && (!valued || result == o.result)) {
      ++report_.equal;
    } else if (report_.first_divergence.empty()) {
      report_.first_divergence = op_text(o) + ": " + result_text(o.result_kind, o.result) + " on the GPU, " +
                                 result_text(kind, result) + " here";
    }
  }
  advance(responses_, State::responded);
  return i;
}

void Guidance::force(uint32_t op) {
  std::vector<uint32_t> released;
  for (auto [order, happened] : {std::pair{&responses_, State::responded}, std::pair{&invocations_, State::began}}) {
    if (order == &invocations_ && !invocation_order_) continue;
    for (uint32_t k = order->reached; k < order->before[op]; ++k) {
      const uint32_t x = order->by_time[k];
      if (state_[x] >= happened || order->released[x]) continue;
      order->released[x] = true;  // no longer waited for; it may still run (and be matched) later
      released.push_back(x);
    }
    advance(*order, happened);
  }
  std::sort(released.begin(), released.end());
  report_.forced += uint64_t(std::unique(released.begin(), released.end()) - released.begin());
}

void Guidance::advance(Order& o, State happened) {
  while (o.reached < o.by_time.size() && (state_[o.by_time[o.reached]] >= happened || o.released[o.by_time[o.reached]]))
    ++o.reached;
}

void Guidance::settle(uint32_t op) {
  if (state_[op] == State::responded) return;
  state_[op] = State::responded;
  for_each_concurrent(op, [&](uint32_t other) { --concurrent_left_[other]; });
}

}  // namespace warpcheck::sim
