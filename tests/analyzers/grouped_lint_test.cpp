// Grouped and whole lint agree: lintText with LintOptions::diagnosticsOnly (a text linted a
// group of functions at a time, each group parsed with every other body left out) must give
// exactly the diagnostics the whole lint gives, before and after suppressions, over every file
// of the shared corpus and the project's own with at least two functions, and over synthetic
// texts that stress what a group cannot see (declarations between functions, calls to
// functions of other groups, suppression ranges across groups, a syntax error in one body).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "Lint.h"
#include "TestSupport.h"
#include "syntax/FunctionBodies.h"

using namespace ptx;
namespace fs = std::filesystem;

namespace {

// Options that group `text` into about `groups` groups (when it has that many functions).
LintOptions groupedOptions(std::string_view text, std::size_t groups) {
  LintOptions options;
  options.diagnosticsOnly = true;
  options.groupedAboveBytes = 0;
  std::size_t bodyBytes = 0;
  for (const BodyInterior& body : functionBodyInteriors(text)) bodyBytes += body.end - body.begin;
  options.groupBytes = std::max<std::size_t>(bodyBytes / groups, 1);
  return options;
}

// Lints `text` whole and in groups; true when it was really grouped (the grouped result keeps
// no tree).
bool checkAgreement(const std::string& name, std::string_view text, std::size_t groups = 3) {
  INFO(name);
  LintResult whole = lintText(text, LintOptions{});
  LintResult grouped = lintText(text, groupedOptions(text, groups));
  CHECK(test::describeEveryField(grouped.diagnostics) == test::describeEveryField(whole.diagnostics));
  CHECK(test::describeEveryField(grouped.unsuppressed) == test::describeEveryField(whole.unsuppressed));
  return ts_node_is_null(grouped.tree.root());
}

const char* kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n\n";

// A kernel with `body` among enough other statements that its body is most of its text (a
// text is linted in groups only while the part outside bodies, which every group parses, is
// small).
std::string kernel(const std::string& name, const std::string& body) {
  std::string filler;
  for (int i = 0; i < 40; ++i) filler += "\tadd.s32 %r7, %r7, " + std::to_string(i) + ";\n";
  return ".visible .entry " + name + "(\n\t.param .u64 " + name + "_p\n)\n{\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n" +
         filler + body + "\tret;\n}\n\n";
}

}  // namespace

TEST_CASE("Grouped and whole lint agree on every corpus file", "[grouped]") {
  std::vector<fs::path> files = test::corpusPtxFiles({"corpus", "tests/rules"});
  REQUIRE(files.size() >= 70);  // The project's own corpus and rule cases at least.
  std::size_t grouped = 0;
  for (const fs::path& path : files) {
    std::string text = test::readMaybeCompressed(path);
    if (checkAgreement(path.string(), text)) ++grouped;
  }
  // Files with several functions are really linted in groups (Triton files, with one kernel
  // each, are not).
  INFO(grouped << " of " << files.size() << " files grouped");
  CHECK(grouped >= 60);
}

