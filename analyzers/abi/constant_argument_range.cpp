// ABI004 constant-argument-range
//
// What it does: reports an integer constant passed directly as a call argument that the
// formal parameter's type cannot hold. A formal of N bits (N < 64, of a bit-size, signed or
// unsigned integer type) takes values from -2^(N-1) to 2^N-1: `-1` fits a `.u32` (it is
// 0xffffffff in two's complement), `0x100000000` does not fit a `.b32`, and `300` does not
// fit a `.u8`.
//
// Why is this bad: PTX integer constants are 64-bit values; ptxas accepts an oversized
// one and silently keeps only the low bits, so the callee sees a different number (0 for
// 0x100000000 passed as `.u32`). The spec allows only constants the formal's type can
// represent.
//
// Example:
//     .func (.reg .u32 %rv) mix (.reg .u32 %seed);
//     ...
//     call.uni (%r5), mix, (0x1000000000);     // 36 bits for a .u32
//
// Use instead:
//     .func (.reg .u64 %rv) mix (.reg .u64 %seed);   // or a constant that fits 32 bits
//     ...
//     call.uni (%rd5), mix, (0x1000000000);
//
// References: PTX ISA §7.1 (function declarations and definitions: a constant argument must
// be representable in the formal's type), §4.5.1 (integer constants are 64 bits).
#include <string>

#include "RuleContext.h"
#include "abi/AbiFacts.h"

namespace ptx {

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
      if (operand.shape != OperandShape::IntegerLiteral) continue;
      const abi::ParamShape& formal = signature->parameters[i];
      if (formal.isArray || formal.vectorWidth != 0) continue;
      auto info = abi::typeInfo(formal.type);
      if (!info || info->bits >= 64 || info->bits < 8) continue;
      if (info->kind != abi::TypeKind::Bits && info->kind != abi::TypeKind::Unsigned &&
          info->kind != abi::TypeKind::Signed) {
        continue;
      }
      auto value = abi::signedLiteral(context.textOf(operand.range));
      if (!value) continue;
      std::uint64_t limit =
          value->negative ? std::uint64_t{1} << (info->bits - 1) : (std::uint64_t{1} << info->bits) - 1;
      if (value->magnitude <= limit) continue;
      std::string name = !formal.name.empty() && formal.name != "_" ? concat({"'", formal.name, "'"})
                                                                      : "parameter " + std::to_string(i + 1);
      std::string bits = std::to_string(info->bits);
      context.warn("ABI004", Category::Abi, operand.range,
                   concat({"constant '", context.textOf(operand.range), "' does not fit ", bits, "-bit ", name, " (",
                           formal.type, ") of '", context.textOf(signature->name), "'; only its low ", bits,
                           " bits are passed"}));
      context.out.back().related.push_back({formal.declaration, "declared here"});
    }
  }
}

}  // namespace ptx
