// ABI003 call-prototype-mismatch
//
// What it does: checks a call against the callee's declaration (or, for an indirect call,
// against the `.callprototype` it names): the number of arguments and of return values, and
// each argument and return value against its formal parameter:
//   - a scalar formal (`.reg`, or a scalar `.param`) takes a register or scalar `.param`
//     variable of the same size and a compatible type (same kind, signed/unsigned mixed, or
//     a bit-size type on either side), or a constant of a fitting kind (no integer constant
//     for a floating-point formal, no floating-point constant for an integer one);
//   - a `.param` array formal takes a `.param` array of the same size in bytes and the same
//     alignment (any size for an unsized `[]` formal, which may also be left out);
//   - return values are registers or `.param` variables matched the same way;
//   - a variable of another state space (`.global`, `.shared`, a function name) is never
//     an argument.
// The finding points at the argument, with the formal's declaration as related location.
//
// Why is this bad: ptxas stops with "Call has wrong number of parameters", "Type of
// argument does not match formal parameter" or "Alignment of argument does not match
// formal parameter". Generated code that drifted from a hand-written prototype (a struct
// that grew, a pointer passed as 32 bits) is the usual cause.
//
// Example:
//     .func (.param .b32 rv) area (.param .align 8 .b8 rect[16]);
//     ...
//     .param .align 4 .b8 r0[12];
//     .param .b32 rv0;
//     call.uni (rv0), area, (r0);        // 12 bytes aligned to 4 for a 16-byte, 8-aligned formal
//
// Use instead:
//     .param .align 8 .b8 r0[16];
//     .param .b32 rv0;
//     call.uni (rv0), area, (r0);
//
// References: PTX ISA §7.1 (function declarations and definitions: the caller's
// restrictions), §5.2.1 and §6.1 (type compatibility), "Control Flow Instructions: call",
// "Kernel and Function Directives: .func" (unsized array parameters) and "Control Flow
// Directives: .callprototype".
#include <string>

#include "RuleContext.h"
#include "abi/AbiFacts.h"

namespace ptx {
namespace {

std::string formalName(const abi::ParamShape& formal, std::size_t index, bool isReturn) {
  if (!formal.name.empty() && formal.name != "_") return concat({"'", formal.name, "'"});
  return concat({isReturn ? "return value " : "parameter ", std::to_string(index + 1)});
}

// `.param .align 8 .b8 [16]`-like description of a declaration's type.
std::string describe(const abi::ParamShape& shape) {
  std::string out(shape.space);
  if (shape.alignWritten && shape.alignment) out += concat({" .align ", std::to_string(*shape.alignment)});
  if (shape.vectorWidth != 0) out += concat({" .v", std::to_string(shape.vectorWidth)});
  out += " ";
  out += shape.type;
  if (shape.isArray) {
    if (shape.unsized) {
      out += "[]";
    } else if (shape.elementCount) {
      out += concat({"[", std::to_string(*shape.elementCount), "]"});
    } else {
      out += "[...]";
    }
  }
  return out;
}

std::string bitsText(std::uint64_t bits) {
  return bits == 1 ? std::string("1 bit (a predicate)") : concat({std::to_string(bits), " bits"});
}

class CallChecker {
 public:
  CallChecker(const RuleContext& context, const InstructionSite& site, const abi::Signature& signature)
      : context_(context), module_(context.module), site_(site), signature_(signature),
        callee_(context.textOf(signature.name)) {}

  void run() {
    std::uint32_t returns = site_.callReturnCount;
    std::uint32_t arguments = site_.operandCount - returns;
    const auto& formals = signature_.parameters;
    bool lastUnsized = !formals.empty() && formals.back().unsized;
    bool argumentsFit = arguments == formals.size() || (lastUnsized && arguments + 1 == formals.size());
    if (returns != signature_.returns.size() || !argumentsFit) {
      std::string message = concat({"call passes ", std::to_string(arguments), " argument", arguments == 1 ? "" : "s",
                                    " and ", std::to_string(returns), " return value", returns == 1 ? "" : "s", "; '",
                                    callee_, "' takes ", std::to_string(formals.size()), " parameter",
                                    formals.size() == 1 ? "" : "s", " and ", std::to_string(signature_.returns.size()),
                                    " return value", signature_.returns.size() == 1 ? "" : "s"});
      context_.report("ABI003", site_.calleeRange, std::move(message),
                      {{signature_.declaration, "declared here"}});
      return;
    }
    for (std::uint32_t i = 0; i < returns; ++i) {
      check(module_.operands[site_.firstOperand + i], signature_.returns[i], i, true);
    }
    for (std::uint32_t i = 0; i < arguments; ++i) {
      check(module_.operands[site_.firstOperand + returns + i], formals[i], i, false);
    }
  }

 private:
  void mismatch(const InstructionOperand& operand, const abi::ParamShape& formal, std::string message) const {
    context_.report("ABI003", operand.range, std::move(message),
                    {{formal.declaration, "declared here"}});
  }

  std::string what(const abi::ParamShape& formal, std::size_t index, bool isReturn) const {
    return concat({formalName(formal, index, isReturn), " of '", callee_, "' (", describe(formal), ")"});
  }

