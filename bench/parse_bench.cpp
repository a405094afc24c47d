// ptxls_bench: parser throughput and incremental-reparse latency.
//
// Usage: ptxls_bench [--threads N] [--runs N] [--stages] [FILE...]
// Without arguments it measures the largest files of ../shared/corpus and corpus/nvcc.
// Figures, best of several runs, in MB/s: full parse (tree-sitter only, one thread), the
// chunked parse on N threads, and full lint (every rule) with LintOptions::threads = 1 and
// = N (N defaults to std::thread::hardware_concurrency()), with the speedup; then the time of
// ts_tree_edit + reparse after a one-byte edit in the middle of a file of at least 4 MB
// (smaller inputs are concatenated up to that size). Per file it also prints the heap a whole
// parse's tree and the model of it keep, per byte of text (the server holds both per document).
// --stages splits the lint of the largest
// file into its stages for 1, 2, 4, ... N threads.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <malloc.h>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

#include "Lint.h"
#include "isa/InstructionShape.h"
#include "syntax/SyntaxTree.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace ptx;

namespace ptx {
// Defined in analyzers/isa/InstructionShape.cpp (the parallel pipeline's instruction shapes).
InstructionShapes checkInstructionShapesParallel(std::string_view text, const Module& module, unsigned threads);
}  // namespace ptx

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

