// lint_stages_bench: where a lint's time goes, per file, per stage and per rule, over every PTX
// file of our corpora and ../shared/corpus (issue 23).
//
// Usage: lint_stages_bench [--runs N] [--confirm N] [--min-bytes N] [--json FILE] [--top N] [--no-scaling]
//                          [PATH...]
//   PATH: files or folders searched for *.ptx (default: corpus/ and ../shared/corpus).
//
// Per file, one thread, the processor time of this thread (best of N runs, default 1):
//   parse, syntax (syntax diagnostics), model, shapes (instruction form matching), flow (each
//   function's CFG and definitions, and its thread model: what the dataflow rules share),
//   each rule alone (on a fresh FlowCache whose CFGs and thread models are already built, so a
//   rule is charged with what only it asks for), and the whole lint as ptxlint -j 1 runs it.
// The machine's speed drifts by a third over minutes, so a file that misses either goal below
// is measured again at the end, --confirm N more runs (default 5), and keeps the least time of
// each stage and rule over both passes (a file's cost does not change; only the noise does).
// How many files the first pass flagged is printed beside the confirmed count.
// Prints each file's MB/s beside the 4 MB/s goal (files under 16 KB excepted), its costliest
// rules of the default lint and their share of it beside the 15% goal (files over 100 KB;
// opt-in rules are timed too, but only listed below), then per rule
// across files how its cost grows with the input: the slope of log(cost) over log(bytes) on the
// files where it costs at least 0.2 ms, flagged above 1.2 (cost growing faster than the input).
// Then the same growth within one input: synthetic modules of many calling functions and one
// kernel of many blocks, each doubled four times, the lint and each rule timed at every size.
// Prints figures, asserts nothing.
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "BenchSupport.h"
#include "Lint.h"
#include "Registry.h"
#include "RuleContext.h"
#include "flow/FunctionFlow.h"
#include "isa/InstructionShape.h"
#include "model/Module.h"
#include "syntax/SyntaxDiagnostics.h"
#include "syntax/SyntaxTree.h"

using namespace ptx;
namespace fs = std::filesystem;

