// Module: declarations, scopes and name resolution, checked at marked places in small PTX.
#include <catch2/catch.hpp>

#include <string>

#include "TestSupport.h"
#include "model/Module.h"

using namespace ptx;

namespace {

struct Built {
  std::string text;
  SyntaxTree tree;
  Module module;

  explicit Built(std::string source) : text(std::move(source)) {
    tree = parseSyntax(text);
    module = buildModule(text, tree);
  }

  // The offset of the `occurrence`-th (0-based) appearance of `needle`.
  std::uint32_t at(std::string_view needle, int occurrence = 0) const {
    std::size_t position = text.find(needle);
    for (int i = 0; i < occurrence && position != std::string::npos; ++i) {
      position = text.find(needle, position + 1);
    }
    REQUIRE(position != std::string::npos);
    return static_cast<std::uint32_t>(position);
  }

  const Symbol* symbolAt(std::string_view needle, int occurrence = 0) const {
    SymbolId id = module.symbolAt(at(needle, occurrence));
    return id == kNoSymbol ? nullptr : &module.symbols[id];
  }

  const Reference* referenceAt(std::string_view needle, int occurrence = 0) const {
    std::uint32_t offset = at(needle, occurrence);
    for (const Reference& reference : module.references) {
      if (reference.range.begin == offset) return &reference;
    }
    return nullptr;
  }
};

}  // namespace

TEST_CASE("The module header is read", "[model]") {
  Built built(".version 8.5\n.target sm_90a, debug\n.address_size 64\n");
  const ModuleHeader& header = built.module.header;
  CHECK(header.versionMajor == 8);
  CHECK(header.versionMinor == 5);
  REQUIRE(header.targets.size() == 2);
  CHECK(header.targets[0].first == "sm_90a");
  CHECK(header.targets[1].first == "debug");
  CHECK(header.addressSize == 64u);
  CHECK(header.versionIndex == 0u);
  CHECK(header.targetIndex == 1u);
}

TEST_CASE("A register in a parameterized range resolves to the range", "[model]") {
  Built built(test::kernel("  .reg .b32 %r<4>;\n  mov.u32 %r3, %tid.x;"));
  const Symbol* symbol = built.symbolAt("%r3");
  REQUIRE(symbol != nullptr);
  CHECK(symbol->name == "%r");
  CHECK(symbol->rangeCount == 4);
  CHECK(symbol->kind == SymbolKind::Register);
  CHECK(symbol->type == ".b32");
  const Reference* tid = built.referenceAt("%tid");
  REQUIRE(tid != nullptr);
  CHECK(tid->predefined);
}

TEST_CASE("A nested block shadows an outer register", "[model]") {
  Built built(test::kernel(
      "  .reg .b32 %x;\n  {\n    .reg .b32 %x;\n    mov.u32 %x, 1;\n  }\n  mov.u32 %x, 2;"));
  const Symbol* inner = built.symbolAt("%x", 2);  // The use inside the block.
  const Symbol* outer = built.symbolAt("%x", 3);  // The use after it.
  REQUIRE(inner != nullptr);
  REQUIRE(outer != nullptr);
  CHECK(inner != outer);
  CHECK(inner->nameRange.begin == built.at("%x", 1));
  CHECK(outer->nameRange.begin == built.at("%x", 0));
  CHECK(built.module.duplicates.empty());
}