// The best time of `runs` calls of `body`; a body that returns a double reports its own time.
template <typename F>
double bestOf(int runs, F&& body) {
  double best = 1e30;
  for (int i = 0; i < runs; ++i) {
    auto start = Clock::now();
    if constexpr (std::is_same_v<decltype(body()), double>) {
      best = std::min(best, body());
    } else {
      body();
      best = std::min(best, seconds(Clock::now() - start));
    }
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

// Heap bytes `build` leaves allocated while what it returns is alive (glibc's count of bytes in
// use, so freed-but-kept arena memory does not count), per byte of `text`.
template <typename F>
double heapPerTextByte(const std::string& text, F&& build) {
  std::size_t before = mallinfo2().uordblks;
  auto kept = build();
  std::size_t after = mallinfo2().uordblks;
  return text.empty() ? 0.0 : static_cast<double>(after - std::min(after, before)) / static_cast<double>(text.size());
}

// Stage by stage, for `threads` threads (1: the sequential functions), best of `runs`: where
// the time of a lint goes. "rules etc." is the whole lint minus the stages measured apart
// (the rules, sorting, suppressions and freeing the model).
void printStages(const std::string& text, unsigned threads, int runs) {
  std::size_t pieceBytes = std::max<std::size_t>(text.size() / (std::size_t{threads} * 4), 1);
  double cuts = bestOf(runs, [&] { (void)moduleItemCuts(text, pieceBytes); });
  SyntaxTree tree;
  double parse = bestOf(runs, [&] {
    SyntaxTree previous = std::move(tree);
    auto start = Clock::now();
    tree = threads > 1 ? parseSyntaxChunked(text, {}, threads, pieceBytes) : parseSyntax(text);
    return seconds(Clock::now() - start);  // The previous tree is freed outside the timing.
  });
  double syntax = bestOf(runs, [&] { (void)collectSyntaxDiagnosticsParallel(text, tree, {}, threads); });
  Module module;
  double model = bestOf(runs, [&] {
    Module previous = std::move(module);
    auto start = Clock::now();
    module = threads > 1 ? buildModuleParallel(text, tree, threads) : buildModule(text, tree);
    return seconds(Clock::now() - start);
  });
  double shapes = bestOf(runs, [&] { (void)checkInstructionShapesParallel(text, module, threads); });
  double freeTree = bestOf(runs, [&] {
    SyntaxTree copy = threads > 1 ? parseSyntaxChunked(text, {}, threads, pieceBytes) : parseSyntax(text);
    auto start = Clock::now();
    copy = SyntaxTree();
    return seconds(Clock::now() - start);
  });
  LintOptions options;
  options.threads = threads;
  double lint = bestOf(runs, [&] { (void)lintText(text, options); });
  double rest = lint - parse - syntax - model - shapes - freeTree;
  std::printf("  threads %2u: cuts %.1f  parse %.1f  syntax %.1f  model %.1f  shapes %.1f  free tree %.1f  "
              "rules etc. %.1f  = lint %.1f ms (%zu pieces)\n",
              threads, cuts * 1e3, parse * 1e3, syntax * 1e3, model * 1e3, shapes * 1e3, freeTree * 1e3, rest * 1e3,
              lint * 1e3, tree.pieces());
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> inputs;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  int runs = 5;
  bool stages = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view argument = argv[i];
    if (argument == "--help" || argument == "-h") {
      std::printf("usage: ptxls_bench [--threads N] [--runs N] [--stages] [FILE...]\n"
                  "Prints parse and lint throughput per file (lint with 1 and N threads) and\n"
                  "incremental reparse latency; --stages adds the time of each stage of a lint of\n"
                  "the largest file with 1, 2, 4, ... N threads.\n");
      return 0;
    }
    if (argument == "--stages") {
      stages = true;
      continue;
    }
    if ((argument == "--threads" || argument == "--runs") && i + 1 < argc) {
      int value = std::max(1, std::atoi(argv[++i]));
      if (argument == "--threads") {
        threads = static_cast<unsigned>(value);
      } else {
        runs = value;
      }
      continue;
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

  std::printf("threads N = %u (hardware_concurrency %u), best of %d runs\n", threads,
              std::thread::hardware_concurrency(), runs);
  std::printf("%-36s %7s %9s %9s %9s %9s %8s %7s %7s %7s\n", "file", "MB", "parse", "parse/N", "lint/1", "lint/N",
              "speedup", "pieces", "tree x", "model x");
  std::string largest;
  double totalBytes = 0;
  double totalParse = 0;
  double totalLint = 0;
  double totalLintN = 0;
  LintOptions sequential;
  LintOptions parallel;
  parallel.threads = threads;
  for (const fs::path& path : inputs) {
    std::string text = readFile(path);
    if (text.size() > largest.size()) largest = text;
    double megabytes = static_cast<double>(text.size()) / 1e6;
    std::size_t pieceBytes = std::max<std::size_t>(text.size() / (std::size_t{threads} * 4), 1);
    std::size_t pieces = 1;
    double parse = bestOf(runs, [&] { (void)parseSyntax(text); });
    double parseN = bestOf(runs, [&] { pieces = parseSyntaxChunked(text, {}, threads, pieceBytes).pieces(); });
    double lint = bestOf(runs, [&] { (void)lintText(text, sequential); });
    double lintN = bestOf(runs, [&] { (void)lintText(text, parallel); });
    SyntaxTree tree;
    double treeBytes = heapPerTextByte(text, [&] { return parseSyntax(text); });
    tree = parseSyntax(text);
    double modelBytes = heapPerTextByte(text, [&] { return buildModule(text, tree); });
    totalBytes += megabytes;
    totalParse += parse;
    totalLint += lint;
    totalLintN += lintN;
    std::printf("%-36s %7.2f %9.1f %9.1f %9.1f %9.1f %7.2fx %7zu %7.1f %7.1f\n", path.filename().string().c_str(),
                megabytes, megabytes / parse, megabytes / parseN, megabytes / lint, megabytes / lintN, lint / lintN,
                pieces, treeBytes, modelBytes);
  }
  std::printf("%-36s %7.2f %9.1f %9s %9.1f %9.1f %7.2fx\n", "all (bytes / summed best times)", totalBytes,
              totalBytes / totalParse, "", totalBytes / totalLint, totalBytes / totalLintN, totalLint / totalLintN);
  std::printf("(tree x, model x: heap bytes a whole parse's tree and the model of it hold, per byte of text)\n");
  std::printf("(MB/s; lint/1 and lint/N: lintText with every rule, LintOptions::threads = 1 and N;\n"
              " texts up to %zu bytes are linted on one thread whatever N)\n", parallel.parallelThresholdBytes);

  if (stages && !largest.empty()) {
    std::printf("stages of a lint of the largest file (%.2f MB), best of %d runs, in ms:\n",
                static_cast<double>(largest.size()) / 1e6, runs);
    for (unsigned t = 1; t < threads; t *= 2) printStages(largest, t, runs);
    printStages(largest, threads, runs);
  }

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
