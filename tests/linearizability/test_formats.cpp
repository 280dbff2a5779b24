// The formats: lossless conversion both ways, metadata, EDN import rules.
#include <gtest/gtest.h>

#include "linearizability/formats.hpp"
#include "linearizability/synthetic/synthetic_history.hpp"
#include "support/test_data.hpp"

using namespace warpcheck;

// Every known-answer file, whatever its format (binary, JSON lines, EDN),
// read and written again: binary to binary and through JSON lines, byte for
// byte, its failure record, strings and pending operations included.
TEST(Formats, EveryKnownAnswerFileRoundTripsLosslessly) {
  size_t files = 0;
  for (const auto& path : warpcheck::testing::files_in("known")) {
    SCOPED_TRACE(path.filename().string());
    const History h = load_history(path.string(), warpcheck::testing::model_in_name(path));
    const std::string bin = encode_binary(h);
    EXPECT_EQ(encode_binary(read_binary(bin, "round trip")), bin);
    EXPECT_EQ(encode_binary(read_jsonl(encode_jsonl(h), "round trip", std::nullopt)), bin);
    EXPECT_EQ(encode_jsonl(read_binary(bin, "round trip")), encode_jsonl(h));
    ++files;
  }
  EXPECT_GE(files, 70u) << "the known-answer files are missing";
}

TEST(Formats, ConversionIsLosslessBothWaysForEveryModel) {
  for (const ModelInfo& m : kModels) {
    SCOPED_TRACE(std::string(m.name));
    const SyntheticHistorySpec spec{.model = m.id, .operations = 500, .keys = 5, .seed = 42, .pending = 0.1};
    History h = make_linearizable_history(spec);
    h.ops[3].has_hint = true;
    h.ops[3].hint = 123456789012345ULL;
    h.ops[4].lane = 31;
    h.ops[4].launch = 7;
    h.meta.incomplete = true;
    const std::string bin = encode_binary(h);
    const std::string json = encode_jsonl(h);
    const History from_json = read_jsonl(json, "mem", std::nullopt);
    const History from_bin = read_binary(bin, "mem");
    EXPECT_EQ(encode_binary(from_json), bin);
    EXPECT_EQ(encode_jsonl(from_bin), json);
    EXPECT_EQ(from_json.meta.seed, 42u);
    EXPECT_EQ(from_json.meta.config, h.meta.config);
    EXPECT_TRUE(from_json.meta.incomplete);
    EXPECT_EQ(from_bin.ops[3].hint, 123456789012345ULL);
  }
}

TEST(Formats, ExtremeValuesSurvive) {
  const std::string text =
      "{\"model\":\"kv\",\"seed\":18446744073709551615,\"config\":{\"load\":0.9,\"name\":\"x\\\"y\",\"list\":[1,-2e3]}}\n"
      "{\"id\":18446744073709551614,\"team\":4294967295,\"op\":\"cas\",\"key\":-9223372036854775808,\"expected\":9223372036854775807,"
      "\"value\":-1,\"ret\":false,\"call\":0,\"return\":18446744073709551614}\n";
  const History h = read_jsonl(text, "mem", std::nullopt);
  EXPECT_EQ(h.ops[0].id, 18446744073709551614ULL);
  EXPECT_EQ(h.ops[0].data.key, INT64_MIN);
  EXPECT_EQ(h.ops[0].data.expected, INT64_MAX);
  EXPECT_EQ(h.meta.config, "{\"load\":0.9,\"name\":\"x\\\"y\",\"list\":[1,-2e3]}");
  EXPECT_EQ(encode_jsonl(read_binary(encode_binary(h), "mem")), text);
}

