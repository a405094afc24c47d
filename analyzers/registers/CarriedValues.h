// CarriedValues: a lower bound on the registers a function needs, for the spill rule.
//
// The estimate (RegisterPressure.h) models ptxas's scheduling and allocation and can be off
// by a large factor on code unlike what it was measured on. A warning that a kernel must
// spill needs something no schedule can undo: the floating-point values a loop carries from
// one iteration to the next (accumulators). At a loop's head every such value that is read
// later is alive at once, whatever order the instructions of the body take, and each holds
// its own register or is spilled. Integer values are left out: ptxas merges induction
// variables, keeps warp-uniform ones in uniform registers and rematerializes addresses, so
// they are no sure cost.
#pragma once

#include <cstdint>
#include <string_view>

#include "flow/FunctionFlow.h"
#include "model/Module.h"

namespace ptx::registers {

struct CarriedLowerBound {
  std::uint32_t units = 0;                  // 32-bit registers live across the back edge at once.
  std::uint32_t headInstruction = UINT32_MAX;  // First instruction of that loop's head block.
};

// The registers one instruction reads and surely writes.
struct RegisterAccesses {
  std::span<const flow::RegisterKey> reads, writes;
};

// The registers each instruction of a function reads and surely writes, computed once for
// both bounds below: one array for the whole function, each instruction's reads then writes
// a slice of it (two small lists per instruction were two allocations each).
class FunctionRegisterAccesses {
 public:
  // Of the function's instruction `index` (0 for its first).
  RegisterAccesses operator[](std::size_t index) const {
    const flow::RegisterKey* base = keys_.data();
    return {{base + starts_[2 * index], base + starts_[2 * index + 1]},
            {base + starts_[2 * index + 1], base + starts_[2 * index + 2]}};
  }

 private:
  friend FunctionRegisterAccesses registerAccessesOf(const Module&, flow::FlowCache&, std::size_t);
  std::vector<flow::RegisterKey> keys_;
  std::vector<std::uint32_t> starts_{0};  // Per instruction: where its reads, then its writes, begin; then the end.
};
FunctionRegisterAccesses registerAccessesOf(const Module& module, flow::FlowCache& flows, std::size_t function);

// The most 32-bit floating-point registers live across one loop head of the function.
CarriedLowerBound carriedLowerBound(const Module& module, flow::FlowCache& flows, std::size_t function,
                                    const FunctionRegisterAccesses& accesses);

// The second sure cost: instructions ptxas keeps in order (volatile, strong and atomic memory
// operations, fences, barriers). A value such an instruction writes, whose last use in the
// block waits (through its operands) for a later one, is alive across every ordered
// instruction between, whatever the schedule. The most 32-bit registers alive at once that
// way, within one block.
struct OrderedLowerBound {
  std::uint32_t units = 0;
  std::uint32_t instruction = UINT32_MAX;  // The ordered instruction they are all alive across.
};
OrderedLowerBound orderedLowerBound(const Module& module, flow::FlowCache& flows, std::size_t function,
                                    const FunctionRegisterAccesses& accesses);

}  // namespace ptx::registers
