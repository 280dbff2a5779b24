// A client driver's command line: one table of options, read by the
// parser and printed by --help.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "bench/clients/common/op_plan.hpp"

namespace warpcheck::clients {

struct client_options {
  std::string shape = "mix";      // phases | mix | bulk
  op_plan plan;
  uint32_t blocks = 64, threads = 128;
  uint64_t capacity = 1 << 16;
  uint64_t bulk_size = 1 << 14;
  double deadline_s = 10;         // a kernel running longer is reported as a hang
  std::string out = "history.bin";
};

struct client_option {
  const char* name;
  const char* help;
  std::function<bool(client_options&, const char*)> set;  // false: the value is not one
};

inline bool whole(const char* text, uint64_t lo, uint64_t hi, uint64_t& out) {
  if (!*text) return false;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (*end || text[0] == '-' || v < lo || v > hi) return false;
  out = v;
  return true;
}

// An option that sets the whole number `field_of(o)` names, in [lo, hi].
template <class FieldOf>
std::function<bool(client_options&, const char*)> whole_into(FieldOf field_of, uint64_t lo, uint64_t hi) {
  return [=](client_options& o, const char* t) {
    uint64_t v;
    if (!whole(t, lo, hi, v)) return false;
    auto& field = field_of(o);
    field = static_cast<std::remove_reference_t<decltype(field)>>(v);
    return true;
  };
}

// insert=I,erase=E,find=F (weights; a name left out weighs 0).
inline bool parse_mix(client_options& o, const char* text) {
  uint32_t w[3] = {0, 0, 0};
  const char* names[3] = {"insert", "erase", "find"};
  std::string s(text);
  size_t at = 0;
  while (at <= s.size()) {
    const size_t comma = s.find(',', at);
    const std::string part = s.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    const size_t eq = part.find('=');
    if (eq == std::string::npos) return false;
    int which = -1;
    for (int i = 0; i < 3; ++i)
      if (part.compare(0, eq, names[i]) == 0 && std::strlen(names[i]) == eq) which = i;
    uint64_t v;
    if (which < 0 || !whole(part.c_str() + eq + 1, 0, 1000, v)) return false;
    w[which] = static_cast<uint32_t>(v);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  if (w[0] + w[1] + w[2] == 0) return false;
  o.plan.insert = w[0];
  o.plan.erase = w[1];
  o.plan.find = w[2];
  return true;
}

inline const std::vector<client_option>& client_option_table() {
  static const std::vector<client_option> table = {
      {"--shape", "phases | mix | bulk: a kernel a kind, one kind after another (the library's phase rule: "
                  "insert, find, erase, insert, find); "
                  "every kind in one kernel; the library's host bulk calls (default mix)",
       [](client_options& o, const char* t) {
         o.shape = t;
         return o.shape == "phases" || o.shape == "mix" || o.shape == "bulk";
       }},
      {"--mix", "insert=I,erase=E,find=F: the weights of a mix (default insert=40,erase=20,find=40)", parse_mix},
      {"--keys", "keys 0..N-1 (default 64)", whole_into([](client_options& o) -> auto& { return o.plan.keys; }, 1, 1u << 30)},
      {"--absent", "0 | 1: finds and erases also ask keys never inserted (default 0)",
       whole_into([](client_options& o) -> auto& { return o.plan.absent; }, 0, 1)},
      {"--ops", "operations a team runs a kernel (default 8)", whole_into([](client_options& o) -> auto& { return o.plan.ops_per_team; }, 1, 1u << 20)},
      {"--seed", "the plan's seed (default 1)", whole_into([](client_options& o) -> auto& { return o.plan.seed; }, 0, UINT64_MAX)},
      {"--blocks", "blocks a launch (default 64)", whole_into([](client_options& o) -> auto& { return o.blocks; }, 1, 1u << 20)},
      {"--threads", "threads a block (default 128; a multiple of the library's tile)",
       whole_into([](client_options& o) -> auto& { return o.threads; }, 1, 1024)},
      {"--capacity", "the table's capacity, as the library takes it (default 65536)",
       whole_into([](client_options& o) -> auto& { return o.capacity; }, 1, uint64_t(1) << 34)},
      {"--bulk-size", "elements a bulk call (--shape bulk; default 16384)",
       whole_into([](client_options& o) -> auto& { return o.bulk_size; }, 1, 1u << 28)},
      {"--deadline", "seconds a kernel may run before it is reported as a hang (exit 5; default 10)",
       whole_into([](client_options& o) -> auto& { return o.deadline_s; }, 1, 3600)},
      {"--out", "the history file to write (default history.bin)",
       [](client_options& o, const char* t) {
         o.out = t;
         return !o.out.empty();
       }},
  };
  return table;
}

// -1: go on; otherwise the exit code (0 after --help, 2 for a bad line).
inline int parse_client_options(int argc, char** argv, const char* name, client_options& o) {
  const auto& table = client_option_table();
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--help")) {
      std::printf("usage: %s [OPTION VALUE]...\nRuns the library's structure under the drop-in recorder and "
                  "writes the history (check it with `warpcheck check`).\n", name);
      for (const client_option& opt : table) std::printf("  %-12s %s\n", opt.name, opt.help);
      return 0;
    }
    const client_option* found = nullptr;
    for (const client_option& opt : table)
      if (!std::strcmp(argv[i], opt.name)) found = &opt;
    if (!found) {
      std::fprintf(stderr, "%s: unknown option %s (--help lists them)\n", name, argv[i]);
      return 2;
    }
    if (i + 1 >= argc || !found->set(o, argv[i + 1])) {
      std::fprintf(stderr, "%s: %s: %s value (%s)\n", name, found->name, i + 1 < argc ? "not a valid" : "no", found->help);
      return 2;
    }
    ++i;
  }
  return -1;
}

}  // namespace warpcheck::clients
