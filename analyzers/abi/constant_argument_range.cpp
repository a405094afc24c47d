// ABI004 constant-argument-range
//
// What it does: reports an integer constant passed as a call argument that the parameter's
// type cannot hold, in each form a constant argument takes:
// - written directly in the call's argument list: `call.uni (%r5), mix, (0x1000000000);`
//   for a `.u32` formal, checked against the formal's type;
// - stored into the call's `.param` argument variable before the call, the form nvcc and
//   clang emit: `st.param.b8 [param0], 300;` (or an element of `st.param.v2.b16 [p], {70000,
//   1}`), checked against the store's type and the variable's declared type, the narrower of
//   the two (the bits the callee can see);
// - as an integer constant expression (`(1 << 40)`, `0x100 * 0x100`), in either place.
// A type of N bits (N < 64, a bit-size, signed or unsigned integer type) takes values from
// -2^(N-1) to 2^N-1: `-1` fits a `.u32` (it is 0xffffffff in two's complement),
// `0x100000000` does not fit a `.b32`, and `300` does not fit a `.b8`. Stores into a
// `.param` variable that no call passes are not concerned.
//
// Why is this bad: PTX integer constants are 64-bit values; ptxas accepts an oversized
// one and silently keeps only the low bits, so the callee sees a different number (0 for
// 0x100000000 passed as `.u32`, 44 for 300 stored with `st.param.b8`). The spec allows only
// constants the parameter's type can represent.
//
// Example:
//     .func (.reg .u32 %rv) mix (.reg .u32 %seed);
//     ...
//     call.uni (%r5), mix, (0x1000000000);     // 36 bits for a .u32
//
//     .param .b8 param0;
//     st.param.b8 [param0], 300;               // 9 bits for a .b8 argument
//     call.uni (retval0), scale, (param0);
//
// Use instead:
//     .func (.reg .u64 %rv) mix (.reg .u64 %seed);   // or a constant that fits 32 bits
//     ...
//     call.uni (%rd5), mix, (0x1000000000);
//
//     .param .b32 param0;                      // a wider parameter, or a value that fits
//     st.param.b32 [param0], 300;
//
// References: PTX ISA §7.1 (function declarations and definitions: a constant argument must
// be representable in the formal's type), §4.5.1 (integer constants are 64 bits), §5.1.6
// (the `.param` argument variables of a call).
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "RuleContext.h"
#include "abi/AbiFacts.h"
#include "callseq/CallSequence.h"
#include "flow/ConstantExpression.h"