TEST_CASE("Labels resolve forward, parameters and functions by name", "[model]") {
  Built built(
      ".version 8.0\n.target sm_80\n.address_size 64\n"
      ".func (.param .b32 ret) twice(.param .b32 x)\n{\n  .reg .b32 %v;\n"
      "  ld.param.b32 %v, [x];\n  st.param.b32 [ret], %v;\n  ret;\n}\n"
      ".visible .entry k(.param .u64 out)\n{\n  bra $L__end;\n$L__end:\n"
      "  { .param .b32 a; .param .b32 r; call.uni (r), twice, (a); }\n  ret;\n}\n");
  const Symbol* label = built.symbolAt("$L__end");
  REQUIRE(label != nullptr);
  CHECK(label->kind == SymbolKind::Label);
  CHECK(label->nameRange.begin == built.at("$L__end", 1));

  const Symbol* parameter = built.symbolAt("x]");
  REQUIRE(parameter != nullptr);
  CHECK(parameter->kind == SymbolKind::Parameter);
  CHECK(parameter->space() == ".param");

  const Reference* callee = built.referenceAt("twice", 1);
  REQUIRE(callee != nullptr);
  CHECK(callee->role == ReferenceRole::Callee);
  REQUIRE(callee->target != kNoSymbol);
  const Symbol& function = built.module.symbols[callee->target];
  CHECK(function.kind == SymbolKind::Function);
  CHECK(function.hasBody);
  CHECK_FALSE(function.isEntry);
}

TEST_CASE("Use before declaration and out-of-scope uses stay unresolved", "[model]") {
  Built built(test::kernel(
      "  mov.u32 %early, 1;\n  .reg .b32 %early;\n  { .reg .b32 %inner; }\n  mov.u32 %early, %inner;"));
  const Reference* early = built.referenceAt("%early");
  REQUIRE(early != nullptr);
  CHECK(early->target == kNoSymbol);
  const Reference* later = built.referenceAt("%early", 2);
  REQUIRE(later != nullptr);
  CHECK(later->target != kNoSymbol);
  const Reference* inner = built.referenceAt("%inner", 1);
  REQUIRE(inner != nullptr);
  CHECK(inner->target == kNoSymbol);
}

TEST_CASE("Redeclarations in one scope are recorded as duplicates", "[model]") {
  Built built(test::kernel("  .reg .b32 %r<4>;\n  .reg .b32 %r2;\n$L:\n$L:\n  ret;"));
  REQUIRE(built.module.duplicates.size() == 2);
  CHECK(built.module.symbols[built.module.duplicates[0].first].rangeCount == 4);
  CHECK(built.module.symbols[built.module.duplicates[1].second].kind == SymbolKind::Label);
}

TEST_CASE("A prototype followed by its definition is one function, not a duplicate", "[model]") {
  Built built(".version 8.0\n.target sm_80\n.func f();\n.func f()\n{\n  ret;\n}\n");
  CHECK(built.module.duplicates.empty());
}

TEST_CASE("Special registers and their numbered families are predefined", "[model]") {
  CHECK(isPredefinedName("%tid"));
  CHECK(isPredefinedName("%cluster_ctarank"));
  CHECK(isPredefinedName("%envreg31"));
  CHECK_FALSE(isPredefinedName("%envreg32"));
  CHECK(isPredefinedName("%pm7"));
  CHECK(isPredefinedName("%pm3_64"));
  CHECK(isPredefinedName("WARP_SZ"));
  CHECK_FALSE(isPredefinedName("%r1"));
}

TEST_CASE("Declarations keep their attributes", "[model]") {
  Built built(
      ".version 8.0\n.target sm_80\n.address_size 64\n"
      ".visible .global .align 16 .v4 .f32 table[8][4] = {0};\n"
      ".extern .shared .align 8 .b8 smem[];\n"
      ".visible .entry k(.param .u64 .ptr.global.align 16 in, .param .align 8 .b8 blob[24])\n"
      "  .maxntid 128, 1, 1 .minnctapersm 2\n{\n  ret;\n}\n");
  const Symbol* table = built.symbolAt("table");
  REQUIRE(table != nullptr);
  CHECK(table->kind == SymbolKind::Variable);
  CHECK(table->linkage() == ".visible");
  CHECK(table->space() == ".global");
  CHECK(table->alignment == 16u);
  CHECK(table->vectorWidth == 4);
  CHECK(table->type == ".f32");
  REQUIRE(table->dimensions.size() == 2);
  CHECK(table->dimensions[0] == 8u);
  CHECK(table->dimensions[1] == 4u);
  CHECK(table->hasInitializer);

  const Symbol* smem = built.symbolAt("smem");
  REQUIRE(smem != nullptr);
  CHECK(smem->isExtern);
  REQUIRE(smem->dimensions.size() == 1);
  CHECK_FALSE(smem->dimensions[0].has_value());

  REQUIRE(built.module.functions.size() == 1);
  const FunctionInfo& kernel = built.module.functions[0];
  CHECK(built.module.symbols[kernel.symbol].isEntry);
  REQUIRE(kernel.parameters.size() == 2);
  const Symbol& in = built.module.symbols[kernel.parameters[0]];
  CHECK(in.isPointer);
  CHECK(in.pointerSpace() == ".global");
  CHECK(in.pointerAlignment == 16u);
  const Symbol& blob = built.module.symbols[kernel.parameters[1]];
  CHECK(blob.alignment == 8u);
  CHECK(blob.dimensions == std::vector<std::optional<std::uint64_t>>{24u});
  REQUIRE(kernel.directives.size() == 2);
  CHECK(kernel.directives[0].name == ".maxntid");
  CHECK(kernel.directives[0].values == std::vector<std::uint64_t>{128, 1, 1});
  CHECK(kernel.directives[1].name == ".minnctapersm");
}

