// LiveRegisterHints: after each instruction, the number of 32-bit registers the estimate keeps
// live across it ("12 live"), shown as inlay hints when the user asks for them (the setting
// `inlayHints.liveRegisters`, or the VS Code command "Toggle Live Register Hints").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "Lint.h"
#include "registers/RegisterPressure.h"

namespace ptx::lsp {

// What every live-register hint explains on hover.
inline constexpr std::string_view kLiveRegisterTooltip = "32-bit registers live across this instruction (estimate)";

struct LiveRegisterHint {
  std::uint32_t offset = 0;  // The end of the instruction's statement.
  std::string label;         // "12 live".

  friend bool operator==(const LiveRegisterHint&, const LiveRegisterHint&) = default;
};

// The hints whose offsets lie in `range` (ends included), function by function; none when the
// text did not parse to a complete tree. `estimates`: estimateRegisters of this analysis,
// which must be a full one (every function's body in its model).
std::vector<LiveRegisterHint> liveRegisterHints(const LintResult& analysis,
                                                const std::vector<registers::RegisterEstimate>& estimates,
                                                ByteRange range);

}  // namespace ptx::lsp
