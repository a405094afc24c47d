// The editor features inside asm templates of a CUDA source (features/CudaAsmFeatures.h): hover
// on opcodes, modifiers and operands, definitions and references of labels, completion of
// opcodes, modifiers and `%N` operands, semantic tokens only inside the string literals, and
// nothing anywhere else in the C++.
#include <catch2/catch.hpp>

#include <algorithm>

#include "Annotated.h"
#include "features/CudaAsmFeatures.h"
#include "inline_asm/CudaLint.h"

using namespace ptx;
using namespace ptx::lsp;
using ptx::test::Annotated;

namespace {

constexpr std::string_view kTarget = "sm_90a";

std::vector<cuda::AsmStatement> statementsOf(const std::string& text) {
  return lintCudaText(text).firstPassStatements;
}

std::string textOf(const std::string& text, ByteRange range) { return text.substr(range.begin, range.end - range.begin); }

// A device function in the style of CUTLASS: a predicated load in braces with a `%=` label.
const char* const kLoad =
    "#include <cstdint>\n"
    "__device__ __forceinline__ uint32_t load_unless_zero(uint32_t x, const uint32_t* p) {\n"
    "  uint32_t r;\n"
    "  asm volatile(\"{\\n\\t\"\n"
    "               \".reg .pred $pred^p;\\n\\t\"\n"
    "               \"setp.eq.u32 p, %1, 0;\\n\\t\"\n"
    "               \"@p bra.uni $use^DONE_%=;\\n\\t\"\n"
    "               \"$op^ld.gl$mod^obal.u32 %$out^0, [%$in^2];\\n\\t\"\n"
    "               \"$label^DONE_%=:\\n\\t\"\n"
    "               \"}\" : \"=r\"(r) : \"r\"(x), \"l\"(p));\n"
    "  return $cxx^r;\n"
    "}\n";

}  // namespace

TEST_CASE("CUDA hover explains opcodes, modifiers and operands inside asm templates", "[server][cuda]") {
  Annotated source(kLoad);
  const std::string& text = source.text();
  std::vector<cuda::AsmStatement> statements = statementsOf(text);
  REQUIRE(statements.size() == 1);

  auto opcode = asmHoverAt(statements, kTarget, source.point("op"));
  REQUIRE(opcode);
  CHECK(opcode->markdown.find("**ld**") != std::string::npos);
  CHECK(textOf(text, opcode->range) == "ld");

  auto modifier = asmHoverAt(statements, kTarget, source.point("mod"));
  REQUIRE(modifier);
  CHECK(textOf(text, modifier->range) == ".global");

  auto output = asmHoverAt(statements, kTarget, source.point("out"));
  REQUIRE(output);
  CHECK(textOf(text, output->range) == "%0");
  CHECK(output->markdown.find("output operand 0 of 3") != std::string::npos);
  CHECK(output->markdown.find("`.b32` register") != std::string::npos);
  CHECK(output->markdown.find("\"=r\"(r)") != std::string::npos);

  auto input = asmHoverAt(statements, kTarget, source.point("in"));
  REQUIRE(input);
  CHECK(input->markdown.find("input operand 2 of 3") != std::string::npos);
  CHECK(input->markdown.find("`.b64` register") != std::string::npos);
  CHECK(input->markdown.find("\"l\"(p)") != std::string::npos);

  // C++ outside the template is clangd's: no answer, not even on the constraint strings.
  CHECK_FALSE(asmHoverAt(statements, kTarget, source.point("cxx")));
  CHECK_FALSE(asmHoverAt(statements, kTarget, static_cast<std::uint32_t>(text.find("\"=r\"") + 1)));
  CHECK_FALSE(asmHoverAt(statements, kTarget, static_cast<std::uint32_t>(text.find("asm volatile"))));
  // Nor on the closing quote after the template's last byte.
  CHECK_FALSE(asmHoverAt(statements, kTarget, static_cast<std::uint32_t>(text.find("\" : \"=r\""))));
}

TEST_CASE("CUDA hover on an operand the statement lacks says so", "[server][cuda]") {
  Annotated source(
      "__device__ unsigned f(unsigned x) { unsigned r; asm(\"add.u32 %0, %$bad^5, 1;\" : \"=r\"(r) : \"r\"(x)); return r; }\n");
  std::vector<cuda::AsmStatement> statements = statementsOf(source.text());
  REQUIRE(statements.size() == 1);
  auto hover = asmHoverAt(statements, kTarget, source.point("bad"));
  REQUIRE(hover);
  CHECK(hover->markdown.find("no such operand; the statement has 2 operands (%0 to %1)") != std::string::npos);
}

