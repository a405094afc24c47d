// PtxLineMap and AsmSourceIndex on handwritten PTX and C++: a PTX line to its `.loc` (innermost
// through inlined_at) and inline-asm block, and an asm template line to its .cu line. The PTX
// mimics what nvcc 13 writes with -lineinfo (blocks, `.loc` after the operands, `.file` at the
// end); nvcc_runner_test.cpp checks the same against the real nvcc.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "PtxLineMap.h"

using namespace ptx::oracle;

namespace {

// The 1-based line of the first line of `text` containing `needle`.
std::uint32_t lineWith(std::string_view text, std::string_view needle) {
  std::size_t at = text.find(needle);
  REQUIRE(at != std::string_view::npos);
  return static_cast<std::uint32_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n') + 1);
}

// The 1-based column of `needle` on its line.
std::uint32_t columnOf(std::string_view text, std::string_view needle) {
  std::size_t at = text.find(needle);
  REQUIRE(at != std::string_view::npos);
  std::size_t lineStart = text.rfind('\n', at);
  return static_cast<std::uint32_t>(at - (lineStart == std::string_view::npos ? 0 : lineStart + 1) + 1);
}

// A block of `n` lines whose words say nothing (only their count matters).
std::vector<std::string_view> lines(std::size_t n) { return std::vector<std::string_view>(n); }

constexpr std::string_view kPtx = R"(//
.version 8.0
.target sm_80
.address_size 64

.visible .entry k(
	.param .u64 k_param_0
)
{
	.reg .b32 	%r<5>;
	.loc	1 10 0
	ld.param.u64 	%rd1, [k_param_0];
	.loc	1 19 12
	.loc	1 12 13, function_name $L__info_string0, inlined_at 1 19 12
	// begin inline asm
	{
	.reg .b32 t;
	bogus.op %r1, t;
	}
	// end inline asm
	.loc	2 30 5
	// begin inline asm
	// end inline asm
	ret;

}
.visible .func f()
{
	ret;
}
	.file	1 "/src/k.cu"
	.file	2 "/src/h \"q\".cuh", 1700000000, 1234
)";

}  // namespace

TEST_CASE("A PTX line maps to the innermost .loc before it, with the call site it was inlined at", "[oracle][ptx-line-map]") {
  PtxLineMap map(kPtx);
  PtxLineLocation at = map.mapPtxLine(lineWith(kPtx, "bogus.op"));
  REQUIRE(at.hasLoc);
  CHECK(at.loc == PtxSourcePosition{1, 12, 13});  // The helper's line, not the call at 19.
  REQUIRE(at.inlinedAt);
  CHECK(*at.inlinedAt == PtxSourcePosition{1, 19, 12});
  CHECK(at.file == "/src/k.cu");  // The .file table comes after the code.

  PtxLineLocation plain = map.mapPtxLine(lineWith(kPtx, "ld.param"));
  CHECK(plain.loc == PtxSourcePosition{1, 10, 0});
  CHECK_FALSE(plain.inlinedAt);
  CHECK_FALSE(plain.insideInlineAsm);

  PtxLineLocation other = map.mapPtxLine(lineWith(kPtx, "ret;"));
  CHECK(other.loc == PtxSourcePosition{2, 30, 5});
  CHECK(other.file == "/src/h \"q\".cuh");
  CHECK(map.files().size() == 2);
}

TEST_CASE("A PTX line inside an inline-asm block knows its line offset in the template", "[oracle][ptx-line-map]") {
  PtxLineMap map(kPtx);
  std::uint32_t open = lineWith(kPtx, "\t{\n\t.reg .b32 t");
  PtxLineLocation first = map.mapPtxLine(open);
  CHECK(first.insideInlineAsm);
  CHECK(first.lineOffsetInBlock == 0);
  CHECK(first.blockLineCount == 4);
  CHECK(first.blockFirstLine == open);
  PtxLineLocation bad = map.mapPtxLine(lineWith(kPtx, "bogus.op"));
  CHECK(bad.insideInlineAsm);
  CHECK(bad.lineOffsetInBlock == 2);
  CHECK(bad.blockLineCount == 4);
  // The markers themselves are outside the block.
  CHECK_FALSE(map.mapPtxLine(lineWith(kPtx, "// begin inline asm")).insideInlineAsm);
  CHECK_FALSE(map.mapPtxLine(lineWith(kPtx, "// end inline asm")).insideInlineAsm);
}

