// Chunked and sequential lint agree: lintText with LintOptions::threads = 4 (every text cut
// into pieces, parallelThresholdBytes = 0) must give exactly what threads = 1 gives: the same
// tree node for node, the same diagnostics in the same order (rule, severity, category,
// range, message, related locations, fixes) and the same model, over every file of the shared
// corpus and the project's own, and over synthetic texts made to stress the cuts (syntax
// errors in several pieces, one huge function, only comments, garbage, declarations used
// before and after their point, many syntax diagnostics past the limit).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "Lint.h"
#include "TestSupport.h"

using namespace ptx;
namespace fs = std::filesystem;

namespace {

constexpr unsigned kThreads = 4;

LintOptions sequentialOptions() { return LintOptions{}; }

LintOptions parallelOptions() {
  LintOptions options;
  options.threads = kThreads;
  options.parallelThresholdBytes = 0;  // Cut every text, however small.
  return options;
}

// The first difference between two trees (every node, named or not: symbol, byte range,
// points, field, flags), or empty when they are the same.
std::string treeDifference(const SyntaxTree& a, const SyntaxTree& b) {
  if (a.isComplete() != b.isComplete()) return "completeness differs";
  if (ts_node_is_null(a.root()) || ts_node_is_null(b.root())) {
    return ts_node_is_null(a.root()) == ts_node_is_null(b.root()) ? "" : "one tree is missing";
  }
  TSTreeCursor ca = ts_tree_cursor_new(a.root());
  TSTreeCursor cb = ts_tree_cursor_new(b.root());
  std::string difference;
  auto same = [](TSPoint p, TSPoint q) { return p.row == q.row && p.column == q.column; };
  while (difference.empty()) {
    TSNode x = ts_tree_cursor_current_node(&ca);
    TSNode y = ts_tree_cursor_current_node(&cb);
    if (ts_node_symbol(x) != ts_node_symbol(y) || ts_node_start_byte(x) != ts_node_start_byte(y) ||
        ts_node_end_byte(x) != ts_node_end_byte(y) || !same(ts_node_start_point(x), ts_node_start_point(y)) ||
        !same(ts_node_end_point(x), ts_node_end_point(y)) || ts_node_is_named(x) != ts_node_is_named(y) ||
        ts_node_is_extra(x) != ts_node_is_extra(y) || ts_node_is_missing(x) != ts_node_is_missing(y) ||
        ts_node_has_error(x) != ts_node_has_error(y) || ts_node_child_count(x) != ts_node_child_count(y) ||
        ts_tree_cursor_current_field_id(&ca) != ts_tree_cursor_current_field_id(&cb)) {
      difference = std::string(ts_node_type(x)) + " at " + std::to_string(ts_node_start_byte(x)) + " vs " +
                   ts_node_type(y) + " at " + std::to_string(ts_node_start_byte(y));
      break;
    }
    bool down = ts_tree_cursor_goto_first_child(&ca);
    if (down != ts_tree_cursor_goto_first_child(&cb)) difference = "children differ";
    if (down) continue;
    bool done = false;
    while (difference.empty()) {
      bool next = ts_tree_cursor_goto_next_sibling(&ca);
      if (next != ts_tree_cursor_goto_next_sibling(&cb)) difference = "siblings differ";
      if (next) break;
      bool up = ts_tree_cursor_goto_parent(&ca);
      if (up != ts_tree_cursor_goto_parent(&cb)) difference = "parents differ";
      if (!up) {
        done = true;
        break;
      }
    }
    if (done) break;
  }
  ts_tree_cursor_delete(&ca);
  ts_tree_cursor_delete(&cb);
  return difference;
}

// The first difference between two models, field by field, or empty when they are the same.
std::string moduleDifference(const Module& a, const Module& b) {
  auto count = [](const char* what, std::size_t x, std::size_t y) {
    return x == y ? std::string() : std::string(what) + " count " + std::to_string(x) + " vs " + std::to_string(y);
  };
  for (std::string d : {count("symbol", a.symbols.size(), b.symbols.size()),
                        count("scope", a.scopes.size(), b.scopes.size()),
                        count("reference", a.references.size(), b.references.size()),
                        count("instruction", a.instructions.size(), b.instructions.size()),
                        count("operand", a.operands.size(), b.operands.size()),
                        count("modifier", a.modifiers.size(), b.modifiers.size()),
                        count("function", a.functions.size(), b.functions.size()),
                        count("duplicate", a.duplicates.size(), b.duplicates.size())}) {
    if (!d.empty()) return d;
  }
  for (std::size_t i = 0; i < a.symbols.size(); ++i) {
    const Symbol& x = a.symbols[i];
    const Symbol& y = b.symbols[i];
    if (x.name != y.name || x.kind != y.kind || x.spaceId != y.spaceId || x.type != y.type || x.rangeCount != y.rangeCount ||
        x.isEntry != y.isEntry || x.hasBody != y.hasBody || x.isExtern != y.isExtern || x.linkageId != y.linkageId ||
        x.vectorWidth != y.vectorWidth || x.alignment != y.alignment || x.dimensions != y.dimensions ||
        x.isArray != y.isArray || x.hasInitializer != y.hasInitializer || x.isPointer != y.isPointer ||
        x.pointerSpaceId != y.pointerSpaceId || x.pointerAlignment != y.pointerAlignment || x.scope != y.scope ||
        x.nameRange != y.nameRange || x.declarationRange != y.declarationRange) {
      return "symbol " + std::to_string(i) + " (" + x.name + " / " + y.name + ")";
    }
  }
  for (std::size_t i = 0; i < a.scopes.size(); ++i) {
    const Scope& x = a.scopes[i];
    const Scope& y = b.scopes[i];
    if (x.parent != y.parent || x.range != y.range || x.symbols != y.symbols || x.labels != y.labels) {
      return "scope " + std::to_string(i);
    }
  }
  for (std::size_t i = 0; i < a.references.size(); ++i) {
    const Reference& x = a.references[i];
    const Reference& y = b.references[i];
    if (x.range != y.range || x.target != y.target || x.role != y.role || x.predefined != y.predefined ||
        x.inDamagedCode != y.inDamagedCode) {
      return "reference " + std::to_string(i) + " at " + test::rangeText(x.range);
    }
  }
  for (std::size_t i = 0; i < a.instructions.size(); ++i) {
    const InstructionSite& x = a.instructions[i];
    const InstructionSite& y = b.instructions[i];
    if (x.opcode != y.opcode || x.statement != y.statement || x.inDamagedCode != y.inDamagedCode ||
        x.firstModifier != y.firstModifier || x.modifierCount != y.modifierCount || x.firstOperand != y.firstOperand ||
        x.operandCount != y.operandCount || x.scope != y.scope || x.guard != y.guard || x.guardSymbol != y.guardSymbol ||
        x.guardNegated != y.guardNegated || x.isCall != y.isCall || x.callReturnCount != y.callReturnCount ||
        x.callee != y.callee || x.calleeRange != y.calleeRange || x.callTargets != y.callTargets) {
      return "instruction " + std::to_string(i) + " at " + test::rangeText(x.statement);
    }
  }
  for (std::size_t i = 0; i < a.operands.size(); ++i) {
    const InstructionOperand& x = a.operands[i];
    const InstructionOperand& y = b.operands[i];
    if (x.shape != y.shape || x.range != y.range || x.symbol != y.symbol || x.firstElement != y.firstElement ||
        x.elementCount != y.elementCount || x.offset != y.offset) {
      return "operand " + std::to_string(i) + " at " + test::rangeText(x.range);
    }
  }
  if (a.modifiers != b.modifiers) return "modifiers";
  for (std::size_t i = 0; i < a.functions.size(); ++i) {
    const FunctionInfo& x = a.functions[i];
    const FunctionInfo& y = b.functions[i];
    bool directives = x.directives.size() == y.directives.size();
    for (std::size_t d = 0; directives && d < x.directives.size(); ++d) {
      directives = x.directives[d].name == y.directives[d].name && x.directives[d].values == y.directives[d].values &&
                   x.directives[d].range == y.directives[d].range;
    }
    if (x.symbol != y.symbol || x.returns != y.returns || x.parameters != y.parameters || !directives ||
        x.bodyScope != y.bodyScope || x.hasSyntaxErrors != y.hasSyntaxErrors ||
        x.firstInstruction != y.firstInstruction || x.instructionCount != y.instructionCount) {
      return "function " + std::to_string(i);
    }
  }
  if (a.duplicates != b.duplicates) return "duplicates";
  if (a.symbolsByPosition != b.symbolsByPosition) return "symbolsByPosition";
  const ModuleHeader& x = a.header;
  const ModuleHeader& y = b.header;
  if (x.version != y.version || x.versionMajor != y.versionMajor || x.versionMinor != y.versionMinor ||
      x.targets != y.targets || x.target != y.target || x.addressSize != y.addressSize ||
      x.addressSizes != y.addressSizes || x.versionIndex != y.versionIndex || x.targetIndex != y.targetIndex ||
      x.firstItem != y.firstItem || x.secondItem != y.secondItem) {
    return "header";
  }
  return {};
}

struct Outcome {
  std::size_t pieces = 1;  // How many pieces the parallel run parsed the text in.
};

// Lints `text` both ways and checks that everything agrees.
Outcome checkAgreement(const std::string& name, std::string_view text, LintOptions sequential = sequentialOptions(),
                       LintOptions parallel = parallelOptions()) {
  LintResult one = lintText(text, sequential);
  LintResult many = lintText(text, parallel);
  INFO(name << " (" << text.size() << " bytes, " << many.tree.pieces() << " pieces)");
  CHECK(treeDifference(one.tree, many.tree) == "");
  CHECK(test::describeEveryField(many.diagnostics) == test::describeEveryField(one.diagnostics));
  CHECK(test::describeEveryField(many.unsuppressed) == test::describeEveryField(one.unsuppressed));
  CHECK(moduleDifference(one.module, many.module) == "");
  return {many.tree.pieces()};
}

// `prefix` followed by `n`.
std::string numbered(std::string_view prefix, int n) {
  std::string text(prefix);
  text += std::to_string(n);
  return text;
}

const char* kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n\n";

// A kernel of `statements` simple statements (registers, a loop, loads and stores, a call).
std::string kernelText(const std::string& name, int statements, const std::string& callee = "") {
  std::string text = ".visible .entry " + name + "(\n\t.param .u64 " + name + "_p\n)\n{\n";
  text += "\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n\n";
  text += "\tld.param.u64 %rd1, [" + name + "_p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, 0;\n";
  text += "$L_" + name + ":\n";
  for (int i = 0; i < statements; ++i) {
    text += "\tadd.s32 %r1, %r1, " + std::to_string(i % 7 + 1) + ";\n";
    if (i % 5 == 0) text += "\tst.global.u32 [%rd2+" + std::to_string((i % 16) * 4) + "], %r1;\n";
  }
  text += "\tsetp.lt.s32 %p1, %r1, 1000;\n\t@%p1 bra $L_" + name + ";\n";
  if (!callee.empty()) text += "\t{\n\t.param .b32 arg;\n\tst.param.b32 [arg], %r1;\n\tcall " + callee + ", (arg);\n\t}\n";
  text += "\tret;\n}\n\n";
  return text;
}

}  // namespace

