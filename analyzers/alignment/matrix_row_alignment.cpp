// ALN009 matrix-row-alignment
//
// What it does: reports an `ldmatrix` or `stmatrix` of shape `.m8n8` whose row addresses
// are provably not all 16-byte aligned. Each thread of the warp passes the address of one
// 16-byte row (threads 0-7 for `.x1`, 0-15 for `.x2`, 0-31 for `.x4`). Two proofs count:
// - the value analysis shows the address itself is not 16-byte aligned (a constant offset of
//   8 into a 16-byte aligned tile, an address whose low bits are known);
// - evaluated for concrete lanes of the warp (flow/ThreadModel.h), the row addresses of
//   lane 0 and of another lane differ by a distance that is not a multiple of 16 and that
//   does not depend on any input (the same under two seeds for every uniform value): then at
//   least one of the two rows is misaligned, wherever the buffer starts. This is the usual
//   mistake, a row pitch of 24 bytes (`base + lane*24`): lanes 0 and 1 are 24 bytes apart.
// A distance that depends on a parameter or a loaded value is never reported, nor is an
// address the model cannot evaluate. Without `.reqntid`/`.maxntid` only lanes 0-7 are
// compared, taken as %tid.x 0-7 of the first warp, which they are for any block at least 8
// threads wide.
//
// Why is this bad: the PTX ISA requires every row address of ldmatrix/stmatrix to be 16-byte
// aligned (a row of eight 16-bit elements is one 16-byte shared-memory access); with a
// misaligned row the behaviour is undefined: the hardware may fault with a misaligned address
// error or load or store the wrong bytes. ptxas cannot see thread-dependent addresses and
// accepts it.
//
// Example:
//     mov.u32 %r1, %laneid;
//     mul.lo.u32 %r2, %r1, 24;                 // rows of 12 halves, packed
//     add.u32 %r3, %r2, tile;
//     ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r4}, [%r3];
//
// Use instead: pad each row to a multiple of 16 bytes (a pitch of 32 here), or use a
// swizzled layout whose rows start on 16-byte boundaries:
//     mul.lo.u32 %r2, %r1, 32;
//
// References: PTX ISA §9.7.14.5.15 (ldmatrix: each thread supplies the address of one row),
// §9.7.14.5.16 (stmatrix), §6.4.1 (addresses must be aligned to the access size).
#include <optional>
#include <string>
#include <vector>

#include "AddressAlignment.h"
#include "flow/ThreadModel.h"

namespace ptx {
namespace {

constexpr std::uint64_t kRowAlignment = 16;
constexpr const auto& kSeeds = flow::kProofSeeds;

// The number of lanes whose addresses an `.m8n8` ldmatrix/stmatrix reads, or nullopt for
// other shapes and counts.
std::optional<std::uint32_t> addressLanes(const InstructionFacts& facts) {
  if (!facts.has(Modifier::M8n8)) return std::nullopt;
  if (facts.has(Modifier::X1)) return 8;
  if (facts.has(Modifier::X2)) return 16;
  if (facts.has(Modifier::X4)) return 32;
  return std::nullopt;
}

// A thread of the first warp: linear id `lane` in the block the model assumes.
flow::ThreadCoordinates laneThread(const flow::LaunchShape& launch, std::uint32_t lane) {
  flow::ThreadCoordinates thread;
  std::uint32_t x = launch.ntid[0] == 0 ? 1 : launch.ntid[0];
  std::uint32_t y = launch.ntid[1] == 0 ? 1 : launch.ntid[1];
  thread.tid = {lane % x, (lane / x) % y, lane / (x * y)};
  return thread;
}

}  // namespace

void checkMatrixRowAlignment(const RuleContext& context) {
  const Module& module = context.module;
  for (std::uint32_t index = 0; index < module.instructions.size(); ++index) {
    const InstructionSite& site = module.instructions[index];
    if (site.inDamagedCode || site.isCall) continue;
    const InstructionFacts& facts = module.factsOf(site);
    bool load = facts.is(Family::Ldmatrix);
    if (!load && !facts.is(Family::Stmatrix)) continue;
    std::string_view opcode = nameOf(facts.family);
    std::uint32_t addressIndex = load ? 1 : 0;
    if (site.operandCount <= addressIndex) continue;
    auto lanes = addressLanes(facts);
    if (!lanes) continue;
    const InstructionOperand& address = module.operands[site.firstOperand + addressIndex];
    if (address.shape != OperandShape::Address) continue;
    std::string prefix = concat({"every row address of ", opcode, " must be 16-byte aligned: "});
    if (auto misaligned = misalignedAddress(context, index, address, kRowAlignment, Evidence::Proof)) {
      std::move(*misaligned).report(context, "ALN009", address.range, prefix);
      continue;
    }
    flow::FunctionFlow* flow = context.flows.flowOfInstruction(index);
    if (flow == nullptr) continue;
    // Known bits that already make every row 16-byte aligned need no lane-by-lane search
    // (Triton's swizzled ldmatrix addresses mostly do).
    if (flow::AbstractValue value = flow->addressOf(index, address);
        value.computed && value.bits.guaranteedAlignment() >= kRowAlignment) {
      continue;
    }
    const FunctionInfo& function = module.functions[flow->functionIndex()];
    if (!hasAnalyzableBody(function)) continue;
    flow::ThreadModel& model = context.flows.threadsOfFunction(flow->functionIndex());
    const flow::LaunchShape& launch = model.launch();
    std::uint32_t compared = launch.declared ? *lanes : 8;
    std::uint32_t threads = launch.ntid[0] * launch.ntid[1] * launch.ntid[2];
    if (threads < compared) compared = threads;
    if (compared < 2) continue;
    // Lane 0's address under each seed; then the first lane whose distance to it is the same
    // under both seeds and not a multiple of 16.
    std::uint64_t first[std::size(kSeeds)];
    bool known = true;
    for (std::size_t s = 0; s < std::size(kSeeds) && known; ++s) {
      auto value = model.evaluateAddress(index, address, laneThread(launch, 0), kSeeds[s]);
      if (!value) known = false;
      else first[s] = *value;
    }
    if (!known) continue;
    for (std::uint32_t lane = 1; lane < compared; ++lane) {
      std::optional<std::uint64_t> distance;
      bool same = true;
      for (std::size_t s = 0; s < std::size(kSeeds) && same; ++s) {
        auto value = model.evaluateAddress(index, address, laneThread(launch, lane), kSeeds[s]);
        if (!value) {
          same = false;
          break;
        }
        std::uint64_t d = *value - first[s];
        if (distance && *distance != d) same = false;
        distance = d;
      }
      if (!same || !distance || *distance % kRowAlignment == 0) continue;
      auto bytes = static_cast<std::int64_t>(*distance);
      std::string apart = bytes < 0 ? std::to_string(-bytes) : std::to_string(bytes);
      std::string shape = launch.declared ? "" : " (lane " + std::to_string(lane) + " taken as %tid.x " +
                                                     std::to_string(lane) + ")";
      context.report("ALN009", address.range,
                     concat({prefix, "the row addresses of lane 0 and lane ", std::to_string(lane), shape, " are ",
                             apart, " bytes apart, not a multiple of 16, so at least one of them is misaligned "
                             "wherever the buffer starts; pad the rows to a multiple of 16 bytes"}));
      break;
    }
  }
}

}  // namespace ptx