TEST_CASE("A .loc does not reach into the next function, and out-of-range lines map to nothing", "[oracle][ptx-line-map]") {
  PtxLineMap map(kPtx);
  std::uint32_t secondFunctionRet = lineWith(kPtx, ".func f()") + 2;
  CHECK_FALSE(map.mapPtxLine(secondFunctionRet).hasLoc);
  CHECK_FALSE(map.mapPtxLine(lineWith(kPtx, ".file\t1")).hasLoc);
  CHECK_FALSE(map.mapPtxLine(0).hasLoc);
  CHECK_FALSE(map.mapPtxLine(100000).hasLoc);
}

TEST_CASE("A template line is found at its .cu line through adjacent literals on separate lines", "[oracle][asm-source]") {
  // The `.loc` of the block names an operand line (13), not the asm keyword (6).
  std::string source = R"cu(#include <cstdint>
__device__ __forceinline__ uint32_t helper(uint32_t a,
                                           uint32_t b) {
  uint32_t r;
  // asm("not a statement\n") in a comment, and "asm(" in a string:
  asm volatile(
      "{\n\t"
      ".reg .b32 t;\n\t"
      "add.u32 t, %1, %2;\n\t"
      "bogus.op.u32 %0, t;\n\t"
      "}"
      : "=r"(r)
      : "r"(a), "r"(b));
  const char* s = "asm(\"x\")";
  return r;
}
)cu";
  AsmSourceIndex index(source);
  CHECK(index.statementCount() == 1);
  auto found = index.locate({13, 13, 3, lines(5)});
  REQUIRE(found);
  CHECK(found->exact);
  CHECK(found->asmLine == 6);
  CHECK(found->line == lineWith(source, "bogus.op"));
  CHECK(found->column == columnOf(source, "bogus.op"));
  CHECK(source.substr(found->offset, 8) == "bogus.op");
  // Template line 0 is the "{" literal's line.
  CHECK(index.locate({13, 13, 0, lines(5)})->line == 7);
  // Without the block's line count, a template of literals is still exact.
  CHECK(index.locate({13, 0, 3, std::nullopt})->line == lineWith(source, "bogus.op"));
  // A .loc no statement spans (the comment's line, the string's line) finds none.
  CHECK_FALSE(index.locate({5, 0, 0, lines(1)}));
  CHECK_FALSE(index.locate({14, 0, 0, lines(1)}));
}

TEST_CASE("Template lines inside one literal, raw strings, splices and a final newline", "[oracle][asm-source]") {
  std::string source =
      "__global__ void k(int* o, int x) {\n"                                                           // 1
      "  asm volatile(\"mov.u32 %0, %1;\\n\\t\" \"add.u32 %0, %0, 1;\\n\\tsub.s33 %0, %0, 1;\"\n"   // 2
      "               : \"=r\"(o[0]) : \"r\"(x));\n"                                                 // 3
      "  asm volatile(R\"(\n"                                                                        // 4
      "    mov.u32 %%r1, 1;\n"                                                                       // 5
      "    bad.op %0;)\" : \"=r\"(o[2]));\n"                                                         // 6
      "  asm volatile(\"membar.gl;\\n\\\n"                                                           // 7
      "bar.bogus;\\n\" :: \"r\"(x));\n"                                                              // 8
      "  asm(\"\\n\"\n"                                                                              // 9
      "      \"add.s32 %0, %0, 1;\\n\" : \"+r\"(x));\n"                                              // 10
      "}\n";
  AsmSourceIndex index(source);
  CHECK(index.statementCount() == 4);
  // Three template lines on one source line: all map to it, at their own columns.
  auto sub = index.locate({3, 32, 2, lines(3)});
  REQUIRE(sub);
  CHECK(sub->exact);
  CHECK(sub->line == 2);
  CHECK(sub->column == columnOf(source, "sub.s33"));
  CHECK(index.locate({3, 32, 1, lines(3)})->column == columnOf(source, "add.u32 %0, %0, 1"));
  // A raw string: template line 0 is empty (right after the opening delimiter).
  CHECK(index.locate({6, 25, 0, lines(3)})->line == 4);
  CHECK(index.locate({6, 25, 2, lines(3)})->line == 6);
  CHECK(index.locate({6, 25, 2, lines(3)})->column == columnOf(source, "bad.op"));
  // A `\`-newline splice inside the literal: the second template line is on the next line.
  auto spliced = index.locate({8, 0, 1, lines(3)});
  REQUIRE(spliced);
  CHECK(spliced->exact);
  CHECK(spliced->line == 8);
  CHECK(spliced->column == 1);
  // A template that starts and ends with "\n": line 0 is the first literal's, line 2 (empty) the
  // final "\n"'s.
  CHECK(index.locate({10, 0, 0, lines(3)})->line == 9);
  CHECK(index.locate({10, 0, 1, lines(3)})->line == 10);
  CHECK(index.locate({10, 0, 2, lines(3)})->line == 10);
}

