// RapidCheck generators of small histories for the property tests: fully
// random ones (heavy overlap, random results: mostly violations) and
// linearizable-by-construction ones with a few results corrupted (near
// misses, both verdicts).
#pragma once

#include <rapidcheck.h>

#include <map>
#include <optional>
#include <vector>

#include "linearizability/formats.hpp"
#include "linearizability/synthetic/synthetic_history.hpp"

namespace warpcheck::testing {

inline rc::Gen<ModelId> gen_model() {
  return rc::gen::element(ModelId::Set, ModelId::Map, ModelId::Multimap, ModelId::PriorityQueue, ModelId::Register,
                          ModelId::CasRegister, ModelId::Kv, ModelId::Queue, ModelId::Stack);
}

inline std::vector<int64_t> random_keys(size_t max_count) {
  auto n = *rc::gen::inRange<size_t>(0, max_count + 1);
  return *rc::gen::container<std::vector<int64_t>>(n, rc::gen::inRange<int64_t>(0, 5));
}

inline History random_history(ModelId model, size_t max_ops, int64_t max_keys) {
  History h;
  h.meta.model = model;
  const ModelInfo& info = model_info(model);
  const size_t n = *rc::gen::inRange<size_t>(0, max_ops + 1);
  const int64_t keys = *rc::gen::inRange<int64_t>(1, max_keys + 1);
  for (size_t i = 0; i < n; ++i) {
    Operation op;
    op.id = i;
    op.team = uint32_t(i % 4);
    // Integer values: no appends (random_kv_string_history has them; they come last).
    const size_t kinds = info.ops.back().kind == OpKind::Append ? info.ops.size() - 1 : info.ops.size();
    const OpSpec& spec = info.ops[*rc::gen::inRange<size_t>(0, kinds)];
    OpData& d = op.data;
    d.kind = spec.kind;
    d.key = *rc::gen::inRange<int64_t>(0, keys);
    d.value = *rc::gen::inRange<int64_t>(1, 5);
    d.expected = *rc::gen::inRange<int64_t>(0, 5);
    if (spec.args & kArgCount) d.value = *rc::gen::inRange<int64_t>(0, 4);
    if (spec.args & kArgKeys) {
      auto ks = random_keys(3);
      d.keys_begin = uint32_t(h.key_pool.size());
      d.keys_count = uint32_t(ks.size());
      h.key_pool.insert(h.key_pool.end(), ks.begin(), ks.end());
    }
    op.call = *rc::gen::inRange<uint64_t>(0, 3 * n + 1);
    d.pending = *rc::gen::inRange(0, 8) == 0;
    op.ret = d.pending ? kPendingTime : op.call + *rc::gen::inRange<uint64_t>(0, 9);
    if (!d.pending) {
      switch (spec.returns) {
        case Returns::Nothing: break;
        case Returns::Bool: d.result_kind = ResultKind::Bool; d.result = *rc::gen::inRange(0, 2); break;
        case Returns::ValueOrAbsent:
          d.result = *rc::gen::inRange<int64_t>(0, 5);
          d.result_kind = d.result == 0 ? ResultKind::Absent : ResultKind::Value;
          break;
        case Returns::Keys: {
          auto ks = random_keys(size_t(d.value));
          if (*rc::gen::inRange(0, 4) != 0) std::sort(ks.begin(), ks.end());
          d.result_kind = ResultKind::Keys;
          d.out_begin = uint32_t(h.key_pool.size());
          d.out_count = uint32_t(ks.size());
          h.key_pool.insert(h.key_pool.end(), ks.begin(), ks.end());
          break;
        }
      }
    }
    clear_unused_fields(info, op);
    h.ops.push_back(op);
  }
  validate_history(h, "random history");
  return h;
}

// Changes one completed operation's result to a different valid one.
inline void corrupt_one_result(History& h) {
  std::vector<size_t> completed;
  for (size_t i = 0; i < h.ops.size(); ++i)
    if (!h.ops[i].pending() && h.ops[i].data.result_kind != ResultKind::None) completed.push_back(i);
  if (completed.empty()) return;
  Operation& op = h.ops[*rc::gen::elementOf(completed)];
  OpData& d = op.data;
  switch (d.result_kind) {
    case ResultKind::Bool: d.result = !d.result; break;
    case ResultKind::Value:
      if (*rc::gen::inRange(0, 2)) { d.result_kind = ResultKind::Absent; d.result = 0; }
      else d.result += *rc::gen::inRange<int64_t>(1, 3);
      break;
    case ResultKind::Absent: d.result_kind = ResultKind::Value; d.result = *rc::gen::inRange<int64_t>(1, 50); break;
    case ResultKind::Keys:
      if (d.out_count > 0 && *rc::gen::inRange(0, 2)) --d.out_count;
      else if (d.out_count > 0) h.key_pool[d.out_begin] += *rc::gen::inRange<int64_t>(1, 3);
      else return;
      if (d.out_count == 0) d.out_begin = 0;
      break;
    case ResultKind::None: break;
  }
}

// Key-value histories with string values and appends, on one or two keys:
// pieces and results drawn from a few short strings, so that appended
// pieces often join into a value some read returned ("a" + "b" = "ab").
inline History random_kv_string_history(size_t max_ops) {
  static const std::vector<std::string> texts = {"", "a", "b", "ab", "ba", "aa", "abb"};
  History h;
  h.meta.model = ModelId::Kv;
  h.meta.string_values = true;
  h.strings = texts;
  const size_t n = *rc::gen::inRange<size_t>(0, max_ops + 1);
  auto text = [] { return *rc::gen::inRange<int64_t>(0, int64_t(texts.size())); };
  for (size_t i = 0; i < n; ++i) {
    Operation op;
    op.id = i;
    OpData& d = op.data;
    d.kind = *rc::gen::element(OpKind::Read, OpKind::Write, OpKind::Append, OpKind::Append, OpKind::Cas);
    d.key = *rc::gen::inRange<int64_t>(0, 2);
    if (d.kind != OpKind::Read) d.value = text();
    if (d.kind == OpKind::Cas) d.expected = text();
    op.call = *rc::gen::inRange<uint64_t>(0, 3 * n + 1);
    d.pending = *rc::gen::inRange(0, 8) == 0;
    op.ret = d.pending ? kPendingTime : op.call + *rc::gen::inRange<uint64_t>(0, 9);
    if (!d.pending && d.kind == OpKind::Read) {
      d.result_kind = *rc::gen::inRange(0, 5) == 0 ? ResultKind::Absent : ResultKind::Value;
      d.result = d.result_kind == ResultKind::Value ? text() : 0;
    }
    if (!d.pending && d.kind == OpKind::Cas) {
      d.result_kind = ResultKind::Bool;
      d.result = *rc::gen::inRange(0, 2);
    }
    clear_unused_fields(model_info(ModelId::Kv), op);
    h.ops.push_back(op);
  }
  compact_strings(h);
  validate_history(h, "random kv string history");
  return h;
}

// Queue or stack histories with distinct added values and single
// operations: each removal returns null, a value added before or after it,
// or one another removal returned; intervals are random, some pending.
// Mostly violations, with the tricky shapes (overlapping additions, nulls,
// pending operations on both sides) in reach.
inline History random_distinct_value_history(ModelId model, size_t max_ops) {
  History h;
  h.meta.model = model;
  const OpKind add = model == ModelId::Queue ? OpKind::Enqueue : OpKind::Push;
  const OpKind remove = model == ModelId::Queue ? OpKind::Dequeue : OpKind::Pop;
  const size_t n = *rc::gen::inRange<size_t>(0, max_ops + 1);
  const int64_t adds = int64_t(n / 2 + 1);
  int64_t next_value = 0;
  for (size_t i = 0; i < n; ++i) {
    Operation op;
    op.id = i;
    op.team = uint32_t(i % 4);
    OpData& d = op.data;
    d.kind = *rc::gen::arbitrary<bool>() ? add : remove;
    if (d.kind == add) d.key = next_value++;
    op.call = *rc::gen::inRange<uint64_t>(0, 3 * n + 1);
    d.pending = *rc::gen::inRange(0, 8) == 0;
    op.ret = d.pending ? kPendingTime : op.call + *rc::gen::inRange<uint64_t>(0, 9);
    if (!d.pending && d.kind == remove) {
      d.result = *rc::gen::inRange<int64_t>(-1, adds);
      d.result_kind = d.result < 0 ? ResultKind::Absent : ResultKind::Value;
      d.result = std::max<int64_t>(d.result, 0);
    }
    clear_unused_fields(model_info(model), op);
    h.ops.push_back(op);
  }
  validate_history(h, "random distinct-value history");
  return h;
}

// Operation i of a multimap history on `keys` keys: an insert (half the
// time) of a value of its own, an erase or a find; times and results unset.
inline Operation random_multimap_operation(size_t i, int64_t keys, int64_t& next_value) {
  Operation op;
  op.id = i;
  op.team = uint32_t(i % 4);
  op.data.kind = *rc::gen::element(OpKind::Insert, OpKind::Insert, OpKind::Erase, OpKind::Find);
  op.data.key = *rc::gen::inRange<int64_t>(0, keys);
  if (op.data.kind == OpKind::Insert) op.data.value = next_value++;
  return op;
}

// Multimap histories whose inserts each add a value of their own, on one
// to `max_keys` keys. Random: each erase or find returns absent, a value
// inserted (on any key, before or after it) or one nobody inserted.
// Mostly violations.
inline History random_distinct_value_multimap_history(size_t max_ops, int64_t max_keys) {
  History h;
  h.meta.model = ModelId::Multimap;
  const size_t n = *rc::gen::inRange<size_t>(0, max_ops + 1);
  const int64_t keys = *rc::gen::inRange<int64_t>(1, max_keys + 1);
  int64_t next_value = 1;
  for (size_t i = 0; i < n; ++i) {
    Operation op = random_multimap_operation(i, keys, next_value);
    OpData& d = op.data;
    op.call = *rc::gen::inRange<uint64_t>(0, 3 * n + 1);
    d.pending = *rc::gen::inRange(0, 6) == 0;
    op.ret = d.pending ? kPendingTime : op.call + *rc::gen::inRange<uint64_t>(0, 9);
    if (!d.pending && d.kind != OpKind::Insert) {
      d.result = *rc::gen::inRange<int64_t>(0, int64_t(n / 2) + 2);
      d.result_kind = d.result == 0 ? ResultKind::Absent : ResultKind::Value;
    }
    clear_unused_fields(model_info(ModelId::Multimap), op);
    h.ops.push_back(op);
  }
  validate_history(h, "random distinct-value multimap history");
  return h;
}

// Operation i of a sequential run, at point 2i (past a margin), widened
// into an interval of up to `overlap` stamps either side; with `coarse`,
// rounded out to multiples of 4 (so that many intervals touch). A pending
// one never returns and its result is never seen.
inline void widen_into_interval(Operation& op, size_t i, uint64_t overlap, bool coarse) {
  const uint64_t point = 2 * overlap + 4 + 2 * i;
  op.call = point - *rc::gen::inRange<uint64_t>(0, overlap + 1);
  op.ret = point + *rc::gen::inRange<uint64_t>(0, overlap + 1);
  if (coarse) {
    op.call -= op.call % 4;
    op.ret += (4 - op.ret % 4) % 4;
  }
  if (op.data.pending) {
    op.ret = kPendingTime;
    op.data.result_kind = ResultKind::None;
    op.data.result = 0;
  }
}

// Multimap histories linearizable by construction, with values of their
// own: a sequential run in which finds and erases pick a live value at
// random (pending operations take effect or not), each point widened into
// an interval of up to `overlap` stamps either side; with `coarse`, times
// are rounded out to multiples of 4, so that many intervals touch.
inline History linearizable_distinct_value_multimap_history(size_t max_ops, int64_t max_keys, uint64_t overlap, bool coarse) {
  History h;
  h.meta.model = ModelId::Multimap;
  const size_t n = *rc::gen::inRange<size_t>(1, max_ops + 1);
  const int64_t keys = *rc::gen::inRange<int64_t>(1, max_keys + 1);
  const int pending_one_in = *rc::gen::element(0, 4, 8);
  std::map<int64_t, std::vector<int64_t>> live;
  int64_t next_value = 1;
  for (size_t i = 0; i < n; ++i) {
    Operation op = random_multimap_operation(i, keys, next_value);
    OpData& d = op.data;
    d.pending = pending_one_in > 0 && *rc::gen::inRange(0, pending_one_in) == 0;
    const bool takes_effect = !d.pending || *rc::gen::arbitrary<bool>();
    std::vector<int64_t>& values = live[d.key];
    if (d.kind == OpKind::Insert) {
      if (takes_effect) values.push_back(d.value);
    } else if (takes_effect) {
      std::optional<size_t> pick;
      if (!values.empty()) pick = *rc::gen::inRange<size_t>(0, values.size());
      d.result_kind = pick ? ResultKind::Value : ResultKind::Absent;
      d.result = pick ? values[*pick] : 0;
      if (pick && d.kind == OpKind::Erase) values.erase(values.begin() + long(*pick));
    }
    widen_into_interval(op, i, overlap, coarse);
    clear_unused_fields(model_info(ModelId::Multimap), op);
    h.ops.push_back(op);
  }
  validate_history(h, "linearizable distinct-value multimap history");
  return h;
}

// Batched priority-queue histories, mostly with distinct keys (from
// `keys`): full or random batches, pushes first or mixed, warp batches,
// pending operations, wrong pops, everything overlapping; one result in
// `corrupt_one_in` corrupted (0: none).
inline History random_batched_pq_history(size_t max_ops, int64_t keys, int corrupt_one_in) {
  SyntheticHistorySpec spec;
  spec.model = ModelId::PriorityQueue;
  spec.operations = *rc::gen::inRange<size_t>(2, max_ops + 1);
  spec.keys = keys;
  spec.overlap = *rc::gen::inRange<uint64_t>(0, 16);
  spec.warp_batch = *rc::gen::element(0u, 0u, 3u, 5u);
  spec.pending = *rc::gen::element(0.0, 0.0, 0.2, 0.4);
  spec.batch = *rc::gen::inRange<uint32_t>(1, 5);
  spec.full_batches = *rc::gen::arbitrary<bool>();
  spec.phases = *rc::gen::arbitrary<bool>();
  spec.wrong_pops = *rc::gen::element(0u, 0u, 1u, 2u);
  spec.seed = *rc::gen::arbitrary<uint64_t>();
  History h = make_linearizable_history(spec);
  if (corrupt_one_in > 0 && *rc::gen::inRange(0, corrupt_one_in) == 0) corrupt_one_result(h);
  compact_key_pool(h);
  return h;
}

// Operation i of a distinct-value history, on `key`: the value it writes
// (if it writes one) is its own, i + 1.
inline Operation distinct_value_operation(size_t i, OpKind kind, int64_t key) {
  Operation op;
  op.id = i;
  op.team = uint32_t(i % 4);
  op.data.kind = kind;
  op.data.key = key;
  op.data.value = int64_t(i) + 1;
  return op;
}

// An interval anywhere in 3n stamps, a few stamps long, pending one time in 6.
inline void random_interval(Operation& op, size_t n) {
  op.call = *rc::gen::inRange<uint64_t>(0, 3 * n + 1);
  op.data.pending = *rc::gen::inRange(0, 6) == 0;
  op.ret = op.data.pending ? kPendingTime : op.call + *rc::gen::inRange<uint64_t>(0, 9);
}

// Register, cas-register or kv histories (on up to `max_keys` keys) whose
// writes and CASes each write a value of their own. Random: reads return
// absent, a value written (on any key, before or after) or one nobody
// wrote; a CAS expects one of those and succeeds or fails at random.
// Mostly violations.
inline History random_distinct_value_register_history(ModelId model, size_t max_ops, int64_t max_keys) {
  History h;
  h.meta.model = model;
  const ModelInfo& info = model_info(model);
  const size_t n = *rc::gen::inRange<size_t>(max_ops / 2, max_ops + 1);  // RapidCheck favours small draws
  const int64_t keys = model == ModelId::Kv ? *rc::gen::inRange<int64_t>(1, max_keys + 1) : 1;
  const size_t kinds = info.ops.back().kind == OpKind::Append ? info.ops.size() - 1 : info.ops.size();
  for (size_t i = 0; i < n; ++i) {
    Operation op = distinct_value_operation(i, info.ops[*rc::gen::inRange<size_t>(0, kinds)].kind, *rc::gen::inRange<int64_t>(0, keys));
    OpData& d = op.data;
    d.expected = *rc::gen::inRange<int64_t>(1, int64_t(n) + 2);
    random_interval(op, n);
    if (!d.pending && d.kind == OpKind::Read) {
      d.result = *rc::gen::inRange<int64_t>(0, int64_t(n) + 2);
      d.result_kind = d.result == 0 ? ResultKind::Absent : ResultKind::Value;
    }
    if (!d.pending && d.kind == OpKind::Cas) {
      d.result_kind = ResultKind::Bool;
      d.result = *rc::gen::inRange(0, 2);
    }
    clear_unused_fields(info, op);
    h.ops.push_back(op);
  }
  validate_history(h, "random distinct-value register history");
  return h;
}

// Register, cas-register or kv histories linearizable by construction,
// with values of their own: a sequential run in which a CAS expects the
// current value half the time (and some value written before, or none,
// otherwise), pending operations take effect or not, each point widened
// into an interval of up to `overlap` stamps either side; with `coarse`,
// times are rounded out to multiples of 4, so that many intervals touch.
inline History linearizable_distinct_value_register_history(ModelId model, size_t max_ops, int64_t max_keys, uint64_t overlap,
                                                            bool coarse) {
  History h;
  h.meta.model = model;
  const ModelInfo& info = model_info(model);
  const size_t n = *rc::gen::inRange<size_t>(std::max<size_t>(1, max_ops / 2), max_ops + 1);  // RapidCheck favours small draws
  const int64_t keys = model == ModelId::Kv ? *rc::gen::inRange<int64_t>(1, max_keys + 1) : 1;
  const size_t kinds = info.ops.back().kind == OpKind::Append ? info.ops.size() - 1 : info.ops.size();
  const int pending_one_in = *rc::gen::element(0, 4, 8);
  std::map<int64_t, std::optional<int64_t>> current;
  for (size_t i = 0; i < n; ++i) {
    Operation op = distinct_value_operation(i, info.ops[*rc::gen::inRange<size_t>(0, kinds)].kind, *rc::gen::inRange<int64_t>(0, keys));
    OpData& d = op.data;
    std::optional<int64_t>& now = current[d.key];
    d.expected = now && *rc::gen::arbitrary<bool>() ? *now : *rc::gen::inRange<int64_t>(1, int64_t(i) + 2);
    d.pending = pending_one_in > 0 && *rc::gen::inRange(0, pending_one_in) == 0;
    const bool takes_effect = !d.pending || *rc::gen::arbitrary<bool>();
    if (d.kind == OpKind::Read) {
      d.result_kind = now ? ResultKind::Value : ResultKind::Absent;
      d.result = now.value_or(0);
    } else if (d.kind == OpKind::Cas) {
      const bool swapped = now && *now == d.expected;
      d.result_kind = ResultKind::Bool;
      d.result = swapped;
      if (swapped && takes_effect) now = d.value;
    } else if (takes_effect) {
      now = d.value;
    }
    widen_into_interval(op, i, overlap, coarse);
    clear_unused_fields(info, op);
    h.ops.push_back(op);
  }
  validate_history(h, "linearizable distinct-value register history");
  return h;
}

// Map histories (on up to `max_keys` keys) whose inserts and upserts each
// write a value of their own. Random: finds return absent, a value written
// (on any key, before or after) or one nobody wrote; inserts and erases
// succeed or fail at random. Mostly violations.
inline History random_distinct_value_map_history(size_t max_ops, int64_t max_keys) {
  History h;
  h.meta.model = ModelId::Map;
  const ModelInfo& info = model_info(ModelId::Map);
  const size_t n = *rc::gen::inRange<size_t>(max_ops / 2, max_ops + 1);  // RapidCheck favours small draws
  const int64_t keys = *rc::gen::inRange<int64_t>(1, max_keys + 1);
  for (size_t i = 0; i < n; ++i) {
    Operation op = distinct_value_operation(i, *rc::gen::element(OpKind::Insert, OpKind::Upsert, OpKind::Erase, OpKind::Find),
                                            *rc::gen::inRange<int64_t>(0, keys));
    OpData& d = op.data;
    random_interval(op, n);
    if (!d.pending && d.kind == OpKind::Find) {
      d.result = *rc::gen::inRange<int64_t>(0, int64_t(n) + 2);
      d.result_kind = d.result == 0 ? ResultKind::Absent : ResultKind::Value;
    } else if (!d.pending && d.kind != OpKind::Upsert) {
      d.result_kind = ResultKind::Bool;
      d.result = *rc::gen::inRange(0, 2);
    }
    clear_unused_fields(info, op);
    h.ops.push_back(op);
  }
  validate_history(h, "random distinct-value map history");
  return h;
}

// Map histories linearizable by construction, with values of their own: a
// sequential run (pending operations take effect or not), each point
// widened into an interval of up to `overlap` stamps either side; with
// `coarse`, times are rounded out to multiples of 4, so that many
// intervals touch.
inline History linearizable_distinct_value_map_history(size_t max_ops, int64_t max_keys, uint64_t overlap, bool coarse) {
  History h;
  h.meta.model = ModelId::Map;
  const ModelInfo& info = model_info(ModelId::Map);
  const size_t n = *rc::gen::inRange<size_t>(std::max<size_t>(1, max_ops / 2), max_ops + 1);  // RapidCheck favours small draws
  const int64_t keys = *rc::gen::inRange<int64_t>(1, max_keys + 1);
  const int pending_one_in = *rc::gen::element(0, 4, 8);
  std::map<int64_t, std::optional<int64_t>> current;
  for (size_t i = 0; i < n; ++i) {
    Operation op = distinct_value_operation(i, *rc::gen::element(OpKind::Insert, OpKind::Upsert, OpKind::Erase, OpKind::Find),
                                            *rc::gen::inRange<int64_t>(0, keys));
    OpData& d = op.data;
    std::optional<int64_t>& now = current[d.key];
    d.pending = pending_one_in > 0 && *rc::gen::inRange(0, pending_one_in) == 0;
    const bool takes_effect = !d.pending || *rc::gen::arbitrary<bool>();
    switch (d.kind) {
      case OpKind::Insert:
        d.result_kind = ResultKind::Bool;
        d.result = !now;
        if (!now && takes_effect) now = d.value;
        break;
      case OpKind::Upsert:
        if (takes_effect) now = d.value;
        break;
      case OpKind::Erase:
        d.result_kind = ResultKind::Bool;
        d.result = now.has_value();
        if (takes_effect) now.reset();
        break;
      default:
        d.result_kind = now ? ResultKind::Value : ResultKind::Absent;
        d.result = now.value_or(0);
        break;
    }
    widen_into_interval(op, i, overlap, coarse);
    clear_unused_fields(info, op);
    h.ops.push_back(op);
  }
  validate_history(h, "linearizable distinct-value map history");
  return h;
}

inline History perturbed_history(ModelId model, size_t max_ops, uint64_t overlap_max) {
  SyntheticHistorySpec spec;
  spec.model = model;
  spec.operations = *rc::gen::inRange<size_t>(1, max_ops + 1);
  spec.keys = *rc::gen::inRange<int64_t>(1, 4);
  spec.overlap = *rc::gen::inRange<uint64_t>(0, overlap_max + 1);
  spec.pending = *rc::gen::element(0.0, 0.1, 0.25);
  spec.batch = 3;
  spec.seed = *rc::gen::arbitrary<uint64_t>();
  History h = make_linearizable_history(spec);
  const int corruptions = *rc::gen::inRange(0, 3);
  for (int i = 0; i < corruptions; ++i) corrupt_one_result(h);
  compact_key_pool(h);  // a shortened pop leaves a key behind
  validate_history(h, "perturbed history");
  return h;
}

}  // namespace warpcheck::testing
