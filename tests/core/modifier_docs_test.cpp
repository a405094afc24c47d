// Modifier descriptions (core/isa/ModifierDocs.def): the lookup, its family-specific rows,
// and that hover and completion both show them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "Annotated.h"
#include "TestSupport.h"
#include "features/Completion.h"
#include "features/Hover.h"
#include "isa/HoverDocs.h"
#include "isa/ModifierDocs.h"

using namespace ptx;
using ptx::test::Annotated;

namespace {

std::string hoverText(std::string_view annotated) {
  Annotated source(annotated);
  LintResult analysis = lintText(source.text());
  std::optional<lsp::HoverResult> hover = lsp::hoverAt(source.text(), analysis, source.point());
  return hover ? hover->markdown : std::string();
}

std::string kernel(std::string_view body) {
  std::string out = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
                    "\t.reg .b32 %r<4>;\n\t.reg .f32 %f<2>;\n\t.reg .pred %p;\n";
  out += body;
  out += "\n\tret;\n}\n";
  return out;
}

}  // namespace

TEST_CASE("Modifier descriptions come from the table, family rows first", "[hover][modifiers]") {
  CHECK(describeModifier(Modifier::Rn).find("nearest") != std::string_view::npos);
  CHECK(describeModifier(Modifier::Hi).find("higher") != std::string_view::npos);
  CHECK(describeModifier(Modifier::Hi, Family::Mul).find("upper half") != std::string_view::npos);
  CHECK(describeModifier(Modifier::Hi, Family::Setp) == describeModifier(Modifier::Hi));
  CHECK(describeModifier(Modifier::Unknown).empty());
  CHECK(describeModifier(Modifier::U32).empty());  // A type: its docs come from the type table.
}

TEST_CASE("Hover on an instruction's modifier shows its description for that family", "[hover][modifiers]") {
  std::string rounding = hoverText(kernel("\tcvt.r^n.f32.s32 %f1, %r1;"));
  CHECK(rounding.find("**.rn** — modifier") != std::string::npos);
  CHECK(rounding.find("Round to nearest, ties to even.") != std::string::npos);
  CHECK(hoverText(kernel("\tmul.h^i.u32 %r1, %r2, %r3;")).find("upper half") != std::string::npos);
  CHECK(hoverText(kernel("\tsetp.h^i.u32 %p, %r2, %r3;")).find("higher") != std::string::npos);
  // `.weak` on an instruction is a memory semantics, not the linkage directive.
  std::string weak = hoverText(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 a)\n{\n"
                               "\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [a];\n"
                               "\tld.we^ak.global.u32 %r1, [%rd1];\n\tret;\n}\n");
  CHECK(weak.find("no ordering guarantees") != std::string::npos);
  // Types and state spaces keep their reference docs.
  CHECK(hoverText(kernel("\tadd.u^32 %r1, %r2, %r3;")).find("32 bits") != std::string::npos);
}

TEST_CASE("Completion documents modifiers with the same descriptions", "[completion][modifiers]") {
  Annotated source(kernel("\tcvt.r^"));
  LintResult analysis = lintText(source.text());
  std::vector<lsp::CompletionItem> items = lsp::completeAt(source.text(), analysis, source.point());
  auto rn = std::find_if(items.begin(), items.end(), [](const lsp::CompletionItem& item) { return item.label == ".rn"; });
  REQUIRE(rn != items.end());
  CHECK(rn->documentation.find(describeModifier(Modifier::Rn)) != std::string::npos);
}
