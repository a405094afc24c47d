// BenchSupport: what the benchmarks share: reading a file whole, and the processor time of
// the calling thread (which other tenants of a shared machine disturb least).
#pragma once

#include <time.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ptx::bench {

inline std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return std::move(buffer).str();
}

// CLOCK_THREAD_CPUTIME_ID, in milliseconds.
inline double threadCpuMillis() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

}  // namespace ptx::bench
