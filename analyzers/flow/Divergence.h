// Divergence: which values of a function may differ between the threads that run it, and
// which branches may split them.
//
// A value varies within a CTA when it depends on %tid, %laneid, %warpid, an atomic's result,
// a load through such an address, or a choice made under such a branch; across CTAs when it
// depends on %ctaid or %cluster_ctarank. A branch on such a value may split the threads, and
// the blocks between it and its immediate post-dominator (FunctionFlow) depend on it. Both
// facts grow together to a fixpoint when the model is built.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "flow/FunctionFlow.h"
#include "model/Module.h"

namespace ptx::flow {

// Bits of a divergence.
constexpr std::uint8_t kVariesInCta = 1;       // Threads of one CTA may see different values.
constexpr std::uint8_t kVariesAcrossCtas = 2;  // CTAs may see different values.
// With kVariesInCta: lanes of one warp may see different values too (not so for a vote's or
// a reduction's result, or %warpid, which differ only between warps).
constexpr std::uint8_t kVariesInWarp = 4;

class Divergence {
 public:
  Divergence(std::string_view text, const Module& module, FunctionFlow& flow);

  // Divergence of the value an operand reads at an instruction (register, special register,
  // the base of an address, the elements of a vector).
  std::uint8_t ofRead(std::uint32_t instruction, const InstructionOperand& operand);
  // Divergence of the conditional branch ending `block`: whether it may split the threads.
  std::uint8_t ofBranch(std::uint32_t block) const { return branch_[block]; }

 private:
  std::uint8_t ofDefinition(std::uint32_t definition);
  std::string_view textOf(ByteRange range) const { return text_.substr(range.begin, range.end - range.begin); }

  std::string_view text_;
  const Module& module_;
  FunctionFlow& flow_;
  std::vector<std::uint8_t> definition_;  // Per definition of flow_.
  std::vector<std::uint8_t> branch_;      // Per block.
  std::vector<std::uint8_t> block_;       // Per block: divergence of the branches it depends on.
};

}  // namespace ptx::flow
