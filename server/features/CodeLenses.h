// CodeLenses: the line shown above each function, for `textDocument/codeLens` — its estimated
// registers and the occupancy they allow ("≈ 72 registers · 50% occupancy on sm_90"), with a
// command that opens the function's register report.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "Lint.h"
#include "registers/RegisterPressure.h"

namespace ptx::lsp {

// The lenses' command: a client-side command (the VS Code extension shows the register report
// and its plot; other editors may map it). Its arguments are the document and the function's
// name.
inline constexpr std::string_view kShowRegisterReportCommand = "ptxls.showRegisterReport";

struct CodeLens {
  ByteRange range;           // The function's name.
  std::string title;         // What the editor shows.
  std::string command;       // kShowRegisterReportCommand.
  std::string functionName;  // The command's argument after the document.

  friend bool operator==(const CodeLens&, const CodeLens&) = default;
};

// One lens per function with a register estimate, in source order; none when the text did not
// parse to a complete tree (binary or oversized). `estimates`: estimateRegisters of this
// analysis; `targetOverride`: the target the settings choose over the module's `.target`.
std::vector<CodeLens> codeLenses(std::string_view text, const LintResult& analysis,
                                 const std::vector<registers::RegisterEstimate>& estimates,
                                 const std::optional<std::string>& targetOverride);

}  // namespace ptx::lsp
