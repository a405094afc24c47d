// ParallelFor: the one thread-pool shape the chunked lint path uses everywhere — the
// caller's thread plus helpers, pulling tasks from a shared counter, joined before return.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace ptx {

// Runs `work()` on min(threads, tasks) threads, the caller's included; `work` takes its
// tasks itself (for per-thread state such as a parser or a node pool).
template <typename F>
void runOnThreads(std::size_t tasks, unsigned threads, F&& work) {
  std::vector<std::thread> helpers;
  for (std::size_t t = 1; t < std::min<std::size_t>(threads, tasks); ++t) helpers.emplace_back(work);
  work();
  for (std::thread& helper : helpers) helper.join();
}

// Runs body(i) for i in [0, count) on up to `threads` threads, the caller's included.
template <typename F>
void parallelFor(std::size_t count, unsigned threads, F&& body) {
  std::atomic<std::size_t> next{0};
  runOnThreads(count, threads, [&] {
    for (std::size_t i = next++; i < count; i = next++) body(i);
  });
}

}  // namespace ptx
