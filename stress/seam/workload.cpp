#include "stress/seam/workload.hpp"

#include <rapidcheck.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace warpcheck {

OpMix parse_op_mix(const std::string& text) {
  OpMix mix{0, 0, 0};
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("op mix: expected name=weight, got \"" + item + "\"");
    const std::string name = item.substr(0, eq);
    uint32_t weight = 0;
    try {
      size_t used = 0;
      const unsigned long w = std::stoul(item.substr(eq + 1), &used);
      if (used != item.size() - eq - 1 || w > 1000000) throw std::invalid_argument("");
      weight = static_cast<uint32_t>(w);
    } catch (const std::exception&) {
      throw std::invalid_argument("op mix: weight of " + name + " must be a whole number up to 1,000,000");
    }
    if (name == "insert") mix.insert = weight;
    else if (name == "erase" || name == "delete") mix.erase = weight;
    else if (name == "contains" || name == "search") mix.contains = weight;
    else throw std::invalid_argument("op mix: unknown operation \"" + name + "\" (insert, erase/delete, contains/search)");
  }
  if (mix.insert + mix.erase + mix.contains == 0) throw std::invalid_argument("op mix: all weights are zero");
  return mix;
}

std::string format_op_mix(const OpMix& m) {
  return "insert=" + std::to_string(m.insert) + ",erase=" + std::to_string(m.erase) +
         ",contains=" + std::to_string(m.contains);
}


namespace {

constexpr uint64_t kMillion = 1000000;

bool chance(uint64_t draw, double p) { return double(draw % kMillion) < p * kMillion; }

// Smaller versions of a slot, simplest first: empty it, lower its key,
// drop its knobs.
rc::Seq<GenSlot> shrinks_of(const GenSlot& s) {
  std::vector<GenSlot> out;
  if (s.what != 3) out.push_back(GenSlot{3, 0, false, false});
  if (s.key > 0) {
    GenSlot z = s;
    z.key = 0;
    out.push_back(z);
    if (s.key > 1) {
      z.key = s.key / 2;
      out.push_back(z);
    }
  }
  if (s.copy_prev) {
    GenSlot z = s;
    z.copy_prev = false;
    out.push_back(z);
  }
  if (s.churn) {
    GenSlot z = s;
    z.churn = false;
    out.push_back(z);
  }
  return rc::seq::fromContainer(std::move(out));
}

rc::Gen<GenSlot> slot_gen(const WorkloadShape& shape) {
  const uint64_t total = uint64_t(shape.mix.insert) + shape.mix.erase + shape.mix.contains;
  return rc::Gen<GenSlot>([shape, total](const rc::Random& random, int) {
    rc::Random r = random;
    const uint64_t a = r.next(), b = r.next(), c = r.next(), d = r.next();
    GenSlot s;
    const uint64_t pick = a % total;
    s.what = pick < shape.mix.insert ? 0 : pick < shape.mix.insert + shape.mix.erase ? 1 : 2;
    const bool hot = shape.knobs.hot_keys > 0 && chance(b, shape.knobs.hot_fraction);
    s.key = static_cast<uint32_t>(c % (hot ? std::min<uint64_t>(shape.knobs.hot_keys, uint64_t(shape.keys)) : uint64_t(shape.keys)));
    if (shape.batches && chance(b >> 24, shape.knobs.full_batches)) s.key = static_cast<uint32_t>(shape.keys - 1);
    s.copy_prev = chance(d, shape.knobs.same_key_in_warp);
    s.churn = s.what == 1 && chance(d >> 24, shape.knobs.churn);
    return rc::shrinkable::shrinkRecur(s, &shrinks_of);
  });
}

rc::Gen<std::vector<GenSlot>> workload_gen(const WorkloadShape& shape) {
  return rc::gen::container<std::vector<GenSlot>>(shape.slots(), slot_gen(shape));
}

void validate(const WorkloadShape& s) {
  if (s.keys <= 0 || s.keys > (int64_t(1) << 32)) throw std::invalid_argument("workload: keys must be in [1, 2^32]");
  if (s.lanes == 0 || s.lanes > 32) throw std::invalid_argument("workload: 1 to 32 queues a team");
  if (uint64_t(s.mix.insert) + s.mix.erase + s.mix.contains == 0) throw std::invalid_argument("workload: empty op mix");
  for (double p : {s.knobs.hot_fraction, s.knobs.same_key_in_warp, s.knobs.churn, s.knobs.full_batches})
    if (!(p >= 0 && p <= 1)) throw std::invalid_argument("workload: knob fractions must be in [0, 1]");
}

}  // namespace

