// Bad input gets a clear InputError naming the source and the position,
// never a crash, a hang or a verdict.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

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

std::string small_binary() {
  const SyntheticHistorySpec spec{.model = ModelId::PriorityQueue, .operations = 20, .pending = 0.2};
  return encode_binary(make_linearizable_history(spec));
}

}  // namespace

TEST(BadInput, EveryCheckedInBadFileIsRejectedWithItsNameAndPosition) {
  const std::map<std::string, std::string> expected = {
      {"malformed_json.jsonl", ":2:"},           {"unknown_model.jsonl", "unknown model \"deque\""},
      {"unknown_op.jsonl", "unknown operation \"frobnicate\""},
      {"op_not_in_model.jsonl", "not part of model \"set\""},
      {"response_before_invocation.jsonl", ":3:1: response at 20 before its invocation at 30"},
      {"duplicate_ids.jsonl", ":3: duplicate operation id 1"}, {"fractional_number.jsonl", "fractional"},
      {"missing_ret.jsonl", "missing \"ret\""},  {"unused_field.jsonl", "\"value\" is not used by insert"},
      {"no_model.jsonl", "no model"},            {"trailing_garbage.jsonl", "trailing characters"},
      {"integer_overflow.jsonl", "does not fit"}, {"pop_returns_too_many.jsonl", "returned 2 keys but asked for 1"},
      {"unterminated.edn", "unterminated"},      {"completion_without_invoke.edn", "no open invoke"},
      {"float_value.edn", "integers only"},
      {"queue_enqueue_without_key.jsonl", ":2:1: missing \"key\" for enqueue"},
      {"queue_dequeue_with_key.jsonl", ":3:1: field \"key\" is not used by dequeue"},
      {"queue_dequeue_without_ret.jsonl", ":3:1: missing \"ret\" for completed dequeue (null means none)"},
      {"stack_pop_returns_keys.jsonl", "stack.pop must return a value or null"},
      {"stack_push_of_a_batch.jsonl", "missing \"key\" for push"},
      {"edn_queue_enqueue_without_value.edn", ":1:1: expected an integer for the value added"},
      {"edn_queue_completion_changes_value.edn", ":2:45: the completion's value is not its invoke's (1)"},
      {"edn_queue_batch.edn", "batched operations are not read from EDN"},
      {"edn_stack_pop_invoked_with_value.edn", ":1:45: a pop invokes with no value (nil)"},
  };
  const auto files = files_in("bad");
  ASSERT_EQ(files.size(), expected.size()) << "every bad file needs an expected message here";
  for (const auto& path : files) {
    const std::string name = path.filename().string();
    SCOPED_TRACE(name);
    ASSERT_TRUE(expected.count(name));
    const std::optional<ModelId> model = path.extension() == ".edn" ? model_in_name(path, ModelId::CasRegister) : std::nullopt;
    const std::string msg = error_of([&] { load_history(path.string(), model); });
    EXPECT_NE(msg.find(name), std::string::npos) << msg;
    EXPECT_NE(msg.find(expected.at(name)), std::string::npos) << msg;
  }
}

TEST(BadInput, EveryTruncationOfABinaryHistoryIsRejected) {
  const std::string bin = small_binary();
  ASSERT_NO_THROW(read_binary(bin, "full"));
  for (size_t len = 0; len < bin.size(); ++len) {
    const std::string msg = error_of([&] { read_binary(std::string_view(bin).substr(0, len), "cut.bin"); });
    EXPECT_NE(msg.find("cut.bin: byte "), std::string::npos) << "length " << len << ": " << msg;
  }
}

TEST(BadInput, EveryFlippedByteOfABinaryHistoryIsRejected) {
  const std::string bin = small_binary();
  for (size_t pos = 0; pos < bin.size(); ++pos) {
    std::string bad = bin;
    bad[pos] = char(bad[pos] ^ 0x40);
    EXPECT_FALSE(error_of([&] { read_binary(bad, "flip.bin"); }).empty()) << "flip at " << pos;
  }
}

TEST(BadInput, ValidChecksumButInvalidRecordIsRejected) {
  // The writer checksums whatever it is given, so a record the model
  // cannot have (a set insert returning keys) arrives with a valid checksum
  // and must be caught by validation.
  const SyntheticHistorySpec spec{.operations = 5};
  History h = make_linearizable_history(spec);
  h.ops[2].data.result_kind = ResultKind::Keys;
  const std::string msg = error_of([&] { read_binary(encode_binary(h), "forged.bin"); });
  EXPECT_NE(msg.find("forged.bin: record 2"), std::string::npos) << msg;
}

TEST(BadInput, RandomMutationsOfTextFormatsNeverEscapeAsAnythingButInputError) {
  const std::string jsonl = read_file(test_data_dir() / "known/lin_pq_overlapping_pops_one_order.jsonl");
  const std::string edn = read_file(test_data_dir() / "known/lin_cas_register_jepsen.edn");
  std::mt19937_64 rng(7);
  const std::string alphabet = "{}[]():,\"\\-0123456789.e :#_nultrfa\n";
  for (int i = 0; i < 20000; ++i) {
    std::string text = (i % 2) ? jsonl : edn;
    const int edits = 1 + int(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t pos = rng() % (text.size() + 1);
      switch (rng() % 3) {
        case 0: text.insert(pos, 1, alphabet[rng() % alphabet.size()]); break;
        case 1: if (pos < text.size()) text.erase(pos, 1); break;
        default: if (pos < text.size()) text[pos] = alphabet[rng() % alphabet.size()];
      }
    }
    try {
      if (i % 2) read_jsonl(text, "m.jsonl", std::nullopt);
      else read_edn(text, "m.edn", ModelId::CasRegister);
    } catch (const InputError&) {
    }
  }
}

TEST(BadInput, KeyBatchesOutOfCanonicalOrderAreRejected) {
  // Two pushes; the second claims the first one's keys (aliasing). JSON
  // lines could not express that, so the binary reader must refuse it.
  History h = read_jsonl("{\"model\":\"pq\"}\n{\"id\":1,\"op\":\"push\",\"keys\":[1,2],\"call\":0,\"return\":1}\n"
                         "{\"id\":2,\"op\":\"push\",\"keys\":[1],\"call\":2,\"return\":3}\n", "pq.jsonl", std::nullopt);
  h.ops[1].data.keys_begin = 0;
  h.key_pool.pop_back();
  const std::string msg = error_of([&] { read_binary(encode_binary(h), "alias.bin"); });
  EXPECT_NE(msg.find("alias.bin: operation 1: its keys start at pool index 0, not 2"), std::string::npos) << msg;
  compact_key_pool(h);
  EXPECT_NO_THROW(read_binary(encode_binary(h), "compacted.bin"));
}