namespace {

struct RuleRun {
  std::string_view code;
  void (*check)(const RuleContext&);
  bool optIn;  // Not in the default lint (Rules.def's `when` is OptIn).
};

constexpr RuleRun kChecks[] = {
#define PTX_RULE(code, name, category, severity, check, reads, when, summary) \
  {#code, check, std::string_view(#when) == "OptIn"},
#include "Rules.def"
};

struct FileCost {
  std::string path;
  std::size_t bytes = 0;
  std::size_t instructions = 0;
  double parse = 0, syntax = 0, model = 0, shapes = 0, flow = 0, lint = 0;
  std::vector<double> rules;  // By kChecks index.
};

template <typename F>
double best(int runs, F&& body) {
  double least = 1e300;
  for (int k = 0; k < runs; ++k) {
    double start = bench::threadCpuMillis();
    body();
    least = std::min(least, bench::threadCpuMillis() - start);
  }
  return least;
}

void warmFlows(flow::FlowCache& flows, const Module& module) {
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    if (module.functions[f].bodyScope == kNoScope) continue;
    flows.flowOfFunction(f);
    flows.threadsOfFunction(f);
  }
}

FileCost measureText(std::string name, const std::string& text, int runs);

FileCost measure(const fs::path& path, int runs) { return measureText(path.string(), bench::readFile(path), runs); }

FileCost measureText(std::string name, const std::string& text, int runs) {
  FileCost cost;
  cost.path = std::move(name);
  cost.bytes = text.size();
  LintOptions options;  // One thread, default rules: ptxlint -j 1.
  cost.lint = best(runs, [&] { LintResult result = lintText(text, options); });
  SyntaxTree tree;
  cost.parse = best(runs, [&] { tree = parseSyntax(text); });
  cost.syntax = best(runs, [&] { auto d = collectSyntaxDiagnostics(text, tree, options.syntax); });
  Module module;
  cost.model = best(runs, [&] { module = buildModule(text, tree); });
  cost.instructions = module.instructions.size();
  InstructionShapes shapes;
  cost.shapes = best(runs, [&] { shapes = checkInstructionShapes(text, module); });
  cost.flow = best(runs, [&] {
    flow::FlowCache flows(text, module);
    warmFlows(flows, module);
  });
  cost.rules.assign(std::size(kChecks), 0.0);
  for (std::size_t r = 0; r < std::size(kChecks); ++r) {
    double least = 1e300;
    for (int k = 0; k < runs; ++k) {
      flow::FlowCache flows(text, module);
      warmFlows(flows, module);
      std::vector<Diagnostic> out;
      RuleContext context{text, tree, module, shapes, out, flows, std::nullopt};
      double start = bench::threadCpuMillis();
      kChecks[r].check(context);
      least = std::min(least, bench::threadCpuMillis() - start);
    }
    cost.rules[r] = least;
  }
  return cost;
}

// The largest default rule's share of the lint, and whether the file misses a goal: under
// 4 MB/s (16 KB or more), or one rule over 15% of the lint (over 100 KB).
double heaviestShare(const FileCost& c) {
  double heaviest = 0;
  for (std::size_t r = 0; r < c.rules.size(); ++r) {
    if (!kChecks[r].optIn) heaviest = std::max(heaviest, c.rules[r]);
  }
  return c.lint > 0 ? heaviest / c.lint : 0;
}

double megabytesPerSecond(const FileCost& c) {
  return c.lint > 0 ? static_cast<double>(c.bytes) / 1e6 / (c.lint / 1e3) : 0;
}

bool missesGoal(const FileCost& c) {
  return (c.bytes >= 16384 && megabytesPerSecond(c) < 4.0) || (c.bytes > 100000 && heaviestShare(c) > 0.15);
}

// Each stage and rule keeps the least time of two measurements of the same file.
void keepLeast(FileCost& kept, const FileCost& again) {
  for (auto field : {&FileCost::parse, &FileCost::syntax, &FileCost::model, &FileCost::shapes, &FileCost::flow,
                     &FileCost::lint}) {
    kept.*field = std::min(kept.*field, again.*field);
  }
  for (std::size_t r = 0; r < kept.rules.size() && r < again.rules.size(); ++r) {
    kept.rules[r] = std::min(kept.rules[r], again.rules[r]);
  }
}

void collect(const fs::path& path, std::size_t minBytes, std::vector<fs::path>& files) {
  std::error_code error;
  if (fs::is_regular_file(path, error)) {
    files.push_back(path);
    return;
  }
  if (!fs::is_directory(path, error)) return;
  for (const auto& entry : fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied, error)) {
    if (entry.is_regular_file(error) && entry.path().extension() == ".ptx" && entry.file_size(error) >= minBytes)
      files.push_back(entry.path());
  }
}

