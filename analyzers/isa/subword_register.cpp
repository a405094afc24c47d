// ISA009 sub-word-register
//
// What it does: reports an 8-bit register (.b8, .u8, .s8) used by an instruction other than
// ld, ldu, st, cvt, suld, sust or multimem (fp8 vectors).
//
// Why is this bad: PTX keeps 8-bit registers for loads, stores and conversions only; ptxas
// stops with "Arguments mismatch" or "Unexpected instruction types" anywhere else.
//
// Example:
//     .reg .u8 %c<2>;
//     add.u16 %h1, %c1, %h2;
//
// Use instead:
//     cvt.u16.u8 %h3, %c1;
//     add.u16 %h1, %h3, %h2;
//
// References: PTX ISA §5.2.2 "Restricted Use of Sub-Word Sizes".
#include "RuleContext.h"
#include "isa/InstructionShape.h"

namespace ptx {

void checkSubwordRegister(const RuleContext& context) {
  const Module& module = context.module;
  for (const InstructionSite& site : module.instructions) {
    if (site.inDamagedCode || site.isCall) continue;
    std::string_view opcode = context.textOf(site.opcode);
    if (allowsByteRegisters(module.factsOf(site).family)) continue;
    auto visit = [&](const InstructionOperand& operand) {
      if (operand.shape != OperandShape::Register || operand.symbol == kNoSymbol) return;
      const Symbol& symbol = module.symbols[operand.symbol];
      if (!isByteRegisterType(symbol.typeId)) return;
      std::string message = "8-bit register '";
      message += context.textOf(operand.range);
      message += "' (";
      message += symbol.type;
      message += ") cannot be an operand of '";
      message += opcode;
      message += "'; only ld, st and cvt take 8-bit registers";
      context.report("ISA009", operand.range, std::move(message),
                     {{symbol.declarationRange, "declared here"}});
    };
    for (std::uint32_t i = 0; i < site.operandCount; ++i) {
      const InstructionOperand& operand = module.operands[site.firstOperand + i];
      visit(operand);
      // mov packs and unpacks bytes: `mov.b16 %h1, {%c1, %c2}` is fine.
      bool byteVector = module.factsOf(site).is(Family::Mov) && operand.shape == OperandShape::Vector;
      if (!byteVector && (operand.shape == OperandShape::Vector || operand.shape == OperandShape::PredicatePair)) {
        for (std::uint32_t e = 0; e < operand.elementCount; ++e) visit(module.operands[operand.firstElement + e]);
      }
    }
  }
}

}  // namespace ptx
