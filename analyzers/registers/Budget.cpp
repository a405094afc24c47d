// Budget: target architecture and register limits (see Budget.h).
#include "registers/Budget.h"

#include <algorithm>

#include "isa/IsaReference.h"
#include "registers/Constants.h"
#include "registers/Occupancy.h"

namespace ptx::registers {

std::uint32_t fullOccupancyRegisters(std::uint32_t sm) {
  std::optional<SmLimits> limits = limitsForTarget("sm_" + std::to_string(sm));
  if (!limits) return 32;
  std::uint32_t threadsPerSm = limits->maxWarpsPerSm * 32;
  return std::min<std::uint32_t>(kMostRegistersPerThread, limits->registersPerSm / threadsPerSm / 8 * 8);
}

std::uint32_t compiledArchitecture(std::string_view text, const Module& module) {
  TargetArch arch;
  if (module.header.target) {
    for (const auto& [name, range] : module.header.targets) {
      if (parseTargetArch(name, arch)) return std::max(arch.number, kLowestPtxasTarget);
    }
  }
  (void)text;
  return kLowestPtxasTarget;
}

std::optional<std::uint64_t> functionDirective(const FunctionInfo& function, Modifier directive,
                                               std::size_t position) {
  for (const HeaderDirective& declared : function.directives) {
    if (modifierNamed(declared.name) != directive) continue;
    if (position >= declared.values.size()) return std::nullopt;
    return declared.values[position];
  }
  return std::nullopt;
}

bool hasRegisterBounds(const FunctionInfo& function) {
  return std::any_of(function.directives.begin(), function.directives.end(), [](const HeaderDirective& directive) {
    Modifier m = modifierNamed(directive.name);
    return m == Modifier::Maxnreg || m == Modifier::Maxntid || m == Modifier::Minnctapersm;
  });
}

RegisterBudget registerBudget(const FunctionInfo& function) {
  RegisterBudget budget;
  auto spelled = [](Modifier directive) { return std::string(spellingOf(directive)) + " "; };
  if (auto maxnreg = functionDirective(function, Modifier::Maxnreg)) {
    budget.registers =
        static_cast<std::uint32_t>(std::clamp<std::uint64_t>(*maxnreg, kLowestMaxnreg, kMostRegistersPerThread));
    budget.reason = spelled(Modifier::Maxnreg) + std::to_string(*maxnreg);
  } else if (auto threads = functionDirective(function, Modifier::Maxntid)) {
    std::uint64_t y = functionDirective(function, Modifier::Maxntid, 1).value_or(1);
    std::uint64_t z = functionDirective(function, Modifier::Maxntid, 2).value_or(1);
    std::uint64_t blocksPerSm = functionDirective(function, Modifier::Minnctapersm).value_or(1);
    std::uint64_t total = std::min<std::uint64_t>(*threads * y * z, 1024);
    budget.registers = launchBoundsRegisterCeiling(static_cast<std::uint32_t>(total),
                                                   static_cast<std::uint32_t>(std::min<std::uint64_t>(blocksPerSm, 32)));
    budget.reason = spelled(Modifier::Maxntid) + std::to_string(total) + " / " + spelled(Modifier::Minnctapersm) +
                    std::to_string(blocksPerSm);
  }
  return budget;
}

std::optional<std::uint64_t> declaredThreadsPerBlock(const FunctionInfo& function) {
  for (Modifier directive : {Modifier::Reqntid, Modifier::Maxntid}) {
    if (auto x = functionDirective(function, directive, 0)) {
      return *x * functionDirective(function, directive, 1).value_or(1) *
             functionDirective(function, directive, 2).value_or(1);
    }
  }
  return std::nullopt;
}

std::uint32_t launchBoundsRegisterCeiling(std::uint32_t threadsPerBlock, std::uint32_t minBlocksPerSm) {
  if (threadsPerBlock == 0) return kMostRegistersPerThread;
  std::uint32_t warps = (threadsPerBlock + 31) / 32;
  std::uint32_t perSubPartition = (std::max<std::uint32_t>(minBlocksPerSm, 1) * warps + kSubPartitions - 1) / kSubPartitions;
  if (perSubPartition == 0) return kMostRegistersPerThread;
  std::uint32_t perWarp = kRegistersPerSubPartition / perSubPartition / kWarpAllocationGranularity * kWarpAllocationGranularity;
  return std::min<std::uint32_t>(kMostRegistersPerThread, perWarp / 32);
}

}  // namespace ptx::registers
