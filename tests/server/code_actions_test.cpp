// Code actions: the quick fixes the rules attach, offered for the diagnostics under the
// cursor. Each fix is applied to a small source and the result re-linted: the rule must be
// gone, and where ptxas is installed it must accept the fixed module.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "Annotated.h"
#include "Lint.h"
#include "TestSupport.h"
#include "features/CodeActions.h"

using namespace ptx;
using namespace ptx::lsp;
using test::Annotated;

namespace {

// The actions for the cursor of `annotated` that fix `rule`.
std::vector<CodeAction> actionsFor(const Annotated& source, std::string_view rule) {
  LintResult analysis = lintText(source.text());
  std::uint32_t cursor = source.point();
  std::vector<CodeAction> actions;
  for (CodeAction& action : codeActions(source.text(), analysis, {cursor, cursor})) {
    if (action.rule == rule) actions.push_back(std::move(action));
  }
  return actions;
}

std::size_t countRule(std::string_view text, std::string_view rule) {
  std::size_t count = 0;
  for (const Diagnostic& diagnostic : lintText(text).diagnostics) count += diagnostic.rule == rule;
  return count;
}

// ptxas's verdict on `text` for `arch`, or nullopt when ptxas is not installed.
std::optional<bool> ptxasAccepts(const std::string& text, std::string_view arch) {
  const char* candidates[] = {"/usr/local/cuda/bin/ptxas"};
  for (const char* ptxas : candidates) {
    if (!std::filesystem::exists(ptxas)) continue;
    auto path = std::filesystem::temp_directory_path() / ("ptxls_fix_" + std::to_string(std::hash<std::string>{}(text)) + ".ptx");
    std::ofstream(path) << text;
    std::string output;
    int status = test::runCommand(std::string(ptxas) + " -arch=" + std::string(arch) + " " + path.string() +
                                      " -o /dev/null 2>&1",
                                  output);
    std::filesystem::remove(path);
    INFO(output);
    return status == 0;
  }
  return std::nullopt;
}

// Applies the preferred fix for `rule` at the cursor and checks the outcome: the rule no
// longer fires, the text is `expected`, and ptxas (when present) accepts it for `arch`.
void checkPreferredFix(std::string_view annotated, std::string_view rule, std::string_view expected,
                       std::string_view arch = "sm_80") {
  Annotated source(annotated);
  REQUIRE(countRule(source.text(), rule) > 0);
  std::vector<CodeAction> actions = actionsFor(source, rule);
  REQUIRE(!actions.empty());
  auto preferred = std::find_if(actions.begin(), actions.end(), [](const CodeAction& a) { return a.isPreferred; });
  REQUIRE(preferred != actions.end());
  CHECK(std::count_if(actions.begin(), actions.end(), [](const CodeAction& a) { return a.isPreferred; }) == 1);
  CHECK(preferred->kind == "quickfix");
  std::string fixed = applyEdits(source.text(), preferred->edits);
  INFO(preferred->title);
  CHECK(fixed == expected);
  INFO(test::describe(fixed, lintText(fixed).diagnostics));
  CHECK(countRule(fixed, rule) == 0);
  if (auto accepted = ptxasAccepts(fixed, arch)) {
    CHECK(*accepted);
  } else {
    WARN("ptxas not found: the fixed module was not checked with ptxas");
  }
}

std::string module(std::string_view body, std::string_view version = "8.0", std::string_view target = "sm_80") {
  std::string text = ".version ";
  text += version;
  text += "\n.target ";
  text += target;
  text += "\n.address_size 64\n\n.visible .entry k(.param .u64 k_param_0)\n{\n";
  text += body;
  text += "\tret;\n}\n";
  return text;
}

}  // namespace

TEST_CASE("ISA004: replace a misspelt modifier with the suggestion", "[code-action]") {
  checkPreferredFix(module("\t.reg .b64 %rd<2>;\n\t.reg .b32 %r;\n\tld.param.u64 %rd1, [k_param_0];\n"
                           "\tld.glo^bl.u32 %r, [%rd1];\n"),
                    "ISA004",
                    module("\t.reg .b64 %rd<2>;\n\t.reg .b32 %r;\n\tld.param.u64 %rd1, [k_param_0];\n"
                           "\tld.global.u32 %r, [%rd1];\n"));
}

