// Completion: what is offered where — opcodes at a statement start, the modifiers that can
// still follow, types in declarations, names in operand positions — on complete and on
// half-typed text, and that no offset can break it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "Annotated.h"
#include "TestSupport.h"
#include "features/Completion.h"
#include "features/SignatureHelp.h"
#include "isa/IsaReference.h"

using namespace ptx;
using namespace ptx::lsp;
using ptx::test::Annotated;

namespace {

constexpr std::string_view kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

std::vector<CompletionItem> complete(const Annotated& source) {
  LintResult analysis = lintText(source.text());
  return completeAt(source.text(), analysis, source.point());
}

std::vector<CompletionItem> complete(std::string_view annotated) { return complete(Annotated(annotated)); }

const CompletionItem* find(const std::vector<CompletionItem>& items, std::string_view label) {
  auto it = std::find_if(items.begin(), items.end(), [&](const CompletionItem& item) { return item.label == label; });
  return it == items.end() ? nullptr : &*it;
}

bool has(const std::vector<CompletionItem>& items, std::string_view label) { return find(items, label) != nullptr; }

std::size_t countKind(const std::vector<CompletionItem>& items, CompletionKind kind) {
  return static_cast<std::size_t>(
      std::count_if(items.begin(), items.end(), [&](const CompletionItem& item) { return item.kind == kind; }));
}

// A kernel with the given body; `^` and `[[ ]]` in the body survive.
std::string inKernel(std::string_view body) {
  std::string out(kHeader);
  out += ".visible .entry k(.param .u64 p0)\n{\n";
  out += body;
  out += "\n}\n";
  return out;
}

}  // namespace

TEST_CASE("Completion offers every opcode and the body directives at a statement start", "[completion]") {
  auto items = complete(inKernel("  .reg .b32 %r1;\nL1:\n  ^\n  ret;"));
  CHECK(countKind(items, CompletionKind::Opcode) == allOpcodes().size());
  CHECK(has(items, "mma"));
  CHECK(has(items, "ld"));
  CHECK(has(items, ".reg"));
  CHECK(has(items, ".local"));
  CHECK_FALSE(has(items, "L1"));
  CHECK_FALSE(has(items, "%r1"));
  CHECK_FALSE(has(items, ".version"));
}

TEST_CASE("Completion documents opcodes from the reference", "[completion]") {
  auto items = complete(inKernel("  l^"));
  const CompletionItem* ld = find(items, "ld");
  REQUIRE(ld != nullptr);
  CHECK(ld->kind == CompletionKind::Opcode);
  CHECK_FALSE(ld->detail.empty());
  CHECK(ld->documentation.find("**ld**") != std::string::npos);
  CHECK(ld->insertText == "ld");
}

TEST_CASE("Completion replaces the typed prefix of an opcode", "[completion]") {
  Annotated source(inKernel("  [[mm^]]"));
  auto items = complete(source);
  const CompletionItem* mma = find(items, "mma");
  REQUIRE(mma != nullptr);
  CHECK(mma->replace == source.range());
}

TEST_CASE("Completion offers only opcodes after a guard", "[completion]") {
  auto items = complete(inKernel("  .reg .pred %p1;\n  @!%p1 ^"));
  CHECK(has(items, "bra"));
  CHECK_FALSE(has(items, ".reg"));
}

TEST_CASE("Completion offers predicate registers in a guard", "[completion]") {
  auto items = complete(inKernel("  .reg .pred %p<3>;\n  .reg .b32 %r1;\n  @%^"));
  CHECK(has(items, "%p"));
  CHECK_FALSE(has(items, "%r1"));
}

TEST_CASE("Completion offers module directives, not opcodes, at module level", "[completion]") {
  auto items = complete(std::string(kHeader) + "^");
  CHECK(has(items, ".entry"));
  CHECK(has(items, ".visible"));
  CHECK(has(items, ".global"));
  CHECK(countKind(items, CompletionKind::Opcode) == 0);
}

TEST_CASE("Completion offers function kinds and spaces after a linkage", "[completion]") {
  auto items = complete(std::string(kHeader) + ".visible .^");
  CHECK(has(items, ".entry"));
  CHECK(has(items, ".func"));
  CHECK(has(items, ".global"));
  CHECK_FALSE(has(items, ".visible"));
  CHECK_FALSE(has(items, ".reg"));
}

