#include "AddressAlignment.h"

#include <algorithm>

namespace ptx {

std::optional<MemoryAccess> memoryAccessOf(const RuleContext& context, const InstructionSite& site) {
  if (site.inDamagedCode || site.isCall || site.operandCount < 2) return std::nullopt;
  const InstructionFacts& facts = context.module.factsOf(site);
  // The plain accesses of one address; the other instructions that touch memory (ldmatrix,
  // multimem, the asynchronous copies) address it differently.
  switch (facts.family) {
    case Family::Ld: case Family::Ldu: case Family::Atom: case Family::St: case Family::Red: break;
    default: return std::nullopt;
  }
  // A load or atomic writes its destination first; a store or reduction has none, so its
  // address comes first.
  bool load = !facts.does(kNoDestination);
  return MemoryAccess{site, facts, load, load ? 1u : 0u};
}

RelatedInformation declaredHere(const RuleContext& context, SymbolId symbol) {
  const Symbol& s = context.module.symbols[symbol];
  auto alignment = flow::declaredAlignment(s);
  std::string message = concat({"'", s.name, "' is declared here"});
  if (alignment) {
    message += s.alignment ? " with .align " : " (aligned to its type's size, ";
    message += std::to_string(*alignment);
    if (!s.alignment) message += " bytes)";
  }
  return {s.nameRange, std::move(message)};
}

std::string describeAddress(const RuleContext& context, const flow::AbstractValue& value, const InstructionOperand& address) {
  if (value.base != kNoSymbol) {
    std::string text = context.module.symbols[value.base].name;
    if (auto offset = value.exactOffset()) {
      if (*offset != 0) {
        text += *offset < 0 ? "-" : "+";
        text += std::to_string(*offset < 0 ? -*offset : *offset);
      }
    } else {
      text += "+<offset>";
    }
    return text;
  }
  std::string_view spelled = context.textOf(address.range);
  return std::string(spelled);
}


namespace {

// The `N` of `.align N` in a declaration, as a byte range.
std::optional<ByteRange> alignmentValueIn(const RuleContext& context, const Symbol& symbol) {
  std::string_view declaration = context.textOf(symbol.declarationRange);
  std::string_view keyword = spellingOf(Modifier::Align);
  std::size_t at = declaration.find(keyword);
  if (at == std::string_view::npos) return std::nullopt;
  std::size_t begin = declaration.find_first_not_of(" \t", at + keyword.size());
  if (begin == std::string_view::npos || begin == at + keyword.size()) return std::nullopt;
  std::size_t end = declaration.find_first_of(" \t", begin);
  if (end == std::string_view::npos) return std::nullopt;
  return ByteRange{symbol.declarationRange.begin + static_cast<std::uint32_t>(begin),
                   symbol.declarationRange.begin + static_cast<std::uint32_t>(end)};
}

// Whether a function reads the address of a `.shared` variable that is not `.extern`:
// static shared memory, which the assembler places ahead of the dynamic array.
bool usesStaticSharedMemory(const Module& module, const FunctionInfo& function) {
  auto isStaticShared = [&](SymbolId id) {
    if (id == kNoSymbol || id >= module.symbols.size()) return false;
    const Symbol& symbol = module.symbols[id];
    return symbol.kind == SymbolKind::Variable && symbol.spaceId == Modifier::Shared && !symbol.isExtern &&
           symbol.linkageId != Modifier::Extern;
  };
  for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
    const InstructionSite& site = module.instructions[i];
    for (std::uint32_t o = site.firstOperand; o < site.firstOperand + site.operandCount; ++o) {
      const InstructionOperand& operand = module.operands[o];
      if (isStaticShared(operand.symbol)) return true;
      if (operand.shape == OperandShape::Vector) {
        for (std::uint32_t e = 0; e < operand.elementCount; ++e) {
          if (isStaticShared(module.operands[operand.firstElement + e].symbol)) return true;
        }
      }
    }
  }
  return false;
}

}  // namespace

// Measured on an H100 (tests/gpu/RESULTS.md, "Dynamic shared-memory base"): with no static
// shared memory, a kernel's dynamic shared memory starts at this alignment.
constexpr std::uint64_t kDynamicSharedBaseAlignment = 1024;