TEST_CASE("Chunked and sequential lint agree on every corpus file", "[parallel]") {
  std::vector<fs::path> files = test::corpusPtxFiles({"corpus"});
  REQUIRE(files.size() >= 70);  // The project's own corpus at least.
  std::size_t cut = 0;
  for (const fs::path& path : files) {
    std::string text = test::readMaybeCompressed(path);
    if (checkAgreement(path.string(), text).pieces > 1) ++cut;
  }
  // Files with several functions are really parsed in pieces: enough of them that the
  // chunked path is exercised (our own corpus alone has 85; Triton files, with one kernel
  // each, are mostly not cut).
  INFO(cut << " of " << files.size() << " files cut");
  CHECK(cut >= 60);
}

TEST_CASE("Chunked and sequential lint agree on synthetic texts", "[parallel]") {
  SECTION("many functions, module variables and prototypes declared before and after their uses") {
    std::string text = kHeader;
    text += ".global .align 4 .u32 early_table[4] = {1, 2, 3, 4};\n";
    text += ".extern .func helper(.param .b32 x);\n\n";
    for (int f = 0; f < 60; ++f) {
      std::string name = numbered("k", f);
      // Calls a function defined later (undeclared at that point) every seventh kernel.
      std::string callee = f % 7 == 3 ? "late_func" : f % 4 == 0 ? "helper" : "";
      std::string kernel = kernelText(name, 40 + f % 9 * 10, callee);
      if (f % 6 == 1) {
        // A use of a module variable declared later (undeclared here), and of one declared earlier.
        kernel.insert(kernel.find("\tret;"), "\tld.global.u32 %r2, [late_var];\n\tld.global.u32 %r3, [early_table];\n");
      }
      if (f % 10 == 5) kernel.insert(kernel.find("\tret;"), "\tmov.u32 %r9, %r1;\n\tbra $L_nowhere;\n");
      text += kernel;
      if (f == 30) {
        text += ".global .u32 late_var;\n.global .u32 late_var;\n\n";  // Declared twice.
        text += ".func late_func(.param .b32 x)\n{\n\tret;\n}\n\n";
      }
      if (f % 9 == 2) text += "// a comment between functions }\n/* and a block comment\n.entry not_a_cut() {} */\n";
    }
    Outcome outcome = checkAgreement("interleaved declarations", text);
    CHECK(outcome.pieces > 4);
  }
  SECTION("syntax errors in several pieces") {
    std::string text = kHeader;
    for (int f = 0; f < 40; ++f) {
      std::string kernel = kernelText(numbered("e", f), 30);
      if (f % 8 == 2) kernel.replace(kernel.find("mov.u32 %r1, 0;"), 15, "mov.u32 %r1, 0");  // Missing ';'.
      if (f % 8 == 5) kernel.insert(kernel.find("\tret;"), "\tadd.s32 %r1, , %r1;\n");
      if (f == 21) kernel.erase(kernel.rfind('}'), 1);  // An unclosed body.
      if (f == 33) kernel += "}\n";                       // A brace too many.
      text += kernel;
    }
    // A piece with an error may recover differently alone: such texts are parsed whole.
    CHECK(checkAgreement("syntax errors", text).pieces == 1);
    LintOptions few = parallelOptions();
    few.syntax.maxDiagnostics = 3;
    LintOptions fewSequential = sequentialOptions();
    fewSequential.syntax.maxDiagnostics = 3;
    checkAgreement("syntax errors, limited", text, fewSequential, few);
  }
  SECTION("a file whose only function is huge") {
    std::string text = kHeader + kernelText("huge", 20000);
    checkAgreement("one huge function", text);
  }
  SECTION("only comments") {
    std::string text;
    for (int i = 0; i < 2000; ++i) text += "// line " + std::to_string(i) + " .entry x() { }\n";
    text += "/* a block\n.visible .entry y()\n{\n} */\n";
    checkAgreement("comments", text);
    checkAgreement("empty", "");
  }
  SECTION("garbage bytes") {
    std::mt19937 random(20240611);
    std::string printable;
    std::string binary;
    for (int i = 0; i < 200000; ++i) {
      auto byte = static_cast<char>(random() % 256);
      binary += byte;
      printable += byte == '\0' ? ' ' : byte;
    }
    checkAgreement("garbage", printable);
    checkAgreement("binary garbage", binary);
    // Garbage between clean functions: the pieces around it have errors.
    std::string text = kHeader;
    for (int f = 0; f < 20; ++f) {
      text += kernelText(numbered("g", f), 30);
      if (f == 9) text += printable.substr(0, 3000) + "\n";
    }
    checkAgreement("garbage between functions", text);
  }
  SECTION("clean parse with many syntax diagnostics past the limit") {
    // Preprocessor lines, non-ASCII comments and unknown directives leave the tree clean, so
    // syntax diagnostics are collected in parallel; 300 of them exceed the limit of 200.
    std::string text = "\xEF\xBB\xBF";
    text += kHeader;
    for (int f = 0; f < 50; ++f) {
      text += "#define X" + std::to_string(f) + " 1\n";
      text += "// caf\xC3\xA9 " + std::to_string(f) + "\n";
      std::string kernel = kernelText(numbered("p", f), 25);
      kernel.insert(kernel.find("\tret;"), "\t.pragmaa;\n#if 0\n#endif\n\t.foo 1;\n");
      text += kernel;
    }
    CHECK(checkAgreement("clean tree, many diagnostics", text).pieces > 4);
    CHECK(lintText(text).diagnostics.size() == 200);
  }
  SECTION("suppression comments and rule settings") {
    std::string text = kHeader;
    text += "// ptxlint: disable=SEM001\n";
    for (int f = 0; f < 30; ++f) {
      std::string kernel = kernelText(numbered("s", f), 20);
      kernel.insert(kernel.find("\tret;"), "\tmov.u32 %r1, %undeclared;\n\tadd.u32 %r1, %r1, 1; // ptxlint: disable-next-line=ISA001\n");
      if (f == 15) text += "// ptxlint: enable=SEM001\n";
      text += kernel;
    }
    LintOptions sequential = sequentialOptions();
    sequential.rules["ISA004"].severity = Severity::Warning;
    LintOptions parallel = parallelOptions();
    parallel.rules["ISA004"].severity = Severity::Warning;
    CHECK(checkAgreement("suppressions", text, sequential, parallel).pieces > 4);
  }
}

TEST_CASE("Cuts fall only between module items", "[parallel]") {
  std::string text = kHeader;
  for (int f = 0; f < 10; ++f) text += kernelText(numbered("c", f), 10);
  std::vector<std::uint32_t> cuts = moduleItemCuts(text, 1);
  REQUIRE(cuts.size() == 9);
  for (std::uint32_t cut : cuts) CHECK(text.compare(cut, 15, ".visible .entry") == 0);
  // Inside a block comment, after a '{' or after a prototype without ';', nothing is cut.
  CHECK(moduleItemCuts("/*\n}\n.entry a()\n{\n}\n*/\n.entry b()\n{\n}\n", 1).empty());
  CHECK(moduleItemCuts(".entry a()\n{\n\tret;\n.func b()\n{\n}\n", 1).empty());
  CHECK(moduleItemCuts(".func a()\n.func b()\n{\n}\n", 1).empty());
  // Threads 0 means the hardware's; a small text stays on one thread by default.
  LintOptions options;
  options.threads = 0;
  CHECK(lintText(text, options).tree.pieces() == 1);
  options.parallelThresholdBytes = 0;
  CHECK(test::describeEveryField(lintText(text, options).diagnostics) == test::describeEveryField(lintText(text).diagnostics));
}