TEST_CASE("Completion offers the modifiers of ld after `ld.`", "[completion]") {
  auto items = complete(inKernel("  ld.^"));
  for (std::string_view label : {".global", ".shared", ".volatile", ".v2", ".u32", ".param", ".nc"}) {
    INFO(label);
    CHECK(has(items, label));
  }
  CHECK_FALSE(has(items, ".rn"));
  CHECK(countKind(items, CompletionKind::Opcode) == 0);
}

TEST_CASE("Completion leaves out modifiers already typed or excluded by them", "[completion]") {
  Annotated source(inKernel("  ld.global[[.^]]"));
  auto items = complete(source);
  CHECK(has(items, ".u32"));
  CHECK(has(items, ".nc"));
  CHECK_FALSE(has(items, ".global"));
  CHECK_FALSE(has(items, ".shared"));
  const CompletionItem* u32 = find(items, ".u32");
  REQUIRE(u32 != nullptr);
  CHECK(u32->kind == CompletionKind::Type);
  CHECK(u32->replace == source.range());
  CHECK_FALSE(u32->documentation.empty());
}

TEST_CASE("Completion offers only the forms' modifiers for add", "[completion]") {
  auto items = complete(inKernel("  add.^"));
  CHECK(has(items, ".s32"));
  CHECK(has(items, ".f32"));
  CHECK(has(items, ".sat"));
  CHECK(has(items, ".rn"));
  CHECK_FALSE(has(items, ".global"));
  const CompletionItem* rn = find(items, ".rn");
  REQUIRE(rn != nullptr);
  CHECK(rn->documentation.find("nearest") != std::string::npos);

  auto afterType = complete(inKernel("  add.s32.^"));
  CHECK(has(afterType, ".sat"));
  CHECK(has(afterType, ".cc"));
  CHECK_FALSE(has(afterType, ".rn"));   // Rounding goes with floating-point forms only.
  CHECK_FALSE(has(afterType, ".u32"));  // The type is given.
}

TEST_CASE("Completion replaces a partly typed modifier", "[completion]") {
  Annotated source(inKernel("  ld.global[[.u3^]]"));
  auto items = complete(source);
  const CompletionItem* u32 = find(items, ".u32");
  REQUIRE(u32 != nullptr);
  CHECK(u32->replace == source.range());
}

TEST_CASE("Completion offers modifiers in a statement that does not parse", "[completion]") {
  // No `;`, no closing brace: the tree has errors and the model misses the body.
  std::string text = std::string(kHeader) + ".visible .entry k()\n{\n  .reg .b32 %r<4>;\n  add.";
  LintResult analysis = lintText(text);
  auto items = completeAt(text, analysis, static_cast<std::uint32_t>(text.size()));
  CHECK(has(items, ".s32"));
  CHECK(has(items, ".f32"));

  // A following statement without a `;` between them.
  Annotated source(inKernel("  ld.global.^\n  mov.u32 %r1, 1;"));
  auto next = complete(source);
  CHECK(has(next, ".u32"));
}

TEST_CASE("Completion offers registers, special registers and parameters in operands", "[completion]") {
  Annotated source(inKernel("  .reg .b64 %rd<4>;\n  .reg .b32 %r1, %x;\n  mov.u32 %r1, [[%^]]"));
  auto items = complete(source);
  const CompletionItem* range = find(items, "%rd");
  REQUIRE(range != nullptr);
  CHECK(range->kind == CompletionKind::Register);
  CHECK(range->detail == ".b64 %rd<4>");
  CHECK(range->replace == source.range());
  CHECK(has(items, "%r1"));
  CHECK(has(items, "%x"));
  CHECK_FALSE(has(items, "%rd1"));  // A range is offered once, by its prefix.
  const CompletionItem* tid = find(items, "%tid");
  REQUIRE(tid != nullptr);
  CHECK(tid->kind == CompletionKind::SpecialRegister);
  CHECK_FALSE(tid->documentation.empty());
  CHECK(has(items, "%laneid"));
  CHECK(has(items, "%clock64"));
  // Registers of the instruction's type rank before the others.
  REQUIRE(find(items, "%r1") != nullptr);
  CHECK(find(items, "%r1")->sortText < range->sortText);
}