TEST_CASE("Integer literals in every PTX base", "[model]") {
  CHECK(parseIntegerLiteral("0") == 0u);
  CHECK(parseIntegerLiteral("42U") == 42u);
  CHECK(parseIntegerLiteral("0x1F") == 31u);
  CHECK(parseIntegerLiteral("0b101") == 5u);
  CHECK(parseIntegerLiteral("017") == 15u);
  CHECK_FALSE(parseIntegerLiteral("09").has_value());
  CHECK_FALSE(parseIntegerLiteral("%r1").has_value());
}

TEST_CASE("Instruction sites record guards, call operands, address offsets and their function", "[model]") {
  Built built(R"(.version 8.0
.target sm_90
.address_size 64
.func (.param .b32 r) f (.param .b32 a, .param .b64 b);
.visible .func g ()
{
  .reg .pred %p;
  .reg .b32 %r<4>;
  .shared .align 8 .b8 buf[64];
  @!%p add.s32 %r1, %r2, 1;
  ld.shared.u32 %r3, [buf+8];
  {
    .param .b32 pa;
    .param .b64 pb;
    .param .b32 pr;
    call.uni (pr), f, (pa, pb);
  }
  ret;
}
)");
  const Module& module = built.module;
  REQUIRE(module.functions.size() == 2);
  CHECK(module.functions[0].instructionCount == 0);
  const FunctionInfo& g = module.functions[1];
  REQUIRE(g.instructionCount == 4);
  const InstructionSite& add = module.instructions[g.firstInstruction];
  REQUIRE(add.isGuarded());
  CHECK(built.text.substr(add.guard.begin, add.guard.end - add.guard.begin) == "@!%p");
  CHECK(add.guardNegated);
  REQUIRE(add.guardSymbol != kNoSymbol);
  CHECK(module.symbols[add.guardSymbol].name == "%p");

  const InstructionSite& load = module.instructions[g.firstInstruction + 1];
  CHECK_FALSE(load.isGuarded());
  const InstructionOperand& address = module.operands[load.firstOperand + 1];
  REQUIRE(address.shape == OperandShape::Address);
  CHECK(address.offset.begin == built.at("8];"));
  CHECK(module.symbols[address.symbol].name == "buf");

  const InstructionSite& call = module.instructions[g.firstInstruction + 2];
  REQUIRE(call.isCall);
  CHECK(call.callReturnCount == 1);
  REQUIRE(call.operandCount == 3);
  CHECK(module.symbols[module.operands[call.firstOperand].symbol].name == "pr");
  CHECK(module.symbols[module.operands[call.firstOperand + 2].symbol].name == "pb");
  REQUIRE(call.callee != kNoSymbol);
  CHECK(module.symbols[call.callee].name == "f");
  // The call sits in the nested block, whose scope declares pa, pb and pr.
  CHECK(call.scope != load.scope);
  CHECK(module.scopes[call.scope].parent == load.scope);
}
