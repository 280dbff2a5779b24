#include "linearizability/synthetic/synthetic_history.hpp"

#include <concepts>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <unordered_map>

#include "linearizability/detail/bulk.hpp"
#include "models/base/splitmix.hpp"
#include "models/model_traits.hpp"

namespace warpcheck {

namespace {

// Counter-based randomness: the i-th draw of stream s, independent of order.
struct Draw {
  uint64_t seed;
  uint64_t operator()(uint64_t i, uint64_t stream) const {
    return detail::mix64(detail::mix64(seed ^ (stream * 0x9e3779b97f4a7c15ULL)) ^ i);
  }
  uint64_t below(uint64_t i, uint64_t stream, uint64_t n) const { return n ? (*this)(i, stream) % n : 0; }
};

enum Stream : uint64_t { kKind = 1, kKey, kCasHit, kCount, kPending, kEffect, kTeam, kCallWidth, kReturnWidth, kBatchKey, kWideBatchKey };

// Models that store the values they are given (queues, stacks) get
// distinct ones, numbered from the operation, so that their histories fall
// to the distinct-value checkers.
template <class Model>
constexpr bool stores_values() {
  return ModelTraits<Model>::stores_values;
}

// The operations drawn: integer values only, so no appends. Where a model
// has single and batched forms (the queue), the batched ones with full
// batches and only then.
template <class Model>
std::vector<OpSpec> drawn_operations(const SyntheticHistorySpec& spec) {
  const bool has_batches = std::any_of(std::begin(Model::ops), std::end(Model::ops),
                                       [](const OpSpec& o) { return o.args & (kArgKeys | kArgCount); });
  std::vector<OpSpec> out;
  for (const OpSpec& o : Model::ops) {
    const bool batched = o.args & (kArgKeys | kArgCount);
    if (o.kind == OpKind::Append || (stores_values<Model>() && has_batches && batched != spec.full_batches)) continue;
    out.push_back(o);
  }
  return out;
}

// Runs the model sequentially and fills in every operation's arguments and
// result; times are set afterwards.
template <class Model>
void run_sequentially(const SyntheticHistorySpec& spec, const Draw& draw, History& h) {
  // One state per key where the model is per-key: a single state over
  // 100,000 keys would make every step a long copy.
  std::unordered_map<int64_t, typename Model::State> states;
  const int64_t* pool = nullptr;
  const std::vector<OpSpec> kinds = drawn_operations<Model>(spec);
  for (size_t i = 0; i < spec.operations; ++i) {
    Operation& op = h.ops[i];
    OpData& d = op.data;
    const OpSpec& os = spec.phases ? kinds[std::min<size_t>(i * 2 / std::max<size_t>(spec.operations, 1), kinds.size() - 1)]
                                   : kinds[draw.below(i, kKind, kinds.size())];
    d.kind = os.kind;
    d.key = stores_values<Model>() ? int64_t(i) : int64_t(draw.below(i, kKey, uint64_t(std::max<int64_t>(spec.keys, 1))));
    auto& state = states.try_emplace(ModelTraits<Model>::partition_by_key ? d.key : 0, Model::initial()).first->second;
    d.value = int64_t(i) + 1;  // unique written values expose reads of stale or future writes
    if (os.args & kArgExpected) {
      const std::optional<int64_t> cur = ModelTraits<Model>::current_value(state, d);
      d.expected = (cur && draw.below(i, kCasHit, 2)) ? *cur : int64_t(draw.below(i, kCasHit, i + 1));
    }
    if (os.args & kArgCount) d.value = spec.full_batches ? int64_t(spec.batch) : int64_t(1 + draw.below(i, kCount, spec.batch));
    if (os.args & kArgKeys) {
      d.keys_begin = uint32_t(h.key_pool.size());
      d.keys_count = spec.full_batches ? spec.batch : uint32_t(1 + draw.below(i, kCount, spec.batch));
      for (uint32_t k = 0; k < d.keys_count; ++k)
        // Draws past the 64th key of a batch come from their own stream: i * 64 + k
        // would repeat the next operation's draws. Stored values: i << 20 | k
        // (batches hold at most 2^20 keys).
        h.key_pool.push_back(stores_values<Model>() ? int64_t(i << 20 | k)
                             : int64_t(k < 64 ? draw.below(i * 64 + k, kBatchKey, uint64_t(std::max<int64_t>(spec.keys, 1)))
                                              : draw.below((i << 32) + k, kWideBatchKey, uint64_t(std::max<int64_t>(spec.keys, 1)))));
    }
    const bool pending = draw(i, kPending) < uint64_t(spec.pending * 18446744073709551615.0);
    const bool takes_effect = !pending || draw.below(i, kEffect, 2);
    d.pending = pending;
    if (!takes_effect) {
      clear_unused_fields(h.model(), op);
      continue;
    }
    op.has_hint = spec.hints;  // the hint itself is its point, set with the times
    switch (os.returns) {
      case Returns::Nothing: break;
      case Returns::Bool: {
        d.result_kind = ResultKind::Bool;
        d.result = 1;
        auto probe = state;
        if (!Model::step(probe, d, pool, 0)) d.result = 0;
        break;
      }
      case Returns::ValueOrAbsent: {
        const std::optional<int64_t> v = ModelTraits<Model>::current_value(state, d);
        d.result_kind = v ? ResultKind::Value : ResultKind::Absent;
        d.result = v.value_or(0);
        break;
      }
      case Returns::Keys:
        if constexpr (requires { { *state.begin() } -> std::convertible_to<int64_t>; }) {
          const uint32_t take = uint32_t(std::min<int64_t>(d.value, int64_t(state.size())));
          d.result_kind = ResultKind::Keys;
          d.out_begin = uint32_t(h.key_pool.size());
          d.out_count = take;
          auto next_out = state.begin();  // the smallest keys of a priority queue, the front of a queue
          for (uint32_t k = 0; k < take; ++k, ++next_out) h.key_pool.push_back(*next_out);
        }
        break;
    }
    pool = h.key_pool.data();
    if (!Model::step(state, d, pool, 0)) throw std::logic_error("synthetic history: model rejected its own result");
    clear_unused_fields(h.model(), op);
    if (pending) {  // took effect, but its result was never seen
      if (d.result_kind == ResultKind::Keys && d.out_count) h.key_pool.resize(d.out_begin);
      d.result_kind = ResultKind::None;
      d.result = 0;
      d.out_begin = d.out_count = 0;
    }
  }
}

// Trades the largest key of completed pops spread over the history for the
// next completed pop's smallest: both results are then wrong.
void make_pops_wrong(History& h, uint32_t count) {
  std::vector<size_t> pops;
  for (size_t i = 0; i < h.ops.size(); ++i)
    if (h.ops[i].data.kind == OpKind::Pop && !h.ops[i].pending() && h.ops[i].data.out_count > 0) pops.push_back(i);
  for (uint32_t c = 0; c < count && pops.size() >= 2; ++c) {
    const size_t at = (pops.size() - 1) * (c + 1) / (count + 1);
    OpData& a = h.ops[pops[at]].data;
    OpData& b = h.ops[pops[at + 1]].data;
    std::swap(h.key_pool[a.out_begin + a.out_count - 1], h.key_pool[b.out_begin]);
    std::sort(h.key_pool.begin() + a.out_begin, h.key_pool.begin() + a.out_begin + a.out_count);
    std::sort(h.key_pool.begin() + b.out_begin, h.key_pool.begin() + b.out_begin + b.out_count);
  }
}

// Queues and stacks: trades the answers of completed removals a quarter of
// them apart, the pairs spread over the history. Each removal then returns
// a value added long after it (a violation unless the history is small).
void swap_removed_values(History& h, uint32_t count) {
  std::vector<size_t> removals;
  for (size_t i = 0; i < h.ops.size(); ++i) {
    const OpData& d = h.ops[i].data;
    if ((d.kind == OpKind::Dequeue || d.kind == OpKind::Pop) && !d.pending && d.result_kind == ResultKind::Value)
      removals.push_back(i);
  }
  const size_t gap = std::max<size_t>(1, removals.size() / 4);
  for (uint32_t c = 0; c < count && removals.size() > gap; ++c) {
    const size_t at = (removals.size() - gap - 1) * (c + 1) / (count + 1);
    std::swap(h.ops[removals[at]].data.result, h.ops[removals[at + gap]].data.result);
  }
}

}  // namespace

History make_linearizable_history(const SyntheticHistorySpec& spec) {
  History h;
  h.meta.model = spec.model;
  h.meta.seed = spec.seed;
  h.meta.config = "{\"generator\":\"synthetic\",\"operations\":" + std::to_string(spec.operations) + ",\"keys\":" +
                  std::to_string(spec.keys) + ",\"overlap\":" + std::to_string(spec.overlap) + "}";
  h.ops.resize(spec.operations);
  const Draw draw{spec.seed};
  visit_model(spec.model, [&](auto model) { run_sequentially<decltype(model)>(spec, draw, h); });
  // Operation i takes effect at time base + 2i; its interval reaches a
  // uniform [0, overlap] either side; with points 2 apart it overlaps about
  // `overlap` others.
  const uint64_t base = spec.overlap + 1;
  Operation* ops = h.ops.data();
  const SyntheticHistorySpec s = spec;
  detail::with_bulk_policy(spec.operations, [&](auto policy) {
  thrust::for_each(policy, thrust::counting_iterator<size_t>(0), thrust::counting_iterator<size_t>(spec.operations),
                   [=](size_t i) {
                     Operation& op = ops[i];
                     const uint64_t point = base + 2 * i;
                     op.id = i;
                     op.team = uint32_t(draw.below(i, kTeam, std::max<uint32_t>(s.teams, 1)));
                     if (s.warp_batch > 0) {
                       const uint64_t first = i - i % s.warp_batch;  // the batch's first operation
                       op.call = base + 2 * first;
                       op.ret = op.data.pending ? kPendingTime : base + 2 * (first + s.warp_batch - 1) + 1;
                     } else {
                       op.call = point - draw.below(i, kCallWidth, s.overlap + 1);
                       op.ret = op.data.pending ? kPendingTime : point + draw.below(i, kReturnWidth, s.overlap + 1);
                     }
                     if (op.has_hint) op.hint = point;
                   });
  });
  if (spec.wrong_pops && (spec.model == ModelId::Queue || spec.model == ModelId::Stack)) swap_removed_values(h, spec.wrong_pops);
  else if (spec.wrong_pops) make_pops_wrong(h, spec.wrong_pops);
  return h;
}

}  // namespace warpcheck
