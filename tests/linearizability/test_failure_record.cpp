// A failing run's record in its history: kept by both formats, refused
// when it cannot be a run's, and never reported as LINEARIZABLE.
#include <gtest/gtest.h>

#include <sstream>

#include "linearizability/checker.hpp"
#include "linearizability/formats.hpp"
#include "linearizability/html_report.hpp"
#include "linearizability/report.hpp"
#include "linearizability/synthetic/synthetic_history.hpp"

using namespace warpcheck;

namespace {

History deadlocked_history() {
  const SyntheticHistorySpec spec{.model = ModelId::Set, .operations = 40, .keys = 3, .seed = 9};
  History h = make_linearizable_history(spec);
  FailureRecord f;
  f.oracle = FailureOracle::Deadlock;
  f.message = "spin bound: team 2 lane 5 spun 100000 times on bucket[3]";
  f.details = "wait-for cycle: team 2 -> team 4 -> team 2\n\tteam 4 holds bucket[3] (\"lock\")";
  f.evidence = {h.ops[1].id, h.ops[7].id};
  f.reproduce = "warpcheck repro /tmp/x/history.bin";
  h.meta.failure = f;
  return h;
}

}  // namespace

TEST(FailureRecord, BothFormatsKeepItExactly) {
  const History h = deadlocked_history();
  const History from_bin = read_binary(encode_binary(h), "mem");
  const History from_json = read_jsonl(encode_jsonl(h), "mem", std::nullopt);
  ASSERT_TRUE(from_bin.meta.failure && from_json.meta.failure);
  EXPECT_EQ(*from_bin.meta.failure, *h.meta.failure);
  EXPECT_EQ(*from_json.meta.failure, *h.meta.failure);
  EXPECT_EQ(encode_binary(from_json), encode_binary(h));
  // Without a record, the header is what it was: no flag, no member.
  History plain = h;
  plain.meta.failure.reset();
  EXPECT_EQ(encode_jsonl(plain).find("failure"), std::string::npos);
  EXPECT_FALSE(read_binary(encode_binary(plain), "mem").meta.failure);
}

TEST(FailureRecord, EveryOracleNameReadsBack) {
  for (FailureOracle o : kFailureOracles) {
    History h = deadlocked_history();
    h.meta.failure->oracle = o;
    EXPECT_EQ(read_binary(encode_binary(h), "mem").meta.failure->oracle, o) << failure_oracle_name(o);
    EXPECT_EQ(read_jsonl(encode_jsonl(h), "mem", std::nullopt).meta.failure->oracle, o) << failure_oracle_name(o);
  }
}

TEST(FailureRecord, ARecordNoRunWritesIsRefused) {
  auto refused = [](History h, const std::string& why) {
    EXPECT_THROW(read_binary(encode_binary(h), "mem"), InputError) << why;
    EXPECT_THROW(read_jsonl(encode_jsonl(h), "mem", std::nullopt), InputError) << why;
  };
  History h = deadlocked_history();
  h.meta.failure->evidence.push_back(999999);
  refused(h, "evidence naming an operation the history lacks");
  h = deadlocked_history();
  h.meta.failure->message = "two\nlines";
  refused(h, "a message of two lines");
  h = deadlocked_history();
  h.meta.failure->message.clear();
  refused(h, "no message");
  h = deadlocked_history();
  h.meta.failure->details = "\x1b[2J";
  refused(h, "an escape sequence in the details");
  h = deadlocked_history();
  h.meta.failure->reproduce = "bad \xff byte";
  refused(h, "invalid UTF-8");
  const std::string text = encode_jsonl(deadlocked_history());
  std::string unknown = text;
  unknown.replace(unknown.find("deadlock detector"), 17, "ouija board");
  EXPECT_THROW(read_jsonl(unknown, "mem", std::nullopt), InputError);
  std::string extra = text;
  extra.replace(extra.find("\"message\""), 9, "\"mesage\"");
  EXPECT_THROW(read_jsonl(extra, "mem", std::nullopt), InputError);
  // A truncated record: every cut inside it is refused, never read short.
  const std::string bin = encode_binary(deadlocked_history());
  for (size_t cut = 60; cut < 400; cut += 7) EXPECT_THROW(read_binary(bin.substr(0, cut), "mem"), InputError) << cut;
}

TEST(FailureRecord, CheckReportsTheRunAsFailedNotLinearizable) {
  const History h = deadlocked_history();
  const CheckResult r = check_history(h, {});
  ASSERT_EQ(r.verdict, Verdict::Linearizable);  // the history alone is fine
  EXPECT_EQ(check_exit_code(h, r.verdict), kExitRunFailed);
  EXPECT_EQ(check_exit_code(h, Verdict::Violation), 1);
  History plain = h;
  plain.meta.failure.reset();
  EXPECT_EQ(check_exit_code(plain, r.verdict), 0);

  std::ostringstream text, json, html;
  write_text_report(h, r, text);
  EXPECT_EQ(text.str().rfind("RUN FAILED: deadlock detector: spin bound: team 2", 0), 0u) << text.str();
  EXPECT_NE(text.str().find("  wait-for cycle: team 2 -> team 4 -> team 2\n"), std::string::npos);
  EXPECT_NE(text.str().find("the checker on the history: LINEARIZABLE"), std::string::npos);
  write_json_report(h, r, json);
  EXPECT_NE(json.str().find("\"outcome\":\"RUN FAILED\""), std::string::npos);
  EXPECT_NE(json.str().find("\"run_failed\":{\"oracle\":\"deadlock detector\""), std::string::npos);
  write_html_report(h, r, html);
  EXPECT_NE(html.str().find("\"failure\":{\"oracle\":\"deadlock detector\""), std::string::npos);
}
