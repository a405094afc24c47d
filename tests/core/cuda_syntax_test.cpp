// CudaSyntax and CudaOutline: the vendored CUDA grammar loads into our tree-sitter runtime,
// parsing never fails, the parser's view removes the macro ERROR nodes, incremental reparse
// equals a full parse, and the outline finds functions (with their CUDA qualifiers), loops,
// calls and asm statements, answers offset queries and reachability — on snippets and on the
// CUDA toolkit's own headers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <regex>
#include <string>

#include "TestSupport.h"
#include "cuda/CudaOutline.h"
#include "cuda/CudaSyntax.h"

using namespace ptx;
using namespace ptx::cuda;

namespace {

std::string sexp(const CudaSyntaxTree& tree) {
  char* raw = ts_node_string(tree.root());
  std::string text = raw;
  std::free(raw);
  return text;
}

struct ErrorCount {
  unsigned errors = 0;
  unsigned missing = 0;
  std::size_t errorBytes = 0;
};

ErrorCount countErrors(const CudaSyntaxTree& tree) {
  ErrorCount count;
  TSTreeCursor cursor = ts_tree_cursor_new(tree.root());
  while (true) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    bool descend = true;
    if (ts_node_is_missing(node)) ++count.missing;
    if (std::string_view(ts_node_type(node)) == "ERROR") {
      ++count.errors;
      count.errorBytes += ts_node_end_byte(node) - ts_node_start_byte(node);
      descend = false;
    }
    if (descend && ts_tree_cursor_goto_first_child(&cursor)) continue;
    bool moved = false;
    while (!(moved = ts_tree_cursor_goto_next_sibling(&cursor))) {
      if (!ts_tree_cursor_goto_parent(&cursor)) break;
    }
    if (!moved) break;
  }
  ts_tree_cursor_delete(&cursor);
  return count;
}

std::uint32_t offsetOf(std::string_view text, std::string_view needle, std::size_t from = 0) {
  std::size_t at = text.find(needle, from);
  REQUIRE(at != std::string_view::npos);
  return static_cast<std::uint32_t>(at);
}

std::string_view slice(std::string_view text, ByteRange range) { return text.substr(range.begin, range.end - range.begin); }

const CudaFunction& functionNamed(const CudaOutline& outline, std::string_view name) {
  auto it = std::find_if(outline.functions.begin(), outline.functions.end(),
                         [&](const CudaFunction& f) { return f.name == name; });
  REQUIRE(it != outline.functions.end());
  return *it;
}

std::int32_t indexNamed(const CudaOutline& outline, std::string_view name) {
  return static_cast<std::int32_t>(&functionNamed(outline, name) - outline.functions.data());
}

CudaOutline outlineOfParse(std::string_view text, bool adaptView = true) {
  CudaParseOptions options;
  options.adaptView = adaptView;
  CudaSyntaxTree tree = parseCudaSyntax(text, options);
  return outlineOf(tree, text);
}

}  // namespace

// ── The grammar and the tree ────────────────────────────────────────────────────────────

TEST_CASE("The vendored CUDA grammar loads into the tree-sitter runtime we link", "[cuda-syntax]") {
  CHECK(ts_language_version(cudaLanguage()) == 14);
  TSParser* parser = ts_parser_new();
  CHECK(ts_parser_set_language(parser, cudaLanguage()));
  ts_parser_delete(parser);
}

TEST_CASE("A CUDA kernel parses without errors into the expected shape", "[cuda-syntax]") {
  std::string text =
      "__global__ void k(int* p) {\n"
      "  asm volatile(\"st.global.u32 [%0], %1;\" :: \"l\"(p), \"r\"(1) : \"memory\");\n"
      "}\n";
  CudaSyntaxTree tree = parseCudaSyntax(text);
  REQUIRE(tree.isComplete());
  CHECK(tree.state() == CudaSyntaxTree::State::Parsed);
  CHECK_FALSE(ts_node_has_error(tree.root()));
  CHECK(sexp(tree).find("(function_definition type: (primitive_type) declarator: (function_declarator") !=
        std::string::npos);
  CHECK(sexp(tree).find("(gnu_asm_expression (gnu_asm_qualifier) assembly_code: (string_literal (string_content)) "
                        "output_operands: (gnu_asm_output_operand_list) input_operands: (gnu_asm_input_operand_list") != std::string::npos);
  // `__global__` is an anonymous token among the definition's children.
  TSNode definition = ts_node_named_child(tree.root(), 0);
  CHECK(std::string_view(ts_node_type(ts_node_child(definition, 0))) == "__global__");
  CHECK_FALSE(ts_node_is_named(ts_node_child(definition, 0)));
}

