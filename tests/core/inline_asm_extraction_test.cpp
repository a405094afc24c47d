// Extraction of asm statements from CUDA sources (core/cuda: CppLexer, Preprocessor,
// AsmExtractor, AsmFragment): templates rebuilt as nvcc pastes them, each byte mapped back to
// its source byte, operands numbered as nvcc numbers them, #if evaluated per device pass.
#include <catch2/catch.hpp>

#include <string>

#include "cuda/AsmExtractor.h"
#include "cuda/AsmFragment.h"
#include "cuda/CppLexer.h"
#include "cuda/DevicePasses.h"
#include "cuda/Preprocessor.h"

using namespace ptx;
using namespace ptx::cuda;

namespace {

std::vector<std::pair<std::string, std::string>> macrosOf(std::string_view arch) {
  PassList list = passesForArch(arch, "test");
  REQUIRE(!list.passes.empty());
  return list.passes.back().macros(list.passes);
}

std::vector<AsmStatement> extract(const std::string& text, std::string_view arch = "sm_80") {
  LexedSource source(text);
  PassView view = evaluatePass(source, macrosOf(arch));
  return extractAsmStatements(source, view);
}

std::string sourceText(const std::string& text, ByteRange range) { return text.substr(range.begin, range.end - range.begin); }

}  // namespace

TEST_CASE("extraction: a template from adjacent literals, escapes and a splice maps back byte by byte", "[inline-asm-extraction]") {
  std::string text =
      "__device__ void f(unsigned* p, unsigned v) {\n"
      "  asm volatile(\"st.global.u32 [%0], %1;\\n\\t\"\n"
      "               \"membar.gl;\" :: \"l\"(p), \"r\"(v) : \"memory\");\n"
      "}\n";
  std::vector<AsmStatement> statements = extract(text);
  REQUIRE(statements.size() == 1);
  const AsmStatement& s = statements[0];
  CHECK(s.isVolatile);
  CHECK(s.templateText == "st.global.u32 [%0], %1;\n\tmembar.gl;");
  CHECK(s.memoryClobber);
  REQUIRE(s.operands.size() == 2);
  CHECK(s.operands[0].kind == ConstraintKind::B64);
  CHECK_FALSE(s.operands[0].isOutput);
  CHECK(s.operands[1].kind == ConstraintKind::B32);
  CHECK(s.operands[1].expressionText == "v");
  // "membar" starts right after the second literal's quote; the "\n" escape spans two bytes.
  std::size_t membar = s.templateText.find("membar");
  CHECK(sourceText(text, s.sourceOfTemplate(static_cast<std::uint32_t>(membar), static_cast<std::uint32_t>(membar + 6))) == "membar");
  std::size_t newline = s.templateText.find('\n');
  CHECK(sourceText(text, s.sourceOfTemplate(static_cast<std::uint32_t>(newline), static_cast<std::uint32_t>(newline + 1))) == "\\n");
  CHECK(sourceText(text, s.operands[1].constraint) == "\"r\"");
  CHECK(text[s.operands[1].letterOffset] == 'r');
}

TEST_CASE("extraction: a backslash-newline splice inside a literal and a raw string", "[inline-asm-extraction]") {
  std::string text =
      "__device__ void f() {\n"
      "  asm(\"bar.\\\n"
      "sync 0;\");\n"
      "  asm(R\"X(\n  fence.sc.gpu;\n)X\");\n"
      "}\n";
  std::vector<AsmStatement> statements = extract(text);
  REQUIRE(statements.size() == 2);
  CHECK(statements[0].templateText == "bar.sync 0;");
  CHECK(statements[1].templateText == "\n  fence.sc.gpu;\n");
  std::size_t fence = statements[1].templateText.find("fence");
  CHECK(sourceText(text, statements[1].sourceOfTemplate(static_cast<std::uint32_t>(fence), static_cast<std::uint32_t>(fence + 5))) == "fence");
}

TEST_CASE("extraction: operands numbered outputs first, '+' once, '::' and a missing comma", "[inline-asm-extraction]") {
  std::string text =
      "__device__ void f(int& a, int b, int c) {\n"
      "  asm(\"add.s32 %0, %1, %2;\" : \"+r\"(a) : \"r\"(b) \"r\"(c));\n"
      "  asm(\"mov.u32 %0, 4;\" :: \"r\"(b));\n"
      "}\n";
  std::vector<AsmStatement> statements = extract(text);
  REQUIRE(statements.size() == 2);
  REQUIRE(statements[0].operands.size() == 3);
  CHECK(statements[0].operands[0].isOutput);
  CHECK(statements[0].operands[0].readWrite);
  CHECK(statements[0].operands[2].expressionText == "c");
  REQUIRE(statements[1].operands.size() == 1);
  CHECK_FALSE(statements[1].operands[0].isOutput);
}

