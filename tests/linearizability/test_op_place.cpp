// Reports name who ran an operation in the recording run's words (warp and
// job slot, block and thread, the drop-in recorder's lane) and name the
// sentinel words GPU structures return; histories that do not say keep the
// file's own "team" and "lane".
#include <gtest/gtest.h>

#include "linearizability/history.hpp"
#include "linearizability/op_place.hpp"

using namespace warpcheck;

namespace {

Operation at(uint32_t team, uint32_t lane) {
  Operation op;
  op.team = team;
  op.lane = lane;
  return op;
}

std::string place(const std::string& config, uint32_t team, uint32_t lane) {
  HistoryMeta meta;
  meta.config = config;
  return OpPlaces(meta)(at(team, lane));
}

}  // namespace

TEST(OpPlaces, InTheWordsOfTheRunThatRecordedIt) {
  EXPECT_EQ(place("", 2, 5), "team 2 lane 5");
  EXPECT_EQ(place(R"({"structure":"slab_hash","team":"warp","options":{}})", 0, 51), "warp 0 job slot 51");
  EXPECT_EQ(place(R"({"structure":"heap","team":"block","options":{}})", 1, 0), "block 1 job slot 0");
  EXPECT_EQ(place(R"({"recorder":{"team":"warp","teams":4},"run":{"team":"ignored"}})", 3, 7), "warp 3 lane 7");
  EXPECT_EQ(place(R"({"recorder":{"team":"block","teams":4}})", 1, 70), "block 1 thread 70");
  EXPECT_EQ(place(R"({"recorder":{"team":"thread","teams":4}})", 9, 0), "thread 9");
  EXPECT_EQ(place(R"({"recorder":{"team":"thread","teams":4}})", 9, 2), "thread 9 job 2");
  // A configuration that does not say, or says something else, or is not JSON.
  EXPECT_EQ(place(R"({"structure":"x","options":{}})", 1, 2), "team 1 lane 2");
  EXPECT_EQ(place(R"({"team":"wavefront"})", 1, 2), "team 1 lane 2");
  EXPECT_EQ(place("{not json", 1, 2), "team 1 lane 2");
  HistoryMeta warp;
  warp.config = R"({"structure":"gfsl","team":"warp"})";
  EXPECT_EQ(OpPlaces(warp).team_word(), "warp");
  EXPECT_EQ(OpPlaces(HistoryMeta{}).team_word(), "team");
}

TEST(OpPlaces, SentinelsOfARecordedRunAreNamed) {
  History h;
  h.meta.model = ModelId::Map;
  h.meta.config = R"({"structure":"slab_hash","team":"warp"})";
  Operation find;
  find.data.kind = OpKind::Find;
  find.data.key = 4;
  find.data.result_kind = ResultKind::Value;
  find.data.result = 0xFFFFFFFFll;
  find.ret = 10;
  EXPECT_EQ(describe_operation(h, find), "find(4) -> 4294967295 (EMPTY)");
  find.data.result = 0xFFFFFFFEll;
  EXPECT_EQ(describe_operation(h, find), "find(4) -> 4294967294 (TOMBSTONE)");
  find.data.result = 7;
  EXPECT_EQ(describe_operation(h, find), "find(4) -> 7");
  h.meta.model = ModelId::PriorityQueue;
  EXPECT_EQ(sentinel_name(h, 0xFFFFFFFFll), "INF");
  // Named whoever recorded it; string values are the user's own.
  h.meta.model = ModelId::Map;
  h.meta.config.clear();
  find.data.result = 0xFFFFFFFFll;
  EXPECT_EQ(describe_operation(h, find), "find(4) -> 4294967295 (EMPTY)");
  h.meta.string_values = true;
  EXPECT_EQ(sentinel_name(h, 0xFFFFFFFFll), "");
}