TEST_CASE("Binary, oversized and stopped parses give an empty tree marked as such", "[cuda-syntax]") {
  std::string binary("__global__ void k() {}\0\0", 24);
  CudaSyntaxTree tree = parseCudaSyntax(binary);
  CHECK(tree.state() == CudaSyntaxTree::State::Binary);
  CHECK_FALSE(tree.isComplete());
  REQUIRE_FALSE(ts_node_is_null(tree.root()));
  CHECK(ts_node_child_count(tree.root()) == 0);
  CHECK(outlineOf(tree, binary).functions.empty());

  CudaParseOptions small;
  small.maxTextBytes = 8;
  CudaSyntaxTree large = parseCudaSyntax("__device__ void f() {}", small);
  CHECK(large.state() == CudaSyntaxTree::State::TooLarge);
  CHECK(ts_node_child_count(large.root()) == 0);

  std::atomic<std::size_t> cancel{1};
  CudaParseOptions cancelled;
  cancelled.parse.cancellation = &cancel;
  std::string text;
  for (int k = 0; k < 2000; ++k) text += "__device__ int f" + std::to_string(k) + "(int x) { return x + 1; }\n";
  CudaSyntaxTree stopped = parseCudaSyntax(text, cancelled);
  CHECK(stopped.state() == CudaSyntaxTree::State::Stopped);
  CHECK(ts_node_child_count(stopped.root()) == 0);
  // The thread's parser is usable again.
  CHECK(parseCudaSyntax(text).isComplete());
}

TEST_CASE("A run of comment lines tree-sitter 0.20 cannot free gives an empty tree, not a crash", "[cuda-syntax]") {
  // 65,534 comments in a row abort the process when tree-sitter 0.20.7 frees the tree.
  std::string text = "__global__ void k() { asm volatile(\"membar.gl;\"); }\n";
  for (int i = 0; i < 70000; ++i) text += "// comment\n";
  CudaSyntaxTree tree = parseCudaSyntax(text);
  CHECK(tree.state() == CudaSyntaxTree::State::CommentRun);
  CHECK(ts_node_child_count(tree.root()) == 0);
  CudaTextPieces pieces(text, 2);
  CHECK(pieces.parse(0).state() == CudaSyntaxTree::State::CommentRun);
  // Broken up by code, the same comments parse.
  std::string broken = text;
  broken.insert(broken.find('\n', broken.size() / 2) + 1, "__device__ int g;\n");
  CHECK(parseCudaSyntax(broken).state() == CudaSyntaxTree::State::Parsed);
}

TEST_CASE("A byte-order mark does not disturb the CUDA parse or its offsets", "[cuda-syntax]") {
  std::string text = "\xEF\xBB\xBF__device__ void f() {}\n";
  CudaSyntaxTree tree = parseCudaSyntax(text);
  CHECK_FALSE(ts_node_has_error(tree.root()));
  CHECK(ts_node_start_byte(ts_node_named_child(tree.root(), 0)) == 3);
  CHECK(tree.viewChanges().front().kind == ViewKind::ByteOrderMark);
}

TEST_CASE("A CUDA syntax tree is a value: copies and moves share the parse", "[cuda-syntax]") {
  std::string text = "__device__ void f() { asm(\"exit;\"); }\n";
  CudaSyntaxTree tree = parseCudaSyntax(text);
  CudaSyntaxTree copy = tree;
  CudaSyntaxTree moved = std::move(tree);
  CHECK(ts_node_eq(copy.root(), moved.root()));
  CHECK(outlineOf(moved, text).asms.size() == 1);
}

TEST_CASE("Deep nesting costs no stack in parsing or in the outline", "[cuda-syntax]") {
  constexpr int kDepth = 20000;
  std::string text = "__device__ void f() {";
  for (int k = 0; k < kDepth; ++k) text += "while (1) {";
  text += "asm(\"exit;\");";
  text += std::string(kDepth, '}');
  text += "}\n";
  CudaSyntaxTree tree = parseCudaSyntax(text);
  REQUIRE(tree.isComplete());
  CudaOutline outline = outlineOf(tree, text);
  CHECK(outline.loops.size() == kDepth);
  REQUIRE(outline.asms.size() == 1);
  CHECK(outline.asms[0].loop == kDepth - 1);
  CHECK(outline.enclosingLoops(outline.asms[0].range.begin).size() == kDepth);
}

// ── The parser's view ───────────────────────────────────────────────────────────────────

