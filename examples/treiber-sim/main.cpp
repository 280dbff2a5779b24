// A stress run of the Treiber stack (treiber_stack.hpp) in warpcheck's
// deterministic simulator: every seed is one interleaving of the lanes of
// a few teams (3 teams of 2 lanes by default), each lane pushing and
// popping; every operation is recorded with the drop-in recorder (the
// simulator's step is the clock) and every run's history is checked
// against the stack model in this process.
//
//   treiber_sim [--seeds N]            N seeds (default 200): all must be LINEARIZABLE
//   treiber_sim --bug [--seeds N]      the planted bug: stops at the first seed that catches it,
//                                      prints the counterexample, replays that seed and its schedule
//   treiber_sim [--bug] --seed S       one seed: what it gives, again and again
//   --teams T --lanes L --rounds R     the shape (more overlapping pushes: a longer search)
//   --out FILE                         where a failing history goes (default treiber_failure.bin)
//
// Exit codes as warpcheck check's: 0 every run linearizable, 1 a violation
// caught (and replayed), 2 unknown or a replay that differed, 3 bad usage.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <warpcheck/checker.hpp>
#include <warpcheck/record.cuh>
#include <warpcheck/recorded_history.hpp>
#include <warpcheck/team.hpp>

#include "treiber_stack.hpp"

using namespace warpcheck;

namespace {

// The run's shape: teams of lanes, each lane pushing and popping `rounds` times.
struct Shape {
  uint32_t teams = 3, lanes = 2, rounds = 3;  // the stack checker branches over overlapping pushes: keep them few
};

struct SeedRun {
  sim::RunReport report;
  History history;
  CheckResult verdict;
};

SeedRun run_seed(const Shape& shape, uint64_t seed, bool bug, const std::string& replay = {}) {
  std::vector<treiber::node> nodes(size_t(shape.teams) * shape.lanes * shape.rounds);
  uint32_t top = 0;
  const treiber::stack s{nodes.data(), &top, bug};

  record::Settings settings;
  settings.model = "stack";
  settings.team = record::team_kind::thread;  // each lane runs its own operations
  settings.teams = shape.teams * shape.lanes;
  settings.ops_per_team = 2 * shape.rounds;
  settings.seed = seed;
  settings.config = std::string("{\"example\":\"treiber-sim\",\"bug\":") + (bug ? "true" : "false") + "}";
  record::HostRecorder recorder(settings);

  sim::SimConfig c;
  c.teams = shape.teams;
  c.lanes = shape.lanes;
  c.seed = seed;
  c.replay = replay;
  c.spin_bound = 2000;
  sim::Simulator simulator(c);
  SeedRun out;
  out.report = simulator.run([&](sim::sim_team& t) {
    const record::log_view& log = recorder.view();
    const uint32_t me = t.team_id() * t.size() + t.lane();
    for (uint32_t r = 0; r < shape.rounds; ++r) {
      const int64_t value = int64_t(me) * 100 + r + 1;  // distinct values
      record::op_handle op = log.begin(t, OpKind::Push, value);
      if (!s.push(t, me * shape.rounds + r, value)) return;  // gave up: the push stays pending
      log.end(t, op);
      op = log.begin(t, OpKind::Pop);
      const treiber::pop_result p = s.pop(t);
      if (!p.done) return;
      log.end(t, op, p.found ? ResultKind::Value : ResultKind::Absent, p.value);
    }
  });
  out.history = record::recorded_history(recorder);
  CheckOptions budget;
  budget.timeout_seconds = 10;  // a stack's search can branch a lot: UNKNOWN rather than a long wait
  out.verdict = check_history(out.history, budget);
  return out;
}

bool failed(const SeedRun& r) { return !r.report.ok() || r.verdict.verdict != Verdict::Linearizable; }

void describe(const SeedRun& r) {
  if (!r.report.ok())
    std::printf("the simulator stopped the run: %s\n%s\n", r.report.message.c_str(), r.report.details.c_str());
  write_text_report(r.history, r.verdict, std::cout);
}

// Runs the failing seed again, then its recorded schedule, and compares
// the histories byte for byte.
bool replays(const Shape& shape, uint64_t seed, bool bug, const SeedRun& first) {
  const std::string bytes = encode_binary(first.history);
  const SeedRun again = run_seed(shape, seed, bug);
  const bool same_seed = encode_binary(again.history) == bytes && again.verdict.verdict == first.verdict.verdict;
  std::printf("replayed from seed %llu: %s\n", static_cast<unsigned long long>(seed),
              same_seed ? "the same history, byte for byte, and the same verdict" : "a DIFFERENT history");
  const std::string schedule = sim::encode_schedule(first.report.schedule);
  const SeedRun followed = run_seed(shape, seed, bug, schedule);
  const bool same_schedule = followed.report.outcome != sim::Outcome::ReplayMismatch &&
                             encode_binary(followed.history) == bytes &&
                             followed.verdict.verdict == first.verdict.verdict;
  std::printf("replayed from its schedule (%zu steps): %s\n", first.report.schedule.size(),
              same_schedule ? "the same history, byte for byte, and the same verdict" : "a DIFFERENT history");
  return same_seed && same_schedule;
}

int usage(const std::string& why) {
  std::fprintf(stderr,
               "treiber_sim: %s\nusage: treiber_sim [--bug] [--seeds N | --seed S] [--teams T] [--lanes L] "
               "[--rounds R] [--out FILE]\n",
               why.c_str());
  return 3;
}

}  // namespace