// Least-squares slope of y over x.
double slope(const std::vector<double>& x, const std::vector<double>& y) {
  double n = static_cast<double>(x.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  double d = n * sxx - sx * sx;
  return d == 0 ? 0 : (n * sxy - sx * sy) / d;
}

// Synthetic modules that grow one dimension at a time, for the growth check below.
// `functions` .func's, each calling five others through the ABI's parameter protocol.
std::string callingFunctions(int functions) {
  std::string text = ".version 8.0\n.target sm_80\n.address_size 64\n";
  for (int k = 0; k < functions; ++k) text += ".func (.param .b32 r) f" + std::to_string(k) + "(.param .b32 a);\n";
  for (int k = 0; k < functions; ++k) {
    text += ".visible .func (.param .b32 r) f" + std::to_string(k) + "(.param .b32 a)\n{\n.reg .b32 %r<4>;\nld.param.b32 %r1, [a];\n";
    for (int c = 0; c < 5; ++c) {
      text += "{\n.param .b32 p;\n.param .b32 q;\nst.param.b32 [p], %r1;\ncall.uni (q), f" +
              std::to_string((k * 7 + c * 13 + 1) % functions) + ", (p);\nld.param.b32 %r2, [q];\n}\n";
    }
    text += "st.param.b32 [r], %r2;\nret;\n}\n";
  }
  return text;
}

// One kernel of `blocks` guarded blocks of shared and global loads and stores, with barriers:
// what the race, barrier and register rules walk within one function.
std::string longKernel(int blocks) {
  std::string text =
      ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 out, .param .u32 n)\n{\n"
      ".reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n.reg .pred %p<4>;\n.shared .align 4 .b8 tile[4096];\n"
      "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\nld.param.u32 %r1, [n];\n"
      "mov.u32 %r2, %tid.x;\nmov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\nmad.lo.s32 %r5, %r3, %r4, %r2;\n"
      "shl.b32 %r6, %r2, 2;\nmov.u32 %r7, tile;\nadd.s32 %r8, %r7, %r6;\nmul.wide.s32 %rd3, %r5, 4;\n"
      "add.s64 %rd4, %rd2, %rd3;\n";
  for (int b = 0; b < blocks; ++b) {
    std::string label = "$L__B" + std::to_string(b);
    text += "setp.ge.s32 %p1, %r5, %r1;\n@%p1 bra " + label + ";\nld.global.u32 %r9, [%rd4];\n"
            "add.s32 %r9, %r9, " + std::to_string(b) + ";\nst.shared.u32 [%r8], %r9;\nbar.sync 0;\n"
            "ld.shared.u32 %r10, [%r8];\nst.global.u32 [%rd4], %r10;\nbar.sync 0;\n" + label + ":\n";
  }
  text += "ret;\n}\n";
  return text;
}

// Each family at sizes doubling four times: per rule and for the whole lint, the cost ratio
// of the largest doubling; above 2.6 (linear is 2) the cost grows faster than the input.
std::size_t scalingCheck(int runs) {
  struct Family {
    const char* name;
    std::string (*make)(int);
    int first;
  };
  const Family families[] = {{"calling functions", callingFunctions, 250}, {"one long kernel", longKernel, 250}};
  std::size_t flagged = 0;
  std::printf("\ngrowth on synthetic inputs (cost ratio of the last doubling; linear is 2.0, flagged above 2.6):\n");
  for (const Family& family : families) {
    std::vector<FileCost> costs;
    for (int step = 0, size = family.first; step < 4; ++step, size *= 2) {
      costs.push_back(measureText(family.name, family.make(size), runs));
    }
    const FileCost& last = costs.back();
    const FileCost& before = costs[costs.size() - 2];
    auto ratio = [](double now, double then) { return then > 0.05 ? now / then : 0.0; };
    double lintRatio = ratio(last.lint, before.lint);
    std::printf("  %-18s %4d -> %4d: lint %7.1f -> %7.1f ms (x%.2f)%s\n", family.name, family.first * 4,
                family.first * 8, before.lint, last.lint, lintRatio, lintRatio > 2.6 ? "  GROWS FASTER THAN INPUT" : "");
    flagged += lintRatio > 2.6;
    for (std::size_t r = 0; r < std::size(kChecks); ++r) {
      double growth = ratio(last.rules[r], before.rules[r]);
      if (last.rules[r] < 1.0 || growth <= 2.6) continue;
      ++flagged;
      std::printf("    %-8s %7.1f -> %7.1f ms (x%.2f)  GROWS FASTER THAN INPUT%s\n", std::string(kChecks[r].code).c_str(),
                  before.rules[r], last.rules[r], growth, kChecks[r].optIn ? "  (opt-in)" : "");
    }
  }
  std::printf("flagged: %zu\n", flagged);
  return flagged;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 1;
  int confirmRuns = 5;
  std::size_t minBytes = 0;
  std::size_t top = 3;
  std::string jsonPath;
  bool noScaling = false;
  std::vector<fs::path> roots;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--confirm" && i + 1 < argc) confirmRuns = std::max(0, std::atoi(argv[++i]));
    else if (arg == "--min-bytes" && i + 1 < argc) minBytes = std::strtoull(argv[++i], nullptr, 10);
    else if (arg == "--top" && i + 1 < argc) top = std::strtoull(argv[++i], nullptr, 10);
    else if (arg == "--json" && i + 1 < argc) jsonPath = argv[++i];
    else if (arg == "--no-scaling") noScaling = true;
    else if (arg == "--help" || arg == "-h") {
      std::printf("Usage: lint_stages_bench [--runs N] [--confirm N] [--min-bytes N] [--json FILE] [--top N] "
                  "[--no-scaling] [PATH...]\n");
      return 0;
    } else roots.emplace_back(argv[i]);
  }
  if (roots.empty()) {
    roots.emplace_back(fs::path(PTXLS_SOURCE_DIR) / "corpus");
    roots.emplace_back(fs::path(PTXLS_SHARED_DIR) / "corpus");
  }
  std::vector<fs::path> files;
  for (const fs::path& root : roots) collect(root, minBytes, files);
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  if (files.empty()) {
    std::printf("skipped: no .ptx files under the given paths\n");
    return 0;
  }
  std::vector<FileCost> costs;
  for (const fs::path& file : files) costs.push_back(measure(file, runs));
  std::sort(costs.begin(), costs.end(), [](const FileCost& a, const FileCost& b) { return a.bytes > b.bytes; });
  // Files that miss a goal on the first pass are measured again, later, with more runs.
  std::size_t flaggedFirst = 0;
  for (FileCost& c : costs) {
    if (!missesGoal(c)) continue;
    ++flaggedFirst;
    if (confirmRuns == 0) continue;
    FileCost again = measure(c.path, confirmRuns);
    keepLeast(c, again);
  }

  std::printf("%-58s %9s %7s %7s %7s %7s %7s %8s %7s  %-24s\n", "file", "KB", "parse", "syntax", "model", "shapes",
              "flow", "lint ms", "MB/s", "costliest rules (share of the lint)");
  double totalBytes = 0, totalLint = 0;
  std::size_t slow = 0, heavy = 0, considered = 0, consideredHeavy = 0;
  for (const FileCost& c : costs) {
    double mbps = megabytesPerSecond(c);
    totalBytes += static_cast<double>(c.bytes);
    totalLint += c.lint;
    std::vector<std::size_t> order;
    for (std::size_t r = 0; r < c.rules.size(); ++r)
      if (!kChecks[r].optIn) order.push_back(r);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return c.rules[a] > c.rules[b]; });
    std::string rules;
    for (std::size_t k = 0; k < std::min(top, order.size()); ++k) {
      char cell[64];
      std::snprintf(cell, sizeof cell, "%s%s %.0f%%", k ? ", " : "", std::string(kChecks[order[k]].code).c_str(),
                    100.0 * c.rules[order[k]] / c.lint);
      rules += cell;
    }
    bool isSlow = c.bytes >= 16384 && mbps < 4.0;
    bool isHeavy = c.bytes > 100000 && heaviestShare(c) > 0.15;
    considered += c.bytes >= 16384;
    consideredHeavy += c.bytes > 100000;
    slow += isSlow;
    heavy += isHeavy;
    std::string name = c.path.size() > 58 ? "..." + c.path.substr(c.path.size() - 55) : c.path;
    std::printf("%-58s %9.1f %7.1f %7.1f %7.1f %7.1f %7.1f %8.1f %7.2f%s %s%s\n", name.c_str(),
                static_cast<double>(c.bytes) / 1024, c.parse, c.syntax, c.model, c.shapes, c.flow, c.lint, mbps,
                isSlow ? " SLOW" : "     ", rules.c_str(), isHeavy ? "  RULE>15%" : "");
  }
  std::printf("\n%zu files, %.1f MB: lint %.2f s on one thread, %.2f MB/s\n", costs.size(), totalBytes / 1e6,
              totalLint / 1e3, totalBytes / 1e6 / (totalLint / 1e3));
  std::printf("files the first pass (best of %d) found under 4 MB/s or with a rule over 15%%: %zu, measured again "
              "with %d more runs\n",
              runs, flaggedFirst, confirmRuns);
  std::printf("files of 16 KB or more under 4 MB/s: %zu of %zu (goal 0)  %s\n", slow, considered, slow ? "MISS" : "PASS");
  std::printf("files over 100 KB where one rule takes over 15%% of the lint: %zu of %zu (goal 0)  %s\n", heavy,
              consideredHeavy, heavy ? "MISS" : "PASS");

  // Per rule: total cost, worst share, and growth against bytes.
  std::printf("\n%-8s %10s %12s %-40s %7s %6s\n", "rule", "total ms", "worst share", "on", "slope", "files");
  struct RuleLine {
    std::size_t rule;
    double total;
  };
  std::vector<RuleLine> lines;
  for (std::size_t r = 0; r < std::size(kChecks); ++r) {
    double total = 0;
    for (const FileCost& c : costs) total += c.rules[r];
    lines.push_back({r, total});
  }
  std::sort(lines.begin(), lines.end(), [](const RuleLine& a, const RuleLine& b) { return a.total > b.total; });
  std::size_t superlinear = 0;
  for (const RuleLine& line : lines) {
    double worst = 0;
    std::string worstFile;
    std::vector<double> x, y;
    for (const FileCost& c : costs) {
      double share = c.rules[line.rule] / c.lint;
      if (c.bytes > 100000 && share > worst) {
        worst = share;
        worstFile = fs::path(c.path).filename().string();
      }
      if (c.rules[line.rule] >= 0.2) {
        x.push_back(std::log(static_cast<double>(c.bytes)));
        y.push_back(std::log(c.rules[line.rule]));
      }
    }
    double growth = x.size() >= 5 ? slope(x, y) : 0;
    bool flagged = x.size() >= 5 && growth > 1.2;
    superlinear += flagged;
    if (line.total < 1.0 && !flagged) continue;
    std::printf("%-8s %10.1f %11.1f%% %-40s %7.2f %6zu%s%s\n", std::string(kChecks[line.rule].code).c_str(), line.total,
                100 * worst, worstFile.substr(0, 40).c_str(), growth, x.size(), flagged ? "  GROWS FASTER THAN INPUT" : "",
                kChecks[line.rule].optIn ? "  (opt-in: not in the default lint)" : "");
  }
  std::printf("rules whose cost grows faster than the input (slope > 1.2): %zu\n", superlinear);
  if (!noScaling) scalingCheck(runs);

  if (!jsonPath.empty()) {
    std::FILE* out = std::fopen(jsonPath.c_str(), "w");
    if (out == nullptr) return 1;
    std::fprintf(out, "[\n");
    for (std::size_t i = 0; i < costs.size(); ++i) {
      const FileCost& c = costs[i];
      std::fprintf(out,
                   "  {\"file\": \"%s\", \"bytes\": %zu, \"instructions\": %zu, \"parse\": %.3f, \"syntax\": %.3f, "
                   "\"model\": %.3f, \"shapes\": %.3f, \"flow\": %.3f, \"lint\": %.3f, \"rules\": {",
                   c.path.c_str(), c.bytes, c.instructions, c.parse, c.syntax, c.model, c.shapes, c.flow, c.lint);
      bool first = true;
      for (std::size_t r = 0; r < c.rules.size(); ++r) {
        if (c.rules[r] < 0.05) continue;
        std::fprintf(out, "%s\"%s\": %.3f", first ? "" : ", ", std::string(kChecks[r].code).c_str(), c.rules[r]);
        first = false;
      }
      std::fprintf(out, "}}%s\n", i + 1 < costs.size() ? "," : "");
    }
    std::fprintf(out, "]\n");
    std::fclose(out);
  }
  return 0;
}