TEST_CASE("Toolkit qualifier macros are blanked for the parser: no ERROR, and the outline keeps them",
          "[cuda-syntax]") {
  std::string text =
      "template <typename _B8>\n"
      "_CCCL_DEVICE static inline _B8 ld(const _B8* __addr) {\n"
      "  asm(\"ld.global.b8 %0, [%1];\" : \"=r\"(__dest) : \"l\"(__addr) : \"memory\");\n"
      "}\n";
  CudaParseOptions raw;
  raw.adaptView = false;
  CHECK(ts_node_has_error(parseCudaSyntax(text, raw).root()));
  CudaSyntaxTree tree = parseCudaSyntax(text);
  CHECK_FALSE(ts_node_has_error(tree.root()));
  REQUIRE(tree.viewChanges().size() == 1);
  CHECK(tree.viewChanges()[0].kind == ViewKind::QualifierMacro);
  CHECK(tree.viewChanges()[0].qualifiers == kQualDevice);
  CudaOutline outline = outlineOf(tree, text);
  const CudaFunction& ld = functionNamed(outline, "ld");
  CHECK(ld.isDevice);
  CHECK(ld.isStatic);
  CHECK(ld.isInline);
  CHECK(ld.isTemplate);
  CHECK_FALSE(ld.isHost);
  // The definition starts at the macro, not at `static`.
  CHECK(ld.range.begin == offsetOf(text, "_CCCL_DEVICE"));
}

TEST_CASE("A text's own qualifier macros are recognised, through other macros too", "[cuda-syntax]") {
  std::string text =
      "#define MY_HD __host__ __device__\n"
      "#if defined(__CUDACC_RTC__)\n"
      "#define MY_DECL MY_HD\n"
      "#else\n"
      "#define MY_DECL static MY_HD __attribute__((always_inline)) __inline__\n"
      "#endif\n"
      "#define NOT_A_QUALIFIER int\n"
      "MY_DECL unsigned f(unsigned x) { return x; }\n"
      "NOT_A_QUALIFIER g() { return 0; }\n";
  CudaSyntaxTree tree = parseCudaSyntax(text);
  CHECK_FALSE(ts_node_has_error(tree.root()));
  CudaOutline outline = outlineOf(tree, text);
  const CudaFunction& f = functionNamed(outline, "f");
  CHECK(f.isHost);
  CHECK(f.isDevice);
  CHECK(f.isStatic);
  CHECK(f.isInline);
  CHECK(f.isForceInline);
  // NOT_A_QUALIFIER stands for a type: the parser sees it as written.
  for (const ViewChange& change : tree.viewChanges()) CHECK(slice(text, change.range) != "NOT_A_QUALIFIER");
  CHECK_FALSE(functionNamed(outline, "g").isDevice);
}

TEST_CASE("Macro names inside comments, literals and directives are left alone", "[cuda-syntax]") {
  std::string text =
      "// _CCCL_DEVICE in a comment\n"
      "/* _CCCL_DEVICE\n   in a block */\n"
      "const char* a = \"_CCCL_DEVICE \\\" _CCCL_DEVICE\";\n"
      "const char* b = R\"x(_CCCL_DEVICE )\" _CCCL_DEVICE)x\";\n"
      "const char c = '\"'; int d = 1'000;\n"
      "#ifdef _CCCL_DEVICE\n"
      "_CCCL_DEVICE void f() {}\n"
      "#endif\n";
  CudaSyntaxTree tree = parseCudaSyntax(text);
  CHECK_FALSE(ts_node_has_error(tree.root()));
  REQUIRE(tree.viewChanges().size() == 1);
  CHECK(tree.viewChanges()[0].range.begin == offsetOf(text, "_CCCL_DEVICE void"));
}

TEST_CASE("A string macro in an operand list parses as the string it stands for", "[cuda-syntax]") {
  std::string text =
      "#define __LDG_PTR   \"l\"\n"
      "__device__ char f(const char* ptr) { unsigned int ret;\n"
      "  asm volatile(\"ld.global.nc.s8 %0, [%1];\" : \"=r\"(ret) : __LDG_PTR (ptr)); return (char)ret; }\n";
  CudaParseOptions raw;
  raw.adaptView = false;
  CHECK(ts_node_has_error(parseCudaSyntax(text, raw).root()));
  CudaSyntaxTree tree = parseCudaSyntax(text);
  CHECK_FALSE(ts_node_has_error(tree.root()));
  CHECK(sexp(tree).find("input_operands: (gnu_asm_input_operand_list operand: (gnu_asm_input_operand constraint: "
                        "(string_literal (string_content)) value: (identifier)))") != std::string::npos);
}