TEST_CASE("extraction: object-like macros in the template map into the #define", "[inline-asm-extraction]") {
  std::string text =
      "#define CACHE \".cg\"\n"
      "__device__ unsigned f(const unsigned* p) {\n"
      "  unsigned v;\n"
      "  asm(\"ld.global\" CACHE \".u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p));\n"
      "  return v;\n"
      "}\n";
  std::vector<AsmStatement> statements = extract(text);
  REQUIRE(statements.size() == 1);
  CHECK(statements[0].templateText == "ld.global.cg.u32 %0, [%1];");
  CHECK_FALSE(statements[0].opaqueReason);
  std::size_t cg = statements[0].templateText.find(".cg");
  ByteRange range = statements[0].sourceOfTemplate(static_cast<std::uint32_t>(cg), static_cast<std::uint32_t>(cg + 3));
  CHECK(sourceText(text, range) == ".cg");
  CHECK(range.begin < text.find('\n'));  // In the #define line.
}

TEST_CASE("extraction: what cannot be rebuilt is opaque", "[inline-asm-extraction]") {
  std::string text =
      "#define LOAD(t) asm(\"ld.global.\" #t \" %0, [%1];\" : \"=r\"(v) : \"l\"(p))\n"
      "__device__ void f(unsigned v, const unsigned* p) {\n"
      "  asm(\"ld.global\" FROM_A_HEADER \".u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p));\n"
      "}\n";
  std::vector<AsmStatement> statements = extract(text);
  REQUIRE(statements.size() == 2);
  CHECK(statements[0].macroName == std::optional<std::string>("LOAD"));
  REQUIRE(statements[0].opaqueReason);
  CHECK(statements[0].opaqueReason->find("stringizing") != std::string::npos);
  REQUIRE(statements[1].opaqueReason);
  CHECK(statements[1].opaqueReason->find("FROM_A_HEADER") != std::string::npos);
}

TEST_CASE("extraction: #if inside the operand list takes each pass's branch", "[inline-asm-extraction]") {
  std::string text =
      "__device__ void f(unsigned* p, unsigned v) {\n"
      "  asm volatile(\"st.global.u32 [%0], %1;\" :: \"l\"(p),\n"
      "#if __CUDA_ARCH__ >= 900\n"
      "               \"r\"(v)\n"
      "#else\n"
      "               \"r\"(v + 1)\n"
      "#endif\n"
      "  );\n"
      "}\n";
  std::vector<AsmStatement> old = extract(text, "sm_80");
  std::vector<AsmStatement> hopper = extract(text, "sm_90");
  REQUIRE(old.size() == 1);
  REQUIRE(hopper.size() == 1);
  REQUIRE(old[0].operands.size() == 2);
  REQUIRE(hopper[0].operands.size() == 2);
  CHECK(old[0].operands[1].expressionText == "v + 1");
  CHECK(hopper[0].operands[1].expressionText == "v");
}

TEST_CASE("extraction: guards decide per pass, unknown macros stay unknown, include guards hold", "[inline-asm-extraction]") {
  std::string text =
      "#ifndef HEADER_H\n"
      "#define HEADER_H\n"
      "__device__ void f() {\n"
      "#if defined(__CUDA_ARCH_FEAT_SM90_ALL)\n"
      "  asm volatile(\"wgmma.fence.sync.aligned;\");\n"
      "#endif\n"
      "#if SOME_LIBRARY_FLAG\n"
      "  asm volatile(\"trap;\");\n"
      "#endif\n"
      "}\n"
      "#endif\n";
  std::vector<AsmStatement> plain = extract(text, "sm_90");
  std::vector<AsmStatement> specific = extract(text, "sm_90a");
  REQUIRE(plain.size() == 1);  // compute_90: the wgmma line is not compiled.
  CHECK(plain[0].templateText == "trap;");
  CHECK(plain[0].activity == Truth::Unknown);
  REQUIRE(specific.size() == 2);  // compute_90a (the last pass of sm_90a).
  CHECK(specific[0].activity == Truth::True);
  CHECK(guardArchitectures(LexedSource(text)).empty());
}