TEST_CASE("The block's line count tells apart statements on one line and rejects a wrong template", "[oracle][asm-source]") {
  // nvcc gives both blocks the `.loc` of the first statement (5:3).
  std::string source = "__global__ void k(int* o) {\n\n\n\n"
                       "  asm volatile(\"add.s32 %0, %0, 1;\" : \"+r\"(o[1])); "
                       "asm volatile(\"mov.u32 %0, 5;\\n\\tbogus %0;\" : \"=r\"(o[2]));\n}\n";
  AsmSourceIndex index(source);
  auto second = index.locate({5, 3, 1, lines(2)});
  REQUIRE(second);
  CHECK(second->exact);
  CHECK(second->column == columnOf(source, "bogus"));
  CHECK(second->asmColumn == columnOf(source, "asm volatile(\"mov"));
  // Both with two lines: the block's first words pick the second.
  std::string twins = "__global__ void k(int* o) {\n"
                      "  asm volatile(\"add.s32 %0, %0, 1;\\n\\tsub.s32 %0, %0, 1;\" : \"+r\"(o[1])); "
                      "asm volatile(\"mov.u32 %0, 5;\\n\\tbogus %0;\" : \"=r\"(o[2]));\n}\n";
  AsmSourceIndex pair(twins);
  auto picked = pair.locate({2, 3, 1, std::vector<std::string_view>{"\tmov.u32 %r4, 5;", "\tbogus %r4;"}});
  REQUIRE(picked);
  CHECK(picked->column == columnOf(twins, "bogus"));
  // No statement on the line has a 7-line template: the keyword of the one at the column.
  auto wrong = index.locate({5, 3, 1, lines(7)});
  REQUIRE(wrong);
  CHECK_FALSE(wrong->exact);
  CHECK(wrong->line == 5);
  CHECK(wrong->column == 3);
}

TEST_CASE("Lines before a macro in a template count from its start, lines after it from its end", "[oracle][asm-source]") {
  // SUFFIX comes from a header: its bytes are unknown here.
  std::string source = "__global__ void k(int* o, const char* p) {\n"
                       "  asm volatile(\"ld.global.nc\" SUFFIX \" %0, [%1];\\n\\t\"\n"
                       "               \"bogus;\" : \"=r\"(o[0]) : \"l\"(p));\n"
                       "}\n";
  AsmSourceIndex index(source);
  auto counted = index.locate({3, 0, 1, lines(2)});
  REQUIRE(counted);
  CHECK(counted->exact);
  CHECK(counted->line == 3);
  // Without the block's count the macro's bytes are unknown: the asm keyword's line.
  auto unknown = index.locate({3, 0, 1, std::nullopt});
  REQUIRE(unknown);
  CHECK_FALSE(unknown->exact);
  CHECK(unknown->line == 2);
}

TEST_CASE("A string macro the file defines is part of the template, at its definition", "[oracle][asm-source]") {
  std::string source = "#define SHFL_BFLY \"shlf.sync.bfly.b32\"\n"                        // 1
                       "#define WIDE SHFL_BFLY \".wide\"\n"                                  // 2
                       "#define TWICE \"a\"\n"                                               // 3
                       "#define TWICE \"b\\n\"\n"                                          // 4
                       "__device__ float f(float v, int mask) {\n"                            // 5
                       "  float other;\n"                                                     // 6
                       "  asm volatile(SHFL_BFLY \" %0, %1, %2, 0x1f, -1;\" : \"=f\"(other) : \"f\"(v), \"r\"(mask));\n"  // 7
                       "  asm volatile(\"{\\n\\t\" WIDE \";\\n\\t}\" :: \"f\"(v));\n"  // 8
                       "  asm volatile(\"{\\n\" TWICE \"\\n}\" :: \"f\"(v));\n"           // 9
                       "  return other;\n"
                       "}\n";
  AsmSourceIndex index(source);
  auto shfl = index.locate({7, 0, 0, std::vector<std::string_view>{"\tshlf.sync.bfly.b32 %f1, %f2, %r1, 0x1f, -1;"}});
  REQUIRE(shfl);
  CHECK(shfl->exact);
  CHECK(shfl->line == 1);
  CHECK(shfl->column == columnOf(source, "shlf"));
  CHECK(shfl->asmLine == 7);
  // A macro naming a macro: the first one's bytes.
  auto wide = index.locate({8, 0, 1, std::vector<std::string_view>{"\t{", "\tshlf.sync.bfly.b32.wide;", "\t}"}});
  CHECK(wide->line == 1);
  // A macro defined twice (each under its own #if) is not known: a line it begins is placed at
  // its name, and nothing inside it is exact.
  auto twice = index.locate({9, 0, 1, lines(4)});
  CHECK(twice->exact);
  CHECK(twice->line == 9);
  CHECK(twice->column == columnOf(source, "TWICE \"\\n}"));
  CHECK(index.locate({9, 0, 3, lines(4)})->column == columnOf(source, "\\n}\" ::") + 2);
  CHECK_FALSE(index.locate({9, 0, 2, lines(5)})->exact);
}

