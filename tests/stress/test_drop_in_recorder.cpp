// The drop-in recorder (warpcheck/record.cuh) compiled for the host: host
// threads and simulator teams record through the same calls a kernel
// makes; the history files it writes are checked; too-small buffers,
// teams past the recorder and bad settings give a clear message and an
// incomplete history, never a crash.
#include <gtest/gtest.h>

#include <cstdio>
#include <deque>
#include <filesystem>
#include <mutex>
#include <sstream>
#include <thread>

#include <warpcheck/checker.hpp>
#include <warpcheck/record.cuh>
#include <warpcheck/recorded_history.hpp>
#include <warpcheck/team.hpp>

namespace warpcheck {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("warpcheck_drop_in_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

record::Settings queue_settings(uint32_t teams, uint32_t ops_per_team) {
  record::Settings s;
  s.model = "queue";
  s.teams = teams;
  s.ops_per_team = ops_per_team;
  return s;
}

// Host threads on a locked std::deque, each its own team: enqueue, then
// dequeue, `rounds` times. Distinct values.
void run_locked_queue(const record::HostRecorder& rec, uint32_t threads, uint32_t rounds) {
  std::mutex m;
  std::deque<int64_t> q;
  std::vector<std::thread> pool;
  for (uint32_t id = 0; id < threads; ++id)
    pool.emplace_back([&, id] {
      const record::log_view& log = rec.view();
      for (uint32_t r = 0; r < rounds; ++r) {
        const int64_t v = int64_t(id) * 1000 + r + 1;
        record::op_handle op = log.begin_on(id, 0, OpKind::Enqueue, v);
        {
          std::lock_guard<std::mutex> g(m);
          q.push_back(v);
        }
        log.end(op);
        op = log.begin_on(id, 0, OpKind::Dequeue);
        int64_t got = 0;
        bool found = false;
        {
          std::lock_guard<std::mutex> g(m);
          if (!q.empty()) {
            got = q.front();
            q.pop_front();
            found = true;
          }
        }
        log.end(op, found ? ResultKind::Value : ResultKind::Absent, got);
      }
    });
  for (auto& t : pool) t.join();
}

TEST(DropInRecorder, HostThreadsWriteAHistoryTheCheckerProves) {
  for (core::clock_kind clock : {core::clock_kind::ticket, core::clock_kind::global_timer}) {
    record::Settings s = queue_settings(4, 50);
    s.clock = clock;
    s.seed = 9;
    s.config = R"({"threads":4,"rounds":25})";
    record::HostRecorder rec(s);
    run_locked_queue(rec, 4, 25);
    const std::string path = temp_path("host.bin");
    const record::Summary sum = rec.write(path);
    EXPECT_FALSE(sum.incomplete()) << sum.message;
    EXPECT_EQ(sum.message, "");
    EXPECT_EQ(sum.operations, 200u);
    EXPECT_EQ(sum.pending, 0u);
    const History h = load_history(path);
    std::remove(path.c_str());
    EXPECT_EQ(h.meta.model, ModelId::Queue);
    EXPECT_EQ(h.meta.seed, 9u);
    EXPECT_FALSE(h.meta.incomplete);
    EXPECT_NE(h.meta.config.find(R"("run":{"threads":4,"rounds":25})"), std::string::npos) << h.meta.config;
    EXPECT_NE(h.meta.config.find(R"("teams":4,"ops_per_team":50)"), std::string::npos) << h.meta.config;
    ASSERT_EQ(h.ops.size(), 200u);
    for (const Operation& op : h.ops) {
      EXPECT_LT(op.call, op.ret);
      EXPECT_LT(op.team, 4u);
    }
    const CheckResult r = check_history(h);
    EXPECT_EQ(r.verdict, Verdict::Linearizable) << r.reason;
    EXPECT_EQ(witness_error(h, r.witness), std::nullopt);
  }
}

// One thread, so the order is known: a dequeue that answers a value nobody
// enqueued first is refuted, and the counterexample names it.
TEST(DropInRecorder, AWrongAnswerIsAViolation) {
  record::HostRecorder rec(queue_settings(1, 4));
  const record::log_view& log = rec.view();
  record::op_handle op = log.begin_on(0, 0, OpKind::Enqueue, 1);
  log.end(op);
  op = log.begin_on(0, 0, OpKind::Enqueue, 2);
  log.end(op);
  op = log.begin_on(0, 0, OpKind::Dequeue);
  log.end(op, ResultKind::Value, 2);  // LIFO where FIFO was promised
  const History h = record::recorded_history(rec);
  const CheckResult r = check_history(h);
  ASSERT_EQ(r.verdict, Verdict::Violation);
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_FALSE(r.counterexample->history.ops.empty());
}

TEST(DropInRecorder, TooSmallBuffersMarkTheHistoryIncompleteAndSaySoWithTheSizeNeeded) {
  record::HostRecorder rec(queue_settings(4, 3));
  run_locked_queue(rec, 4, 5);  // 10 operations a team, room for 3
  const record::Summary sum = rec.summary();
  EXPECT_TRUE(sum.incomplete());
  EXPECT_EQ(sum.operations, 12u);
  EXPECT_EQ(sum.lost, 28u);
  EXPECT_EQ(sum.needed_per_team, 10u);
  EXPECT_NE(sum.message.find("make ops_per_team at least 10"), std::string::npos) << sum.message;
  const std::string path = temp_path("small.bin");
  rec.write(path);
  const History h = load_history(path);
  std::remove(path.c_str());
  EXPECT_TRUE(h.meta.incomplete);
  EXPECT_NE(h.meta.config.find(R"("lost":28)"), std::string::npos) << h.meta.config;
  // The recorded part alone may even look like a violation (a dequeue of a
  // value whose enqueue was lost): no verdict on it is sound.
  const CheckResult r = check_history(h);
  EXPECT_EQ(r.verdict, Verdict::Unknown);
  EXPECT_NE(r.reason.find("the run is incomplete"), std::string::npos) << r.reason;
  EXPECT_TRUE(r.recorded_part.has_value());
}

TEST(DropInRecorder, TeamsPastTheRecorderAreCountedNotWritten) {
  record::HostRecorder rec(queue_settings(2, 4));
  const record::log_view& log = rec.view();
  for (uint32_t team : {0u, 1u, 2u, 7u, UINT32_MAX - 1}) {
    const record::op_handle op = log.begin_on(team, 0, OpKind::Enqueue, team + 1);
    EXPECT_EQ(op.recorded(), team < 2);
    log.end(op);  // harmless for an operation that was not recorded
  }
  EXPECT_EQ(rec.unrecorded(), 3u);
  const record::Summary sum = rec.summary();
  EXPECT_TRUE(sum.incomplete());
  EXPECT_EQ(sum.operations, 2u);
  EXPECT_NE(sum.message.find("3 operation(s) ran on thread teams past the recorder's 2"), std::string::npos)
      << sum.message;
  EXPECT_TRUE(record::recorded_history(rec).meta.incomplete);
  rec.reset();
  EXPECT_FALSE(rec.summary().incomplete());
  EXPECT_EQ(rec.summary().operations, 0u);
}

TEST(DropInRecorder, BadSettingsAreRefusedWithWhatIsWrong) {
  auto refused = [](record::Settings s, const std::string& says) {
    try {
      record::HostRecorder rec(s);
      ADD_FAILURE() << "accepted settings that should say: " << says;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  record::Settings s = queue_settings(4, 8);
  s.model = "deque";
  refused(s, "model \"deque\" is not one of set, map");
  refused(queue_settings(0, 8), "no teams to record");
  refused(queue_settings(4, 0), "no room for records");
  refused(queue_settings(UINT32_MAX, UINT32_MAX), "past the 1 TiB");
  s = queue_settings(4, 8);
  s.config = "[1,2]";
  refused(s, "not a JSON object");
  s.config = R"({"a":1} x)";
  refused(s, "text after its object");
  s.config = "{\"a\":\n1}";
  refused(s, "it is not one line");
  s = queue_settings(4, 8);
  s.team = record::team_kind::tile;
  refused(s, "tile teams need tile_size a power of two from 2 to 32");  // no size given
  s.tile_size = 6;
  refused(s, "not 6");
  s.tile_size = 64;
  refused(s, "not 64");
  s.team = record::team_kind::warp;
  s.tile_size = 4;
  refused(s, "tile_size 4 is for tile teams only (the team kind is warp)");
  // A view of no recorder records nothing, and costs no crash.
  const record::log_view none;
  const record::op_handle op = none.begin_on(0, 0, OpKind::Enqueue, 1);
  EXPECT_FALSE(op.recorded());
  none.end(op);
}

TEST(DropInRecorder, LaunchShapesGiveTheirTeams) {
  EXPECT_EQ(record::teams_for_launch(record::team_kind::thread, 3, 100), 300u);
  EXPECT_EQ(record::teams_for_launch(record::team_kind::warp, 3, 100), 12u);  // 4 warps a block, the last partial
  EXPECT_EQ(record::teams_for_launch(record::team_kind::block, 3, 100), 3u);
  // teams_for: the same on the host too, checked to fit a recorder.
  EXPECT_EQ(record::teams_for(record::team_kind::warp, 3, 100), 12u);
  EXPECT_EQ(record::teams_for(record::team_kind::thread, 1, 8), 8u);  // eight host threads
  EXPECT_THROW(record::teams_for(record::team_kind::thread, 0, 8), std::invalid_argument);
  EXPECT_THROW(record::teams_for(record::team_kind::thread, uint64_t(1) << 20, uint64_t(1) << 20), std::invalid_argument);
  EXPECT_THROW(record::teams_for(record::team_kind::thread, uint64_t(1) << 40, uint64_t(1) << 40), std::invalid_argument);
  // Tiles (cg::tiled_partition<N>): N threads a team, numbered within blocks.
  EXPECT_EQ(record::teams_for_launch(record::team_kind::tile, 3, 128, 4), 96u);
  EXPECT_EQ(record::teams_for_launch(record::team_kind::tile, 3, 100, 16), 21u);  // 7 a block, the last partial
  EXPECT_EQ(record::teams_for(record::team_kind::tile, 2, 64, 32), 4u);
  EXPECT_THROW(record::teams_for(record::team_kind::tile, 2, 64), std::invalid_argument);        // no size
  EXPECT_THROW(record::teams_for(record::team_kind::tile, 2, 64, 3), std::invalid_argument);     // not a power of two
  EXPECT_THROW(record::teams_for(record::team_kind::thread, 2, 64, 4), std::invalid_argument);   // size for another kind
}

// A kernel's thread finds its stream as the launch's teams are counted
// (teams_for): tiles of 4 in blocks of 128 threads, warps in blocks of 100
// (the last partial), threads, blocks.
TEST(DropInRecorder, AKernelThreadsPlaceIsItsTeamsStream) {
  record::log_view v;
  uint64_t stream = 0;
  uint32_t lane = 0;
  v.team = record::team_kind::tile;
  v.tile_size = 4;
  v.place_of(2, 37, 128, stream, lane);  // block 2, thread 37: tile 9 of its block
  EXPECT_EQ(stream, 2u * 32 + 9);
  EXPECT_EQ(lane, 1u);
  v.place_of(2, 127, 128, stream, lane);  // the launch's last tile
  EXPECT_EQ(stream + 1, record::teams_for(record::team_kind::tile, 3, 128, 4));
  v.team = record::team_kind::warp;
  v.tile_size = 0;
  v.place_of(1, 99, 100, stream, lane);  // the partial fourth warp of block 1
  EXPECT_EQ(stream, 4u + 3);
  EXPECT_EQ(lane, 3u);
  EXPECT_EQ(stream + 1, record::teams_for(record::team_kind::warp, 2, 100));
  v.team = record::team_kind::thread;
  v.place_of(1, 99, 100, stream, lane);
  EXPECT_EQ(stream, 199u);
  EXPECT_EQ(lane, 0u);
  v.team = record::team_kind::block;
  v.place_of(5, 17, 100, stream, lane);
  EXPECT_EQ(stream, 5u);
  EXPECT_EQ(lane, 17u);
}

// Tile teams: the history's header says "tile" and the size, and the
// checker's reports name an operation's place as "tile T lane L".
TEST(DropInRecorder, TileTeamsAreNamedAsTilesInReports) {
  record::Settings s;
  s.model = "set";
  s.team = record::team_kind::tile;
  s.tile_size = 4;
  s.teams = record::teams_for(s.team, 1, 8, 4);
  s.ops_per_team = 2;
  record::HostRecorder rec(s);
  const record::log_view& log = rec.view();
  EXPECT_EQ(log.tile_size, 4u);
  // Tile 1's lane 0 inserts 7 (true); tile 0's lane 0 then says 7 is absent: a violation.
  record::op_handle op = log.begin_on(1, 0, OpKind::Insert, 7);
  log.end(op, ResultKind::Bool, 1);
  op = log.begin_on(0, 0, OpKind::Contains, 7);
  log.end(op, ResultKind::Bool, 0);
  const History h = record::recorded_history(rec);
  EXPECT_NE(h.meta.config.find(R"("team":"tile","tile_size":4,"teams":2)"), std::string::npos) << h.meta.config;
  const CheckResult r = check_history(h);
  ASSERT_EQ(r.verdict, Verdict::Violation);
  std::ostringstream text;
  write_text_report(h, r, text);
  EXPECT_NE(text.str().find("tile 1 lane 0"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("tile 0 lane 0"), std::string::npos) << text.str();
}

// Teams of the simulator record with the team's clock (the step) through
// begin(t, ...): a thread stream per lane, or one per team whose lane 0
// records; an operation begun and never ended is pending.
TEST(DropInRecorder, SimulatorTeamsRecordWithTheirOwnClock) {
  for (record::team_kind kind : {record::team_kind::thread, record::team_kind::warp}) {
    record::Settings s;
    s.model = "register";
    s.team = kind;
    s.teams = kind == record::team_kind::thread ? 6 : 3;
    s.ops_per_team = 4;
    record::HostRecorder rec(s);
    int64_t reg = 0;
    sim::SimConfig c;
    c.teams = 3;
    c.lanes = 2;
    c.seed = 5;
    sim::Simulator simulator(c);
    const sim::RunReport run = simulator.run([&](sim::sim_team& t) {
      if (kind == record::team_kind::warp && t.lane() != 0) return;
      const record::log_view& log = rec.view();
      const int64_t v = int64_t(t.team_id()) * 10 + t.lane() + 1;
      record::op_handle op = log.begin(t, OpKind::Write, 0, v);
      t.store(&reg, v, core::order::relaxed, core::scope::gpu);
      log.end(t, op);
      op = log.begin(t, OpKind::Read);
      const int64_t seen = t.load(&reg, core::order::relaxed, core::scope::gpu);
      if (t.team_id() == 2) return;  // gives up before its response: pending
      log.end(t, op, ResultKind::Value, seen);
    });
    ASSERT_TRUE(run.ok()) << run.message;
    const History h = record::recorded_history(rec);
    const size_t writers = kind == record::team_kind::thread ? 6 : 3;
    ASSERT_EQ(h.ops.size(), 2 * writers);
    size_t pending = 0;
    for (const Operation& op : h.ops) {
      EXPECT_LE(op.call, run.steps);
      if (op.pending()) {
        ++pending;
        EXPECT_EQ(op.team / (kind == record::team_kind::thread ? 2 : 1), 2u);
      }
    }
    EXPECT_EQ(pending, kind == record::team_kind::thread ? 2u : 1u);
    EXPECT_EQ(check_history(h).verdict, Verdict::Linearizable);
  }
}

}  // namespace
}  // namespace warpcheck