namespace ptx {
namespace {

// The value of a constant operand: an integer literal or an integer constant expression.
std::optional<abi::SignedLiteral> constantOf(const RuleContext& context, const InstructionOperand& operand) {
  if (operand.shape == OperandShape::IntegerLiteral) return abi::signedLiteral(context.textOf(operand.range));
  if (operand.shape != OperandShape::Expression) return std::nullopt;
  auto value = flow::evaluateConstant(context.textOf(operand.range));
  if (!value) return std::nullopt;
  abi::SignedLiteral literal;
  literal.negative = *value < 0;
  literal.magnitude = literal.negative ? 0 - static_cast<std::uint64_t>(*value) : static_cast<std::uint64_t>(*value);
  return literal;
}

// The width in bits of an integer type a constant must fit, or nullopt for types this rule
// does not judge (64 bits and more, floating point, predicates, opaque types).
std::optional<std::uint32_t> integerBits(Modifier type) {
  auto info = abi::typeInfo(type);
  if (!info || info->bits >= 64 || info->bits < 8) return std::nullopt;
  if (info->kind != abi::TypeKind::Bits && info->kind != abi::TypeKind::Unsigned &&
      info->kind != abi::TypeKind::Signed) {
    return std::nullopt;
  }
  return info->bits;
}

bool fits(const abi::SignedLiteral& value, std::uint32_t bits) {
  std::uint64_t limit = value.negative ? std::uint64_t{1} << (bits - 1) : (std::uint64_t{1} << bits) - 1;
  return value.magnitude <= limit;
}

// `st.param.T [arg], constant` (or a vector of them) into a `.param` variable that a call of
// the function passes as an argument.
void checkArgumentStores(const RuleContext& context) {
  const Module& module = context.module;
  for (const FunctionInfo& function : module.functions) {
    if (!hasAnalyzableBody(function)) continue;
    std::uint32_t end = function.firstInstruction + function.instructionCount;
    if (end > module.instructions.size()) continue;
    std::unordered_map<SymbolId, std::uint32_t> passedBy;  // Argument variable -> a call passing it.
    for (std::uint32_t i = function.firstInstruction; i < end; ++i) {
      const InstructionSite& site = module.instructions[i];
      if (!site.isCall || site.inDamagedCode) continue;
      for (std::uint32_t k = site.callReturnCount; k < site.operandCount; ++k) {
        SymbolId symbol = module.operands[site.firstOperand + k].symbol;
        if (isCallParamVariable(module, symbol)) passedBy.try_emplace(symbol, i);
      }
    }
    if (passedBy.empty()) continue;
    for (std::uint32_t i = function.firstInstruction; i < end; ++i) {
      const InstructionSite& site = module.instructions[i];
      ParamTransfer transfer = paramTransferOf(context, site);
      if (transfer.kind != ParamTransferKind::Store || site.operandCount < 2) continue;
      auto call = passedBy.find(transfer.variable);
      if (call == passedBy.end()) continue;
      // The store's type: its last modifier (`st.param.v2.b16`: `.b16`).
      const InstructionFacts& facts = module.factsOf(site);
      if (facts.modifiers.empty()) continue;
      Modifier storeType = facts.modifiers.back();
      auto storeBits = integerBits(storeType);
      if (!storeBits) continue;
      const Symbol& variable = module.symbols[transfer.variable];
      std::uint32_t bits = *storeBits;
      std::string_view type = spellingOf(storeType);
      if (!variable.isArray && variable.vectorWidth == 0) {
        if (auto declaredBits = integerBits(variable.typeId); declaredBits && *declaredBits < bits) {
          bits = *declaredBits;
          type = variable.type;
        }
      }
      const InstructionOperand& source = module.operands[site.firstOperand + 1];
      std::vector<const InstructionOperand*> values;
      if (source.shape == OperandShape::Vector) {
        for (std::uint32_t e = 0; e < source.elementCount; ++e) values.push_back(&module.operands[source.firstElement + e]);
      } else {
        values.push_back(&source);
      }
      for (const InstructionOperand* value : values) {
        auto constant = constantOf(context, *value);
        if (!constant || fits(*constant, bits)) continue;
        std::string width = std::to_string(bits);
        context.report("ABI004", value->range,
                     concat({"constant '", context.textOf(value->range), "' does not fit the ", width,
                             "-bit argument '", variable.name, "' (", type, ") of ",
                             describeCall(context, module.instructions[call->second]), "; only its low ", width,
                             " bits are passed"}));
        context.out.back().related.push_back({variable.declarationRange, "declared here"});
      }
    }
  }
}

}  // namespace

void checkConstantArgumentRange(const RuleContext& context) {
  const Module& module = context.module;
  for (const InstructionSite& site : module.instructions) {
    if (!site.isCall || site.inDamagedCode) continue;
    auto signature = abi::calleeSignature(context, site);
    if (!signature) continue;
    std::uint32_t arguments = site.operandCount - site.callReturnCount;
    if (site.callReturnCount != signature->returns.size() || arguments > signature->parameters.size()) continue;
    for (std::uint32_t i = 0; i < arguments; ++i) {
      const InstructionOperand& operand = module.operands[site.firstOperand + site.callReturnCount + i];
      if (operand.shape != OperandShape::IntegerLiteral && operand.shape != OperandShape::Expression) continue;
      const abi::ParamShape& formal = signature->parameters[i];
      if (formal.isArray || formal.vectorWidth != 0) continue;
      auto formalBits = integerBits(formal.typeId);
      if (!formalBits) continue;
      auto value = constantOf(context, operand);
      if (!value || fits(*value, *formalBits)) continue;
      std::string name = !formal.name.empty() && formal.name != "_" ? concat({"'", formal.name, "'"})
                                                                      : "parameter " + std::to_string(i + 1);
      std::string bits = std::to_string(*formalBits);
      context.report("ABI004", operand.range,
                   concat({"constant '", context.textOf(operand.range), "' does not fit ", bits, "-bit ", name, " (",
                           formal.type, ") of '", context.textOf(signature->name), "'; only its low ", bits,
                           " bits are passed"}));
      context.out.back().related.push_back({formal.declaration, "declared here"});
    }
  }
  checkArgumentStores(context);
}

}  // namespace ptx
