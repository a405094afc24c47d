// Rename: the ranges a rename edits (marked `[[ ]]` in annotated PTX, cursor `^`), the scope
// rules it respects, and the names it refuses.
#include <catch2/catch.hpp>

#include <string>

#include "Annotated.h"
#include "Lint.h"
#include "TestSupport.h"
#include "features/CodeActions.h"
#include "features/Rename.h"

using namespace ptx;
using namespace ptx::lsp;
using test::Annotated;

namespace {

constexpr std::string_view kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n\n";

struct Renamed {
  Annotated source;
  LintResult analysis;
  RenameResult result;
};

Renamed renameAt(std::string_view annotated, std::string_view newName) {
  Annotated source(std::string(kHeader) + std::string(annotated));
  LintResult analysis = lintText(source.text());
  RenameResult result = rename(source.text(), analysis.module, source.point(), newName);
  return {std::move(source), std::move(analysis), std::move(result)};
}

// Ranges as pairs, which Catch prints.
using Span = std::pair<std::uint32_t, std::uint32_t>;

std::vector<Span> spans(const std::vector<ByteRange>& ranges) {
  std::vector<Span> result;
  for (ByteRange range : ranges) result.emplace_back(range.begin, range.end);
  std::sort(result.begin(), result.end());
  return result;
}

std::vector<Span> spans(const std::vector<FixEdit>& edits) {
  std::vector<ByteRange> ranges;
  for (const FixEdit& edit : edits) ranges.push_back(edit.range);
  return spans(ranges);
}

// Renames, expects exactly the marked ranges to become `newName`, and expects the result to
// lint as cleanly as the original.
void checkRename(std::string_view annotated, std::string_view newName) {
  Renamed renamed = renameAt(annotated, newName);
  INFO(renamed.source.text());
  INFO(renamed.result.error);
  REQUIRE(renamed.result.ok());
  CHECK(spans(renamed.result.edits) == spans(renamed.source.ranges()));
  for (const FixEdit& edit : renamed.result.edits) CHECK(edit.newText == newName);
  std::string after = applyEdits(renamed.source.text(), renamed.result.edits);
  INFO(after);
  CHECK(test::describe(after, lintText(after).diagnostics) ==
        test::describe(renamed.source.text(), renamed.analysis.diagnostics));
}

std::string refusal(std::string_view annotated, std::string_view newName) {
  Renamed renamed = renameAt(annotated, newName);
  CHECK(renamed.result.edits.empty());
  return renamed.result.error;
}

}  // namespace

TEST_CASE("Rename a register: declaration and every use", "[rename]") {
  checkRename(".visible .entry k()\n{\n\t.reg .b32 [[%a]];\n\tmov.b32 [[%a]], 1;\n\tadd.s32 [[%^a]], [[%a]], 2;\n\tret;\n}\n",
              "%sum");
}

TEST_CASE("Rename from the declaration, and with the cursor just past the name", "[rename]") {
  checkRename(".visible .entry k()\n{\n\t.reg .b32 [[%^a]];\n\tmov.b32 [[%a]], 1;\n\tret;\n}\n", "%b");
  checkRename(".visible .entry k()\n{\n\t.reg .b32 [[%a]];\n\tmov.b32 [[%a]]^, 1;\n\tret;\n}\n", "%b");
}

TEST_CASE("Rename a register in one function leaves the same name in another alone", "[rename]") {
  checkRename(".visible .entry k()\n{\n\t.reg .b32 [[%a]];\n\tmov.b32 [[%^a]], 1;\n\tret;\n}\n"
              ".visible .entry j()\n{\n\t.reg .b32 %a;\n\tmov.b32 %a, 1;\n\tret;\n}\n",
              "%b");
}

TEST_CASE("Rename respects a nested block that shadows the name", "[rename]") {
  checkRename(".visible .entry k()\n{\n\t.reg .b32 [[%a]];\n\tmov.b32 [[%^a]], 1;\n"
              "\t{\n\t\t.reg .b32 %a;\n\t\tmov.b32 %a, 2;\n\t}\n\tadd.s32 [[%a]], [[%a]], 1;\n\tret;\n}\n",
              "%b");
  // And from inside the block, only the inner declaration changes.
  checkRename(".visible .entry k()\n{\n\t.reg .b32 %a;\n\tmov.b32 %a, 1;\n"
              "\t{\n\t\t.reg .b32 [[%a]];\n\t\tmov.b32 [[%a^]], 2;\n\t}\n\tadd.s32 %a, %a, 1;\n\tret;\n}\n",
              "%b");
}

