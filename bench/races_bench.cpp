// races_bench: what the race and synchronization rules (RAC*, SNC*) cost on the largest
// corpus file, against the full lint (issue 9's goal: at most 30%). The full lint and a lint
// with those rules turned off are timed alternately, one thread each, best of 9, so a slow
// spell of a shared machine slows both alike. The times are the CPU time of the linting
// thread (CLOCK_THREAD_CPUTIME_ID): on a shared machine, wall time also counts the time other
// tenants hold the core, which swung single runs between 22% and 36%.
//
// Usage: races_bench [FILE]   (default: the largest .ptx under ../shared/corpus)
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "Lint.h"
#include "Registry.h"

using namespace ptx;
namespace fs = std::filesystem;

int main(int argc, char** argv) {
  fs::path file;
  if (argc > 1) {
    file = argv[1];
  } else {
    std::uintmax_t largest = 0;
    fs::path corpus = fs::path(PTXLS_SHARED_DIR) / "corpus";
    if (!fs::exists(corpus)) {
      std::printf("skipped: %s not found\n", corpus.c_str());
      return 0;
    }
    for (const auto& entry : fs::recursive_directory_iterator(corpus)) {
      if (entry.is_regular_file() && entry.path().extension() == ".ptx" && entry.file_size() > largest) {
        largest = entry.file_size();
        file = entry.path();
      }
    }
  }
  std::ifstream in(file, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  LintOptions full;
  LintOptions without;
  for (const RuleMeta& rule : allRules()) {
    if (rule.category == Category::Race || rule.category == Category::Sync) {
      without.rules[std::string(rule.code)].enabled = false;
    }
  }
  auto cpuMs = [] {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
  };
  auto elapsed = [&](const LintOptions& options) {
    double start = cpuMs();
    LintResult result = lintText(text, options);
    return cpuMs() - start;
  };
  double fullMs = 1e30, withoutMs = 1e30;
  for (int run = 0; run < 9; ++run) {
    fullMs = std::min(fullMs, elapsed(full));
    withoutMs = std::min(withoutMs, elapsed(without));
  }
  double share = fullMs > 0 ? (fullMs - withoutMs) / fullMs : 0;
  // Each rule alone on top of the lint without them (best of 3): what it costs when it has to
  // build the shared thread model itself.
  if (std::getenv("RACES_BENCH_PER_RULE") != nullptr) {
    for (const RuleMeta& rule : allRules()) {
      if (rule.category != Category::Race && rule.category != Category::Sync) continue;
      LintOptions one = without;
      one.rules[std::string(rule.code)].enabled = true;
      double oneMs = 1e30, baseMs = 1e30;
      for (int run = 0; run < 3; ++run) {
        oneMs = std::min(oneMs, elapsed(one));
        baseMs = std::min(baseMs, elapsed(without));
      }
      std::printf("  %s alone: +%.0f ms\n", std::string(rule.code).c_str(), oneMs - baseMs);
    }
  }
  std::printf(
      "race and synchronization rules on %s (%.2f MB): full lint %.0f ms, without them %.0f ms (CPU time): %.1f%% "
      "of the full lint (goal <= 30%%: %s)\n",
      file.filename().c_str(), static_cast<double>(text.size()) / 1e6, fullMs, withoutMs, 100 * share,
      share <= 0.30 ? "PASS" : "MISS");
  return 0;
}
