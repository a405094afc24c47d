// CudaTextPieces and outlineOfText: a CUDA text parsed in pieces on several threads gives the
// outline the whole parse gives. Where the text may be cut (topLevelCuts), on snippets; the
// joined outline against the whole one, on the CUDA toolkit's headers cut into many pieces.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "TestSupport.h"
#include "cuda/CudaOutline.h"
#include "cuda/CudaSyntax.h"

using namespace ptx;
using namespace ptx::cuda;

namespace {

std::vector<std::uint32_t> cutOffsets(std::string_view text) {
  std::vector<std::uint32_t> offsets;
  for (const TextCut& cut : topLevelCuts(text)) offsets.push_back(cut.offset);
  return offsets;
}

std::uint32_t offsetOf(std::string_view text, std::string_view needle) {
  std::size_t at = text.find(needle);
  REQUIRE(at != std::string_view::npos);
  return static_cast<std::uint32_t>(at);
}

std::string describe(const CudaOutline& outline) {
  std::string out;
  for (const CudaFunction& f : outline.functions) {
    out += "fn " + f.name + " " + std::to_string(f.range.begin) + "-" + std::to_string(f.range.end) + " body " +
           std::to_string(f.body.begin) + " parent " + std::to_string(f.parent) + " bits " +
           std::to_string(f.isKernel) + std::to_string(f.isDevice) + std::to_string(f.isHost) +
           std::to_string(f.isForceInline) + std::to_string(f.isInline) + std::to_string(f.isNoinline) +
           std::to_string(f.isConstexpr) + std::to_string(f.isStatic) + std::to_string(f.isTemplate) +
           std::to_string(f.isLambda) + "\n";
  }
  for (const CudaLoop& l : outline.loops) {
    out += "loop " + std::to_string(l.range.begin) + "-" + std::to_string(l.range.end) + " cond " +
           std::to_string(l.condition.begin) + "-" + std::to_string(l.condition.end) + " fn " +
           std::to_string(l.function) + " parent " + std::to_string(l.parent) + " outer " + std::to_string(l.outer) + "\n";
  }
  for (const CudaCall& c : outline.calls) {
    out += "call " + c.callee + " " + std::to_string(c.range.begin) + "-" + std::to_string(c.range.end) + " fn " +
           std::to_string(c.function) + (c.isKernelLaunch ? " launch" : "") + "\n";
  }
  for (const CudaAsm& a : outline.asms) {
    out += "asm " + std::to_string(a.range.begin) + "-" + std::to_string(a.range.end) + " fn " +
           std::to_string(a.function) + " loop " + std::to_string(a.loop) + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("A CUDA text is cut only between top-level declarations", "[cuda-syntax][pieces]") {
  SECTION("between functions and declarations, inside an include guard, which the cut leaves out") {
    std::string text =
        "#ifndef GUARD_H\n#define GUARD_H\n"
        "__device__ int f() { return 1; }\n"
        "__device__ int g();\n"
        "template <typename T>\n__device__ T h(T x) { return x; }\n"
        "#endif // GUARD_H\n";
    std::vector<TextCut> cuts = topLevelCuts(text);
    REQUIRE(cutOffsets(text) == std::vector<std::uint32_t>{offsetOf(text, "__device__ int g"),
                                                           offsetOf(text, "template"), offsetOf(text, "#endif")});
    // The guard is open at every cut: its `#ifndef` and `#endif` lines are left out.
    for (const TextCut& cut : cuts) {
      REQUIRE(cut.leftOut.size() == 2);
      CHECK(cut.leftOut[0].begin == 0);
      CHECK(text.substr(cut.leftOut[1].begin, cut.leftOut[1].end - cut.leftOut[1].begin) == "#endif");
    }
  }
  SECTION("never inside braces, a statement going on, or a group with an #else") {
    std::string text =
        "namespace ns {\nint a;\nint b;\n}\n"
        "struct S { int x; }\ns;\n"
        "#if A\nint c;\nint d;\n#else\nint e;\n#endif\n"
        "int z;\n";
    CHECK(cutOffsets(text) == std::vector<std::uint32_t>{offsetOf(text, "struct S"), offsetOf(text, "#if A"),
                                                         offsetOf(text, "int z")});
  }
  SECTION("nowhere after braces that do not balance") {
    std::string text = "void f() {\n#if A\n}\n#else\n}\n#endif\nint a;\nint b;\n";
    CHECK(cutOffsets(text).empty());
  }
}

TEST_CASE("A text parsed in pieces has the whole parse's nodes at the same offsets", "[cuda-syntax][pieces]") {
  std::string text;
  text += "#ifndef G\n#define G\n";
  for (int k = 0; k < 40; ++k) {
    text += "__device__ __forceinline__ unsigned f" + std::to_string(k) +
            "(unsigned x) {\n  unsigned r;\n  for (int i = 0; i < 4; ++i)\n"
            "    asm volatile(\"add.u32 %0, %1, 1;\" : \"=r\"(r) : \"r\"(x));\n  return r;\n}\n";
  }
  text += "__global__ void k(unsigned* p) { p[0] = f3(p[1]); }\n#endif\n";
  CudaTextPieces pieces(text, 4);
  REQUIRE(pieces.size() == 4);
  CudaOutline whole = outlineOf(parseCudaSyntax(text), text);
  CHECK(describe(outlineOfText(text, 4, 1)) == describe(whole));
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    CudaSyntaxTree tree = pieces.parse(k);
    CHECK_FALSE(tree.isComplete());  // No base for an incremental reparse.
    ByteRange extent = pieces.extent(k);
    // The piece's first function starts where the whole parse's does, row and column too.
    TSNode node = ts_node_descendant_for_byte_range(tree.root(), extent.begin, extent.begin);
    INFO("piece " << k << " from byte " << extent.begin);
    CHECK(ts_node_start_byte(node) >= extent.begin);
    CHECK(!ts_node_has_error(tree.root()));
  }
  // Two threads on a text under two minimal pieces: one piece, the whole parse.
  CudaTextPieces one(text, 1);
  CHECK(one.size() == 1);
  CHECK(one.parse(0).isComplete());
}

TEST_CASE("The CUDA toolkit's headers outlined in pieces give the whole parse's outline",
          "[cuda-syntax][pieces][toolkit]") {
  const std::filesystem::path include = "/usr/local/cuda/include";
  if (!std::filesystem::is_directory(include / "cccl")) {
    WARN("skipped: the CUDA toolkit's headers are absent (/usr/local/cuda/include)");
    return;
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(include)) {
    if (!entry.is_regular_file() || entry.file_size() < 16384) continue;
    std::string text = test::readFile(entry.path());
    if (text.find("asm") != std::string::npos) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() > 30);
  std::size_t split = 0, pieces = 0;
  for (const auto& path : files) {
    std::string text = test::readFile(path);
    // Pieces of about 8 KB: many cuts per file, each a chance to differ.
    const auto count = static_cast<unsigned>(std::max<std::size_t>(2, text.size() / 8192));
    CudaTextPieces cut(text, count);
    if (cut.size() > 1) ++split;
    pieces += cut.size();
    INFO(path.string() << " in " << cut.size() << " pieces");
    CHECK(describe(outlineOfText(text, count, 1)) == describe(outlineOf(parseCudaSyntax(text), text)));
  }
  INFO(files.size() << " headers, " << split << " cut, " << pieces << " pieces");
  CHECK(split * 2 > files.size());
}

TEST_CASE("Parsing in pieces survives broken and truncated texts", "[cuda-syntax][pieces][robustness]") {
  // Cuts are found by a light lexer, not the parser: unbalanced braces, a `#endif` too many,
  // unterminated comments and strings must still give pieces that parse, and an outline
  // whose indices hold.
  std::string base = "#ifndef G\n#define G\n";
  for (int k = 0; k < 30; ++k) {
    base += "__device__ int f" + std::to_string(k) + "(int x) {\n  for (int i = 0; i < x; ++i) asm(\"nop;\");\n  return x;\n}\n";
  }
  base += "#endif\n";
  const char* insertions[] = {"{", "}", "(", ")", "#endif\n", "#if X\n", "/*", "\"", "R\"(", "\n#else\n", ";", "\\\n"};
  std::mt19937 random(2026);
  for (int step = 0; step < 300; ++step) {
    std::string text = base;
    for (int edits = 0; edits < 1 + step % 4; ++edits) {
      auto at = static_cast<std::size_t>(random() % (text.size() + 1));
      if (step % 3 == 0) {
        text.erase(at, std::min<std::size_t>(random() % 40, text.size() - at));
      } else {
        text.insert(at, insertions[random() % std::size(insertions)]);
      }
    }
    if (step % 10 == 0) text.resize(random() % text.size());  // Truncated.
    CudaOutline outline = outlineOfText(text, 4, 1);
    INFO("step " << step);
    auto sortedByBegin = [](const auto& list) {
      return std::is_sorted(list.begin(), list.end(),
                            [](const auto& a, const auto& b) { return a.range.begin < b.range.begin; });
    };
    CHECK(sortedByBegin(outline.functions));
    CHECK(sortedByBegin(outline.loops));
    CHECK(sortedByBegin(outline.calls));
    CHECK(sortedByBegin(outline.asms));
    auto valid = [&](std::int32_t index, std::size_t size) {
      return index == kNoIndex || (index >= 0 && static_cast<std::size_t>(index) < size);
    };
    for (const CudaFunction& f : outline.functions) CHECK(valid(f.parent, outline.functions.size()));
    for (const CudaLoop& l : outline.loops) {
      CHECK(valid(l.function, outline.functions.size()));
      CHECK(valid(l.parent, outline.loops.size()));
      CHECK(valid(l.outer, outline.loops.size()));
    }
    for (const CudaCall& c : outline.calls) CHECK(valid(c.function, outline.functions.size()));
    for (const CudaAsm& a : outline.asms) {
      CHECK(valid(a.function, outline.functions.size()));
      CHECK(valid(a.loop, outline.loops.size()));
    }
    for (const CudaAsm& a : outline.asms) CHECK(a.range.end <= text.size());
  }
}
