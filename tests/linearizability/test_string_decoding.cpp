// Strings decode exactly as each format's reference reader does, into one
// canonical UTF-8 form: JSON per RFC 8259 (a surrogate pair is one
// character; a lone surrogate and bytes that are not UTF-8 are refused),
// EDN as Clojure's reader (every escape it knows, octal included; any
// other refused), so an escaped character and the same character written
// raw compare equal, and nothing else gets in.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "linearizability/detail/edn_reader.hpp"
#include "linearizability/formats.hpp"
#include "linearizability/json_cursor.hpp"

using namespace warpcheck;
using namespace warpcheck::detail;

namespace {

// The decoded string, or nullopt when the reader refuses it (its message in `why`).
std::optional<std::string> json(const std::string& literal, std::string* why = nullptr) {
  try {
    return JsonCursor(literal).parse_string();
  } catch (const JsonCursor::Error& e) {
    if (why) *why = e.message;
    return std::nullopt;
  }
}

std::optional<std::string> edn(const std::string& literal, std::string* why = nullptr) {
  try {
    EdnReader r(literal);
    EdnValue v;
    if (!r.next(v)) return std::nullopt;
    return v.text;
  } catch (const EdnReader::Error& e) {
    if (why) *why = e.message;
    return std::nullopt;
  }
}

const std::string kGrinning = "\xF0\x9F\x98\x80";  // U+1F600 in UTF-8

}  // namespace

TEST(JsonStrings, DecodeAsRfc8259) {
  EXPECT_EQ(json(R"("\u0041\b\f\n\r\t\/\\\"")"), std::string("A\b\f\n\r\t/\\\""));
  EXPECT_EQ(json(R"("\u00e9")"), std::string("\xC3\xA9"));
  EXPECT_EQ(json(R"("\uD83D\uDE00")"), kGrinning) << "a surrogate pair is one character, as its raw UTF-8";
  EXPECT_EQ(json("\"" + kGrinning + "\""), kGrinning);
  EXPECT_EQ(json(R"("\ud83d\ude00")"), kGrinning);
}

TEST(JsonStrings, RefuseWhatIsNotUnicodeText) {
  std::string why;
  EXPECT_EQ(json(R"("\uD83D")", &why), std::nullopt);
  EXPECT_NE(why.find("lone surrogate"), std::string::npos) << why;
  EXPECT_EQ(json(R"("\uDE00")"), std::nullopt);
  EXPECT_EQ(json(R"("\uD83D\u0041")"), std::nullopt);
  EXPECT_EQ(json(R"("\uD83Dx")"), std::nullopt);
  EXPECT_EQ(json("\"\xFF\"", &why), std::nullopt);
  EXPECT_NE(why.find("not UTF-8"), std::string::npos) << why;
  EXPECT_EQ(json("\"\xC0\xAF\""), std::nullopt) << "an overlong form";
  EXPECT_EQ(json("\"\xED\xA0\xBD\""), std::nullopt) << "a surrogate encoded in three bytes (CESU-8)";
  EXPECT_EQ(json(R"("\q")"), std::nullopt);
  EXPECT_EQ(json(R"("\u12G4")"), std::nullopt);
}

// Clojure's reader (LispReader's StringReader and CharacterReader).
TEST(EdnStrings, DecodeAsClojuresReader) {
  EXPECT_EQ(edn(R"("\t\r\n\\\"")"), std::string("\t\r\n\\\""));
  EXPECT_EQ(edn(R"("\b")"), std::string("\b")) << "U+0008, not b";
  EXPECT_EQ(edn(R"("\f")"), std::string("\f"));
  EXPECT_EQ(edn(R"("\u0041")"), std::string("A")) << "not u0041";
  EXPECT_EQ(edn(R"("\uD83D\uDE00")"), kGrinning);
  EXPECT_EQ(edn("\"" + kGrinning + "\""), kGrinning);
  EXPECT_EQ(edn(R"("\101\0\7")"), std::string("A\0\a", 3)) << "octal, one to three digits";
  EXPECT_EQ(edn(R"("\377")"), std::string("\xC3\xBF"));
  EXPECT_EQ(edn(R"("\1010")"), std::string("A0")) << "at most three octal digits";
}