TEST_CASE("Completion offers only registers declared before the cursor and in scope", "[completion]") {
  auto items = complete(inKernel("  .reg .b32 %a;\n  {\n    .reg .b32 %inner;\n  }\n  mov.u32 %a, ^;\n  .reg .b32 %later;"));
  CHECK(has(items, "%a"));
  CHECK_FALSE(has(items, "%inner"));
  CHECK_FALSE(has(items, "%later"));
}

TEST_CASE("Completion offers parameters and module variables in an address", "[completion]") {
  std::string text = std::string(kHeader) + ".global .u32 g;\n.visible .entry k(.param .u64 p0)\n{\n"
                                            "  .reg .b64 %rd1;\n  ld.param.u64 %rd1, [^];\n}\n";
  auto items = complete(text);
  const CompletionItem* p0 = find(items, "p0");
  REQUIRE(p0 != nullptr);
  CHECK(p0->kind == CompletionKind::Parameter);
  CHECK(p0->detail == ".param .u64");
  const CompletionItem* g = find(items, "g");
  REQUIRE(g != nullptr);
  CHECK(g->kind == CompletionKind::Variable);
  CHECK(has(items, "%rd1"));
  CHECK_FALSE(has(items, "%tid"));
}

TEST_CASE("Completion offers the labels of the enclosing function after bra", "[completion]") {
  std::string text = std::string(kHeader) +
                     ".func other()\n{\nL9:\n  ret;\n}\n"
                     ".visible .entry k()\n{\n  .reg .b32 %r1;\nL1:\n  bra ^\nL2:\n  ret;\n}\n";
  auto items = complete(text);
  CHECK(has(items, "L1"));
  CHECK(has(items, "L2"));  // Defined after the branch: labels may be used first.
  CHECK_FALSE(has(items, "L9"));
  CHECK_FALSE(has(items, "%r1"));  // bra takes a label only.
  REQUIRE(find(items, "L1") != nullptr);
  CHECK(find(items, "L1")->kind == CompletionKind::Label);
}

TEST_CASE("Completion leaves out labels of nested blocks the cursor is not in", "[completion]") {
  auto items = complete(inKernel("  { Lin: ret; }\n  @%p bra.uni ^;\n  { Llater: ret; }\nLout:\n  ret;"));
  CHECK(has(items, "Lout"));
  CHECK_FALSE(has(items, "Lin"));
  CHECK_FALSE(has(items, "Llater"));
}

TEST_CASE("Completion offers functions after call", "[completion]") {
  std::string text = std::string(kHeader) +
                     ".func (.param .b32 r) f(.param .b32 a)\n{\n  ret;\n}\n"
                     ".visible .entry k()\n{\n  .reg .b32 %r1;\n  call.uni (%r1), ^";
  auto items = complete(text);
  const CompletionItem* f = find(items, "f");
  REQUIRE(f != nullptr);
  CHECK(f->kind == CompletionKind::Function);
  CHECK(f->detail == ".func");
}

TEST_CASE("Completion offers types in declarations", "[completion]") {
  auto reg = complete(inKernel("  .reg .^"));
  CHECK(has(reg, ".b32"));
  CHECK(has(reg, ".pred"));
  CHECK(has(reg, ".b128"));
  CHECK(has(reg, ".v4"));
  CHECK_FALSE(has(reg, ".align"));
  CHECK(countKind(reg, CompletionKind::Opcode) == 0);

  auto shared = complete(std::string(kHeader) + ".shared .^");
  CHECK(has(shared, ".align"));
  CHECK(has(shared, ".u8"));

  auto named = complete(inKernel("  .reg .b32 ^"));
  CHECK(named.empty());
}

TEST_CASE("Completion follows a function signature", "[completion]") {
  auto parameter = complete(std::string(kHeader) + ".visible .entry k(.param .u64 p0, ^");
  CHECK(has(parameter, ".param"));
  auto type = complete(std::string(kHeader) + ".visible .entry k(.param .^");
  CHECK(has(type, ".u64"));
  auto header = complete(std::string(kHeader) + ".visible .entry k(.param .u64 p0)\n.^");
  CHECK(has(header, ".maxntid"));
  CHECK(has(header, ".reqntid"));
}

TEST_CASE("Completion offers the components of a special register", "[completion]") {
  Annotated source(inKernel("  .reg .b32 %r1;\n  mov.u32 %r1, %tid[[.^]]"));
  auto items = complete(source);
  CHECK(has(items, ".x"));
  CHECK(has(items, ".z"));
  REQUIRE(find(items, ".x") != nullptr);
  CHECK(find(items, ".x")->replace == source.range());
}

