// ptxls_bench: parser throughput and incremental-reparse latency.
//
// Usage: ptxls_bench [FILE...]
// Without arguments it measures the largest files of ../shared/corpus and corpus/nvcc.
// Figures: full parse (tree-sitter only) and full lint (parse + syntax diagnostics) in MB/s,
// best of several runs; and the time of ts_tree_edit + reparse after a one-byte edit in the
// middle of a file of at least 4 MB (smaller inputs are concatenated up to that size).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "Lint.h"
#include "syntax/SyntaxTree.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace ptx;

namespace {

std::string readFile(const fs::path& path) {
  if (path.extension() == ".xz") {
    std::string command = "xz -dc '" + path.string() + "'";
    std::string text;
    if (FILE* pipe = popen(command.c_str(), "r")) {
      char buffer[1 << 16];
      std::size_t n = 0;
      while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) text.append(buffer, n);
      pclose(pipe);
    }
    return text;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return std::move(buffer).str();
}

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

template <typename F>
double bestOf(int runs, F&& body) {
  double best = 1e30;
  for (int i = 0; i < runs; ++i) {
    auto start = Clock::now();
    body();
    best = std::min(best, seconds(Clock::now() - start));
  }
  return best;
}

std::vector<fs::path> defaultInputs() {
  std::vector<fs::path> inputs;
  fs::path shared = PTXLS_SHARED_DIR;
  for (const char* relative :
       {"corpus/gpuocelot/tests/ptx/thrust/Sort.ptx", "corpus/gpuocelot/tests/ptx/unstructured/renderer.ptx",
        "corpus/gpuocelot/tests/ptx/thrust/histogram.ptx",
        "corpus/nvcc/ptx/cub_heavy.sm_90a.lineinfo.ptx.xz"}) {
    if (fs::exists(shared / relative)) inputs.push_back(shared / relative);
  }
  fs::path own = fs::path(PTXLS_SOURCE_DIR) / "corpus/nvcc";
  std::vector<fs::path> ours;
  if (fs::exists(own)) {
    for (const auto& entry : fs::directory_iterator(own)) {
      if (entry.path().extension() == ".ptx") ours.push_back(entry.path());
    }
  }
  std::sort(ours.begin(), ours.end(), [](const fs::path& a, const fs::path& b) {
    return fs::file_size(a) > fs::file_size(b);
  });
  if (!ours.empty()) inputs.push_back(ours.front());
  return inputs;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    std::string_view argument = argv[i];
    if (argument == "--help" || argument == "-h") {
      std::printf("usage: ptxls_bench [FILE...]\n"
                  "Prints parse and lint throughput per file and incremental reparse latency.\n");
      return 0;
    }
    if (!fs::is_regular_file(argv[i])) {
      std::cerr << "ptxls_bench: no such file: " << argument << "\n";
      return 2;
    }
    inputs.emplace_back(argv[i]);
  }
  if (inputs.empty()) inputs = defaultInputs();
  if (inputs.empty()) {
    std::cerr << "ptxls_bench: no input files (pass some, or provide ../shared/corpus)\n";
    return 2;
  }

  std::printf("%-48s %10s %12s %12s\n", "file", "MB", "parse MB/s", "lint MB/s");
  std::string largest;
  double totalBytes = 0;
  double totalParse = 0;
  for (const fs::path& path : inputs) {
    std::string text = readFile(path);
    if (text.size() > largest.size()) largest = text;
    double megabytes = static_cast<double>(text.size()) / 1e6;
    double parse = bestOf(3, [&] { (void)parseSyntax(text); });
    double lint = bestOf(3, [&] { (void)lintText(text); });
    totalBytes += megabytes;
    totalParse += parse;
    std::printf("%-48s %10.2f %12.1f %12.1f\n", path.filename().string().c_str(), megabytes,
                megabytes / parse, megabytes / lint);
  }
  std::printf("%-48s %10.2f %12.1f\n", "all (bytes / summed best times)", totalBytes,
              totalBytes / totalParse);

  // Incremental reparse: a one-byte edit in the middle of a >= 4 MB text.
  if (largest.empty()) {
    std::cerr << "ptxls_bench: every input is empty; no reparse figures\n";
    return 0;
  }
  std::string text = largest;
  while (text.size() < 4000000) text += largest;
  SyntaxTree tree = parseSyntax(text);
  std::vector<double> samples;
  for (int i = 0; i < 40; ++i) {
    // Insert, then delete, a space at a line start; positions spread over the whole text,
    // so edits land inside function bodies as well as between functions.
    std::size_t probe = text.size() * static_cast<std::size_t>(1 + i / 2) / 21;
    std::size_t lineStart = text.find('\n', probe);
    if (lineStart == std::string::npos) break;
    ++lineStart;
    auto at = static_cast<std::uint32_t>(lineStart);
    bool insert = i % 2 == 0;
    SyntaxEdit edit = insert ? describeEdit(text, at, at, " ") : describeEdit(text, at, at + 1, "");
    if (insert) {
      text.insert(lineStart, 1, ' ');
    } else {
      text.erase(lineStart, 1);
    }
    auto start = Clock::now();
    SyntaxTree next = reparseSyntax(tree, text, edit);
    samples.push_back(seconds(Clock::now() - start) * 1e3);
    tree = std::move(next);
  }
  std::sort(samples.begin(), samples.end());
  std::printf("incremental reparse, 1-byte edit mid-file of %.2f MB: median %.3f ms, max %.3f ms "
              "(%zu edits at 20 positions)\n",
              static_cast<double>(text.size()) / 1e6, samples[samples.size() / 2], samples.back(),
              samples.size());
  return 0;
}
