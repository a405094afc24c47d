// Descriptors: what the [swizzle] rules share — a small bit-level value analysis that follows
// how a shared-memory matrix descriptor is assembled from a buffer's address and constants,
// and the descriptor bit layouts of wgmma (PTX ISA §9.7.15.5.1.2.2) and tcgen05 (§9.7.16.4.1).
//
// The dataflow layer (flow/FunctionFlow.h) knows which variable an address points into, but
// forgets it as soon as the address is masked or shifted, which is exactly what the descriptor
// encoding `(addr & 0x3FFFF) >> 4` does. BitEvaluator keeps that link as an "address slice":
// the value's bits [lo, hi) are the address's bits [lo + shift, hi + shift). It follows mov,
// cvta, mapa, cvt, add, sub, mul, mad, shl, shr, and, or, xor, not, bfi, selp and the vector
// forms of mov that pack two 32-bit halves into a 64-bit register (`mov.b64 %rd, {%r1, %r2}`)
// or split one, reading which operation an instruction performs, and on which types, from the
// decode the flow layer shares (flow/IntegerOps.h).
//
// One assumption goes beyond plain bit arithmetic, and it is the one CUTLASS and DeepGEMM rely
// on when they advance a descriptor by adding to it: adding a small constant to a value whose
// low bits hold an encoded start address changes only that field — it never carries into the
// bits above it — because the sum is again an address in the shared window.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "RuleContext.h"

namespace ptx::swizzle {

// The value's bits [lo, hi) equal bits [lo + shift, hi + shift) of the address `base + offset`
// (an address in base's state space; bits above 16 are not relied on across cvta).
struct AddressSlice {
  SymbolId base = kNoSymbol;
  flow::KnownBits offset;  // Of the address from the start of `base`, in bytes.
  int shift = 0;
  unsigned lo = 0;
  unsigned hi = 0;

  bool present() const { return base != kNoSymbol && lo < hi; }
  bool operator==(const AddressSlice&) const = default;
};

struct BitValue {
  bool computed = false;  // False only while a fixpoint has not reached it yet.
  flow::KnownBits bits;   // The value's own known bits.
  AddressSlice slice;

  static BitValue unknown() { return {true, {}, {}}; }
  static BitValue constant(std::uint64_t value) { return {true, flow::KnownBits::constant(value), {}}; }
  BitValue meet(const BitValue& other) const;
  bool operator==(const BitValue&) const = default;
};

// The bit-level values of one function's registers, computed on demand (a fixpoint over the
// definitions a value depends on, like FunctionFlow's own analysis).
class BitEvaluator {
 public:
  BitEvaluator(const RuleContext& context, flow::FunctionFlow& flow);

  // The value of a source operand (register, literal, constant expression, variable name).
  BitValue valueOf(std::uint32_t instruction, const InstructionOperand& operand);

 private:
  BitValue operandValue(std::uint32_t instruction, const InstructionOperand& operand);
  BitValue evaluate(std::uint32_t definition);
  BitValue evaluateOperation(std::uint32_t definition);
  BitValue definitionValue(std::uint32_t definition);
  void solve(std::uint32_t root);

  const RuleContext& context_;
  flow::FunctionFlow& flow_;
  std::vector<BitValue> values_;  // Per definition of flow_.
  std::vector<bool> solved_;
};

// The evaluators of one lint run, one per function, built on first use.
class BitEvaluators {
 public:
  explicit BitEvaluators(const RuleContext& context) : context_(context) {}
  // The evaluator of the function holding `instruction`, or null outside function bodies.
  BitEvaluator* forInstruction(std::uint32_t instruction);

 private:
  const RuleContext& context_;
  std::vector<std::unique_ptr<BitEvaluator>> evaluators_;  // Per function, built lazily.
};

// Bits [first, first + count) of a value when all of them are known.
std::optional<std::uint64_t> knownField(const flow::KnownBits& bits, unsigned first, unsigned count);

// The known bits of the address `slice.base + slice.offset`, from the base's declared
// alignment and the offset.
flow::KnownBits addressBits(const Module& module, const AddressSlice& slice);

// The `sm_*` names of the module's `.target` directive.
std::vector<std::string_view> smTargets(const Module& module);

// A variable's declaration as a related location: "'sA' is declared here with .align 128".
RelatedInformation declarationOf(const RuleContext& context, SymbolId symbol);

}  // namespace ptx::swizzle
