// Budget: the architecture a module is compiled for and the per-thread register limit that
// applies to a function (.maxnreg, else the ceiling its launch bounds imply, else 255).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "isa/InstructionFacts.h"
#include "model/Module.h"

namespace ptx::registers {

// The architecture ptxas compiles the module for: its `.target`, or sm_75 (the lowest that
// ptxas 13 accepts) when that is older or missing.
std::uint32_t compiledArchitecture(std::string_view text, const Module& module);

// The most registers per thread that keep every warp slot of an SM usable on sm_<sm>
// (65536 registers / 2048 threads = 32 on sm_80 and sm_90; 40 on sm_86/sm_89; 64 on sm_75).
std::uint32_t fullOccupancyRegisters(std::uint32_t sm);

// A performance-tuning directive's value (`.maxnreg 64`: position 0 is 64), if present.
std::optional<std::uint64_t> functionDirective(const FunctionInfo& function, Modifier directive,
                                               std::size_t position = 0);

// Whether the function declares `.maxnreg`, `.maxntid` or `.minnctapersm`.
bool hasRegisterBounds(const FunctionInfo& function);

// Threads per block that `.reqntid` (else `.maxntid`) declares, all dimensions multiplied.
std::optional<std::uint64_t> declaredThreadsPerBlock(const FunctionInfo& function);

// The per-thread register limit that applies to a function: .maxnreg (raised to 24), else the
// ceiling its launch bounds imply, else the architectural 255; and how it reads in a message.
struct RegisterBudget {
  std::uint32_t registers = 255;
  std::string reason = "255 per thread";
};
RegisterBudget registerBudget(const FunctionInfo& function);

// The register ceiling ptxas applies for `.maxntid T` with `.minnctapersm B`:
// min(255, floor(16384 / ceil(B * ceil(T/32) / 4) / 256) * 256 / 32) (docs: cuda-facts §4.3).
std::uint32_t launchBoundsRegisterCeiling(std::uint32_t threadsPerBlock, std::uint32_t minBlocksPerSm);

}  // namespace ptx::registers