  void check(const InstructionOperand& operand, const abi::ParamShape& formal, std::size_t index, bool isReturn) const {
    std::string_view spelled = context_.textOf(operand.range);
    std::string_view role = isReturn ? "return value" : "argument";
    switch (operand.shape) {
      case OperandShape::Register: {
        if (operand.symbol == kNoSymbol) return;
        const Symbol& symbol = module_.symbols[operand.symbol];
        if (formal.isArray) {
          mismatch(operand, formal,
                   concat({role, " '", spelled, "' is a register, but ", what(formal, index, isReturn),
                           " is a .param array: pass a .param array of the same size and alignment"}));
          return;
        }
        checkScalar(operand, formal, index, isReturn, symbol.typeId, symbol.vectorWidth, abi::declaredTypeOf(symbol));
        return;
      }
      case OperandShape::Symbol: {
        if (operand.symbol == kNoSymbol) return;
        const Symbol& symbol = module_.symbols[operand.symbol];
        if (symbol.spaceId != Modifier::Param) {
          std::string kind = symbol.kind == SymbolKind::Function ? std::string("a function")
                                                                  : concat({"a ", symbol.space(), " variable"});
          mismatch(operand, formal,
                   concat({role, " '", spelled, "' is ", kind, "; a call ", role,
                           " must be a register, a .param variable", isReturn ? "" : " or a constant"}));
          return;
        }
        // Formal parameters and module-scope .param variables are ABI005's.
        if (symbol.kind == SymbolKind::Parameter || symbol.scope == 0) return;
        auto actual = abi::shapeOfSymbol(context_, operand.symbol);
        if (!actual) return;
        if (formal.isArray) {
          if (!actual->isArray) {
            mismatch(operand, formal,
                     concat({role, " '", spelled, "' (", describe(*actual), ") is a scalar, but ",
                             what(formal, index, isReturn), " is a .param array"}));
            return;
          }
          auto formalBytes = formal.byteSize();
          auto actualBytes = actual->byteSize();
          if (!formal.unsized && formalBytes && actualBytes && *formalBytes != *actualBytes) {
            mismatch(operand, formal,
                     concat({role, " '", spelled, "' is ", std::to_string(*actualBytes), " bytes, but ",
                             what(formal, index, isReturn), " is ", std::to_string(*formalBytes), " bytes"}));
            return;
          }
          auto formalAlign = formal.effectiveAlignment();
          auto actualAlign = actual->effectiveAlignment();
          if (formalAlign && actualAlign && *formalAlign != *actualAlign) {
            mismatch(operand, formal,
                     concat({role, " '", spelled, "' is aligned to ", std::to_string(*actualAlign), ", but ",
                             what(formal, index, isReturn), " is aligned to ", std::to_string(*formalAlign)}));
          }
          return;
        }
        if (actual->isArray) {
          mismatch(operand, formal,
                   concat({role, " '", spelled, "' (", describe(*actual), ") is an array, but ",
                           what(formal, index, isReturn), " is a scalar"}));
          return;
        }
        checkScalar(operand, formal, index, isReturn, actual->typeId, actual->vectorWidth, describe(*actual));
        return;
      }
      case OperandShape::IntegerLiteral:
      case OperandShape::FloatLiteral: {
        bool integer = operand.shape == OperandShape::IntegerLiteral;
        if (isReturn) {
          mismatch(operand, formal,
                   concat({"return value '", spelled, "' is a constant; a return value must be a register or a "
                           ".param variable"}));
          return;
        }
        if (formal.isArray) {
          mismatch(operand, formal,
                   concat({"constant '", spelled, "' cannot be passed for ", what(formal, index, isReturn),
                           ", a .param array; pass a .param array of the same size and alignment"}));
          return;
        }
        if (formal.vectorWidth != 0) return;
        auto info = abi::typeInfo(formal.typeId);
        if (!info) return;
        if (integer && info->kind == abi::TypeKind::Float) {
          mismatch(operand, formal,
                   concat({"integer constant '", spelled, "' passed for ", what(formal, index, isReturn),
                           "; write a floating-point constant (0f.../0d...)"}));
        } else if (!integer && (info->kind == abi::TypeKind::Unsigned || info->kind == abi::TypeKind::Signed)) {
          mismatch(operand, formal,
                   concat({"floating-point constant '", spelled, "' passed for ", what(formal, index, isReturn),
                           "; an integer formal takes an integer constant"}));
        }
        return;
      }
      default:
        return;
    }
  }

  // A register or scalar .param variable of `type` (× `vectorWidth`) for a scalar formal.
  void checkScalar(const InstructionOperand& operand, const abi::ParamShape& formal, std::size_t index, bool isReturn,
                   Modifier type, std::uint32_t vectorWidth, const std::string& actualDescription) const {
    std::string_view spelled = context_.textOf(operand.range);
    std::string_view role = isReturn ? "return value" : "argument";
    auto actualInfo = abi::typeInfo(type);
    auto formalBits = formal.bitWidth();
    if (!actualInfo || !formalBits) return;
    std::uint64_t actualBits = std::uint64_t{actualInfo->bits} * (vectorWidth == 0 ? 1 : vectorWidth);
    if (actualBits != *formalBits) {
      mismatch(operand, formal,
               concat({role, " '", spelled, "' (", actualDescription, ") is ", bitsText(actualBits), ", but ",
                       what(formal, index, isReturn), " is ", bitsText(*formalBits)}));
      return;
    }
    if (vectorWidth == 0 && formal.vectorWidth == 0 && !abi::compatibleTypes(formal.typeId, type)) {
      mismatch(operand, formal,
               concat({role, " '", spelled, "' (", actualDescription, ") does not match the type of ",
                       what(formal, index, isReturn)}));
    }
  }

  const RuleContext& context_;
  const Module& module_;
  const InstructionSite& site_;
  const abi::Signature& signature_;
  std::string_view callee_;
};

}  // namespace

void checkCallPrototypeMismatch(const RuleContext& context) {
  for (const InstructionSite& site : context.module.instructions) {
    if (!site.isCall || site.inDamagedCode) continue;
    auto signature = abi::calleeSignature(context, site);
    if (!signature) continue;
    CallChecker(context, site, *signature).run();
  }
}

}  // namespace ptx
