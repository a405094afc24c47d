// cuda_parse_bench: what parsing CUDA C++ with tree-sitter-cuda costs, and how much of it
// is left as ERROR nodes, on the CUDA toolkit's own headers.
//
// Usage: cuda_parse_bench [--runs N] [FILE...]
// Without files it takes every header under /usr/local/cuda/include that holds "asm".
// Per file: bytes, the parse time (best of N, this thread's processor time, so the figure does
// not depend on what else the machine runs) with the parser's view (CudaSyntax.h) and without
// it, the outline's time, and the bytes under ERROR nodes. Then, for the largest file and for
// its first 5,000 lines (the editing case): the reparse after a one-character edit
// inside an asm string (median and p95 over the file's asm statements), and the outline of
// the new tree. Prints figures, asserts nothing.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "BenchSupport.h"
#include "cuda/CudaOutline.h"
#include "cuda/CudaSyntax.h"

namespace fs = std::filesystem;
using namespace ptx;
using namespace ptx::cuda;

namespace {

template <typename F>
double bestMillis(int runs, F&& body) {
  double best = 1e300;
  for (int k = 0; k < runs; ++k) {
    double start = bench::threadCpuMillis();
    body();
    best = std::min(best, bench::threadCpuMillis() - start);
  }
  return best;
}

std::size_t errorBytes(const CudaSyntaxTree& tree) {
  std::size_t bytes = 0;
  TSTreeCursor cursor = ts_tree_cursor_new(tree.root());
  while (true) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    bool isError = std::string_view(ts_node_type(node)) == "ERROR";
    if (isError) bytes += ts_node_end_byte(node) - ts_node_start_byte(node);
    if (!isError && ts_tree_cursor_goto_first_child(&cursor)) continue;
    bool moved = false;
    while (!(moved = ts_tree_cursor_goto_next_sibling(&cursor))) {
      if (!ts_tree_cursor_goto_parent(&cursor)) break;
    }
    if (!moved) break;
  }
  ts_tree_cursor_delete(&cursor);
  return bytes;
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1, static_cast<std::size_t>(p * static_cast<double>(values.size())))];
}

// Reparse latency after typing one character inside each asm statement's template.
void editLatency(const std::string& label, std::string text) {
  CudaSyntaxTree tree = parseCudaSyntax(text);
  CudaOutline outline = outlineOf(tree, text);
  std::vector<double> reparse;
  std::vector<double> outlined;
  std::size_t fresh = 0;
  for (std::size_t k = 0; k < outline.asms.size(); k += std::max<std::size_t>(1, outline.asms.size() / 200)) {
    std::uint32_t quote = static_cast<std::uint32_t>(text.find('"', outline.asms[k].range.begin));
    if (quote >= outline.asms[k].range.end) continue;
    SyntaxEdit edit = describeEdit(text, quote + 1, quote + 1, "x");
    std::string edited = text.substr(0, quote + 1) + "x" + text.substr(quote + 1);
    double start = bench::threadCpuMillis();
    CudaSyntaxTree next = reparseCudaSyntax(tree, edited, edit);
    double middle = bench::threadCpuMillis();
    CudaOutline nextOutline = outlineOf(next, edited);
    double end = bench::threadCpuMillis();
    reparse.push_back(middle - start);
    outlined.push_back(end - middle);
    fresh += nextOutline.asms.size() == outline.asms.size();
  }
  double full = bestMillis(3, [&] { parseCudaSyntax(text); });
  std::printf("%-40s %8zu bytes  full parse %7.2f ms  edit in an asm string: reparse median %.2f ms p95 %.2f ms,"
              " outline median %.2f ms (%zu edits)\n",
              label.c_str(), text.size(), full, percentile(reparse, 0.5), percentile(reparse, 0.95),
              percentile(outlined, 0.5), reparse.size());
  if (fresh != reparse.size()) std::printf("  (%zu edits changed the asm count)\n", reparse.size() - fresh);
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  std::vector<fs::path> files;
  for (int k = 1; k < argc; ++k) {
    std::string_view arg = argv[k];
    if (arg == "--runs" && k + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++k]));
    } else {
      files.emplace_back(arg);
    }
  }
  if (files.empty()) {
    const fs::path include = "/usr/local/cuda/include";
    if (!fs::is_directory(include)) {
      std::printf("no files given and %s is absent\n", include.c_str());
      return 0;
    }
    for (const auto& entry : fs::recursive_directory_iterator(include)) {
      if (entry.is_regular_file() && bench::readFile(entry.path()).find("asm") != std::string::npos) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
  }

  std::printf("%-72s %9s %9s %9s %9s %8s %8s\n", "file", "bytes", "parse ms", "raw ms", "outline", "ERROR%", "raw ERR%");
  std::size_t totalBytes = 0, totalError = 0, totalRawError = 0;
  double totalParse = 0, totalRaw = 0;
  fs::path largest;
  std::size_t largestSize = 0;
  for (const fs::path& path : files) {
    std::string text = bench::readFile(path);
    CudaParseOptions raw;
    raw.adaptView = false;
    CudaSyntaxTree tree;
    double parse = bestMillis(runs, [&] { tree = parseCudaSyntax(text); });
    CudaSyntaxTree rawTree;
    double rawParse = bestMillis(runs, [&] { rawTree = parseCudaSyntax(text, raw); });
    double outline = bestMillis(runs, [&] { outlineOf(tree, text); });
    std::size_t error = errorBytes(tree);
    std::size_t rawError = errorBytes(rawTree);
    auto share = [&](std::size_t bytes) { return text.empty() ? 0.0 : 100.0 * static_cast<double>(bytes) / static_cast<double>(text.size()); };
    std::printf("%-72s %9zu %9.2f %9.2f %9.2f %7.2f%% %7.2f%%\n", path.c_str(), text.size(), parse, rawParse, outline,
                share(error), share(rawError));
    totalBytes += text.size();
    totalError += error;
    totalRawError += rawError;
    totalParse += parse;
    totalRaw += rawParse;
    if (text.size() > largestSize) {
      largestSize = text.size();
      largest = path;
    }
  }
  if (totalBytes == 0) return 0;
  std::printf("%zu files, %zu bytes: parse %.1f ms (%.1f MB/s), without the view %.1f ms; under ERROR %.2f%% of the bytes"
              " (%.2f%% without the view)\n",
              files.size(), totalBytes, totalParse, static_cast<double>(totalBytes) / 1e3 / totalParse, totalRaw,
              100.0 * static_cast<double>(totalError) / static_cast<double>(totalBytes),
              100.0 * static_cast<double>(totalRawError) / static_cast<double>(totalBytes));

  std::string text = bench::readFile(largest);
  editLatency(largest.filename().string(), text);
  std::size_t cut = 0;
  for (int line = 0; line < 5000 && cut != std::string::npos; ++line) cut = text.find('\n', cut + 1);
  if (cut != std::string::npos) editLatency(largest.filename().string() + ", first 5,000 lines", text.substr(0, cut + 1));
  return 0;
}
