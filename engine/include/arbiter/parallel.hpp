// The one fan-out of the project: fuzz jobs, mutants, batches of records and the solver's
// root moves all run through parallel_for.
#pragma once

#include <exception>
#include <mutex>
#include <stop_token>
#include <system_error>
#include <thread>
#include <vector>

namespace arb {

// The most threads any command starts (`--jobs` beyond it is refused by the commands).
inline constexpr int kMaxJobs = 64;

// Runs body(j, stop) for every j in [0, jobs): j = 0 on the calling thread, the others on
// threads of their own, and returns when all have ended. The first exception a body throws
// asks the others to stop (their std::stop_token, which long bodies poll) and is rethrown
// once every thread has ended; later ones are dropped. When the system cannot start a
// thread, the jobs it could not start run on the calling thread after job 0 (same results,
// less parallel), so that `--jobs 64` on a small machine never aborts. Returns the number of
// threads that ran at once: 0 when `jobs` is 0 or less (no job runs, so a caller may pass
// min(jobs, items) for an empty list of items).
template <class Body>
int parallel_for(int jobs, Body&& body) {
  if (jobs <= 0) return 0;
  std::stop_source stop;
  std::mutex mu;
  std::exception_ptr first;
  auto run = [&](int j) {
    try {
      body(j, stop.get_token());
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu);
      if (!first) first = std::current_exception();
      stop.request_stop();
    }
  };
  std::vector<std::jthread> threads;
  int started = 1;
  std::vector<int> left;  // jobs no thread could be started for
  for (int j = 1; j < jobs; ++j) {
    try {
      threads.emplace_back(run, j);
      ++started;
    } catch (const std::system_error&) {
      left.push_back(j);
    }
  }
  run(0);
  for (int j : left) run(j);
  for (auto& t : threads) t.join();
  if (first) std::rethrow_exception(first);
  return started;
}

}  // namespace arb