TEST_CASE("Grouped and whole lint agree on synthetic texts", "[grouped]") {
  SECTION("declarations between functions, used before and after their point") {
    std::string text = kHeader;
    text += ".extern .func helper(.param .b32 x);\n\n";
    for (int f = 0; f < 12; ++f) {
      std::string name = "k" + std::to_string(f);
      std::string body = "\tld.param.u64 %rd1, [" + name + "_p];\n\tcvta.to.global.u64 %rd2, %rd1;\n";
      // A module variable declared after some kernels use it (undeclared there: SEM001).
      body += "\tld.global.u32 %r1, [late_table];\n";
      if (f % 3 == 0) body += "\t{\n\t.param .b32 arg;\n\tst.param.b32 [arg], %r1;\n\tcall helper, (arg);\n\t}\n";
      if (f % 4 == 1) body += "\t{\n\t.param .b32 arg;\n\tst.param.b32 [arg], %r1;\n\tcall late_func, (arg);\n\t}\n";
      body += "\tst.global.u32 [%rd2], %r1;\n";
      text += kernel(name, body);
      if (f == 5) text += ".global .align 4 .u32 late_table[4] = {1, 2, 3, 4};\n\n";
    }
    text += ".visible .func late_func(.param .b32 x)\n{\n\tret;\n}\n";
    CHECK(checkAgreement("declarations", text, 4));
  }
  SECTION("suppression ranges across groups, and unused ones") {
    std::string text = kHeader;
    for (int f = 0; f < 10; ++f) {
      if (f == 2) text += "// ptxlint: disable=SEM001\n";
      if (f == 7) text += "// ptxlint: enable=SEM001\n";
      if (f == 8) text += "// ptxlint: disable=ISA001\n";
      text += kernel("k" + std::to_string(f), "\tmov.u32 %r1, undeclared_" + std::to_string(f) + ";\n");
    }
    CHECK(checkAgreement("suppressions", text, 5));
  }
  SECTION("a misspelled label is matched against its own function's labels only") {
    std::string text = kHeader;
    for (int f = 0; f < 8; ++f) {
      std::string name = "k" + std::to_string(f);
      // Every kernel has a label $L__BB<f>_2; kernel 5 branches to $L__BB0_2, which only kernel 0 has.
      std::string body = "\tmov.u32 %r1, 5;\n$L__BB" + std::to_string(f) + "_2:\n\tadd.s32 %r1, %r1, 1;\n";
      if (f == 5) body += "\tbra $L__BB0_2;\n";
      text += kernel(name, body);
    }
    CHECK(checkAgreement("labels", text, 4));
    LintResult whole = lintText(text, LintOptions{});
    auto undefined = std::find_if(whole.diagnostics.begin(), whole.diagnostics.end(),
                                  [](const Diagnostic& d) { return d.rule == "SEM003"; });
    REQUIRE(undefined != whole.diagnostics.end());
    CHECK(undefined->message == "branch to undefined label '$L__BB0_2'; did you mean '$L__BB5_2'?");
  }
  SECTION("a syntax error in one body: the whole lint decides") {
    std::string text = kHeader;
    for (int f = 0; f < 8; ++f) {
      text += kernel("k" + std::to_string(f), f == 4 ? "\tadd.s32 %r1, %r2,, ;\n\tmov.u32 %r1 5;\n" : "\tmov.u32 %r1, 5;\n");
    }
    CHECK_FALSE(checkAgreement("syntax error", text, 4));
  }
  SECTION("braces in comments, strings and initializers are not bodies") {
    std::string text = kHeader;
    text += "// { not a body\n.global .u32 table[2] = {1, 2};\n/* } */\n";
    for (int f = 0; f < 6; ++f) text += kernel("k" + std::to_string(f), "\tmov.u32 %r1, 5; // }\n");
    CHECK(checkAgreement("braces", text, 3));
  }
}

TEST_CASE("Function bodies are read from the text as the parse finds them", "[grouped]") {
  std::string text = kHeader;
  text += ".global .u32 table[2] = {1, 2};\n";
  text += ".visible .func f(.param .b32 x)\n{\n\tret;\n}\n";
  text += ".visible .entry k()\n.maxntid 32, 1, 1\n{\n\t{\n\tret;\n\t}\n}\n";
  std::vector<BodyInterior> bodies = functionBodyInteriors(text);
  REQUIRE(bodies.size() == 2);
  CHECK(text.substr(bodies[0].begin - 1, bodies[0].end - bodies[0].begin + 2) == "{\n\tret;\n}");
  CHECK(text.substr(bodies[1].begin - 1, bodies[1].end - bodies[1].begin + 2) == "{\n\t{\n\tret;\n\t}\n}");
  CHECK(functionBodiesMatch(parseSyntaxExcluding(text, bodies), bodies));
  CHECK(functionBodyInteriors("/* never closed").empty());
  CHECK(functionBodyInteriors(".entry k()\n{\n").empty());
}
