// edit_bench: what one keystroke costs the server's analysis, without the protocol around it.
//
// Usage: edit_bench [--edits N] [--threads N] FILE
// Lints FILE whole once, then N times: inserts (or removes again) a space at the start of a
// line inside a function body, spread over the file, reparses incrementally and re-checks the
// edited function (relintChangedFunction), as the server's scheduler does. Prints, per edit,
// the reparse and the re-check, their median and 95th percentile, and the size of the
// function each edit landed in. lsp_bench.py measures the same path end to end (debounce,
// JSON, line index); this one says which stage the time is in. --threads 0 re-checks as the
// server does (the machine's threads for a large function); the default is one thread.
// Asserts nothing.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "BenchSupport.h"
#include "Lint.h"
#include "syntax/SyntaxTree.h"

using namespace ptx;
using Clock = std::chrono::steady_clock;

namespace {

double milliseconds(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

double percentile(std::vector<double> samples, double p) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  auto index = static_cast<std::size_t>(p * static_cast<double>(samples.size() - 1) + 0.5);
  return samples[std::min(index, samples.size() - 1)];
}

// The instructions of the function whose body holds `offset` (0 outside every body).
std::size_t instructionsAround(const Module& module, std::uint32_t offset) {
  for (const FunctionInfo& function : module.functions) {
    if (function.bodyScope == kNoScope) continue;
    ByteRange body = module.scopes[function.bodyScope].range;
    if (body.begin <= offset && offset < body.end) return function.instructionCount;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int edits = 40;
  unsigned threads = 1;
  std::string path;
  for (int i = 1; i < argc; ++i) {
    std::string_view argument = argv[i];
    if (argument == "--edits" && i + 1 < argc) {
      edits = std::max(1, std::atoi(argv[++i]));
    } else if (argument == "--threads" && i + 1 < argc) {
      threads = static_cast<unsigned>(std::max(0, std::atoi(argv[++i])));
    } else if (argument == "--help" || argument == "-h") {
      std::printf("usage: edit_bench [--edits N] [--threads N] FILE\n");
      return 0;
    } else {
      path = argv[i];
    }
  }
  std::string text = path.empty() ? std::string() : bench::readFile(path);
  if (text.empty()) {
    std::fprintf(stderr, "edit_bench: cannot read %s\n", path.c_str());
    return 2;
  }
  LintOptions options;
  auto start = Clock::now();
  LintResult previous = lintText(text, options);
  options.threads = threads;  // For the re-checks only, as in the server.
  // The functions' sizes from this whole analysis: the later ones are focused (one body each).
  // Each edit is undone by the next, so the bodies' offsets move by one byte at most.
  const Module whole = previous.module;
  std::printf("%s: %.2f MB, whole lint %.0f ms, %zu functions\n", path.c_str(), static_cast<double>(text.size()) / 1e6,
              milliseconds(Clock::now() - start), previous.module.functions.size());

  // Line starts inside function bodies, spread evenly over the bodies' bytes.
  std::vector<std::uint32_t> candidates;
  for (const FunctionInfo& function : previous.module.functions) {
    if (function.bodyScope == kNoScope) continue;
    ByteRange body = previous.module.scopes[function.bodyScope].range;
    for (std::size_t at = text.find('\n', body.begin); at != std::string::npos && at + 2 < body.end;
         at = text.find('\n', at + 1)) {
      if (text[at + 1] == '\t') candidates.push_back(static_cast<std::uint32_t>(at + 1));
    }
  }
  if (candidates.empty()) {
    std::fprintf(stderr, "edit_bench: no function body lines to edit\n");
    return 2;
  }
  std::vector<double> reparse;
  std::vector<double> recheck;
  std::vector<double> total;
  int fallbacks = 0;
  for (int i = 0; i < edits; ++i) {
    // Insert a space, then remove it again at the same place: the text returns to the original.
    std::uint32_t at = candidates[candidates.size() * static_cast<std::size_t>(i / 2) * 2 /
                                  static_cast<std::size_t>(edits + 1)];
    bool insert = i % 2 == 0;
    std::size_t instructions = instructionsAround(whole, at);
    SyntaxEdit edit = insert ? describeEdit(text, at, at, " ") : describeEdit(text, at, at + 1, "");
    if (insert) {
      text.insert(at, 1, ' ');
    } else {
      text.erase(at, 1);
    }
    ChangedSpan change{at, insert ? at : at + 1, insert ? at + 1 : at};
    auto begin = Clock::now();
    SyntaxTree tree = reparseSyntax(previous.tree, text, edit);
    auto parsed = Clock::now();
    std::optional<LintResult> quick = relintChangedFunction(text, tree, previous, change, options);
    if (!quick) {
      ++fallbacks;
      quick = lintTree(text, std::move(tree), options);
    }
    auto checked = Clock::now();
    reparse.push_back(milliseconds(parsed - begin));
    recheck.push_back(milliseconds(checked - parsed));
    total.push_back(milliseconds(checked - begin));
    std::printf("  edit %2d at byte %9u (function of %6zu instructions): reparse %6.1f ms, re-check %6.1f ms\n", i,
                at, instructions, reparse.back(), recheck.back());
    // The next edit starts from this one's result, as the server's next keystroke does: the
    // re-check needs the previous tree and diagnostics only.
    previous = std::move(*quick);
  }
  std::printf("reparse   median %6.1f ms  p95 %6.1f ms\n", percentile(reparse, 0.5), percentile(reparse, 0.95));
  std::printf("re-check  median %6.1f ms  p95 %6.1f ms\n", percentile(recheck, 0.5), percentile(recheck, 0.95));
  std::printf("both      median %6.1f ms  p95 %6.1f ms  (server goal: p95 <= 50 ms on >= 10 MB, 30 on 4 MB, "
              "debounce and protocol excluded here)\n",
              percentile(total, 0.5), percentile(total, 0.95));
  if (fallbacks > 0) std::printf("%d edits were not confined to one body and took the whole lint\n", fallbacks);
  return 0;
}
