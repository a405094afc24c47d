#include "AddressAlignment.h"

#include <algorithm>

namespace ptx {

bool InstructionView::has(std::string_view modifier) const {
  return std::find(modifiers.begin(), modifiers.end(), modifier) != modifiers.end();
}

bool InstructionView::hasPrefix(std::string_view prefix) const {
  return std::any_of(modifiers.begin(), modifiers.end(), [&](std::string_view m) { return m.starts_with(prefix); });
}

InstructionView viewOf(const RuleContext& context, const InstructionSite& site) {
  InstructionView view{site, {}};
  for (std::uint32_t m = 0; m < site.modifierCount; ++m) {
    view.modifiers.push_back(context.textOf(context.module.modifiers[site.firstModifier + m]));
  }
  return view;
}

std::optional<MemoryAccess> memoryAccessOf(const RuleContext& context, const InstructionSite& site) {
  if (site.inDamagedCode || site.isCall || site.operandCount < 2) return std::nullopt;
  std::string_view opcode = context.textOf(site.opcode);
  bool load = opcode == "ld" || opcode == "ldu" || opcode == "atom";
  bool store = opcode == "st" || opcode == "red";
  if (!load && !store) return std::nullopt;
  return MemoryAccess{viewOf(context, site), load, load ? 1u : 0u};
}

std::optional<std::uint64_t> accessSize(const InstructionView& view) {
  std::uint64_t width = 1;
  std::optional<std::uint32_t> element;
  for (std::string_view modifier : view.modifiers) {
    if (modifier == ".v2") width = 2;
    else if (modifier == ".v4") width = 4;
    else if (modifier == ".v8") width = 8;
    else if (auto size = flow::typeSizeInBytes(modifier)) element = size;  // The last type wins.
  }
  if (!element) return std::nullopt;
  return width * *element;
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

void MisalignedAddress::report(const RuleContext& context, std::string_view rule, ByteRange where, std::string_view prefix) && {
  context.report(rule, Category::Alignment, where, concat({prefix, message}), std::move(related));
  if (raiseAlignment) context.attachFix(std::move(fixTitle), {*raiseAlignment});
}

namespace {

// The `N` of `.align N` in a declaration, as a byte range.
std::optional<ByteRange> alignmentValueIn(const RuleContext& context, const Symbol& symbol) {
  std::string_view declaration = context.textOf(symbol.declarationRange);
  std::size_t at = declaration.find(".align");
  if (at == std::string_view::npos) return std::nullopt;
  std::size_t begin = declaration.find_first_not_of(" \t", at + 6);
  if (begin == std::string_view::npos || begin == at + 6) return std::nullopt;
  std::size_t end = declaration.find_first_of(" \t", begin);
  if (end == std::string_view::npos) return std::nullopt;
  return ByteRange{symbol.declarationRange.begin + static_cast<std::uint32_t>(begin),
                   symbol.declarationRange.begin + static_cast<std::uint32_t>(end)};
}

}  // namespace

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
  // A known offset into a variable whose declaration promises too little: the address is
  // aligned only by luck of placement.
  if (evidence == Evidence::ProofOrDeclaration && value.base != kNoSymbol && value.offset.knownLowBits() >= static_cast<unsigned>(std::countr_zero(required))) {
    const Symbol& base = context.module.symbols[value.base];
    auto declared = flow::declaredAlignment(base);
    if (declared && *declared < required && value.bits.guaranteedAlignment() < required) {
      MisalignedAddress found;
      found.message = concat({"address ", where, " is aligned only by chance: '", base.name, "' is guaranteed ",
                              std::to_string(*declared), "-byte alignment"});
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