TEST(Formats, OmittedAndNullFieldsMeanTheSame) {
  const History a = read_jsonl("{\"model\":\"set\"}\n{\"id\":1,\"op\":\"contains\",\"key\":3,\"value\":null,\"ret\":true,\"call\":1,\"return\":2,\"hint\":null}\n", "a", {});
  const History b = read_jsonl("{\"model\":\"set\"}\n{\"id\":1,\"op\":\"contains\",\"key\":3,\"ret\":true,\"call\":1,\"return\":2}\n", "b", {});
  EXPECT_EQ(encode_binary(a), encode_binary(b));
  const History pending = read_jsonl("{\"model\":\"map\"}\n{\"id\":1,\"op\":\"find\",\"key\":3,\"ret\":null,\"call\":1,\"return\":null}\n", "c", {});
  EXPECT_TRUE(pending.ops[0].pending());
}

TEST(Formats, ModelOptionSuppliesOrOverridesTheModel) {
  const std::string ops = "{\"id\":1,\"op\":\"read\",\"ret\":null,\"call\":1,\"return\":2}\n";
  EXPECT_EQ(read_jsonl(ops, "m", ModelId::Register).meta.model, ModelId::Register);
  EXPECT_EQ(read_jsonl("{\"model\":\"kv\"}\n" + ops, "m", ModelId::CasRegister).meta.model, ModelId::CasRegister);
}

TEST(Formats, DetectsFormatsByContent) {
  EXPECT_EQ(detect_format("WCHIST\x1a\n"), HistoryFormat::Binary);
  EXPECT_EQ(detect_format("  {\"model\":\"set\"}"), HistoryFormat::JsonLines);
  EXPECT_EQ(detect_format("{:process 0}"), HistoryFormat::Edn);
  EXPECT_EQ(detect_format("[{:process 0}]"), HistoryFormat::Edn);
}

TEST(EdnImport, PairsEventsPerProcessAndFollowsJepsenSemantics) {
  const std::string edn = R"([{:process 0, :type :invoke, :f :write, :value 1}
    {:process 1, :type :invoke, :f :cas, :value [1 2]}
    {:process :nemesis, :type :info, :f :kill}
    {:process 0, :type :ok, :f :write, :value 1}
    {:process 2, :type :invoke, :f :cas, :value [7 8]}
    {:process 2, :type :fail, :f :cas, :value [7 8]}
    {:process 1, :type :info, :f :cas, :value [1 2]}
    #jepsen.history.Op{:process 3, :type :invoke, :f :read, :value nil}
    #_ {:process 9, :type :invoke, :f :read}
    #jepsen.history.Op{:process 3, :type :ok, :f :read, :value 2}])";
  const History h = read_edn(edn, "mem.edn", ModelId::CasRegister);
  ASSERT_EQ(h.ops.size(), 3u);  // the failed cas never happened
  EXPECT_EQ(h.ops[0].data.kind, OpKind::Write);
  EXPECT_FALSE(h.ops[0].pending());
  EXPECT_EQ(h.ops[0].call, 0u);
  EXPECT_EQ(h.ops[0].ret, 2u);  // event positions, nemesis skipped
  EXPECT_EQ(h.ops[1].data.kind, OpKind::Cas);
  EXPECT_TRUE(h.ops[1].pending());  // :info: may or may not have happened
  EXPECT_EQ(h.ops[1].data.expected, 1);
  EXPECT_EQ(h.ops[1].data.value, 2);
  EXPECT_EQ(h.ops[2].data.result_kind, ResultKind::Value);
  EXPECT_EQ(h.ops[2].data.result, 2);
  EXPECT_EQ(h.ops[2].team, 3u);
}

TEST(EdnImport, KeyValueTuples) {
  const std::string edn = R"({:process 0, :type :invoke, :f :cas, :value [5 [1 2]]}
{:process 0, :type :ok, :f :cas, :value [5 [1 2]]}
{:process 1, :type :invoke, :f :read, :value [6 nil]}
{:process 1, :type :ok, :f :read, :value [6 nil]})";
  const History h = read_edn(edn, "kv.edn", ModelId::Kv);
  ASSERT_EQ(h.ops.size(), 2u);
  EXPECT_EQ(h.ops[0].data.key, 5);
  EXPECT_EQ(h.ops[0].data.result, 1);
  EXPECT_EQ(h.ops[1].data.key, 6);
  EXPECT_EQ(h.ops[1].data.result_kind, ResultKind::Absent);
}
