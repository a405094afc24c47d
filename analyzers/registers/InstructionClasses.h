// InstructionClasses: what the register estimate needs to know of each instruction family,
// as one table keyed by Family (InstructionClasses.cpp): how the lowering reads its operands,
// how the scheduler orders it, and what it means to if-conversion, loop unrolling and the
// lower bounds. These classes are about how ptxas compiles an instruction, not what it does
// (that is core/isa/Effects.def), so they live with the estimate.
#pragma once

#include <cstdint>

#include "isa/InstructionFacts.h"

namespace ptx::registers {

// How the scheduler (Schedule.cpp) treats a family.
enum class ScheduleKind : std::uint8_t {
  Ordered,       // Barriers, fences, asynchronous and matrix instructions: ordered with all memory.
  Terminator,    // Branch, return, exit, call: stays last in its block.
  Load,          // ld, ldu: latency by state space.
  Store,         // st.
  TextureRead,   // tex, tld4, suld, txq, suq.
  SurfaceWrite,  // sust, sured.
  Atomic,        // atom, red: ordered with all memory.
  Free,          // prefetch, isspacep, cvta: no latency, no ordering.
  Alu,           // One of the datapath's ALU instructions (slow when .f64).
  SlowAlu,       // MUFU and other multi-cycle instructions.
};

// Properties of a family (bits of FamilyClass::traits).
enum FamilyTrait : std::uint16_t {
  // An ALU instruction: reads a cheap operand (immediate, parameter, constant-bank word) as an
  // immediate or a constant-bank operand, without a register.
  kInlineOperands = 1u << 0,
  // A one-cycle integer instruction (add, sub, shift, logic op) ptxas may repeat at a use.
  kOneCycleInteger = 1u << 1,
  // A memory, texture or surface access: the hardware reads its register operands after issue.
  kReadsOperandsLate = 1u << 2,
  // Its .v2/.v4 operands and texture coordinates occupy consecutive registers in SASS.
  kConsecutiveVectors = 1u << 3,
  // A texture fetch (tex, tld4): coordinates by geometry, issued in batches.
  kTextureFetch = 1u << 4,
  // Its result arrives late from memory or a texture unit (ld outside read-only and shared
  // memory): unrolled loops keep several in flight.
  kLongLatencyResult = 1u << 5,
  // Writes memory that a later load may alias.
  kWritesMemory = 1u << 6,
  // Keeps every instruction of a loop in place (barriers, fences, mbarriers, copies).
  kPinsLoop = 1u << 7,
  // Never predicated by ptxas's if-conversion.
  kNotPredicated = 1u << 8,
  // Kept in order relative to the other such instructions (atomics, barriers, fences).
  kKeepsOrder = 1u << 9,
};

struct FamilyClass {
  ScheduleKind schedule = ScheduleKind::Ordered;
  std::uint16_t traits = 0;
  bool has(FamilyTrait trait) const { return (traits & trait) != 0; }
};

const FamilyClass& classOf(Family family);
inline const FamilyClass& classOf(const InstructionFacts& facts) { return classOf(facts.family); }

// Whether an instruction's (first or second) state space is one of `a`, `b`.
inline bool inSpace(const InstructionFacts& facts, StateSpace a, StateSpace b = StateSpace::None) {
  auto is = [&](StateSpace s) { return s != StateSpace::None && (s == a || s == b); };
  return is(facts.space) || is(facts.secondSpace);
}

// An access through the shared or the local window, whose SASS addresses are 32-bit.
inline bool isWindowAccess(const InstructionFacts& facts) {
  return inSpace(facts, StateSpace::Shared, StateSpace::SharedCluster) || inSpace(facts, StateSpace::Local);
}

// The coordinates a texture fetch's geometry takes (.2d: 2), 0 when no geometry is spelled.
std::uint32_t textureCoordinates(const InstructionFacts& facts);

// Temporaries (32-bit units) ptxas needs for an instruction it expands into a sequence or a
// subroutine (Constants.h, namespace expansion); 0 for the others.
std::uint32_t expansionTemporaries(const InstructionFacts& facts);

}  // namespace ptx::registers