TEST_CASE("NV_IF_TARGET's statement arguments parse as blocks", "[cuda-syntax]") {
  std::string text =
      "_LIBCUDACXX_BEGIN_NAMESPACE_CUDA\n"
      "inline _CCCL_HOST_DEVICE void discard(volatile void* p, size_t n) noexcept {\n"
      "  NV_IF_TARGET(\n"
      "    NV_PROVIDES_SM_80,\n"
      "    (if (!__isGlobal((void*) p)) return;\n"
      "     while (n > 0) {\n"
      "       asm volatile(\"discard.global.L2 [%0], 128;\" ::\"l\"(p) :);\n"
      "       n -= 128;\n"
      "     }),\n"
      "    ((void) (p); (void) (n);))\n"
      "}\n"
      "_LIBCUDACXX_END_NAMESPACE_CUDA\n";
  CudaParseOptions raw;
  raw.adaptView = false;
  CHECK(ts_node_has_error(parseCudaSyntax(text, raw).root()));
  CudaSyntaxTree tree = parseCudaSyntax(text);
  CHECK_FALSE(ts_node_has_error(tree.root()));
  auto dispatch = std::find_if(tree.viewChanges().begin(), tree.viewChanges().end(),
                               [](const ViewChange& c) { return c.kind == ViewKind::TargetDispatch; });
  REQUIRE(dispatch != tree.viewChanges().end());
  CHECK(slice(text, dispatch->range) == "NV_IF_TARGET");
  CHECK(dispatch->extent == offsetOf(text, "(n);))") + 6);  // Through the call's `)`.
  CudaOutline outline = outlineOf(tree, text);
  REQUIRE(outline.asms.size() == 1);
  const CudaFunction& discard = functionNamed(outline, "discard");
  CHECK(outline.asms[0].function == indexNamed(outline, "discard"));
  CHECK(discard.isHost);
  CHECK(discard.isDevice);
  CHECK(discard.isInline);
  REQUIRE(outline.loops.size() == 1);
  CHECK(outline.asms[0].loop == 0);
  CHECK(slice(text, outline.loops[0].condition) == "n > 0");
}

TEST_CASE("Directive-only conditional groups and pragmas do not break the statement around them",
          "[cuda-syntax]") {
  std::string text =
      "__device__ char f(short h) {\n"
      "    char value;\n"
      "    if (((char)-1) < (char)0)\n"
      "#if defined(_MSC_VER) && !defined(__CUDA_ARCH__)\n"
      "#pragma warning (pop)\n"
      "#endif\n"
      "    {\n"
      "        value = 1;\n"
      "    }\n"
      "#pragma unroll\n"
      "    for (int i = 0; i < 4; ++i) value += i;\n"
      "    return value;\n"
      "}\n";
  CudaParseOptions raw;
  raw.adaptView = false;
  CHECK(ts_node_has_error(parseCudaSyntax(text, raw).root()));
  CudaSyntaxTree tree = parseCudaSyntax(text);
  CHECK_FALSE(ts_node_has_error(tree.root()));
  CHECK(std::count_if(tree.viewChanges().begin(), tree.viewChanges().end(),
                      [](const ViewChange& c) { return c.kind == ViewKind::Directive; }) == 4);
}

TEST_CASE("Incremental CUDA reparse matches a full parse after random edits", "[cuda-syntax]") {
  std::string text =
      "#define MY_DECL static __device__ __inline__\n"
      "#define PTR \"l\"\n"
      "MY_DECL int f(int* p) {\n"
      "  int v;\n"
      "  NV_IF_TARGET(NV_PROVIDES_SM_70, (asm volatile(\"ld.relaxed.gpu.u32 %0, [%1];\" : \"=r\"(v) : PTR(p));),\n"
      "               (v = *p;))\n"
      "  while (v == 0) { asm(\"ld.global.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p)); }\n"
      "  auto l = [&] __device__ (int i) { return i + v; };\n"
      "  return l(v);\n"
      "}\n"
      "_CCCL_DEVICE void g() { f(nullptr); }\n";
  const char* insertions[] = {";", "}", "{", "(", ")", ",", "x", " ", "\n", "\"", "MY_DECL ", "PTR",
                              "#define PTR \"r\"\n", "// c\n", "__device__ ", "NV_IF_TARGET("};
  std::mt19937 random(20261128);
  CudaSyntaxTree tree = parseCudaSyntax(text);
  for (int step = 0; step < 300; ++step) {
    auto begin = static_cast<std::uint32_t>(random() % (text.size() + 1));
    auto length = static_cast<std::uint32_t>(random() % 4);
    auto end = std::min<std::uint32_t>(begin + length, static_cast<std::uint32_t>(text.size()));
    std::string inserted = step % 3 == 0 ? "" : insertions[random() % std::size(insertions)];
    SyntaxEdit edit = describeEdit(text, begin, end, inserted);
    text.replace(begin, end - begin, inserted);
    CudaSyntaxTree next = reparseCudaSyntax(tree, text, edit);
    CudaSyntaxTree fresh = parseCudaSyntax(text);
    INFO("step " << step << ", text:\n" << text);
    REQUIRE(sexp(next) == sexp(fresh));
    REQUIRE(next.viewChanges().size() == fresh.viewChanges().size());
    tree = std::move(next);
  }
}