TEST_CASE("ISA001: replace an unknown opcode with the suggestion or its lowercase", "[code-action]") {
  checkPreferredFix(module("\t.reg .b32 %r;\n\tmo^vv.b32 %r, 1;\n"), "ISA001", module("\t.reg .b32 %r;\n\tmov.b32 %r, 1;\n"));
  checkPreferredFix(module("\t.reg .b32 %r;\n\tMO^V.b32 %r, 1;\n"), "ISA001", module("\t.reg .b32 %r;\n\tmov.b32 %r, 1;\n"));
}

TEST_CASE("ISA002: raise .version to what the instruction needs", "[code-action]") {
  checkPreferredFix(module("\t.reg .b32 %r<2>;\n\tmov.b32 %r1, 1;\n\t^redux.sync.add.u32 %r0, %r1, 0xffffffff;\n", "6.5"),
                    "ISA002",
                    module("\t.reg .b32 %r<2>;\n\tmov.b32 %r1, 1;\n\tredux.sync.add.u32 %r0, %r1, 0xffffffff;\n", "7.0"));
}

TEST_CASE("ISA003: change .target, raising .version when the target needs it", "[code-action]") {
  checkPreferredFix(module("\t.reg .b32 %r;\n\t.reg .pred %p;\n\t^elect.sync %r|%p, 0xffffffff;\n"), "ISA003",
                    module("\t.reg .b32 %r;\n\t.reg .pred %p;\n\telect.sync %r|%p, 0xffffffff;\n", "8.0", "sm_90"),
                    "sm_90");
  // sm_90 needs PTX ISA 7.8, which barrier.cluster needs too.
  checkPreferredFix(module("\t^barrier.cluster.arrive;\n\tbarrier.cluster.wait;\n", "7.0"), "ISA003",
                    module("\tbarrier.cluster.arrive;\n\tbarrier.cluster.wait;\n", "7.8", "sm_90"), "sm_90");
}

TEST_CASE("ISA003: the fix names the new target and version in its title", "[code-action]") {
  Annotated source(module("\t^barrier.cluster.arrive;\n", "7.0"));
  auto actions = actionsFor(source, "ISA003");
  REQUIRE(actions.size() == 1);
  CHECK(actions[0].title == "Change .target to sm_90 and .version to 7.8");
  CHECK(actions[0].edits.size() == 2);
}

TEST_CASE("ISA010: move .vN before the element type", "[code-action]") {
  std::string before = "\t.reg .b64 %rd<2>;\n\t.reg .b32 %r<2>;\n\tld.param.u64 %rd1, [k_param_0];\n";
  checkPreferredFix(module(before + "\tld.global.u32^.v2 {%r0, %r1}, [%rd1];\n"), "ISA010",
                    module(before + "\tld.global.v2.u32 {%r0, %r1}, [%rd1];\n"));
  checkPreferredFix(module(before + "\tld.global.^v2.nc.u32 {%r0, %r1}, [%rd1];\n"), "ISA010",
                    module(before + "\tld.global.nc.v2.u32 {%r0, %r1}, [%rd1];\n"));
}

TEST_CASE("SEM001: widen a %r<N> range the name falls outside of", "[code-action]") {
  checkPreferredFix(module("\t.reg .b32 %r<2>;\n\tmov.b32 %r^5, 1;\n"), "SEM001", module("\t.reg .b32 %r<6>;\n\tmov.b32 %r5, 1;\n"));
}

TEST_CASE("SEM001: change a misspelt name to the visible one", "[code-action]") {
  checkPreferredFix(module("\t.reg .b32 %count;\n\tmov.b32 %cuo^nt, 1;\n"), "SEM001",
                    module("\t.reg .b32 %count;\n\tmov.b32 %count, 1;\n"));
}