TEST_CASE("A function-like macro in a template leaves only the lines around it exact", "[oracle][asm-source]") {
  // cuda_fp16.hpp's hsin: __SPEC_CASE(...) expands to lines of its own.
  std::string source = "__device__ void f(unsigned short& r, unsigned short a) {\n"  // 1
                       "  asm(\"{\\n\\t\"\n"                                       // 2
                       "      \"  mov.b16 r, %0;\\n\\t\"\n"                        // 3
                       "      SPEC(i, r, 0X32B3U, 0x0800U)\n"                            // 4
                       "      \"  or.b16 r,r,t;\\n\\t\"\n"                         // 5
                       "      \"}\\n\" : \"+h\"(r) : \"h\"(a));\n"               // 6
                       "}\n";
  AsmSourceIndex index(source);
  // The block: "{", mov, three lines from SPEC, or, "}", "" (8 lines).
  CHECK(index.locate({6, 0, 1, lines(8)})->line == 3);
  CHECK(index.locate({6, 0, 5, lines(8)})->line == 5);
  CHECK(index.locate({6, 0, 6, lines(8)})->line == 6);
  // Template line 2 starts with the macro's bytes: the macro's name.
  auto macro = index.locate({6, 0, 2, lines(8)});
  CHECK(macro->exact);
  CHECK(macro->line == 4);
  CHECK(macro->column == columnOf(source, "SPEC"));
  // Lines inside the macro's expansion: the asm keyword.
  auto inside = index.locate({6, 0, 3, lines(8)});
  CHECK_FALSE(inside->exact);
  CHECK(inside->line == 2);
  // Fewer lines than the literals alone have: not this template.
  CHECK_FALSE(index.locate({6, 0, 1, lines(3)})->exact);
}

TEST_CASE("asm in a macro's arguments is found from the invocation's line", "[oracle][asm-source]") {
  // nvcc's .loc for code in NV_IF_ELSE_TARGET's arguments is the invocation's line (4).
  std::string source = "__device__ float g(float a);\n"                                          // 1
                       "__device__ unsigned short f(const float a) {\n"                          // 2
                       "  unsigned short val;\n"                                                 // 3
                       "NV_IF_ELSE_TARGET(NV_IS_DEVICE,\n"                                       // 4
                       "    asm(\"{  cvt.rn.f16.f32 %0, %1;}\\n\" : \"=h\"(val) : \"f\"(a));\n"  // 5
                       ",\n"                                                                      // 6
                       "    val = g(a);\n"                                                        // 7
                       ")\n"                                                                      // 8
                       "  return val;\n"                                                          // 9
                       "}\n";
  AsmSourceIndex index(source);
  std::vector<std::string_view> block = {"\t{  cvt.rn.f16.f32 %rs1, %f1;}", ""};
  auto found = index.locate({4, 1, 0, block});
  REQUIRE(found);
  CHECK(found->exact);
  CHECK(found->asmLine == 5);
  CHECK(found->line == 5);
  CHECK(found->column == columnOf(source, "{  cvt"));
  // A block that reads otherwise comes from an asm the index cannot see (one in a macro
  // definition the invocation expands): none, rather than a wrong statement.
  CHECK_FALSE(index.locate({4, 1, 0, std::vector<std::string_view>{"\t{  cvt.rn.f16.f64 %rs1, %fd1;}", ""}}));
  // A line that opens no group around an asm statement finds none.
  CHECK_FALSE(index.locate({7, 0, 0, block}));
}