std::optional<std::uint64_t> placementAlignment(const RuleContext& context, std::uint32_t instruction, SymbolId id) {
  const Module& module = context.module;
  if (id == kNoSymbol || id >= module.symbols.size()) return std::nullopt;
  const Symbol& symbol = module.symbols[id];
  if (symbol.spaceId != Modifier::Shared || !(symbol.isExtern || symbol.linkageId == Modifier::Extern)) return std::nullopt;
  // The kernel whose shared window it is: only an entry's own body says what precedes the
  // array; in a .func the caller's static variables are unknown.
  flow::FunctionFlow* flow = context.flows.flowOfInstruction(instruction);
  if (flow == nullptr) return std::nullopt;
  const FunctionInfo* owner = &module.functions[flow->functionIndex()];
  if (owner->symbol == kNoSymbol || !module.symbols[owner->symbol].isEntry) return std::nullopt;
  // Whether the kernel's window starts with static shared memory: its own, or a called
  // function's, which the kernel's window holds too. Decided once per kernel and kept for the
  // lint run: every access to the dynamic array asks, and each answer scans the module.
  struct StaticSharedUse {
    bool uses = false;
  };
  auto usesStatic = [&](std::size_t f) {
    return context.flows
        .resultOf<StaticSharedUse>(f, [&](StaticSharedUse& use) { use.uses = usesStaticSharedMemory(module, module.functions[f]); })
        .uses;
  };
  struct DynamicSharedBase {
    bool afterStaticMemory = false;
  };
  const DynamicSharedBase& base =
      context.flows.resultOf<DynamicSharedBase>(flow->functionIndex(), [&](DynamicSharedBase& result) {
        result.afterStaticMemory = usesStatic(flow->functionIndex());
        for (std::size_t f = 0; f < module.functions.size() && !result.afterStaticMemory; ++f) {
          const FunctionInfo& function = module.functions[f];
          result.afterStaticMemory =
              function.symbol != kNoSymbol && !module.symbols[function.symbol].isEntry && usesStatic(f);
        }
      });
  if (base.afterStaticMemory) return std::nullopt;
  return kDynamicSharedBaseAlignment;
}

std::optional<MisalignedAddress> misalignedAddress(const RuleContext& context, std::uint32_t index,
                                                   const InstructionOperand& address, std::uint64_t required,
                                                   Evidence evidence) {
  if (required <= 1 || address.shape != OperandShape::Address) return std::nullopt;
  flow::FunctionFlow* flow = context.flows.flowOfInstruction(index);
  if (flow == nullptr) return std::nullopt;
  flow::AbstractValue value = flow->addressOf(index, address);
  if (!value.computed) return std::nullopt;
  std::string where = describeAddress(context, value, address);
  std::uint64_t mask = required - 1;
  if (value.bits.provablyMisaligned(required)) {
    MisalignedAddress found;
    bool residueKnown = ((value.bits.zero | value.bits.one) & mask) == mask;
    found.message = concat({"address ", where, residueKnown ? " is " : " is provably not a multiple of "});
    if (residueKnown) {
      found.message += std::to_string(value.bits.one & mask);
      found.message += " bytes past a ";
      found.message += std::to_string(required);
      found.message += "-byte boundary";
    } else {
      found.message += std::to_string(required);
    }
    if (value.base != kNoSymbol) found.related.push_back(declaredHere(context, value.base));
    return found;
  }
  // A known offset into the dynamic shared-memory array, whose start is a measured boundary:
  // the residue of the offset is the residue of the address.
  if (value.base != kNoSymbol && value.offset.knownLowBits() >= static_cast<unsigned>(std::countr_zero(required))) {
    auto placed = placementAlignment(context, index, value.base);
    std::uint64_t residue = value.offset.one & mask;
    if (placed && *placed >= required && residue != 0) {
      MisalignedAddress found;
      found.message = concat({"address ", where, " is ", std::to_string(residue), " bytes past a ",
                              std::to_string(required), "-byte boundary ('",
                              context.module.symbols[value.base].name,
                              "', the dynamic shared memory of a kernel with no static shared memory, starts at a ",
                              std::to_string(*placed), "-byte boundary)"});
      found.related.push_back(declaredHere(context, value.base));
      return found;
    }
  }
  // A known offset into a variable whose declaration promises too little: the address is
  // aligned only by luck of placement.
  if (evidence == Evidence::ProofOrDeclaration && value.base != kNoSymbol && value.offset.knownLowBits() >= static_cast<unsigned>(std::countr_zero(required))) {
    const Symbol& base = context.module.symbols[value.base];
    auto declared = flow::declaredAlignment(base);
    if (auto placed = placementAlignment(context, index, value.base); placed && declared) {
      declared = std::max(*declared, *placed);
    }
    if (declared && *declared < required && value.bits.guaranteedAlignment() < required) {
      MisalignedAddress found;
      found.proven = false;
      found.message = concat({"address ", where, " is aligned only if '", base.name, "' is placed at a ",
                              std::to_string(required), "-byte boundary, which its declaration does not promise (only ",
                              std::to_string(*declared), " bytes)"});
      found.related.push_back(declaredHere(context, value.base));
      // Raising the declared alignment fixes it when the offset is itself a multiple.
      if ((value.offset.one & mask) == 0) {
        if (auto number = alignmentValueIn(context, base)) {
          found.raiseAlignment = FixEdit{*number, std::to_string(required)};
          found.fixTitle = concat({"Declare '", base.name, "' with .align ", std::to_string(required)});
        }
      }
      return found;
    }
  }
  return std::nullopt;
}

}  // namespace ptx