TEST_CASE("An edit inside a changed spelling re-reads all of it", "[cuda-syntax]") {
  // The parser saw `"l"      ` for `__LDG_PTR`; deleting "_PTR" leaves the identifier `__LDG`,
  // whose first bytes the old string token covered although the edit does not touch them.
  std::string text =
      "#define __LDG_PTR \"l\"\n"
      "__device__ short f(const short* ptr) { unsigned short ret;\n"
      "  asm volatile(\"ld.global.nc.s16 %0, [%1];\" : \"=h\"(ret) : __LDG_PTR (ptr)); return (short)ret; }\n";
  CudaSyntaxTree tree = parseCudaSyntax(text);
  std::uint32_t at = offsetOf(text, "_PTR (ptr)");
  SyntaxEdit edit = describeEdit(text, at, at + 5, "");
  text.erase(at, 5);
  CHECK(sexp(reparseCudaSyntax(tree, text, edit)) == sexp(parseCudaSyntax(text)));
}

TEST_CASE("Reparsing CUDA after a burst of edits equals a full parse", "[cuda-syntax]") {
  std::string text = "__device__ void f(int* p) {\n  asm(\"st.global.u32 [%0], 1;\" :: \"l\"(p));\n}\n";
  CudaSyntaxTree tree = parseCudaSyntax(text);
  std::vector<SyntaxEdit> edits;
  auto apply = [&](std::uint32_t begin, std::uint32_t end, std::string_view inserted) {
    edits.push_back(describeEdit(text, begin, end, inserted));
    text.replace(begin, end - begin, inserted);
  };
  apply(offsetOf(text, "u32"), offsetOf(text, "u32") + 3, "b32");
  apply(0, 0, "#define Q __device__\n");
  apply(offsetOf(text, "__device__ void"), offsetOf(text, "__device__ void") + 10, "Q");
  CudaSyntaxTree next = reparseCudaSyntax(tree, text, edits);
  CHECK(sexp(next) == sexp(parseCudaSyntax(text)));
  CHECK(outlineOf(next, text).functions.at(0).isDevice);
}

// ── The outline ─────────────────────────────────────────────────────────────────────────

TEST_CASE("The outline reads CUDA qualifiers as tree-sitter-cuda represents them", "[cuda-syntax][cuda-outline]") {
  std::string text =
      "__global__ void k(int* p) { p[0] = 1; }\n"
      "__device__ __forceinline__ int g(int x) { return x; }\n"
      "template <int N> __device__ void t() {}\n"
      "__noinline__ __device__ int ni() { return 0; }\n"
      "constexpr __device__ int ce() { return 1; }\n"
      "static __host__ __device__ inline int both(int a) { return a; }\n"
      "__global__ void __launch_bounds__(128, 2) kb() {}\n"
      "__device__ __attribute__((noinline)) void attr() {}\n"
      "void h() {}\n";
  for (bool adaptView : {true, false}) {
    CudaOutline outline = outlineOfParse(text, adaptView);
    REQUIRE(outline.functions.size() == 9);
    CHECK(functionNamed(outline, "k").isKernel);
    CHECK_FALSE(functionNamed(outline, "k").isDevice);
    CHECK(functionNamed(outline, "g").isDevice);
    CHECK(functionNamed(outline, "g").isForceInline);
    CHECK(functionNamed(outline, "t").isTemplate);
    CHECK(functionNamed(outline, "t").isDevice);
    CHECK(functionNamed(outline, "ni").isNoinline);
    CHECK(functionNamed(outline, "ce").isConstexpr);
    const CudaFunction& both = functionNamed(outline, "both");
    CHECK((both.isHost && both.isDevice && both.isInline && both.isStatic && !both.isKernel));
    CHECK(functionNamed(outline, "kb").isKernel);
    CHECK(functionNamed(outline, "attr").isNoinline);
    const CudaFunction& h = functionNamed(outline, "h");
    CHECK_FALSE((h.isKernel || h.isDevice || h.isHost || h.isInline || h.isTemplate || h.isLambda));
  }
}