TEST_CASE("asm in a macro definition is found from the line invoking the macro", "[oracle][asm-source]") {
  std::string source = "#define FENCE(x) asm volatile(\"membar.gl;\\n\\t\" \\\n"  // 1
                       "  \"bad.fence;\" :: \"r\"(x))\n"                              // 2
                       "#define FENCE_ALL(x) do { FENCE(x); } while (0)\n"               // 3
                       "__global__ void k(int* o) {\n"                                   // 4
                       "  FENCE(o[0]);\n"                                                // 5
                       "  FENCE_ALL(o[1]);\n"                                            // 6
                       "}\n";
  AsmSourceIndex index(source);
  CHECK(index.statementCount() == 0);
  PtxLineLocation at;
  at.hasLoc = true;
  at.loc = {1, 5, 3};
  at.file = "/src/m.cu";
  at.insideInlineAsm = true;
  at.lineOffsetInBlock = 1;
  at.blockLineCount = 2;
  at.blockLines = {"\tmembar.gl;", "\tbad.fence;"};
  SourceLocation mapped = locateInSource(at, &index);
  CHECK(mapped.asmFound);
  CHECK(mapped.exact);
  CHECK(mapped.asmLine == 1);
  CHECK(mapped.line == 2);
  CHECK(mapped.column == columnOf(source, "bad.fence"));
  CHECK(mapped.file == "/src/m.cu");
  // Through a macro that names it.
  at.loc = {1, 6, 3};
  CHECK(locateInSource(at, &index).line == 2);
  // A block that reads otherwise is not from this macro: the .loc, the line that expands it.
  at.blockLines = {"\tmembar.sys;", "\tbad.fence;"};
  SourceLocation other = locateInSource(at, &index);
  CHECK_FALSE(other.asmFound);
  CHECK(other.line == 6);
  CHECK(other.column == 3);
}

TEST_CASE("locateInSource: an inlined helper's block maps to the helper's template line", "[oracle][asm-source]") {
  std::string source = "__device__ __forceinline__ int inner(int a) {\n"           // 1
                       "  int r;\n"                                                 // 2
                       "  asm volatile(\"\\n\"\n"                                   // 3
                       "    \"add.s32 %0, %1, 1;\\n\" : \"=r\"(r) : \"r\"(a));\n"   // 4
                       "  return r;\n"                                              // 5
                       "}\n"                                                        // 6
                       "__device__ __forceinline__ int outer(int a) { return inner(a) * 3; }\n"  // 7
                       "__global__ void k(int* o) { o[0] = outer(o[1]); }\n";       // 8
  std::string ptx = ".visible .entry k(\n)\n{\n"
                    "\t.loc\t1 8 29\n"
                    "\t.loc\t1 7 53, function_name $L__info_string0, inlined_at 1 8 29\n"
                    "\t.loc\t1 4 44, function_name $L__info_string1, inlined_at 1 7 53\n"
                    "\t// begin inline asm\n\t\nadd.s32 %r2, %r3, 1;\n\n\t// end inline asm\n"
                    "\tret;\n}\n\t.file\t1 \"/src/n.cu\"\n";
  PtxLineMap map(ptx);
  PtxLineLocation at = map.mapPtxLine(lineWith(ptx, "add.s32"));
  CHECK(at.loc == PtxSourcePosition{1, 4, 44});
  CHECK(*at.inlinedAt == PtxSourcePosition{1, 7, 53});
  AsmSourceIndex index(source);
  SourceLocation mapped = locateInSource(at, &index);
  CHECK(mapped.exact);
  CHECK(mapped.asmLine == 3);
  CHECK(mapped.locLine == 4);
  CHECK(mapped.line == 4);
  CHECK(mapped.column == columnOf(source, "add.s32"));
  // Without the source, the .loc line.
  SourceLocation unread = locateInSource(at, nullptr);
  CHECK(unread.line == 4);
  CHECK_FALSE(unread.asmFound);
}

TEST_CASE("Broken C++ never crashes the index", "[oracle][asm-source]") {
  for (std::string_view source : {"asm volatile(\"unterminated", "asm(R\"x(no end", "asm volatile(((\"a\"",
                                  "asm", "asm volatile \"x\"", "\"\\", "R\"(", "/* asm(\"x\") ", "'\\"}) {
    AsmSourceIndex index(source);
    CHECK(index.statementCount() == 0);
    CHECK_FALSE(index.locate({1, 1, 0, lines(1)}));
  }
}
