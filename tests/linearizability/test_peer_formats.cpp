// Other checkers' histories read their way: Porcupine's key-value logs
// (string keys and values, get/put/append, every key starting at ""),
// Knossos's registers (a starting value, a nil read saying nothing), and
// Porcupine's etcd reading of a failed CAS as one that returned false. Each
// file gives one verdict read the peer's way and the other read ours.
#include <gtest/gtest.h>

#include "linearizability/checker.hpp"
#include "linearizability/formats.hpp"
#include "linearizability/witness.hpp"
#include "support/run_cli.hpp"
#include "support/test_data.hpp"

using namespace warpcheck;
using namespace warpcheck::testing;

namespace {

struct PeerCase {
  const char* file;
  ModelId model;
  ImportOptions peer;          // how the peer reads it
  Verdict as_peer;             // verdict read the peer's way
  std::optional<Verdict> ours; // read with no options (nullopt: refused)
};

ImportOptions initial(const char* value) {
  ImportOptions o;
  o.initial = value;
  return o;
}

ImportOptions nil_unknown() {
  ImportOptions o;
  o.nil_reads_unknown = true;
  return o;
}

ImportOptions failed_cas_false() {
  ImportOptions o;
  o.failed_cas_returns_false = true;
  return o;
}

const PeerCase kCases[] = {
    {"porcupine_kv_ok.edn", ModelId::Kv, initial("\"\""), Verdict::Linearizable, Verdict::Violation},
    {"porcupine_kv_bad.edn", ModelId::Kv, initial("\"\""), Verdict::Violation, Verdict::Violation},
    {"knossos_register_starts_at_zero.edn", ModelId::CasRegister, initial("0"), Verdict::Linearizable, Verdict::Violation},
    {"knossos_nil_read_is_unknown.edn", ModelId::Register, nil_unknown(), Verdict::Linearizable, Verdict::Violation},
    {"porcupine_failed_cas_returned_false.edn", ModelId::CasRegister, failed_cas_false(), Verdict::Violation,
     Verdict::Linearizable},
};

}  // namespace

TEST(PeerFormats, EachFileGivesThePeersVerdictReadThePeersWay) {
  ASSERT_EQ(files_in("peer").size(), std::size(kCases)) << "every peer file needs its case here";
  for (const PeerCase& c : kCases) {
    SCOPED_TRACE(c.file);
    const std::string path = (test_data_dir() / "peer" / c.file).string();
    const History h = load_history(path, c.model, std::nullopt, c.peer);
    const CheckResult r = check_history(h);
    EXPECT_EQ(r.verdict, c.as_peer) << r.reason;
    if (r.verdict == Verdict::Linearizable) {
      EXPECT_FALSE(witness_error(h, r.witness).has_value());
    }
    // Converting to our formats keeps the verdict: the peer's reading is in the history.
    EXPECT_EQ(check_history(read_binary(encode_binary(h), "bin")).verdict, c.as_peer);
    EXPECT_EQ(check_history(read_jsonl(encode_jsonl(h), "jsonl", std::nullopt)).verdict, c.as_peer);
    EXPECT_EQ(check_history(load_history(path, c.model)).verdict, *c.ours);
  }
}

TEST(PeerFormats, StringKeysMustBeIntegersAndAppendsStrings) {
  auto error_of = [](std::string_view text, ModelId model) {
    try {
      read_edn(text, "p.edn", model);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of("{:process 0, :type :invoke, :f :get, :key \"k1\"}", ModelId::Kv).find("a string key must be a decimal integer"),
            std::string::npos);
  EXPECT_NE(error_of("{:process 0, :type :invoke, :f :append, :key 1, :value 5}", ModelId::Kv).find("append takes a string"),
            std::string::npos);
  EXPECT_NE(error_of("{:process 0, :type :invoke, :f :write, :value \"a\"}\n{:process 1, :type :invoke, :f :write, :value 2}",
                     ModelId::Register)
                .find("values must be all integers or all strings"),
            std::string::npos);
  EXPECT_NE(error_of("{:process 0, :type :invoke, :f :append, :value \"a\"}", ModelId::Register).find("is not part of model register"),
            std::string::npos);
}

TEST(PeerFormats, CommandLineTakesTheImportOptions) {
  const std::string dir = (test_data_dir() / "peer").string();
  const CliRun knossos = run_cli({"check", dir + "/knossos_register_starts_at_zero.edn", "--model", "cas-register", "--initial", "0"}, 60);
  EXPECT_EQ(knossos.exit_code, 0) << knossos.output;
  const CliRun nil = run_cli({"check", dir + "/knossos_nil_read_is_unknown.edn", "--model", "register", "--nil-reads", "unknown"}, 60);
  EXPECT_EQ(nil.exit_code, 0) << nil.output;
  const CliRun cas = run_cli({"check", dir + "/porcupine_failed_cas_returned_false.edn", "--model", "cas-register", "--failed-cas", "false"}, 60);
  EXPECT_EQ(cas.exit_code, 1) << cas.output;
  const CliRun kv = run_cli({"check", dir + "/porcupine_kv_ok.edn", "--model", "kv", "--initial", "\"\""}, 60);
  EXPECT_EQ(kv.exit_code, 0) << kv.output;
  const CliRun jsonl = run_cli({"check", (test_data_dir() / "known/lin_kv_append_strings.jsonl").string(), "--initial", "0"}, 60);
  EXPECT_EQ(jsonl.exit_code, 3) << jsonl.output;
  EXPECT_NE(jsonl.output.find("are for EDN histories"), std::string::npos) << jsonl.output;
}