TEST_CASE("Rename a label with its branches", "[rename]") {
  checkRename(".visible .entry k()\n{\n\t.reg .pred %p;\n\tsetp.eq.s32 %p, 1, 1;\n\t@%p bra [[^LOOP]];\n"
              "\tbra.uni [[LOOP]];\n[[LOOP]]:\n\tret;\n}\n",
              "DONE");
}

TEST_CASE("Rename a function: prototype, definition and calls", "[rename]") {
  checkRename(".func [[f]]();\n.visible .entry k()\n{\n\tcall [[^f]];\n\tret;\n}\n.func [[f]]()\n{\n\tret;\n}\n", "g");
}

TEST_CASE("Rename a parameter and a module variable", "[rename]") {
  checkRename(".visible .entry k(.param .u64 [[k_param]])\n{\n\t.reg .b64 %rd;\n"
              "\tld.param.u64 %rd, [ [[k_^param]] ];\n\tret;\n}\n",
              "out_ptr");
  checkRename(".global .u32 [[counter]];\n.visible .entry k()\n{\n\t.reg .b64 %rd;\n\tmov.u64 %rd, [[coun^ter]];\n\tret;\n}\n",
              "hits");
}

TEST_CASE("Rename one register of a %r<N> range renames the whole family", "[rename]") {
  checkRename(".visible .entry k()\n{\n\t.reg .b32 [[%r]]<4>;\n\tmov.b32 [[%r]]1, 1;\n\tadd.s32 [[%^r]]3, [[%r]]1, [[%r]]2;\n\tret;\n}\n",
              "%x");
}

TEST_CASE("prepareRename gives the name, the prefix of a range member, or nothing", "[rename]") {
  auto prepare = [](std::string_view annotated) {
    Annotated source(std::string(kHeader) + std::string(annotated));
    LintResult analysis = lintText(source.text());
    return std::pair(prepareRename(source.text(), analysis.module, source.point()),
                     source.ranges().empty() ? std::optional<ByteRange>() : std::optional(source.range()));
  };
  auto [name, expectedName] = prepare(".visible .entry k()\n{\n\t.reg .b32 %a;\n\tmov.b32 [[%^a]], 1;\n\tret;\n}\n");
  CHECK(name == expectedName);
  auto [member, prefix] = prepare(".visible .entry k()\n{\n\t.reg .b32 %r<4>;\n\tmov.b32 [[%r]]^3, 1;\n\tret;\n}\n");
  CHECK(member == prefix);
  CHECK_FALSE(prepare(".visible .entry k()\n{\n\t.reg .b32 %a;\n\tm^ov.b32 %a, 1;\n\tret;\n}\n").first);
  CHECK_FALSE(prepare(".visible .entry k()\n{\n\t.reg .b32 %a;\n\tmov.u32 %a, %t^id.x;\n\tret;\n}\n").first);
  CHECK_FALSE(prepare(".visible .entry k()\n{\n\t.reg .b32 %a;\n\tmov.b32 %nowhe^re, 1;\n\tret;\n}\n").first);
  CHECK_FALSE(prepare(".visible .entry k()\n{\n\t.re^g .b32 %a;\n\tret;\n}\n").first);
}

TEST_CASE("Rename refuses names that are not identifiers of the right kind", "[rename]") {
  std::string_view source = ".visible .entry k()\n{\n\t.reg .b32 %a;\n\tmov.b32 %^a, 1;\n\tret;\n}\n";
  CHECK_THAT(refusal(source, "%1bad-name"), Catch::Contains("not a PTX identifier"));
  CHECK_THAT(refusal(source, "%"), Catch::Contains("not a PTX identifier"));
  // `%` is a convention, not a rule: ptxas accepts `.reg .b32 plain;`.
  CHECK(renameAt(source, "plain").result.ok());
  CHECK_THAT(refusal(source, "%tid"), Catch::Contains("special register"));
  CHECK_THAT(refusal(".visible .entry k()\n{\n\tbra ^L;\nL:\n\tret;\n}\n", "add"), Catch::Contains("reserved"));
  CHECK_THAT(refusal(".visible .entry k()\n{\n\t.reg .b32 %r<9>;\n\tmov.b32 %^r1, 1;\n\tret;\n}\n", "%pm"),
             Catch::Contains("%pm0"));
}