int main(int argc, char** argv) {
  bool bug = false;
  uint64_t first = 1, seeds = 200;
  Shape shape;
  std::string out = "treiber_failure.bin";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto number = [&](uint64_t low, uint64_t high) {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a number");
      const std::string v = argv[++i];
      size_t used = 0;
      unsigned long long n = 0;
      try {
        n = std::stoull(v, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != v.size() || n < low || n > high)
        throw std::invalid_argument(a + " takes " + std::to_string(low) + " to " + std::to_string(high) + ", not " + v);
      return uint64_t(n);
    };
    try {
      if (a == "--bug") bug = true;
      else if (a == "--seeds") seeds = number(1, 1u << 30);
      else if (a == "--seed") first = number(0, UINT64_MAX - 1), seeds = 1;
      else if (a == "--teams") shape.teams = uint32_t(number(1, 64));
      else if (a == "--lanes") shape.lanes = uint32_t(number(1, 32));
      else if (a == "--rounds") shape.rounds = uint32_t(number(1, 64));
      else if (a == "--out" && i + 1 < argc) out = argv[++i];
      else return usage("unknown argument " + a);
    } catch (const std::exception& e) {
      return usage(e.what());
    }
  }

  std::printf("Treiber stack, %u teams x %u lanes, %u pushes and pops a lane, %s, seeds %llu..%llu\n", shape.teams,
              shape.lanes, shape.rounds, bug ? "planted bug link_after_publish" : "correct",
              static_cast<unsigned long long>(first), static_cast<unsigned long long>(first + seeds - 1));
  const auto started = std::chrono::steady_clock::now();
  uint64_t operations = 0;
  for (uint64_t seed = first; seed < first + seeds; ++seed) {
    const SeedRun r = run_seed(shape, seed, bug);
    operations += r.history.ops.size();
    if (!failed(r)) continue;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("caught at seed %llu, after %llu run(s), %.2f s: %s\n", static_cast<unsigned long long>(seed),
                static_cast<unsigned long long>(seed - first + 1), s, std::string(verdict_name(r.verdict.verdict)).c_str());
    describe(r);
    save_history(r.history, out, HistoryFormat::Binary);
    std::printf("wrote %s (warpcheck check %s)\n", out.c_str(), out.c_str());
    const bool same = replays(shape, seed, bug, r);
    std::printf("reproduce: treiber_sim%s --seed %llu\n", bug ? " --bug" : "", static_cast<unsigned long long>(seed));
    if (!same) return 2;
    return r.verdict.verdict == Verdict::Violation ? 1 : 2;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("%llu run(s), %llu operations: every one LINEARIZABLE, %.2f s (%.0f runs/s, checking included)\n",
              static_cast<unsigned long long>(seeds), static_cast<unsigned long long>(operations), s, seeds / s);
  return 0;
}
