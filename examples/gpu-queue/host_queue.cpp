// The same queue (ms_queue.hpp) on CPU threads, recorded by the same
// drop-in recorder: what to run where there is no GPU, and the recorder's
// host path (buffers in host memory, the history file) end to end.
//
//   host_queue [--threads N] [--rounds R] [--ops-per-team C] [--out FILE]
//   warpcheck check host_queue.bin
//
// --ops-per-team below 2 x R leaves records out: the history is written
// marked incomplete, and the message says what size holds it.
#include <cstdint>
#include <cstdio>
#include <latch>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <warpcheck/record.cuh>

#include "ms_queue.hpp"
#include "option_number.hpp"

using namespace warpcheck;

int main(int argc, char** argv) {
  uint32_t threads = 4, rounds = 200;
  std::optional<uint32_t> ops_per_team;  // default: what the run needs, 2 x rounds
  std::string out = "host_queue.bin";
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      const std::string v = argv[++i];
      if (a == "--out") {
        out = v;
        continue;
      }
      if (a == "--threads") threads = option_number(a, v, 1, 256);
      else if (a == "--rounds") rounds = option_number(a, v, 1, 100000);
      else if (a == "--ops-per-team") ops_per_team = option_number(a, v, 0, UINT32_MAX);
      else throw std::invalid_argument("bad option " + a + " " + v);
    }

    std::vector<msq::node> nodes(size_t(threads) * rounds + 1);
    uint32_t head = 1, tail = 1;
    const msq::queue q{nodes.data(), &head, &tail, 1u << 20};

    record::Settings s;
    s.model = "queue";
    s.team = record::team_kind::thread;
    s.teams = threads;
    s.ops_per_team = ops_per_team.value_or(2 * rounds);  // 0 is refused with a message, like any bad setting
    s.clock = core::clock_kind::ticket;  // exact order on the host
    s.config = "{\"example\":\"host-queue\",\"threads\":" + std::to_string(threads) +
               ",\"rounds\":" + std::to_string(rounds) + "}";
    record::HostRecorder recorder(s);

    std::vector<std::thread> pool;
    std::latch start(threads);  // all at once: the operations overlap
    for (uint32_t id = 0; id < threads; ++id)
      pool.emplace_back([&, id] {
        const record::log_view& log = recorder.view();
        start.arrive_and_wait();
        for (uint32_t r = 0; r < rounds; ++r) {
          const int64_t value = int64_t(id) * rounds + r + 1;
          record::op_handle op = log.begin_on(id, 0, OpKind::Enqueue, value);
          if (q.enqueue(value, 1 + id * rounds + r) == msq::answer::gave_up) return;  // left pending
          log.end(op);
          op = log.begin_on(id, 0, OpKind::Dequeue);
          int64_t got = 0;
          const msq::answer a = q.dequeue(got);
          if (a == msq::answer::gave_up) return;
          log.end(op, a == msq::answer::done ? ResultKind::Value : ResultKind::Absent, got);
        }
      });
    for (auto& t : pool) t.join();

    const record::Summary sum = recorder.write(out);
    std::printf("host_queue: %u threads x %u rounds: recorded %llu operations, %llu pending\n", threads, rounds,
                static_cast<unsigned long long>(sum.operations), static_cast<unsigned long long>(sum.pending));
    if (sum.incomplete()) std::printf("%s\n", sum.message.c_str());
    std::printf("wrote %s: check it with\n  warpcheck check %s\n", out.c_str(), out.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "host_queue: %s\n", e.what());
    return 3;
  }
}
