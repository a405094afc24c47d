#include "flow/Divergence.h"

namespace ptx::flow {
namespace {

std::uint8_t specialRegisterDivergence(std::string_view name) {
  if (name.starts_with("%warpid")) return kVariesInCta;
  if (name.starts_with("%tid") || name.starts_with("%laneid") || name.starts_with("%lanemask") ||
      name.starts_with("%clock") || name.starts_with("%globaltimer") || name.starts_with("%pm")) {
    return kVariesInCta | kVariesInWarp;
  }
  if (name.starts_with("%ctaid") || name.starts_with("%cluster_ctarank") || name.starts_with("%clusterid") ||
      name.starts_with("%cluster_ctaid") || name.starts_with("%smid") || name.starts_with("%nsmid") ||
      name.starts_with("%gridid")) {
    return kVariesAcrossCtas;
  }
  return 0;  // %ntid, %nctaid, %cluster_nctaid, %dynamic_smem_size...
}

}  // namespace

Divergence::Divergence(std::string_view text, const Module& module, FunctionFlow& flow)
    : text_(text), module_(module), flow_(flow) {
  const std::vector<BasicBlock>& blocks = flow_.blocks();
  const std::vector<std::uint32_t>& postDominators = flow_.immediatePostDominators();
  definition_.assign(flow_.definitions().size(), 0);
  branch_.assign(blocks.size(), 0);
  block_.assign(blocks.size(), 0);
  // Both grow monotonically; iterate to the fixpoint.
  for (int round = 0; round < 64; ++round) {
    bool changed = false;
    for (std::uint32_t d = 0; d < flow_.definitions().size(); ++d) {
      std::uint8_t divergence = ofDefinition(d);
      if ((divergence | definition_[d]) != definition_[d]) {
        definition_[d] |= divergence;
        changed = true;
      }
    }
    for (std::uint32_t b = 0; b < blocks.size(); ++b) {
      if (blocks[b].successors.size() < 2) continue;
      std::uint32_t lastIndex = blocks[b].end - 1;
      const InstructionSite& last = module_.instructions[lastIndex];
      std::uint8_t divergence = 0;
      if (auto guard = flow_.guardRegisterOf(last)) divergence = ofRead(lastIndex, *guard);
      if (module_.factsOf(last).does(kIndirectBranch)) {
        for (std::uint32_t o = last.firstOperand; o < last.firstOperand + last.operandCount; ++o) {
          divergence |= ofRead(lastIndex, module_.operands[o]);
        }
      }
      if ((divergence | branch_[b]) == branch_[b]) continue;
      branch_[b] |= divergence;
      changed = true;
      // The blocks between the branch and its post-dominator depend on it.
      std::uint32_t stop = postDominators[b];
      std::vector<std::uint32_t> pending(blocks[b].successors.begin(), blocks[b].successors.end());
      std::vector<bool> visited(blocks.size(), false);
      while (!pending.empty()) {
        std::uint32_t c = pending.back();
        pending.pop_back();
        if (c == stop || visited[c]) continue;
        visited[c] = true;
        block_[c] |= branch_[b];
        for (std::uint32_t s : blocks[c].successors) pending.push_back(s);
      }
    }
    if (!changed) break;
  }
}

std::uint8_t Divergence::ofRead(std::uint32_t instruction, const InstructionOperand& operand) {
  if (operand.shape == OperandShape::SpecialRegister) return specialRegisterDivergence(textOf(operand.range));
  std::uint8_t divergence = 0;
  auto registerDivergence = [&](const InstructionOperand& element) {
    auto key = flow_.registerOf(element);
    if (!key) return;
    std::span<const std::uint32_t> definitions = flow_.reaching(instruction, *key);
    std::uint8_t merged = 0;
    for (std::uint32_t d : definitions) merged |= definition_[d];
    divergence |= merged;
    if (definitions.size() >= 2) {
      // A copy: the guards' reads below ask again.
      std::vector<std::uint32_t> reaching(definitions.begin(), definitions.end());
      // A choice made under a divergent branch: the definitions' blocks depend on a branch
      // the reading block does not depend on.
      std::uint32_t readBlock = flow_.blockOf(instruction);
      for (std::uint32_t d : reaching) {
        std::uint32_t definer = flow_.definitions()[d].instruction;
        divergence |= static_cast<std::uint8_t>(block_[flow_.blockOf(definer)] & ~block_[readBlock]);
        if (auto guard = flow_.guardRegisterOf(module_.instructions[definer])) divergence |= ofRead(definer, *guard);
      }
    }
  };
  switch (operand.shape) {
    case OperandShape::Register:
      registerDivergence(operand);
      break;
    case OperandShape::Vector:
    case OperandShape::PredicatePair:
      for (std::uint32_t e = 0; e < operand.elementCount; ++e) registerDivergence(module_.operands[operand.firstElement + e]);
      break;
    case OperandShape::NegatedPredicate: {
      InstructionOperand reg = flow_.negatedRegisterOf(operand);
      registerDivergence(reg);
      break;
    }
    case OperandShape::Address:
      if (auto base = flow_.baseRegisterOf(operand)) registerDivergence(*base);
      break;
    default:
      break;
  }
  return divergence;
}

std::uint8_t Divergence::ofDefinition(std::uint32_t definition) {
  const Definition& def = flow_.definitions()[definition];
  const InstructionSite& site = module_.instructions[def.instruction];
  if (site.isCall) return 0;  // Nothing known: no evidence that it varies.
  const InstructionFacts& facts = module_.factsOf(site);
  // Results that differ per thread whatever the operands.
  switch (facts.family) {
    case Family::Vote:
    case Family::Redux:
    case Family::Activemask:
      // The same for the lanes of a warp.
      return kVariesInCta | kVariesAcrossCtas;
    case Family::Atom:
    case Family::Shfl:
    case Family::Match:
    case Family::Elect:
    case Family::Mbarrier:
      return kVariesInCta | kVariesInWarp | kVariesAcrossCtas;
    default:
      break;
  }
  bool loadsIntoVector = facts.is(Family::Ld) || facts.is(Family::Ldu) || facts.is(Family::Tex);
  std::uint8_t divergence = 0;
  for (std::uint32_t o = site.firstOperand; o < site.firstOperand + site.operandCount; ++o) {
    if (o == def.operand) continue;
    const InstructionOperand& operand = module_.operands[o];
    // The destination vector's elements are written, not read.
    if (o == site.firstOperand && operand.shape == OperandShape::Vector && !facts.is(Family::St)) {
      bool holdsDefinition =
          def.operand >= operand.firstElement && def.operand < operand.firstElement + operand.elementCount;
      if (holdsDefinition || loadsIntoVector) continue;
    }
    divergence |= ofRead(def.instruction, operand);
  }
  if (auto guard = flow_.guardRegisterOf(site)) divergence |= ofRead(def.instruction, *guard);
  return divergence;
}

}  // namespace ptx::flow