TEST_CASE("Rename refuses a name already declared in the same scope", "[rename]") {
  CHECK_THAT(refusal(".visible .entry k()\n{\n\t.reg .b32 %a;\n\t.reg .b32 %b;\n\tmov.b32 %^a, 1;\n\tret;\n}\n", "%b"),
             Catch::Contains("already declared"));
  // A parameter shares the scope of the body's top level.
  CHECK_THAT(refusal(".visible .entry k(.reg .b32 %p)\n{\n\t.reg .b32 %^a;\n\tret;\n}\n", "%p"),
             Catch::Contains("already declared in this scope: parameter '%p'"));
  // A family that would take in an existing name.
  CHECK_THAT(refusal(".visible .entry k()\n{\n\t.reg .b32 %r<4>;\n\t.reg .b32 %x2;\n\tmov.b32 %^r1, 1;\n\tret;\n}\n", "%x"),
             Catch::Contains("already declared"));
  CHECK_THAT(refusal(".visible .entry k()\n{\n\tbra ^A;\nA:\nB:\n\tret;\n}\n", "B"), Catch::Contains("already declared"));
}

TEST_CASE("Rename refuses to let a nested declaration hide a renamed use", "[rename]") {
  // Renaming the outer %a to %b: the use inside the block would then name the inner %b.
  CHECK_THAT(refusal(".visible .entry k()\n{\n\t.reg .b32 %^a;\n\t{\n\t\t.reg .b32 %b;\n\t\tmov.b32 %a, 1;\n\t}\n\tret;\n}\n",
                     "%b"),
             Catch::Contains("refer to the register '%b'"));
}

TEST_CASE("Rename refuses to capture the uses of an outer declaration", "[rename]") {
  // Renaming the inner %a to %b would make the block's use of the outer %b name the inner one.
  CHECK_THAT(refusal(".visible .entry k()\n{\n\t.reg .b32 %b;\n\t{\n\t\t.reg .b32 %^a;\n\t\tmov.b32 %b, 1;\n\t}\n\tret;\n}\n",
                     "%b"),
             Catch::Contains("would hide the register '%b'"));
  // A module variable used in a function that gets a register of its name.
  CHECK_THAT(refusal(".global .u32 g;\n.visible .entry k()\n{\n\t.local .u32 ^a;\n\t.reg .b64 %rd;\n\tmov.u64 %rd, g;\n\tret;\n}\n",
                     "g"),
             Catch::Equals("'g' would hide the variable 'g' at line 5 from its use at line 10"));
}

TEST_CASE("Rename to a name used only in another scope is fine", "[rename]") {
  checkRename(".visible .entry k()\n{\n\t{\n\t\t.reg .b32 %b;\n\t\tmov.b32 %b, 1;\n\t}\n\t.reg .b32 [[%^a]];\n\tmov.b32 [[%a]], 2;\n\tret;\n}\n",
              "%b");
}

TEST_CASE("Rename to the same name changes nothing", "[rename]") {
  Renamed same = renameAt(".visible .entry k()\n{\n\t.reg .b32 %a;\n\tmov.b32 %^a, 1;\n\tret;\n}\n", "%a");
  CHECK(same.result.ok());
  CHECK(same.result.edits.empty());
}

TEST_CASE("isPtxIdentifier follows the PTX identifier grammar", "[rename]") {
  CHECK(isPtxIdentifier("a"));
  CHECK(isPtxIdentifier("a$b_1"));
  CHECK(isPtxIdentifier("%r1"));
  CHECK(isPtxIdentifier("$L__BB0_1"));
  CHECK(isPtxIdentifier("_x"));
  CHECK_FALSE(isPtxIdentifier("_"));
  CHECK_FALSE(isPtxIdentifier("%"));
  CHECK_FALSE(isPtxIdentifier("1a"));
  CHECK_FALSE(isPtxIdentifier("a%b"));
  CHECK_FALSE(isPtxIdentifier("a.b"));
  CHECK_FALSE(isPtxIdentifier(""));
}

TEST_CASE("Rename a label listed in .branchtargets", "[rename]") {
  checkRename(".visible .entry k()\n{\n\t.reg .b32 %r;\n\tmov.b32 %r, 0;\n"
              "ts: .branchtargets [[L0]], L1;\n\tbrx.idx %r, ts;\n[[L^0]]:\n\tret;\nL1:\n\tret;\n}\n",
              "FIRST");
}
