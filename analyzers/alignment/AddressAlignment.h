// AddressAlignment: the shared judgement of the alignment rules — is an address operand
// provably misaligned, or does it point into a variable declared with too little alignment?
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "RuleContext.h"

namespace ptx {

// A load, store or atomic (ld, ldu, atom, st, red) and which operand is its address.
struct MemoryAccess {
  const InstructionSite& site;
  const InstructionFacts& facts;
  bool isLoad = false;          // ld, ldu, atom: the address is operand 1; st, red: operand 0.
  std::uint32_t addressIndex = 0;

  const InstructionOperand& operand(const Module& module, std::uint32_t index) const {
    return module.operands[site.firstOperand + index];
  }
};
std::optional<MemoryAccess> memoryAccessOf(const RuleContext& context, const InstructionSite& site);

struct MisalignedAddress {
  std::string message;  // "is 4 bytes past an 8-byte boundary", "'buf' is only 4-byte aligned"
  std::vector<RelatedInformation> related;
  // When the declaration is what falls short and it spells `.align N`: the edit raising N.
  std::optional<FixEdit> raiseAlignment;
  std::string fixTitle;
  // False when only the declaration falls short: the address may well be aligned where the
  // assembler and the hardware place the variable, which the ISA does not promise. Such a
  // finding is reported as ALN008 (alignment-assumed), an information note, not through the
  // rule that asked.
  bool proven = true;

  // Reports through `rule` (ALN008 when not proven) and attaches the fix, if any.
  void report(const RuleContext& context, RuleCode rule, ByteRange where, std::string_view prefix) &&;
};

// How much a finding needs: a proof from the address's bits alone, or also a declaration
// that promises too little (a known offset into a variable declared with less alignment
// than `required`: aligned only by luck of placement).
enum class Evidence { Proof, ProofOrDeclaration };

// The alignment a variable's address has where it is placed, when that is more than its
// declaration promises and is a measured fact: the dynamic shared-memory array of a kernel
// that declares no static shared memory ahead of it starts at the base of the CTA's shared
// window (tests/gpu/RESULTS.md, "Dynamic shared-memory base"). nullopt otherwise.
std::optional<std::uint64_t> placementAlignment(const RuleContext& context, std::uint32_t instruction, SymbolId symbol);

// Whether the address operand of instruction `index` is not `required`-byte aligned, on the
// given evidence. Unknown addresses are never reported.
std::optional<MisalignedAddress> misalignedAddress(const RuleContext& context, std::uint32_t index,
                                                   const InstructionOperand& address, std::uint64_t required,
                                                   Evidence evidence);

// How the address reads in a message: "buf+36", "buf+?" or the operand as written.
std::string describeAddress(const RuleContext& context, const flow::AbstractValue& value, const InstructionOperand& address);

// The declaration site of a variable as a related location.
RelatedInformation declaredHere(const RuleContext& context, SymbolId symbol);

}  // namespace ptx
