// ByteOverlap: whether two accesses provably touch common bytes, for the rules that follow an
// asynchronous copy to a later access (SNC007, SNC013). Compilers such as Triton place every
// buffer, barrier and scratch area in one shared array (`global_smem`), so "the same
// variable" proves nothing; the addresses have to.
#pragma once

#include <cstdint>
#include <optional>

#include "RuleContext.h"

namespace ptx::sync {

struct ByteRangeAccess {
  std::uint32_t instruction = 0;
  const InstructionOperand* address = nullptr;  // An Address operand.
  std::uint64_t size = 0;                       // Bytes from the address on (at least).
};

// The bytes a bulk copy (`cp.async.bulk`, `cp.reduce.async.bulk`, their tensor forms) moves
// from each of its addresses on, at least: the size it spells, or 16 for a tensor copy, whose
// box lies in the tensor map (a box row is at least 16 bytes). nullopt when the size is not
// a constant.
std::optional<std::uint64_t> bulkCopyBytes(const RuleContext& context, std::uint32_t copy);

// True when both addresses point into the same variable and their bytes overlap: both
// offsets known, or one access covering the whole variable from its start, or both
// addresses evaluated for the first thread of the block (flow/ThreadModel) under two seeds.
bool provablyOverlap(const RuleContext& context, std::size_t function, const ByteRangeAccess& first,
                     const ByteRangeAccess& second);

}  // namespace ptx::sync
