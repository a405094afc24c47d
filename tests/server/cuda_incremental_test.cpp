// The server's re-check of one edited asm statement (relintCudaStatement) against a full
// analysis of the edited text: over every .cu case of the inline-asm suite, characters typed
// into and deleted from each template give the same diagnostics and the same statements, and
// edits that change more than string contents are not taken.
#include <catch2/catch.hpp>

#include <filesystem>
#include <tuple>

#include "CudaCases.h"
#include "CudaDocument.h"
#include "TestSupport.h"

using namespace ptx;
using namespace ptx::lsp;

namespace {

std::shared_ptr<Analysis> analyze(const std::string& text, const CudaSetup& setup) {
  Snapshot snapshot;
  snapshot.text = std::make_shared<const std::string>(text);
  snapshot.lines.emplace(*snapshot.text);
  snapshot.version = 1;
  return analyzeCudaSnapshot(snapshot, nullptr, LintOptions{}, setup, false);
}

using Finding = std::tuple<std::uint32_t, std::uint32_t, std::string, std::string, Severity>;

std::vector<Finding> findingsOf(const std::vector<Diagnostic>& diagnostics) {
  std::vector<Finding> out;
  for (const Diagnostic& d : diagnostics) out.emplace_back(d.range.begin, d.range.end, d.rule, d.message, d.severity);
  return out;
}

struct Edited {
  std::string text;
  ChangedSpan change;
  SyntaxEdit edit;
};

Edited replaceAt(const std::string& text, std::uint32_t begin, std::uint32_t end, std::string_view inserted) {
  Edited edited;
  edited.edit = describeEdit(text, begin, end, inserted);
  edited.text = text.substr(0, begin) + std::string(inserted) + text.substr(end);
  edited.change = {begin, end, begin + static_cast<std::uint32_t>(inserted.size())};
  return edited;
}

// The quick re-check of `edited`, or nullopt when it was not taken.
std::optional<std::pair<LintResult, CudaAnalysis>> recheck(const Analysis& previous, const Edited& edited,
                                                           const CudaSetup& setup) {
  cuda::CudaSyntaxTree tree = cuda::reparseCudaSyntax(previous.cuda->tree, edited.text, edited.edit);
  return relintCudaStatement(edited.text, tree, previous, edited.change, LintOptions{}, setup);
}

}  // namespace

TEST_CASE("CUDA re-check of one edited asm statement equals a full analysis", "[server][cuda]") {
  std::filesystem::path folder = test::sourceDir() / "tests/cuda/cases";
  std::size_t taken = 0, compared = 0;
  for (const std::filesystem::path& path : test::cudaFilesIn(folder)) {
    std::string text = test::readFile(path);
    CudaSetup setup;
    setup.passes = test::passesOfCase(text);
    std::shared_ptr<Analysis> previous = analyze(text, setup);
    for (const cuda::AsmStatement& statement : previous->cuda->statements) {
      if (statement.templateSource.empty()) continue;
      // Type a letter before the template's middle byte (a typo in the PTX, or in a comment),
      // and delete the template's first byte.
      std::uint32_t middle = statement.templateSource[statement.templateSource.size() / 2];
      std::uint32_t first = statement.templateSource.front();
      for (const Edited& edited : {replaceAt(text, middle, middle, "q"), replaceAt(text, first, first + 1, "")}) {
        INFO(path.filename().string() << " at byte " << edited.change.begin);
        ++compared;
        auto quick = recheck(*previous, edited, setup);
        if (!quick) continue;
        ++taken;
        std::shared_ptr<Analysis> full = analyze(edited.text, setup);
        CHECK(findingsOf(quick->first.diagnostics) == findingsOf(full->result.diagnostics));
        REQUIRE(quick->second.statements.size() == full->cuda->statements.size());
        for (std::size_t k = 0; k < full->cuda->statements.size(); ++k) {
          const cuda::AsmStatement& a = quick->second.statements[k];
          const cuda::AsmStatement& b = full->cuda->statements[k];
          CHECK(a.range == b.range);
          CHECK(a.templateText == b.templateText);
          CHECK(a.templateSource == b.templateSource);
          REQUIRE(a.operands.size() == b.operands.size());
          for (std::size_t o = 0; o < a.operands.size(); ++o) CHECK(a.operands[o].expression == b.operands[o].expression);
        }
      }
    }
  }
  // Most edits are inside a statement's own literals; those in a macro's body are not taken.
  CHECK(taken * 10 >= compared * 8);
}

TEST_CASE("CUDA re-check is not taken for edits beyond string contents", "[server][cuda]") {
  std::string text =
      "__device__ unsigned f(unsigned x) {\n"
      "  unsigned r;\n"
      "  asm(\"add.u32 %0, %1, 1;\" : \"=r\"(r) : \"r\"(x));\n"
      "  return r;\n"
      "}\n";
  CudaSetup setup;
  std::shared_ptr<Analysis> previous = analyze(text, setup);
  REQUIRE(previous->cuda->statements.size() == 1);
  auto offsetOf = [&](std::string_view what) { return static_cast<std::uint32_t>(text.find(what)); };
  // Inside the template: taken.
  std::uint32_t inside = offsetOf("add.u32") + 3;
  CHECK(recheck(*previous, replaceAt(text, inside, inside, "x"), setup));
  // A quote splits the literal, an operand's expression changes, the parenthesis goes, an edit
  // outside every statement: a full analysis.
  CHECK_FALSE(recheck(*previous, replaceAt(text, inside, inside, "\""), setup));
  std::uint32_t operand = offsetOf("(x)") + 1;
  CHECK_FALSE(recheck(*previous, replaceAt(text, operand, operand + 1, "y"), setup));
  std::uint32_t close = offsetOf(");\n  return");
  CHECK_FALSE(recheck(*previous, replaceAt(text, close, close + 1, ""), setup));
  std::uint32_t body = offsetOf("return r");
  CHECK_FALSE(recheck(*previous, replaceAt(text, body, body, "r = 0;"), setup));
}

TEST_CASE("CUDA re-check reuses other statements' findings, shifted", "[server][cuda]") {
  std::string text =
      "__device__ void a(unsigned* p, unsigned v) { asm volatile(\"st.global.u32 [%0], %1;\" :: \"l\"(p), \"r\"(v) : \"memory\"); }\n"
      "__device__ void b(unsigned* p, unsigned v) { asm volatile(\"st.glbal.u32 [%0], %1;\" :: \"l\"(p), \"r\"(v) : \"memory\"); }\n";
  CudaSetup setup;
  std::shared_ptr<Analysis> previous = analyze(text, setup);
  REQUIRE(previous->result.diagnostics.size() == 1);
  CHECK(previous->result.diagnostics[0].rule == "ISA004");
  // Typing in the first statement moves the second one's finding by one byte.
  std::uint32_t at = static_cast<std::uint32_t>(text.find("st.global")) + 2;
  auto quick = recheck(*previous, replaceAt(text, at, at, " "), setup);
  REQUIRE(quick);
  REQUIRE(quick->first.diagnostics.size() == 1);
  CHECK(quick->first.diagnostics[0].range.begin == previous->result.diagnostics[0].range.begin + 1);
  REQUIRE(quick->first.focus);
  CHECK(quick->first.focus->begin == previous->cuda->statements[0].range.begin);
}