TEST_CASE("substitution: %N kept, %% and %= replaced only with operands, issues found", "[inline-asm-extraction]") {
  std::string text =
      "__device__ void f(unsigned& r, unsigned a) {\n"
      "  asm(\"mov.u32 %0, %%laneid; // L%=\\n add.u32 %0, %0, %1;\" : \"+r\"(r) : \"r\"(a));\n"
      "  asm(\"mov.u32 %0, %2;\" : \"=r\"(r) : \"r\"(a));\n"
      "  asm(\"mov.u32 %[x], %c1;\" : \"=r\"(r) : \"n\"(4));\n"
      "  asm volatile(\"mov.u32 %%r1, %%laneid;\");\n"
      "  asm(\"shl.b32 %0, %0, %1;\" : \"+r\"(r) : \"n\"(0x10));\n"
      "}\n";
  std::vector<AsmStatement> statements = extract(text);
  REQUIRE(statements.size() == 5);
  SubstitutedTemplate first = substituteOperands(statements[0]);
  CHECK(first.issues.empty());
  CHECK(first.text == "mov.u32 %0, %laneid; // L0\n add.u32 %0, %0, %1;");
  REQUIRE(first.references.size() == 4);
  auto [tb, te] = first.templateRangeOf(first.references[3].ptxBegin, first.references[3].ptxEnd);
  CHECK(statements[0].templateText.substr(tb, te - tb) == "%1");

  SubstitutedTemplate second = substituteOperands(statements[1]);
  REQUIRE(second.issues.size() == 1);
  CHECK(second.issues[0].kind == TemplateEscapeIssue::Kind::OperandOutOfRange);
  CHECK(second.issues[0].operandIndex == 2);

  SubstitutedTemplate third = substituteOperands(statements[2]);
  REQUIRE(third.issues.size() == 2);
  CHECK(third.issues[0].kind == TemplateEscapeIssue::Kind::NamedOperand);
  CHECK(third.issues[1].kind == TemplateEscapeIssue::Kind::OperandModifier);

  SubstitutedTemplate fourth = substituteOperands(statements[3]);
  REQUIRE(fourth.issues.size() == 2);
  CHECK(fourth.issues[0].kind == TemplateEscapeIssue::Kind::EscapeWithoutOperands);

  SubstitutedTemplate fifth = substituteOperands(statements[4]);
  CHECK(fifth.text == "shl.b32 %0, %0, 16;");  // The "n" value pasted in decimal.
  CHECK_FALSE(fifth.pastedUnknownImmediate);
}

TEST_CASE("fragment module: one function per checkable statement, operands declared by constraint", "[inline-asm-extraction]") {
  std::string text =
      "__device__ void f(unsigned long long* p, float x) {\n"
      "  asm(\"st.global.f32 [%0], %1;\" :: \"l\"(p), \"f\"(x));\n"
      "  asm(\"{ .reg .pred p;\" :: );\n"
      "}\n";
  std::vector<AsmStatement> statements = extract(text);
  REQUIRE(statements.size() == 2);
  FragmentModule module = buildFragmentModule(statements, "sm_80", "9.0");
  REQUIRE(module.entries.size() == 1);  // The second opens a brace it does not close.
  CHECK(module.text.find(".target sm_80") != std::string::npos);
  CHECK(module.text.find(".reg .b64 %0;") != std::string::npos);
  CHECK(module.text.find(".reg .f32 %1;") != std::string::npos);
  const FragmentModule::Entry* entry = module.entryAt(module.entries[0].bodyBegin + 3);
  REQUIRE(entry == &module.entries[0]);
  CHECK(module.text.substr(entry->bodyBegin, entry->bodyEnd - entry->bodyBegin) == "st.global.f32 [%0], %1;");
}

TEST_CASE("extraction: bad input never breaks the scan", "[inline-asm-extraction]") {
  for (std::string text : {std::string("__device__ void f() { asm(\"mov.u32 %0, 1;\" : \"=r\"(x)"),
                           std::string("asm(\"unterminated\n);"), std::string("asm(R\"X(never closed"),
                           std::string("asm volatile"), std::string("asm(((((((("), std::string("\0\xff asm(\"", 9)}) {
    std::vector<AsmStatement> statements = extract(text);
    for (const AsmStatement& statement : statements) CHECK(statement.range.end <= text.size());
  }
}