std::vector<GenSlot> generate_slots(const WorkloadShape& shape, uint64_t seed) {
  validate(shape);
  return workload_gen(shape)(rc::Random(seed)).value();
}

std::vector<core::workload_op> materialize(const WorkloadShape& shape, const std::vector<GenSlot>& slots) {
  if (slots.size() != shape.slots()) throw std::invalid_argument("workload: wrong number of slots");
  std::vector<core::workload_op> ops(slots.size());
  const uint32_t per = shape.per_lane;
  for (size_t i = 0; i < slots.size(); ++i) {
    const GenSlot& s = slots[i];
    core::workload_op& op = ops[i];
    op.active = s.what != 3;
    op.kind = s.what == 0 ? shape.kinds.insert : s.what == 1 ? shape.kinds.erase : shape.kinds.search;
    op.key = s.key;
    if (s.copy_prev && (i / per) % shape.lanes > 0) op.key = ops[i - per].key;  // the previous lane's same slot
  }
  // Churn: the slot after a churning erase, in its lane, re-inserts its key.
  for (size_t i = 0; i < slots.size(); ++i)
    if (slots[i].churn && ops[i].active && (i % per) + 1 < per) {
      ops[i + 1].active = true;
      ops[i + 1].kind = shape.kinds.insert;
      ops[i + 1].key = ops[i].key;
    }
  // Phases: each lane's inserts first (in their order), then the rest.
  if (shape.knobs.phases)
    for (size_t lane = 0; lane < slots.size(); lane += per)
      std::stable_partition(ops.begin() + lane, ops.begin() + lane + per,
                            [&](const core::workload_op& op) { return op.active && op.kind == shape.kinds.insert; });
  for (size_t i = 0; i < ops.size(); ++i) {
    const bool insert = ops[i].kind == shape.kinds.insert;
    ops[i].value = insert ? int64_t(i) + 1 : 0;
    if (shape.batches) ops[i].key = insert ? ops[i].key + 1 : 0;  // a push's count; a pop takes none
  }
  return ops;
}

Prefill prefill_ops(const WarpWorkload& w, OpKind insert) {
  if (w.prefill > uint64_t(w.keys)) throw std::invalid_argument("workload: a prefill of " + std::to_string(w.prefill) +
                                                                " distinct keys needs at least as many keys, got " + std::to_string(w.keys));
  Prefill p;
  if (w.prefill == 0) return p;
  p.per_lane = (w.prefill + 31) / 32;
  p.ops.assign(p.records(), core::workload_op{.active = false});
  const int64_t first_value = int64_t(w.teams) * 32 * w.ops_per_lane + 1;
  for (uint32_t i = 0; i < w.prefill; ++i) {
    core::workload_op& op = p.ops[size_t(i % 32) * p.per_lane + i / 32];  // lane by lane: keys in strides, not sorted
    op.active = true;
    op.kind = insert;
    op.key = static_cast<int64_t>((__int128(i) * w.keys) / w.prefill);  // evenly spread, distinct as prefill <= keys
    op.value = first_value + i;
  }
  return p;
}

