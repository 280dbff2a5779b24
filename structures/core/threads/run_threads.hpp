// Runs a lane body on teams * lanes OS threads (the real-threads mode).
#pragma once
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "structures/core/threads/thread_team.hpp"

namespace warpcheck::threads {

struct ThreadsReport {
  bool ok = true;
  std::string message;  // the first fault
};

inline ThreadsReport run_threads(uint32_t teams, uint32_t lanes, run_state& run,
                                 const std::function<void(thread_team&)>& body) {
  std::vector<std::unique_ptr<team_barrier>> barriers;
  for (uint32_t t = 0; t < teams; ++t) barriers.push_back(std::make_unique<team_barrier>(lanes));
  std::vector<std::thread> threads;
  threads.reserve(size_t(teams) * lanes);
  for (uint32_t t = 0; t < teams; ++t)
    for (uint32_t l = 0; l < lanes; ++l)
      threads.emplace_back([&, t, l] {
        thread_team team(&run, barriers[t].get(), t, l, lanes);
        try {
          body(team);
        } catch (const std::exception& e) {
          run.fault("team " + std::to_string(t) + " lane " + std::to_string(l) + ": " + e.what());
        }
      });
  for (auto& th : threads) th.join();
  ThreadsReport r;
  r.ok = run.faults.load() == 0;
  r.message = run.first_fault;
  return r;
}

}  // namespace warpcheck::threads
