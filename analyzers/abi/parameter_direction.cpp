// ABI006 parameter-direction
//
// What it does: reports, inside a function body, an access to one of the function's own
// parameters in the wrong direction:
//   - in a `.func`, `st.param` to an input parameter, or `ld.param` from a return parameter;
//   - in an `.entry`, any `st.param` to a kernel parameter, addressed directly (`[n]`,
//     `[buf+8]`) or through a register that holds the parameter's address from `mov`.
//
// Why is this bad: a device function reads its inputs and writes its return values; a
// kernel's parameters are read-only for every thread of the grid. ptxas stops with
// "Illegal to write to function input parameter" or "Illegal to read function return
// parameter" for the direct forms, and crashes (SIGSEGV) on a `st.param` through a `mov`ed
// kernel parameter address.
//
// Example:
//     .visible .entry saxpy (.param .u64 y, .param .f32 a, .param .u32 n)
//     {
//         ...
//         st.param.u32 [n], %r4;        // the kernel parameter is read-only
//
// Use instead:
//         ld.param.u32 %r1, [n];
//         add.s32 %r4, %r1, -1;          // work on a register copy
//
// References: PTX ISA §5.1.6.1 (kernel function parameters are read-only), §5.1.6.4 (device
// function parameters: writing an input or reading a return parameter is illegal), Table 7
// (state spaces: access).
#include <set>
#include <string>
#include <unordered_map>

#include "RuleContext.h"

namespace ptx {
namespace {

// Registers written by an instruction: its first operand (and the elements of a vector or
// predicate pair there), and every return value of a call.
template <typename F>
void forEachWritten(const Module& module, const InstructionSite& site, F&& visit) {
  std::uint32_t count = site.isCall ? site.callReturnCount : (site.operandCount == 0 ? 0 : 1);
  for (std::uint32_t i = 0; i < count; ++i) {
    const InstructionOperand& operand = module.operands[site.firstOperand + i];
    if (operand.shape == OperandShape::Register) visit(operand.range);
    if (operand.shape == OperandShape::Vector || operand.shape == OperandShape::PredicatePair) {
      for (std::uint32_t e = 0; e < operand.elementCount; ++e) {
        const InstructionOperand& element = module.operands[operand.firstElement + e];
        if (element.shape == OperandShape::Register) visit(element.range);
      }
    }
  }
}

}  // namespace

void checkParameterDirection(const RuleContext& context) {
  const Module& module = context.module;
  for (const FunctionInfo& function : module.functions) {
    if (function.symbol == kNoSymbol || function.hasSyntaxErrors || function.instructionCount == 0) continue;
    const Symbol& owner = module.symbols[function.symbol];
    std::set<SymbolId> inputs(function.parameters.begin(), function.parameters.end());
    std::set<SymbolId> returns(function.returns.begin(), function.returns.end());
    std::uint32_t first = function.firstInstruction;
    std::uint32_t end = first + function.instructionCount;

    // Kernels: registers holding a parameter's address, when `mov reg, param` is their only
    // definition in the body (spelled register name → parameter, and where it was set).
    std::unordered_map<std::string_view, std::pair<SymbolId, std::uint32_t>> addressOf;
    if (owner.isEntry) {
      // The candidates first (few: a kernel moves each parameter's address once), then the
      // writes of those names only; counting every register's writes cost a map entry per
      // register of the body.
      for (std::uint32_t i = first; i < end; ++i) {
        const InstructionSite& site = module.instructions[i];
        if (site.inDamagedCode || site.isGuarded() || !module.factsOf(site).is(Family::Mov) || site.operandCount != 2) {
          continue;
        }
        const InstructionOperand& target = module.operands[site.firstOperand];
        const InstructionOperand& source = module.operands[site.firstOperand + 1];
        if (target.shape != OperandShape::Register || source.shape != OperandShape::Symbol) continue;
        if (!inputs.contains(source.symbol)) continue;
        addressOf[context.textOf(target.range)] = {source.symbol, i};
      }
      if (!addressOf.empty()) {
        std::unordered_map<std::string_view, int> writes;
        for (const auto& candidate : addressOf) writes.emplace(candidate.first, 0);
        for (std::uint32_t i = first; i < end; ++i) {
          forEachWritten(module, module.instructions[i], [&](ByteRange range) {
            auto it = writes.find(context.textOf(range));
            if (it != writes.end()) ++it->second;
          });
        }
        // A register set anywhere else (or by two such moves) holds no one parameter's address.
        std::erase_if(addressOf, [&](const auto& candidate) { return writes[candidate.first] != 1; });
      }
    }

    for (std::uint32_t i = first; i < end; ++i) {
      const InstructionSite& site = module.instructions[i];
      if (site.inDamagedCode || site.isCall) continue;
      const InstructionFacts& facts = module.factsOf(site);
      bool store = facts.is(Family::St);
      if ((!store && !facts.is(Family::Ld)) || facts.space != StateSpace::Param) continue;
      std::uint32_t index = store ? 0 : 1;
      if (site.operandCount <= index) continue;
      const InstructionOperand& address = module.operands[site.firstOperand + index];
      if (address.shape != OperandShape::Address) continue;
      SymbolId parameter = address.symbol;
      bool throughRegister = false;
      if (parameter != kNoSymbol && module.symbols[parameter].isRegister()) {
        // `[%rd1]`: the address register's spelling is the start of the brackets' content.
        parameter = kNoSymbol;
        if (store && owner.isEntry) {
          std::string_view inside = context.textOf(address.range);
          std::size_t open = inside.find('[');
          std::size_t stop = inside.find_first_of("+-]", open == std::string_view::npos ? 0 : open + 1);
          if (open != std::string_view::npos && stop != std::string_view::npos) {
            std::string_view name = inside.substr(open + 1, stop - open - 1);
            while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) name.remove_prefix(1);
            while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
            auto it = addressOf.find(name);
            if (it != addressOf.end() && it->second.second < i) {
              parameter = it->second.first;
              throughRegister = true;
            }
          }
        }
      }
      if (parameter == kNoSymbol) continue;
      const Symbol& symbol = module.symbols[parameter];
      std::vector<RelatedInformation> related{{symbol.declarationRange, "declared here"}};
      if (owner.isEntry) {
        if (!store || !inputs.contains(parameter)) continue;
        context.report("ABI006", address.range,
                       concat({"st.param writes kernel parameter '", symbol.name, "'",
                               throughRegister ? " (through its address in a register)" : "", " of '", owner.name,
                               "'; kernel parameters are read-only, copy the value into a register"}),
                       std::move(related));
      } else if (store && inputs.contains(parameter)) {
        context.report("ABI006", address.range,
                       concat({"st.param writes input parameter '", symbol.name, "' of '", owner.name,
                               "'; a function's input parameters are read-only, copy the value into a register"}),
                       std::move(related));
      } else if (!store && returns.contains(parameter)) {
        context.report("ABI006", address.range,
                       concat({"ld.param reads return parameter '", symbol.name, "' of '", owner.name,
                               "'; return parameters are write-only, keep the value in a register"}),
                       std::move(related));
      }
    }
  }
}

}  // namespace ptx
