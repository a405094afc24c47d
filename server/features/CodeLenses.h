// CodeLenses: the lines shown above each function, for `textDocument/codeLens` — its estimated
// registers and the occupancy they allow ("≈ 72 registers · 50% occupancy on sm_90"), with a
// command that opens the function's register report; and, where ptxas is installed, a second
// one that checks the estimate against `ptxas -v` ("verify with ptxas", then "ptxas -v: 64
// registers (estimate 72, +8)").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "Lint.h"
#include "PtxasRunner.h"
#include "registers/RegisterPressure.h"

namespace ptx::lsp {

// The lenses' command: a client-side command (the VS Code extension shows the register report
// and its plot; other editors may map it). Its arguments are the document and the function's
// name.
inline constexpr std::string_view kShowRegisterReportCommand = "ptxls.showRegisterReport";
// The verify lens's command: a server command (workspace/executeCommand), named apart from the
// editors' own commands as ptxls.server.explainRule is. Its arguments are the document and the
// function's name; it runs ptxas -v on the document in the background.
inline constexpr std::string_view kVerifyRegistersCommand = "ptxls.server.verifyRegisters";

struct CodeLens {
  ByteRange range;           // The function's name.
  std::string title;         // What the editor shows.
  std::string command;       // kShowRegisterReportCommand or kVerifyRegistersCommand.
  std::string functionName;  // The command's argument after the document.

  friend bool operator==(const CodeLens&, const CodeLens&) = default;
};

// What the verify lenses say for this text and target.
struct PtxasLensState {
  bool offered = false;  // ptxas is installed: each function gets a verify lens.
  bool running = false;  // ptxas runs on this text for this target.
  const oracle::PtxasResult* result = nullptr;  // Its finished run on this text for this target.
};

// One lens per function with a register estimate, in source order (with `ptxas.offered`, each
// followed by its verify lens when the target is an sm_XX one); none when the text did not
// parse to a complete tree (binary or oversized). `estimates`: estimateRegisters of this
// analysis; `targetOverride`: the target the settings choose over the module's `.target`.
std::vector<CodeLens> codeLenses(std::string_view text, const LintResult& analysis,
                                 const std::vector<registers::RegisterEstimate>& estimates,
                                 const std::optional<std::string>& targetOverride, const PtxasLensState& ptxas = {});

// The verify lens's title for a function whose estimate is `estimate`: "verify with ptxas",
// "ptxas -v: running…", "ptxas -v: 64 registers (estimate 72, +8)" (the estimate minus ptxas's
// figure; "exact" when equal), or what went wrong.
std::string verifyLensTitle(std::string_view function, std::uint32_t estimate, const PtxasLensState& ptxas);

}  // namespace ptx::lsp
