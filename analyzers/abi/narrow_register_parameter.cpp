// ABI002 narrow-register-parameter
//
// What it does: reports a `.reg` input or return parameter of a `.func` that is narrower
// than 32 bits: `.b8 .u8 .s8 .b16 .u16 .s16 .f16 .bf16`, a `.pred`, or a vector of less
// than 32 bits in all. Only modules compiled with the ABI are checked (PTX 2.0 or later on
// sm_20 or higher), and not functions with several return values, which follow the PTX 1.x
// register convention instead.
//
// Why is this bad: under the ABI, registers that carry parameters are at least 32 bits
// wide; sub-word values are meant to be widened to a 32-bit register (or passed in a
// `.param` byte array). ptxas accepts the declaration, but a call passing a predicate or an
// 8- or 16-bit integer in such a register fails with "In ABI compilation, passing
// predicate, 8-bit and 16-bit parameters to device functions is not supported", and other
// producers linking against the function expect the 32-bit convention.
//
// Example:
//     .func (.reg .u16 %rv) clamp_u16 (.reg .u16 %x, .reg .u16 %hi)
//
// Use instead:
//     .func (.reg .u32 %rv) clamp_u16 (.reg .u32 %x, .reg .u32 %hi)
//
// Fix: widen an integer or bit type to the 32-bit type of the same kind (.u8/.u16 → .u32,
// .s8/.s16 → .s32, .b8/.b16 → .b32); the body must then use the wider register too.
// .f16, .bf16 and .pred have no automatic fix.
//
// References: PTX ISA §7.1 (function declarations and definitions: `.reg` parameters must
// be at least 32 bits when using the ABI), §7.1.1 (ABI targets), §5.1.1 (register sizes).
#include <string>

#include "RuleContext.h"
#include "abi/AbiFacts.h"

namespace ptx {
namespace {

// The 32-bit type of the same kind as a narrower integer type, or empty when there is no
// obvious one.
std::string_view widened(Modifier type) {
  if (infoOf(type).typeBytes >= 4) return {};
  switch (infoOf(type).typeClass) {
    case TypeClass::Unsigned: return spellingOf(Modifier::U32);
    case TypeClass::Signed: return spellingOf(Modifier::S32);
    case TypeClass::Bits: return spellingOf(Modifier::B32);
    default: return {};
  }
}

}  // namespace

void checkNarrowRegisterParameter(const RuleContext& context) {
  const Module& module = context.module;
  if (!abi::abiInUse(module)) return;
  for (const FunctionInfo& function : module.functions) {
    if (function.symbol == kNoSymbol || function.hasSyntaxErrors) continue;
    const Symbol& owner = module.symbols[function.symbol];
    // Several return values are the PTX 1.x register convention (§7.1.1), not the ABI's.
    if (owner.isEntry || function.returns.size() > 1) continue;
    auto visit = [&](SymbolId id, bool isReturn) {
      const Symbol& symbol = module.symbols[id];
      if (symbol.spaceId != Modifier::Reg) return;
      auto info = abi::typeInfo(symbol.typeId);
      if (!info) return;
      std::uint64_t bits = std::uint64_t{info->bits} * (symbol.vectorWidth == 0 ? 1 : symbol.vectorWidth);
      if (bits >= 32) return;
      auto shape = abi::shapeOfSymbol(context, id);
      if (!shape) return;
      std::string width = info->kind == abi::TypeKind::Predicate && symbol.vectorWidth == 0
                              ? std::string("a predicate")
                              : concat({std::to_string(bits), " bits"});
      std::string type = abi::declaredTypeOf(symbol);
      context.report("ABI002", shape->typeRange,
                   concat({isReturn ? "return value '" : "parameter '", symbol.name, "' of '", owner.name,
                           "' is a .reg of ", width, " (", type,
                           "); under the ABI .reg parameters are at least 32 bits"}));
      std::string_view wide = symbol.vectorWidth == 0 ? widened(symbol.typeId) : std::string_view{};
      if (!wide.empty()) {
        context.attachFix(concat({"Widen to '", wide, "'"}), {{shape->typeRange, std::string(wide)}});
      }
    };
    for (SymbolId id : function.returns) visit(id, true);
    for (SymbolId id : function.parameters) visit(id, false);
  }
}

}  // namespace ptx
