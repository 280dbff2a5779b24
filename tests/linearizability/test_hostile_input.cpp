// Hostile input: files that used to be read leniently (an EDN event without
// a process, repeated JSON members and EDN keys, a binary record's reserved
// byte) are refused with a clear message; a damaged binary file read
// without --format says what it was read as and why; messages quote user
// text cut to a readable length, with bytes escaped.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "linearizability/formats.hpp"
#include "linearizability/synthetic/synthetic_history.hpp"
#include "support/test_data.hpp"

using namespace warpcheck;
using namespace warpcheck::testing;

namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// One line of printable ASCII: what a terminal shows as it is.
bool printable_line(const std::string& s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) return false;
  return true;
}

std::string temp_file(const std::string& name, const std::string& contents) {
  const auto path = std::filesystem::temp_directory_path() / ("warpcheck_hostile_" + name);
  std::ofstream(path, std::ios::binary) << contents;
  return path.string();
}

}  // namespace

TEST(HostileInput, EveryHostileFileIsRefusedWithItsReason) {
  const std::map<std::string, std::string> expected = {
      {"edn_event_without_process.edn", ":2:1: event has no :process"},
      {"edn_duplicate_map_key.edn", "duplicate map key \":value\""},
      {"edn_string_process.edn", ":process must be an integer (a client) or a keyword"},
      {"jsonl_duplicate_key.jsonl", ":2:31: duplicate member \"key\""},
      {"jsonl_duplicate_call.jsonl", "duplicate member \"call\""},
      {"jsonl_duplicate_model.jsonl", ":1:16: duplicate member \"model\""},
      {"jsonl_duplicate_in_config.jsonl", "duplicate member \"b\""},
      {"jsonl_queue_duplicate_ret.jsonl", ":3:32: duplicate member \"ret\""},
      {"edn_queue_duplicate_value.edn", ":2:48: duplicate map key \":value\""},
  };
  const auto files = files_in("hostile");
  ASSERT_EQ(files.size(), expected.size()) << "every hostile file needs its expected message here";
  for (const auto& path : files) {
    const std::string name = path.filename().string();
    SCOPED_TRACE(name);
    ASSERT_TRUE(expected.count(name));
    const std::optional<ModelId> model = path.extension() == ".edn" ? model_in_name(path, ModelId::Register) : std::nullopt;
    const std::string msg = error_of([&] { load_history(path.string(), model); });
    EXPECT_NE(msg.find(expected.at(name)), std::string::npos) << msg;
    EXPECT_TRUE(printable_line(msg)) << msg;
  }
}

TEST(HostileInput, BinaryRecordWithReservedByteSetIsRefused) {
  const SyntheticHistorySpec spec{.operations = 4};
  const std::string bin = encode_binary(make_linearizable_history(spec));
  // The last byte of record 2 is its reserved byte; re-sealing gives the
  // damaged file a valid checksum, so only the record check can catch it.
  const size_t records_at = bin.size() - 8 - 4 * 96;
  std::string body = bin.substr(0, bin.size() - 8);
  body[records_at + 2 * 96 + 95] = 7;
  const std::string msg = error_of([&] { read_binary(detail::seal_binary(body), "reserved.bin"); });
  EXPECT_NE(msg.find("reserved.bin: byte "), std::string::npos) << msg;
  EXPECT_NE(msg.find("record 2: reserved byte is 7, not 0"), std::string::npos) << msg;
}

TEST(HostileInput, DamagedMagicIsReadAsBinaryAndSaysSo) {
  const SyntheticHistorySpec spec{.operations = 4};
  std::string bin = encode_binary(make_linearizable_history(spec));
  bin[0] = 'X';
  const std::string path = temp_file("magic.bin", bin);
  const std::string msg = error_of([&] { load_history(path); });
  EXPECT_EQ(msg.find("no model"), std::string::npos) << msg;
  EXPECT_NE(msg.find("not a warpcheck binary history: the magic number is \"XCHIST\\x1a\\x0a\""), std::string::npos) << msg;
  EXPECT_NE(msg.find("[read as binary because byte "), std::string::npos) << msg;
  EXPECT_TRUE(printable_line(msg)) << msg;
  std::filesystem::remove(path);
}

TEST(HostileInput, GuessedTextFormatIsNamedInTheMessage) {
  const std::string path = temp_file("noheader.jsonl", "{\"id\":1,\"op\":\"insert\",\"key\":5,\"ret\":true,\"call\":0,\"return\":1}\n");
  const std::string msg = error_of([&] { load_history(path); });
  EXPECT_NE(msg.find("no model"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[read as JSON lines because"), std::string::npos) << msg;
  EXPECT_EQ(error_of([&] { load_history(path, std::nullopt, HistoryFormat::JsonLines); }).find("[read as"), std::string::npos);
  std::filesystem::remove(path);
}

TEST(HostileInput, LongUserStringsAreCutAndBytesEscaped) {
  const std::string huge(1 << 20, 'x');
  const std::string long_op = error_of([&] {
    read_jsonl("{\"model\":\"set\"}\n{\"op\":\"" + huge + "\",\"key\":1,\"ret\":true,\"call\":0,\"return\":1}\n", "op.jsonl", std::nullopt);
  });
  EXPECT_NE(long_op.find("unknown operation \"xxxx"), std::string::npos) << long_op.substr(0, 200);
  EXPECT_NE(long_op.find("... (1048576 bytes)"), std::string::npos) << long_op.substr(0, 200);
  EXPECT_LT(long_op.size(), 300u);

  const std::string long_field = error_of([&] { read_jsonl("{\"model\":\"set\",\"" + huge + "\":1}\n", "f.jsonl", std::nullopt); });
  EXPECT_LT(long_field.size(), 300u);
  EXPECT_NE(long_field.find("unknown header field"), std::string::npos) << long_field.substr(0, 200);

  const std::string raw = error_of([&] {
    read_jsonl(std::string("{\"model\":\"set\"}\n{\"op\":\"in\x7f\xff\",\"key\":1,\"call\":0}\n"), "raw.jsonl", std::nullopt);
  });
  EXPECT_NE(raw.find("a string that is not UTF-8"), std::string::npos) << raw;  // refused before its name is looked up
  EXPECT_TRUE(printable_line(raw)) << raw;

  const std::string found = error_of([&] { read_jsonl(std::string("{\"model\":\"set\"}\n{\x02}\n"), "c.jsonl", std::nullopt); });
  EXPECT_NE(found.find("found \"\\x02\""), std::string::npos) << found;

  const std::string edn_op = error_of([&] {
    read_edn("{:process 0, :type :invoke, :f :" + huge + "}", "op.edn", ModelId::Register);
  });
  EXPECT_LT(edn_op.size(), 300u);
  EXPECT_NE(edn_op.find("is not part of model register"), std::string::npos) << edn_op.substr(0, 200);

  // A binary file naming a model of raw bytes.
  const SyntheticHistorySpec spec{.operations = 1};
  std::string bin = encode_binary(make_linearizable_history(spec));
  std::string body = bin.substr(0, bin.size() - 8);
  body.replace(48, 3, "\x01\xfe\n");  // the model name "set" starts at byte 48
  const std::string model = error_of([&] { read_binary(detail::seal_binary(body), "m.bin"); });
  EXPECT_NE(model.find("unknown model \"\\x01\\xfe\\x0a\""), std::string::npos) << model;
  EXPECT_TRUE(printable_line(model)) << model;
}