TEST_CASE("CUDA definition and references of a template's label and registers", "[server][cuda]") {
  Annotated source(kLoad);
  const std::string& text = source.text();
  std::vector<cuda::AsmStatement> statements = statementsOf(text);

  auto label = asmDefinitionAt(statements, kTarget, source.point("use"));
  REQUIRE(label);
  CHECK(label->begin == source.point("label"));
  CHECK(textOf(text, *label) == "DONE_%=");
  std::vector<ByteRange> uses = asmReferencesAt(statements, kTarget, source.point("label"), true);
  REQUIRE(uses.size() == 2);
  CHECK(uses[0].begin == source.point("use"));
  CHECK(uses[1].begin == source.point("label"));

  // A register declared in the template; and an operand, whose definition is its C++ expression.
  auto predicate = asmDefinitionAt(statements, kTarget, static_cast<std::uint32_t>(text.find("@p") + 1));
  REQUIRE(predicate);
  CHECK(predicate->begin == source.point("pred"));
  auto operand = asmDefinitionAt(statements, kTarget, source.point("in"));
  REQUIRE(operand);
  CHECK(textOf(text, *operand) == "p");
  CHECK_FALSE(asmDefinitionAt(statements, kTarget, source.point("cxx")));
}

TEST_CASE("CUDA completion offers operands after '%' and PTX words inside templates", "[server][cuda]") {
  Annotated source(
      "__device__ void f(unsigned* p, unsigned v) {\n"
      "  asm volatile(\"st.global.u32 [%0], %$operand^;\" :: \"l\"(p), \"r\"(v) : \"memory\");\n"
      "  asm volatile(\"ld.gl$modifier^;\" ::: \"memory\");\n"
      "  asm volatile(\"st.sh$end^\" ::: \"memory\");\n"
      "  $outside^\n"
      "}\n");
  const std::string& text = source.text();
  std::vector<cuda::AsmStatement> statements = statementsOf(text);
  REQUIRE(statements.size() == 3);

  std::vector<CompletionItem> operands = asmCompletionAt(statements, kTarget, source.point("operand"));
  auto find = [](const std::vector<CompletionItem>& items, std::string_view label) {
    return std::find_if(items.begin(), items.end(), [&](const CompletionItem& item) { return item.label == label; });
  };
  auto first = find(operands, "%0");
  auto second = find(operands, "%1");
  REQUIRE(first != operands.end());
  REQUIRE(second != operands.end());
  CHECK(find(operands, "%2") == operands.end());
  CHECK(second->detail == "\"r\"(v): input, .b32");
  CHECK(textOf(text, second->replace) == "%");
  CHECK(first->sortText < second->sortText);
  // Special registers still come from the PTX completion, replacing the same '%'.
  auto lane = find(operands, "%laneid");
  REQUIRE(lane != operands.end());
  CHECK(textOf(text, lane->replace) == "%");

  std::vector<CompletionItem> modifiers = asmCompletionAt(statements, kTarget, source.point("modifier"));
  auto global = find(modifiers, ".global");
  REQUIRE(global != modifiers.end());
  CHECK(textOf(text, global->replace) == ".gl");
  // At the closing quote: what the template ends with is completed.
  std::vector<CompletionItem> atEnd = asmCompletionAt(statements, kTarget, source.point("end"));
  auto shared = find(atEnd, ".shared");
  REQUIRE(shared != atEnd.end());
  CHECK(textOf(text, shared->replace) == ".sh");

  CHECK(asmCompletionAt(statements, kTarget, source.point("outside")).empty());
}

TEST_CASE("CUDA semantic tokens lie inside the template literals only", "[server][cuda]") {
  std::string text =
      "#define LDG_NC \".nc\"\n"
      "__device__ unsigned f(const unsigned* p) {\n"
      "  unsigned r;\n"
      "  asm volatile(\"ld.global\" LDG_NC \".u32 %0, [%1];\\n\\t\"\n"
      "               \"// a comment\\n\" : \"=r\"(r) : \"l\"(p));\n"
      "  return r;\n"
      "}\n";
  std::vector<cuda::AsmStatement> statements = statementsOf(text);
  REQUIRE(statements.size() == 1);
  std::vector<SemanticToken> tokens = asmSemanticTokens(text, statements, kTarget);
  std::vector<std::string> words;
  for (const SemanticToken& token : tokens) {
    std::string word = textOf(text, {token.begin, token.end});
    CHECK(word.find('"') == std::string::npos);
    CHECK(word.find('\n') == std::string::npos);
    words.push_back(word);
  }
  // The opcode and its modifiers, the macro's `.nc` in the #define, operands, the comment.
  for (const char* expected : {"ld", ".global", ".nc", ".u32", "%0", "%1", "// a comment"})
    CHECK(std::find(words.begin(), words.end(), expected) != words.end());
  CHECK(std::find(words.begin(), words.end(), "unsigned") == words.end());
  for (std::size_t k = 1; k < tokens.size(); ++k) CHECK(tokens[k - 1].end <= tokens[k].begin);

  // A range request gets the tokens of the statements it overlaps.
  std::uint32_t line = static_cast<std::uint32_t>(text.find("  return"));
  CHECK(asmSemanticTokens(text, statements, kTarget, ByteRange{line, line + 10}).empty());
  std::uint32_t opcode = static_cast<std::uint32_t>(text.find("ld.global"));
  CHECK(asmSemanticTokens(text, statements, kTarget, ByteRange{opcode, opcode + 2}).size() == 1);
}