TEST_CASE("Lambdas are functions, with their __device__ read with or without the parser's view",
          "[cuda-syntax][cuda-outline]") {
  std::string text =
      "void h() {\n"
      "  auto l = [&] __device__ (int i) { return i; };\n"
      "  auto m = [=] __host__ __device__ () mutable { asm(\"exit;\"); };\n"
      "  auto n = []<int N>(int i) { return i + N; };\n"
      "}\n";
  for (bool adaptView : {true, false}) {
    CudaOutline outline = outlineOfParse(text, adaptView);
    REQUIRE(outline.functions.size() == 4);
    const CudaFunction& l = outline.functions[1];
    CHECK(l.isLambda);
    CHECK(l.name.empty());
    CHECK(l.isDevice);
    CHECK_FALSE(l.isHost);
    CHECK(l.parent == 0);
    CHECK(slice(text, l.body) == "{ return i; }");
    const CudaFunction& m = outline.functions[2];
    CHECK((m.isHost && m.isDevice));
    REQUIRE(outline.asms.size() == 1);
    CHECK(outline.asms[0].function == 2);
    CHECK(outline.functions[3].isTemplate);
    CHECK_FALSE(outline.functions[3].isDevice);
  }
}

TEST_CASE("Function names are kept as written, with their last identifier", "[cuda-syntax][cuda-outline]") {
  std::string text =
      "namespace ns { __device__ void foo() {} }\n"
      "void ns::foo2() {}\n"
      "struct Foo { __device__ void bar() {} };\n"
      "__device__ void Foo::bar2() {}\n"
      "template <> __device__ int* spec<int>(int) { return nullptr; }\n"
      "template <class T> struct S { __device__ void member() {} };\n"
      "__device__ bool Foo::operator==(const Foo&) const { return true; }\n";
  CudaOutline outline = outlineOfParse(text);
  REQUIRE(outline.functions.size() == 7);
  CHECK(outline.functions[0].name == "foo");
  CHECK(outline.functions[1].name == "ns::foo2");
  CHECK(outline.functions[1].simpleName == "foo2");
  CHECK(outline.functions[2].name == "bar");
  CHECK(outline.functions[3].name == "Foo::bar2");
  CHECK(outline.functions[3].simpleName == "bar2");
  CHECK(outline.functions[4].name == "spec<int>");
  CHECK(outline.functions[4].simpleName == "spec");
  CHECK(outline.functions[5].name == "member");
  CHECK(outline.functions[5].isTemplate);  // A member of a class template.
  CHECK_FALSE(outline.functions[2].isTemplate);
  CHECK(outline.functions[6].simpleName == "operator==");
  CHECK(slice(text, outline.functions[1].nameRange) == "ns::foo2");
}

TEST_CASE("Loops: kinds, bodies, conditions and nesting", "[cuda-syntax][cuda-outline]") {
  std::string text =
      "__device__ int f(int* p, int* arr) {\n"
      "  int v = 0;\n"
      "  while (v == 0) { asm volatile(\"ld.relaxed.gpu.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p)); }\n"
      "  do { v++; } while (v < 10);\n"
      "  for (int i = 0; i < 4; ++i) { for (;;) { break; } }\n"
      "  for (int x : {1, 2}) {}\n"
      "  return v;\n"
      "}\n";
  CudaOutline outline = outlineOfParse(text);
  REQUIRE(outline.loops.size() == 5);
  const CudaLoop& polling = outline.loops[0];
  CHECK(polling.kind == CudaLoopKind::While);
  CHECK(slice(text, polling.condition) == "v == 0");
  CHECK(slice(text, polling.body).starts_with("{ asm volatile"));
  CHECK(polling.function == 0);
  CHECK(outline.loops[1].kind == CudaLoopKind::DoWhile);
  CHECK(slice(text, outline.loops[1].condition) == "v < 10");
  CHECK(slice(text, outline.loops[1].body) == "{ v++; }");
  CHECK(outline.loops[2].kind == CudaLoopKind::For);
  CHECK(slice(text, outline.loops[2].condition) == "i < 4");
  CHECK(outline.loops[3].parent == 2);
  CHECK(outline.loops[3].condition.begin == outline.loops[3].condition.end);
  CHECK(outline.loops[4].kind == CudaLoopKind::RangeFor);
  CHECK(outline.loops[4].condition.begin == outline.loops[4].condition.end);
  REQUIRE(outline.asms.size() == 1);
  CHECK(outline.asms[0].loop == 0);
  CHECK(slice(text, outline.asms[0].range).starts_with("asm volatile(\"ld.relaxed"));
  CHECK(slice(text, outline.asms[0].range).ends_with("\"l\"(p))"));
}