TEST_CASE("SEM001: declare a register with the type its instruction gives it", "[code-action]") {
  checkPreferredFix(module("\t.reg .b32 %a;\n\tmov.b32 %a, 1;\n\tadd.s32 %to^tal, %a, 2;\n"), "SEM001",
                    module("\t.reg .s32 %total;\n\t.reg .b32 %a;\n\tmov.b32 %a, 1;\n\tadd.s32 %total, %a, 2;\n"));
  // A predicate from setp, and the 64-bit destination of mul.wide.
  checkPreferredFix(module("\t.reg .b32 %a;\n\tmov.b32 %a, 1;\n\tsetp.lt.s32 %is^small, %a, 2;\n"), "SEM001",
                    module("\t.reg .pred %issmall;\n\t.reg .b32 %a;\n\tmov.b32 %a, 1;\n\tsetp.lt.s32 %issmall, %a, 2;\n"));
  checkPreferredFix(module("\t.reg .s32 %a;\n\tmov.s32 %a, 1;\n\tmul.wide.s32 %wi^de, %a, 2;\n"), "SEM001",
                    module("\t.reg .s64 %wide;\n\t.reg .s32 %a;\n\tmov.s32 %a, 1;\n\tmul.wide.s32 %wide, %a, 2;\n"));
  // An address base holds a 64-bit address.
  checkPreferredFix(module("\t.reg .b32 %v;\n\tld.global.u32 %v, [%pt^r];\n"), "SEM001",
                    module("\t.reg .u64 %ptr;\n\t.reg .b32 %v;\n\tld.global.u32 %v, [%ptr];\n"));
}

TEST_CASE("SEM001: no declaration is offered when the body declares the name later", "[code-action]") {
  Annotated source(module("\tmov.b32 %la^ter, 1;\n\t.reg .b32 %later;\n"));
  for (const CodeAction& action : actionsFor(source, "SEM001")) CHECK_THAT(action.title, !Catch::StartsWith("Declare"));
}

TEST_CASE("SEM003: change a misspelt branch target to the visible label", "[code-action]") {
  checkPreferredFix(module("\tbra DON^NE;\nDONE:\n"), "SEM003", module("\tbra DONE;\nDONE:\n"));
}

TEST_CASE("SEM004: declare a prototype of a function defined later", "[code-action]") {
  std::string_view header = ".version 8.0\n.target sm_80\n.address_size 64\n\n";
  std::string_view caller = ".visible .entry k()\n{\n\t.param .b32 x;\n\t.param .b32 y;\n\tst.param.b32 [x], 1;\n"
                            "\tcall (y), ^f, (x);\n\tret;\n}\n";
  std::string_view callee = ".visible .func (.param .b32 r) f(.param .b32 a)\n{\n\tst.param.b32 [r], 1;\n\tret;\n}\n";
  std::string annotated(header);
  annotated += caller;
  annotated += callee;
  std::string expected(header);
  expected += ".visible .func (.param .b32 r) f(.param .b32 a);\n\n";
  expected += Annotated(caller).text();
  expected += callee;
  checkPreferredFix(annotated, "SEM004", expected);
}

TEST_CASE("SEM006: .address_size fixes", "[code-action]") {
  checkPreferredFix(".version 8.0\n.target sm_80\n.address_size 1^6\n", "SEM006", ".version 8.0\n.target sm_80\n.address_size 64\n");
  checkPreferredFix(".version 8.0\n.target sm_80\n.address_size 64\n.address_size 6^4\n", "SEM006",
                    ".version 8.0\n.target sm_80\n.address_size 64\n");
}

TEST_CASE("Code actions only cover diagnostics under the range", "[code-action]") {
  Annotated source(module("\t.reg .b32 %r;\n\t[[movv.b32 %r, 1;]]\n\tmovv.b32 %r, 2;\n"));
  LintResult analysis = lintText(source.text());
  auto actions = codeActions(source.text(), analysis, source.range());
  REQUIRE(actions.size() == 1);
  CHECK(actions[0].rule == "ISA001");
  CHECK(actions[0].diagnosticRange.begin == source.range().begin);
  CHECK(actions[0].diagnosticMessage == "unknown instruction 'movv'; did you mean 'mov'?");
  CHECK(codeActions(source.text(), analysis, {0, 0}).empty());
}

TEST_CASE("Code actions drop fixes that no longer fit the text", "[code-action]") {
  Annotated source(module("\t.reg .b32 %r;\n\tmo^vv.b32 %r, 1;\n"));
  LintResult analysis = lintText(source.text());
  std::string shorter = source.text().substr(0, source.point());
  CHECK(codeActions(shorter, analysis, {source.point(), source.point()}).empty());
}

TEST_CASE("applyEdits applies non-overlapping edits in any order", "[code-action]") {
  CHECK(applyEdits("abcdef", {{{4, 5}, "E"}, {{0, 0}, ">"}, {{1, 3}, ""}}) == ">adEf");
}