ShrinkResult shrink_workload(const WorkloadShape& shape, uint64_t seed,
                             const std::function<bool(const std::vector<core::workload_op>&)>& still_fails,
                             size_t max_tries) {
  validate(shape);
  ShrinkResult r;
  std::vector<GenSlot> slots = generate_slots(shape, seed);
  auto active = [](const std::vector<GenSlot>& v) {
    std::vector<size_t> at;
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i].what != 3) at.push_back(i);
    return at;
  };
  auto fails = [&](const std::vector<GenSlot>& v) {
    ++r.tries;
    if (!still_fails(materialize(shape, v))) return false;
    ++r.accepted;
    return true;
  };
  r.active_before = active(slots).size();
  // Coarse first (delta debugging): empty whole chunks of the active slots,
  // halves, then quarters, down to chunks of 2.
  for (size_t chunk = r.active_before / 2; chunk >= 2 && r.tries < max_tries; chunk /= 2) {
    for (size_t from = 0; r.tries < max_tries;) {
      const std::vector<size_t> at = active(slots);
      if (from >= at.size()) break;
      std::vector<GenSlot> candidate = slots;
      for (size_t k = from; k < std::min(at.size(), from + chunk); ++k) candidate[at[k]] = GenSlot{3, 0, false, false};
      if (fails(candidate)) slots = std::move(candidate);  // the next chunk now starts at `from`
      else from += chunk;
    }
  }
  // Then RapidCheck's shrinks of each slot (empty it, lower its key, drop
  // its knobs), greedily, from the result.
  rc::Shrinkable<std::vector<GenSlot>> current = rc::shrinkable::shrinkRecur(
      slots, [](const std::vector<GenSlot>& v) { return rc::shrink::eachElement(v, &shrinks_of); });
  for (bool progress = true; progress && r.tries < max_tries;) {
    progress = false;
    auto candidates = current.shrinks();
    while (auto c = candidates.next()) {
      if (r.tries >= max_tries) break;
      if (fails(c->value())) {
        current = std::move(*c);
        progress = true;
        break;
      }
    }
  }
  r.slots = current.value();
  r.active_after = active(r.slots).size();
  return r;
}

std::string format_workload(const std::vector<core::workload_op>& ops) {
  std::ostringstream out;
  for (size_t i = 0; i < ops.size();) {
    const core::workload_op& op = ops[i];
    if (!op.active) {
      size_t run = 1;
      while (i + run < ops.size() && !ops[i + run].active) ++run;
      out << (run == 1 ? "-" : "-*" + std::to_string(run)) << '\n';
      i += run;
      continue;
    }
    out << op_kind_name(op.kind) << ' ' << op.key;
    if (op.value) out << ' ' << op.value;
    out << '\n';
    ++i;
  }
  return out.str();
}

std::vector<core::workload_op> parse_workload(const std::string& text, size_t slots) {
  std::vector<core::workload_op> ops;
  std::istringstream in(text);
  std::string line;
  size_t n = 0;
  auto bad = [&](const std::string& what) {
    return std::invalid_argument("workload line " + std::to_string(n) + ": " + what + ", got '" + line.substr(0, 80) + "'");
  };
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    core::workload_op op;
    if (line[0] == '-') {  // "-": an empty slot; "-*N": N of them
      size_t run = 1;
      if (line != "-") {
        size_t used = 0;
        try {
          if (line.size() < 3 || line[1] != '*') throw std::invalid_argument("");
          run = std::stoul(line.substr(2), &used);
        } catch (const std::exception&) {
          throw bad("expected '-' or '-*N'");
        }
        if (used != line.size() - 2 || run == 0 || run > slots - std::min(slots, ops.size())) throw bad("a run of empty slots past the shape");
      }
      op.active = false;
      ops.insert(ops.end(), run, op);
      continue;
    }
    std::istringstream fields(line);
    std::string kind, rest;
    fields >> kind >> op.key;
    if (!fields || !parse_op_kind(kind, op.kind) || op.key < 0) throw bad("expected 'KIND KEY [VALUE]', '-' or '-*N'");
    if (!(fields >> op.value)) op.value = 0;
    fields.clear();
    if (fields >> rest) throw bad("expected 'KIND KEY [VALUE]'");
    ops.push_back(op);
  }
  if (ops.size() != slots)
    throw std::invalid_argument("workload: " + std::to_string(ops.size()) + " operations, the run's shape has " +
                                std::to_string(slots) + " slots");
  return ops;
}

}  // namespace warpcheck