TEST_CASE("Call sites: the callee's last identifier, template arguments stripped", "[cuda-syntax][cuda-outline]") {
  std::string text =
      "__device__ int f(int i) {\n"
      "  return foo<4>(i) + ns::bar(i) + obj.meth(i) + ptr->m2<int>(i) + this->template tm<2>(i) + (*fp)(i);\n"
      "}\n"
      "void host(int* p) { k<<<1, 32>>>(p); }\n";
  CudaOutline outline = outlineOfParse(text);
  std::vector<std::string> callees;
  for (const CudaCall& call : outline.calls) callees.push_back(call.callee);
  CHECK(callees == std::vector<std::string>{"foo", "bar", "meth", "m2", "tm", "k"});
  CHECK(outline.calls[0].function == 0);
  CHECK(slice(text, outline.calls[1].calleeRange) == "ns::bar");
  CHECK(slice(text, outline.calls[1].range) == "ns::bar(i)");
  CHECK(outline.calls.back().isKernelLaunch);
  CHECK(outline.calls.back().function == 1);
  CHECK_FALSE(outline.calls[0].isKernelLaunch);
}

TEST_CASE("Offset queries: the enclosing function and the loops of that function", "[cuda-syntax][cuda-outline]") {
  std::string text =
      "int global;\n"
      "__device__ void f(int* p) {\n"
      "  for (int i = 0; i < 4; ++i) {\n"
      "    auto l = [&] __device__ () {\n"
      "      while (true) { asm(\"A\"); }\n"
      "      asm(\"B\");\n"
      "    };\n"
      "    asm(\"C\");\n"
      "  }\n"
      "}\n"
      "int between;\n"
      "__device__ void g() { asm(\"D\"); }\n";
  CudaOutline outline = outlineOfParse(text);
  REQUIRE(outline.functions.size() == 3);
  std::int32_t f = 0, lambda = 1, g = 2;
  CHECK(outline.enclosingFunction(offsetOf(text, "global")) == kNoIndex);
  CHECK(outline.enclosingFunction(offsetOf(text, "int* p")) == f);
  CHECK(outline.enclosingFunction(offsetOf(text, "\"A\"")) == lambda);
  CHECK(outline.enclosingFunction(offsetOf(text, "\"B\"")) == lambda);
  CHECK(outline.enclosingFunction(offsetOf(text, "\"C\"")) == f);
  CHECK(outline.enclosingFunction(offsetOf(text, "between")) == kNoIndex);
  CHECK(outline.enclosingFunction(offsetOf(text, "\"D\"")) == g);
  CHECK(outline.enclosingFunction(static_cast<std::uint32_t>(text.size())) == kNoIndex);
  // The for loop holds the lambda's text, but the lambda's asm is not in the loop's function.
  CHECK(outline.enclosingLoops(offsetOf(text, "\"A\"")) == std::vector<std::int32_t>{1});
  CHECK(outline.enclosingLoops(offsetOf(text, "\"B\"")).empty());
  CHECK(outline.enclosingLoops(offsetOf(text, "\"C\"")) == std::vector<std::int32_t>{0});
  CHECK(outline.enclosingLoops(offsetOf(text, "\"D\"")).empty());
  REQUIRE(outline.asms.size() == 4);
  CHECK(outline.asms[0].loop == 1);
  CHECK(outline.asms[1].loop == kNoIndex);
  CHECK(outline.asms[2].loop == 0);
  CHECK(outline.asms[3].function == g);
}

TEST_CASE("Reachability from kernels follows calls by name", "[cuda-syntax][cuda-outline]") {
  std::string text =
      "__device__ void leaf() { asm(\"exit;\"); }\n"
      "__device__ void leaf(int) {}\n"
      "__device__ void mid() { leaf(); unknown(); mid(); }\n"
      "__device__ void unused() { leaf(); }\n"
      "__device__ void viaLambda() {}\n"
      "__global__ void kernel() { mid(); auto l = [] __device__ () { viaLambda(); }; }\n"
      "__global__ void other() {}\n";
  CudaOutline outline = outlineOfParse(text);
  std::vector<std::int32_t> kernels = kernelsOf(outline);
  REQUIRE(kernels.size() == 2);
  std::vector<std::int32_t> first{kernels[0]};
  std::vector<bool> reached = reachableFrom(outline, first);
  REQUIRE(reached.size() == outline.functions.size());
  CHECK(reached[indexNamed(outline, "kernel")]);
  CHECK(reached[indexNamed(outline, "mid")]);
  CHECK(reached[0]);  // Both overloads of leaf.
  CHECK(reached[1]);
  CHECK(reached[indexNamed(outline, "viaLambda")]);
  CHECK_FALSE(reached[indexNamed(outline, "unused")]);
  CHECK_FALSE(reached[indexNamed(outline, "other")]);
  CHECK(std::count(reached.begin(), reached.end(), true) == 6);  // kernel, its lambda, mid, leaf x2, viaLambda.
}

