// Inlay hints: parameter names at call sites and the declared type of registers whose bits an
// instruction reads as another kind of value — and silence everywhere else.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "Annotated.h"
#include "Lint.h"
#include "TestSupport.h"
#include "features/InlayHints.h"

using namespace ptx;
using namespace ptx::lsp;
using ptx::test::Annotated;

namespace {

const char* const kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

std::vector<InlayHint> hintsOf(const std::string& text, ByteRange range) {
  return inlayHints(text, lintText(text), range);
}

std::vector<InlayHint> allHints(const std::string& text) {
  return hintsOf(text, {0, static_cast<std::uint32_t>(text.size())});
}

}  // namespace

TEST_CASE("A call shows the callee's parameter names before its arguments and results", "[inlay]") {
  Annotated source(std::string(kHeader) +
                   ".func (.reg .b32 result) add(.reg .b32 lhs, .reg .b32 rhs)\n{\n\tadd.s32 result, lhs, rhs;\n\tret;\n}\n"
                   ".entry k()\n{\n\t.reg .b32 %r<4>;\n"
                   "\tcall ($result^%r1), add, ($lhs^%r2, $rhs^%r3);\n\tret;\n}\n");
  auto hints = allHints(source.text());
  REQUIRE(hints.size() == 3);
  CHECK(hints[0] == InlayHint{source.point("result"), "result:", InlayHintKind::Parameter, false, true});
  CHECK(hints[1] == InlayHint{source.point("lhs"), "lhs:", InlayHintKind::Parameter, false, true});
  CHECK(hints[2] == InlayHint{source.point("rhs"), "rhs:", InlayHintKind::Parameter, false, true});
}

TEST_CASE("Parameter names come from the definition when the prototype leaves them out", "[inlay]") {
  Annotated source(std::string(kHeader) +
                   ".func (.reg .b32 _) scale(.reg .b32 _, .reg .b32);\n"
                   ".entry k()\n{\n\t.reg .b32 %r<4>;\n"
                   "\tcall ($out^%r1), scale, ($value^%r2, $factor^%r3);\n\tret;\n}\n"
                   ".func (.reg .b32 out) scale(.reg .b32 value, .reg .b32 factor)\n{\n"
                   "\tmul.lo.s32 out, value, factor;\n\tret;\n}\n");
  auto hints = allHints(source.text());
  REQUIRE(hints.size() == 3);
  CHECK(hints[0].offset == source.point("out"));
  CHECK(hints[0].label == "out:");
  CHECK(hints[1].offset == source.point("value"));
  CHECK(hints[2].label == "factor:");
}

TEST_CASE("Generated parameter names and names that repeat the argument's are left out", "[inlay]") {
  // nvcc's calling sequence: `param0` for `_Z3addii_param_0`, `retval0` for `func_retval0`;
  // old nvcc passed `__cudaparma1_f` for `__cudaparmf1_f`.
  std::string text = std::string(kHeader) +
                     ".func (.param .b32 func_retval0) _Z3addii(.param .b32 _Z3addii_param_0, .param .b32 _Z3addii_param_1)\n"
                     "{\n\tst.param.b32 [func_retval0], 0;\n\tret;\n}\n"
                     ".entry k()\n{\n\t.reg .b32 %r<4>;\n\t.reg .b32 %a;\n"
                     "\t{\n\t.param .b32 param0;\n\t.param .b32 param1;\n\t.param .b32 retval0;\n"
                     "\tcall.uni (retval0), _Z3addii, (param0, param1);\n\t}\n"
                     "\tret;\n}\n"
                     ".func (.param .b32 __cudaretf_f) f(.param .b32 __cudaparmf1_f)\n{\n\tret;\n}\n"
                     ".entry j()\n{\n\t.param .b32 __cudareta_f;\n\t.param .b32 __cudaparma1_f;\n"
                     "\tcall.uni (__cudareta_f), f, (__cudaparma1_f);\n\tret;\n}\n";
  CHECK(allHints(text).empty());
}

TEST_CASE("A float register's type is shown where a bit-typed instruction takes its bits", "[inlay]") {
  Annotated source(std::string(kHeader) +
                   ".entry k()\n{\n\t.reg .b32 %r<4>;\n\t.reg .f32 %f<4>;\n\t.reg .f64 %fd1;\n"
                   "\t.reg .b16 %rs<4>;\n\t.reg .pred %p;\n"
                   "\tmov.b32 %r1, %f1$floatBits^;\n"            // A float's bits into an integer register.
                   "\tmov.b64 %fd1$double^, {%r1, %r2};\n"       // Two words packed into a double.
                   "\tshl.b32 %r1, %f2$shifted^, 1;\n"
                   // Nothing to say about these:
                   "\tadd.s32 %r1, %r2, %r3;\n"            // .b32 registers with .s32: same kind
                   "\tadd.f32 %f1, %f2, %r3;\n"            // .b32 is untyped: LLVM keeps floats there
                   "\tcvt.rn.f32.s32 %f1, %r1;\n"          // a conversion, not a reinterpretation
                   "\tadd.rn.f16 %rs1, %rs2, %rs3;\n"      // half floats always live in bit registers
                   "\tsetp.lt.f32 %p, %f1, %f2;\n"         // predicates
                   "\tret;\n}\n");
  auto hints = allHints(source.text());
  REQUIRE(hints.size() == 3);
  CHECK(hints[0] == InlayHint{source.point("floatBits"), ": .f32", InlayHintKind::Type, false, false});
  CHECK(hints[1] == InlayHint{source.point("double"), ": .f64", InlayHintKind::Type, false, false});
  CHECK(hints[2].offset == source.point("shifted"));
}

TEST_CASE("Hints are limited to the requested range", "[inlay]") {
  Annotated source(std::string(kHeader) +
                   ".entry k()\n{\n\t.reg .b32 %r<4>;\n\t.reg .f32 %f<4>;\n"
                   "\tmov.b32 %r1, %f1$first^;\n"
                   "[[\tmov.b32 %r2, %f2$second^;\n]]"
                   "\tmov.b32 %r3, %f3$third^;\n"
                   "\tret;\n}\n");
  LintResult analysis = lintText(source.text());
  auto hints = inlayHints(source.text(), analysis, source.range());
  REQUIRE(hints.size() == 1);
  CHECK(hints[0].offset == source.point("second"));
  // A range that ends exactly at a hint's offset still includes it.
  auto upToFirst = inlayHints(source.text(), analysis, {0, source.point("first")});
  REQUIRE(upToFirst.size() == 1);
  CHECK(upToFirst[0].offset == source.point("first"));
}

TEST_CASE("There are no hints without a model", "[inlay]") {
  std::string text = std::string(kHeader) + ".entry k()\n{\n\t.reg .b32 %r1;\n\t.reg .f32 %f1;\n\tmov.b32 %r1, %f1;\n\tret;\n}\n";
  LintResult analysis;
  analysis.tree = parseSyntax(text);
  CHECK(inlayHints(text, analysis, {0, static_cast<std::uint32_t>(text.size())}).empty());
  CHECK_FALSE(allHints(text).empty());
}