TEST_CASE("Completion offers nothing in comments and strings", "[completion]") {
  CHECK(complete(inKernel("  // add.^")).empty());
  CHECK(complete(inKernel("  /* ld.^ */")).empty());
  CHECK(complete(std::string(kHeader) + ".file 1 \"a.^cu\"").empty());
}

TEST_CASE("Completion works from the text alone when there is no model", "[completion]") {
  std::string text = std::string(kHeader) + ".global .u32 g;\n.visible .entry k()\n{\n  .reg .b32 %r1;\n"
                                            "  ld.global.u32 %r1, [";
  LintResult empty;
  auto items = completeAt(text, empty, static_cast<std::uint32_t>(text.size()));
  CHECK(has(items, "g"));
  CHECK(has(items, "%r1"));
}

TEST_CASE("Completion survives any offset", "[completion]") {
  LintResult none;
  // An empty file starts with its header.
  auto empty = completeAt("", none, 100);
  CHECK(has(empty, ".version"));
  REQUIRE_FALSE(empty.empty());
  CHECK(empty.front().replace == ByteRange{0, 0});
  std::string text = inKernel("  // é\n  mov.u32 %r1, 1;\n  ld.");
  LintResult analysis = lintText(text);
  for (std::uint32_t offset = 0; offset <= text.size() + 2; ++offset) {
    auto items = completeAt(text, analysis, offset);
    for (const CompletionItem& item : items) {
      CHECK(item.replace.begin <= item.replace.end);
      CHECK(item.replace.end <= text.size());
    }
  }
  // Past the end means at the end.
  CHECK(completeAt(text, analysis, static_cast<std::uint32_t>(text.size()) + 50).size() ==
        completeAt(text, analysis, static_cast<std::uint32_t>(text.size())).size());
}

TEST_CASE("Completion survives random offsets of corpus files", "[completion]") {
  auto shared = ptx::test::sharedDir();
  if (!shared) {
    WARN("skipped: the shared corpus is absent");
    return;
  }
  std::mt19937 random(7);
  for (std::string_view name : {"gpuocelot/tests/ptx/parboil/mri-q.ptx", "gpuocelot/tests/ptx/thrust/Sort.ptx"}) {
    std::filesystem::path path = *shared / "corpus" / name;
    if (!std::filesystem::exists(path)) continue;
    std::string text = ptx::test::readFile(path);
    LintResult analysis = lintText(text);
    std::uniform_int_distribution<std::uint32_t> offsets(0, static_cast<std::uint32_t>(text.size()) + 1);
    std::size_t offered = 0;
    for (int i = 0; i < 300; ++i) {
      std::uint32_t offset = offsets(random);
      auto items = completeAt(text, analysis, offset);
      offered += items.size();
      for (const CompletionItem& item : items) {
        REQUIRE(item.replace.end <= text.size());
        REQUIRE(item.replace.begin <= item.replace.end);
      }
    }
    CHECK(offered > 0);
  }
}

TEST_CASE("Completion and signature help survive every prefix of a file being typed", "[completion]") {
  auto shared = ptx::test::sharedDir();
  if (!shared) {
    WARN("skipped: the shared corpus is absent");
    return;
  }
  std::filesystem::path path = *shared / "corpus" / "gpuocelot/tests/ptx/parboil/mri-q.ptx";
  if (!std::filesystem::exists(path)) return;
  std::string text = ptx::test::readFile(path);
  std::mt19937 random(3);
  std::uniform_int_distribution<std::size_t> cuts(0, text.size());
  std::size_t offered = 0;
  for (int i = 0; i < 40; ++i) {
    // The text as it stands while typing: cut anywhere, with the analysis of the cut text.
    std::string prefix = text.substr(0, cuts(random));
    LintResult analysis = lintText(prefix);
    auto end = static_cast<std::uint32_t>(prefix.size());
    auto items = completeAt(prefix, analysis, end);
    offered += items.size();
    for (const CompletionItem& item : items) REQUIRE(item.replace.end == end);
    auto help = signatureHelpAt(prefix, analysis, end);
    if (help) REQUIRE(help->activeSignature < help->signatures.size());
  }
  CHECK(offered > 0);
}