TEST_CASE("A macro invocation appears as a call in the function that uses it", "[cuda-syntax][cuda-outline]") {
  std::string text =
      "#define LD(r, p) asm volatile(\"ld.global.u32 %0, [%1];\" : \"=r\"(r) : \"l\"(p))\n"
      "__device__ int g(int* p) { int r; LD(r, p); return r; }\n";
  CudaOutline outline = outlineOfParse(text);
  REQUIRE(outline.calls.size() == 1);
  CHECK(outline.calls[0].callee == "LD");
  CHECK(outline.calls[0].function == 0);
  // The asm of the #define body is in no function.
  CHECK(outline.enclosingFunction(offsetOf(text, "asm volatile")) == kNoIndex);
}

TEST_CASE("An #if inside an asm operand list is an ERROR that stays local", "[cuda-syntax][cuda-outline]") {
  std::string text =
      "__device__ void f(int* p, int x) {\n"
      "  asm volatile(\"st.global.u32 [%0], %1;\" ::\n"
      "#if defined(__LP64__)\n"
      "    \"l\"(p),\n"
      "#else\n"
      "    \"r\"(p),\n"
      "#endif\n"
      "    \"r\"(x) : \"memory\");\n"
      "  for (int i = 0; i < 4; ++i) { asm volatile(\"membar.gl;\"); }\n"
      "}\n"
      "__device__ void g() {}\n";
  CudaSyntaxTree tree = parseCudaSyntax(text);
  CHECK(ts_node_has_error(tree.root()));
  CudaOutline outline = outlineOf(tree, text);
  REQUIRE(outline.functions.size() == 2);
  CHECK(outline.enclosingFunction(offsetOf(text, "\"r\"(x)")) == 0);
  REQUIRE(outline.loops.size() == 1);
  CHECK(outline.enclosingLoops(offsetOf(text, "membar")) == std::vector<std::int32_t>{0});
}

// ── The toolkit's headers ───────────────────────────────────────────────────────────────

TEST_CASE("The CUDA toolkit's asm-dense headers parse nearly error-free, every asm in a function",
          "[cuda-syntax][toolkit]") {
  const std::filesystem::path include = "/usr/local/cuda/include/cccl/cuda";
  std::vector<std::filesystem::path> files;
  for (const char* folder : {"__ptx/instructions/generated", "std/__atomic"}) {
    if (!std::filesystem::is_directory(include / folder)) continue;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(include / folder)) {
      if (entry.is_regular_file()) files.push_back(entry.path());
    }
  }
  if (files.empty()) {
    WARN("skipped: the CUDA toolkit's headers are absent (/usr/local/cuda/include/cccl/cuda)");
    return;
  }
  std::sort(files.begin(), files.end());
  // asm statements as the token scanner finds them: the keyword outside comments and #define lines.
  static const std::regex kAsm(R"((^|[^\w])(asm|__asm__|__asm)\s*(volatile|__volatile__)?\s*\()");
  std::size_t bytes = 0, errorBytes = 0, statements = 0, placed = 0;
  for (const auto& path : files) {
    std::string text = test::readFile(path);
    CudaSyntaxTree tree = parseCudaSyntax(text);
    REQUIRE(tree.isComplete());
    ErrorCount errors = countErrors(tree);
    bytes += text.size();
    errorBytes += errors.errorBytes;
    CudaOutline outline = outlineOf(tree, text);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kAsm); it != std::sregex_iterator(); ++it) {
      auto offset = static_cast<std::uint32_t>(it->position(2));
      std::size_t lineStart = text.rfind('\n', offset);
      lineStart = lineStart == std::string::npos ? 0 : lineStart + 1;
      std::string_view before = std::string_view(text).substr(lineStart, offset - lineStart);
      std::size_t first = before.find_first_not_of(" \t");
      if (first != std::string_view::npos && (before[first] == '/' || before[first] == '*' || before[first] == '#')) {
        continue;
      }
      ++statements;
      if (outline.enclosingFunction(offset) != kNoIndex) {
        ++placed;
      } else {
        UNSCOPED_INFO("asm outside a function: " << path.string() << " at byte " << offset);
      }
    }
  }
  INFO(files.size() << " files, " << bytes << " bytes, " << errorBytes << " bytes under ERROR, " << statements
                    << " asm statements");
  CHECK(statements > 2000);
  CHECK(placed == statements);
  CHECK(errorBytes * 200 < bytes);  // Under 0.5% of the bytes (0.3% with CUDA 13.0).
}
