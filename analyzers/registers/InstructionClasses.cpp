// InstructionClasses: the per-family table of the register estimate (see InstructionClasses.h).
#include "registers/InstructionClasses.h"

#include <array>

#include "registers/Constants.h"

namespace ptx::registers {
namespace {

struct FamilyRow {
  Family family;
  ScheduleKind schedule;
  std::uint16_t traits;
};

using enum ScheduleKind;

// Families not listed are Ordered with no traits.
constexpr std::uint16_t kAlu = kInlineOperands;
constexpr std::uint16_t kIntegerAlu = kInlineOperands | kOneCycleInteger;
constexpr FamilyRow kRows[] = {
    // Control flow.
    {Family::Bra, Terminator, 0},
    {Family::Brx, Terminator, kNotPredicated},
    {Family::Call, Terminator, 0},
    {Family::Ret, Terminator, kNotPredicated},
    {Family::Exit, Terminator, kNotPredicated},
    {Family::Trap, Terminator, kNotPredicated},
    {Family::Brkpt, Terminator, 0},
    // Memory.
    {Family::Ld, Load, kReadsOperandsLate | kConsecutiveVectors | kLongLatencyResult},
    {Family::Ldu, Load, kReadsOperandsLate | kConsecutiveVectors | kLongLatencyResult},
    {Family::St, Store, kReadsOperandsLate | kConsecutiveVectors | kWritesMemory},
    {Family::Atom, Atomic, kReadsOperandsLate | kWritesMemory | kKeepsOrder},
    {Family::Red, Atomic, kReadsOperandsLate | kWritesMemory | kKeepsOrder},
    {Family::Tex, TextureRead, kReadsOperandsLate | kConsecutiveVectors | kTextureFetch | kLongLatencyResult},
    {Family::Tld4, TextureRead, kReadsOperandsLate | kConsecutiveVectors | kTextureFetch | kLongLatencyResult},
    {Family::Suld, TextureRead, kReadsOperandsLate | kConsecutiveVectors | kLongLatencyResult},
    {Family::Txq, TextureRead, 0},
    {Family::Suq, TextureRead, 0},
    {Family::Sust, SurfaceWrite, kReadsOperandsLate | kConsecutiveVectors | kWritesMemory},
    {Family::Sured, SurfaceWrite, kReadsOperandsLate | kWritesMemory},
    {Family::Prefetch, Free, 0},
    {Family::Prefetchu, Free, 0},
    {Family::Isspacep, Free, 0},
    {Family::Cvta, Free, kAlu},
    // Synchronization: ordered, and never predicated or unrolled over.
    {Family::Bar, Ordered, kPinsLoop | kNotPredicated | kKeepsOrder},
    {Family::Barrier, Ordered, kPinsLoop | kNotPredicated | kKeepsOrder},
    {Family::Membar, Ordered, kPinsLoop | kNotPredicated | kKeepsOrder},
    {Family::Fence, Ordered, kPinsLoop | kNotPredicated | kKeepsOrder},
    {Family::Mbarrier, Ordered, kPinsLoop | kNotPredicated},
    {Family::Cp, Ordered, kPinsLoop},
    {Family::Wgmma, Ordered, kNotPredicated},
    {Family::Setmaxnreg, Ordered, kNotPredicated},
    // ALU.
    {Family::Mov, Alu, kAlu},
    {Family::Add, Alu, kIntegerAlu},
    {Family::Sub, Alu, kIntegerAlu},
    {Family::Mul, Alu, kAlu},
    {Family::Mad, Alu, kAlu},
    {Family::Fma, Alu, kAlu},
    {Family::And, Alu, kIntegerAlu},
    {Family::Or, Alu, kIntegerAlu},
    {Family::Xor, Alu, kIntegerAlu},
    {Family::Not, Alu, kAlu},
    {Family::Shl, Alu, kIntegerAlu},
    {Family::Shr, Alu, kIntegerAlu},
    {Family::Setp, Alu, kAlu},
    {Family::Set, Alu, kAlu},
    {Family::Selp, Alu, kAlu},
    {Family::Slct, Alu, kAlu},
    {Family::Min, Alu, kAlu},
    {Family::Max, Alu, kAlu},
    {Family::Abs, Alu, kAlu},
    {Family::Neg, Alu, kAlu},
    {Family::Cvt, Alu, kAlu},
    {Family::Shf, Alu, kAlu},
    {Family::Prmt, Alu, kAlu},
    {Family::Bfe, Alu, kAlu},
    {Family::Bfi, Alu, kAlu},
    {Family::Lop3, Alu, kAlu},
    {Family::Popc, Alu, kAlu},
    {Family::Clz, Alu, kAlu},
    {Family::Brev, Alu, kAlu},
    {Family::Mul24, Alu, kAlu},
    {Family::Mad24, Alu, kAlu},
    {Family::Sad, Alu, kAlu},
    {Family::Copysign, Alu, kAlu},
    {Family::Testp, Alu, kAlu},
    {Family::Cnot, Alu, kAlu},
    {Family::Bfind, Alu, kAlu},
    {Family::Fns, Alu, kAlu},
    {Family::Dp4a, Alu, kAlu},
    {Family::Dp2a, Alu, kAlu},
    {Family::Addc, Alu, kAlu},
    {Family::Subc, Alu, kAlu},
    {Family::Madc, Alu, kAlu},
    // Multi-cycle: MUFU, expanded arithmetic, warp shuffles and votes.
    {Family::Sin, SlowAlu, kAlu},
    {Family::Cos, SlowAlu, kAlu},
    {Family::Ex2, SlowAlu, kAlu},
    {Family::Lg2, SlowAlu, kAlu},
    {Family::Rcp, SlowAlu, kAlu},
    {Family::Rsqrt, SlowAlu, kAlu},
    {Family::Sqrt, SlowAlu, kAlu},
    {Family::Tanh, SlowAlu, kAlu},
    {Family::Div, SlowAlu, kAlu},
    {Family::Rem, SlowAlu, kAlu},
    {Family::Shfl, SlowAlu, 0},
    {Family::Vote, SlowAlu, 0},
    {Family::Match, SlowAlu, 0},
    {Family::Redux, SlowAlu, 0},
    {Family::Activemask, SlowAlu, 0},
};

constexpr std::size_t kFamilyCount = static_cast<std::size_t>(Family::Unknown) + 1;

constexpr std::array<FamilyClass, kFamilyCount> buildTable() {
  std::array<FamilyClass, kFamilyCount> table{};
  for (const FamilyRow& row : kRows) table[static_cast<std::size_t>(row.family)] = {row.schedule, row.traits};
  return table;
}
constexpr std::array<FamilyClass, kFamilyCount> kTable = buildTable();

}  // namespace

const FamilyClass& classOf(Family family) { return kTable[static_cast<std::size_t>(family)]; }

std::uint32_t textureCoordinates(const InstructionFacts& facts) {
  for (Modifier m : facts.modifiers) {
    switch (m) {
      case Modifier::N1d:
        return 1;
      case Modifier::N2d:
      case Modifier::A1d:
        return 2;
      case Modifier::N3d:
      case Modifier::A2d:
      case Modifier::Cube:
      case Modifier::N2dms:
        return 3;
      case Modifier::Acube:
      case Modifier::A2dms:
        return 4;
      default:
        break;
    }
  }
  return 0;
}

std::uint32_t expansionTemporaries(const InstructionFacts& facts) {
  using namespace expansion;
  bool approximate = facts.hasAny({Modifier::Approx, Modifier::Full});
  bool wide = facts.typeBytes() == 8u;
  bool isSigned = facts.isSignedType();
  switch (facts.family) {
    case Family::Mul:
      return facts.has(Modifier::Hi) && wide ? (isSigned ? kMulHiS64 : kMulHiU64) : 0;
    case Family::Popc:
      return wide ? kPopc64 : 0;
    case Family::Div:
      if (!facts.isFloatType()) return wide ? (isSigned ? kDivS64 : kDivU64) : (isSigned ? kDivS32 : kDivU32);
      if (approximate) return 0;
      return wide ? kDivF64 : kDivF32;
    case Family::Rem:
      return wide ? (isSigned ? kRemS64 : kRemU64) : (isSigned ? kRemS32 : kRemU32);
    case Family::Rcp:
      return approximate && !wide ? 0 : kRcp;
    case Family::Sqrt:
      return approximate ? 0 : (wide ? kSqrtF64 : kSqrtF32);
    case Family::Rsqrt:
      return wide ? kRsqrtF64 : 0;
    default:
      return 0;
  }
}

}  // namespace ptx::registers
