#include "stress/recorder/recorded_history.hpp"

#include <stdexcept>

#include "linearizability/formats.hpp"

namespace warpcheck {

namespace {

// "recorder: stream 2 record 7" + what is wrong with it.
std::runtime_error record_error(uint32_t stream, uint32_t index, const std::string& what) {
  return std::runtime_error("recorder: stream " + std::to_string(stream) + " record " + std::to_string(index) + what);
}

}  // namespace

History history_from_log(const HostLog& log, HistoryMeta meta, uint32_t launch) {
  History h;
  h.meta = std::move(meta);
  const history_log& v = log.view();
  for (uint32_t s = 0; s < v.streams; ++s) {
    if (log.counts[s] > v.capacity) throw std::runtime_error("recorder: stream " + std::to_string(s) + " count past its capacity");
    if (log.lost[s]) h.meta.incomplete = true;
    for (uint32_t i = 0; i < log.counts[s]; ++i) {
      const log_record& r = log.records[size_t(s) * v.capacity + i];
      if (r.kind >= kOpKindCount) throw record_error(s, i, " has op kind " + std::to_string(r.kind));
      Operation op;
      op.id = h.ops.size();
      op.team = s;
      op.lane = r.lane;
      op.launch = launch;
      op.call = r.call;
      op.data.kind = static_cast<OpKind>(r.kind);
      // The model says which operations carry batches of keys (a priority
      // queue's push and pop, a queue's batched enqueue and dequeue; a
      // stack's push and pop are single values): their records name ranges
      // of the stream's key buffer instead of a key.
      const OpSpec* spec = h.model().spec(op.data.kind);
      if (!spec)
        throw record_error(s, i, " is a " + std::string(op_kind_name(op.data.kind)) + ", not an operation of model " +
                                     std::string(h.model().name));
      const bool keys_in = spec->args & kArgKeys, keys_out = spec->returns == Returns::Keys;
      op.data.key = keys_in || keys_out ? 0 : r.key;
      op.data.value = r.value;
      op.data.expected = keys_out ? 0 : r.expected;
      if (r.ret == kLogPending) {
        op.data.pending = true;
        op.ret = kPendingTime;
      } else {
        op.ret = r.ret;
        op.data.result_kind = static_cast<ResultKind>(r.result_kind);
        op.data.result = keys_out ? 0 : r.result;
      }
      if (keys_in || keys_out) {
        // A batch that did not fit was counted as lost (the history is
        // incomplete); its operation is kept pending, with what is known.
        auto take = [&](int64_t offset, int64_t count, uint32_t& begin, uint32_t& n) {
          if (offset == history_log::kNoSlot || count < 0 || uint64_t(offset) + uint64_t(count) > log.key_counts[s] ||
              log.key_counts[s] > v.key_capacity)
            return false;
          begin = static_cast<uint32_t>(h.key_pool.size());
          n = static_cast<uint32_t>(count);
          const int64_t* from = log.keys.data() + size_t(s) * v.key_capacity + offset;
          h.key_pool.insert(h.key_pool.end(), from, from + count);
          return true;
        };
        bool whole = !keys_in || take(r.key, r.value, op.data.keys_begin, op.data.keys_count);
        if (whole && !op.data.pending && keys_out) whole = take(r.expected, r.result, op.data.out_begin, op.data.out_count);
        if (!whole) {
          if (!h.meta.incomplete) throw record_error(s, i, " names keys outside its buffer");
          op.data.pending = true;
          op.ret = kPendingTime;
          op.data.result_kind = ResultKind::None;
          op.data.out_count = 0;
        }
      }
      if (r.has_hint) {
        op.has_hint = true;
        op.hint = r.hint;
      }
      clear_unused_fields(h.model(), op);
      if (auto err = operation_error(h.model(), op, h.key_pool.size())) throw record_error(s, i, ": " + *err);
      h.ops.push_back(op);
    }
  }
  return h;
}

namespace record {

namespace {

std::string clock_name(core::clock_kind c) { return c == core::clock_kind::ticket ? "ticket" : "globaltimer"; }

// The header's configuration: the recorder's shape and what it lost, then
// the run's own parameters as given.
std::string header_config(const Settings& s, uint64_t lost, uint64_t unrecorded) {
  std::string out = "{\"recorder\":{\"team\":\"" + std::string(team_kind_name(s.team)) + "\"" +
                    (s.team == team_kind::tile ? ",\"tile_size\":" + std::to_string(s.tile_size) : std::string()) +
                    ",\"teams\":" + std::to_string(s.teams) + ",\"ops_per_team\":" + std::to_string(s.ops_per_team) +
                    ",\"clock\":\"" + clock_name(s.clock) + "\",\"lost\":" + std::to_string(lost) +
                    ",\"unrecorded\":" + std::to_string(unrecorded) + "}";
  if (!s.config.empty()) out += ",\"run\":" + s.config;
  return out + "}";
}

}  // namespace

History recorded_history(const HostLog& log, const Settings& s, uint64_t unrecorded) {
  validate(s);
  const Summary sum = summarize(log, s, unrecorded);
  HistoryMeta meta;
  meta.model = find_model(s.model)->id;
  meta.seed = s.seed;
  meta.config = header_config(s, sum.lost, unrecorded);
  History h = history_from_log(log, std::move(meta));
  if (unrecorded) h.meta.incomplete = true;
  return h;
}

Summary write_history(const HostLog& log, const Settings& s, uint64_t unrecorded, const std::string& path) {
  save_history(recorded_history(log, s, unrecorded), path, HistoryFormat::Binary);
  return summarize(log, s, unrecorded);
}

}  // namespace record

}  // namespace warpcheck