TEST(EdnStrings, RefuseWhatClojureRefuses) {
  std::string why;
  EXPECT_EQ(edn(R"("\q")", &why), std::nullopt);
  EXPECT_NE(why.find("unsupported escape character \\q"), std::string::npos) << why;
  EXPECT_EQ(edn(R"("\400")", &why), std::nullopt);
  EXPECT_NE(why.find("[0, 377]"), std::string::npos) << why;
  EXPECT_EQ(edn(R"("\u12G4")"), std::nullopt);
  EXPECT_EQ(edn(R"("\u004")"), std::nullopt) << "four hex digits";
  EXPECT_EQ(edn(R"("\uD83D")"), std::nullopt) << "a lone surrogate: UTF-8 cannot hold it";
  EXPECT_EQ(edn("\"\xFF\""), std::nullopt);
  EXPECT_EQ(edn(R"("\)"), std::nullopt);
  for (const char* bad : {R"("\0a")", R"("\18")", R"("\7x")"}) EXPECT_EQ(edn(bad), std::nullopt) << bad << ": an invalid digit";
  EXPECT_EQ(edn(R"("\7 x")"), std::string("\a x")) << "whitespace ends a short octal escape";
}

TEST(EdnCharacters, AreReadAsClojureReadsThem) {
  for (const char* ok : {"\\a", "\\newline", "\\space", "\\tab", "\\return", "\\formfeed", "\\backspace", "\\u0041", "\\o101",
                         "\\\"", "\\(", "\\\\"})
    EXPECT_NE(edn(ok), std::nullopt) << ok;
  for (const char* bad : {"\\foo", "\\uD83D", "\\o400", "\\u00", "\\\xF0\x9F\x98\x80"}) EXPECT_EQ(edn(bad), std::nullopt) << bad;
  try {  // two characters in a row, as Clojure reads them
    EdnReader r(R"([\a\b])");
    EdnValue v;
    ASSERT_TRUE(r.next(v));
    EXPECT_EQ(v.items.size(), 2u);
  } catch (const EdnReader::Error& e) {
    FAIL() << e.message;
  }
  // A character that is a delimiter does not end the form around it.
  try {
    EdnReader r(R"([\" "x"])");
    EdnValue v;
    ASSERT_TRUE(r.next(v));
    ASSERT_EQ(v.items.size(), 2u);
    EXPECT_EQ(v.items[1].text, "x");
  } catch (const EdnReader::Error& e) {
    FAIL() << e.message;
  }
}

// A binary header holds what a JSON lines header could: a configuration
// that is one line of JSON holding an object, strings that are UTF-8;
// anything else is refused (never printed raw, never copied into a JSON
// lines file that its own reader would refuse).
TEST(BinaryHeader, HoldsWhatAJsonLinesHeaderCould) {
  History h;
  h.meta.model = ModelId::Set;
  Operation op;
  op.id = 1;
  op.data.kind = OpKind::Insert;
  op.data.key = 1;
  op.data.result_kind = ResultKind::Bool;
  op.data.result = 1;
  op.ret = 1;
  h.ops.push_back(op);
  h.meta.config = R"({"structure":"x","options":{"a":"1"}})";
  EXPECT_NO_THROW(read_binary(encode_binary(h), "ok.bin"));
  for (const std::string bad : {"not json", "{\"a\":\"\x1b[31m\"}", "{\"a\":1}\n{\"b\":2}", "[1]", "{\"a\":\"\xff\"}", "{} x"}) {
    h.meta.config = bad;
    try {
      read_binary(encode_binary(h), "bad.bin");
      ADD_FAILURE() << "accepted the configuration " << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("the configuration is not one line of JSON holding an object"), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\x1b'), std::string::npos) << "an escape byte in the message";
    }
  }
  h.meta.config.clear();
  h.meta.model = ModelId::Kv;
  h.meta.string_values = true;
  h.strings = {"\xC0\xAF"};
  h.ops.clear();
  const std::string bytes = encode_binary(h);
  try {
    read_binary(bytes, "strings.bin");
    ADD_FAILURE() << "accepted a string value that is not UTF-8";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("a string value that is not UTF-8"), std::string::npos) << e.what();
  }
}
