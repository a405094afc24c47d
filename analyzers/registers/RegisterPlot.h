// RegisterPlot: register pressure as a picture. Renders one kernel's live 32-bit registers
// along its instructions as a self-contained SVG (no script, no external fonts or images), for
// `ptxlint --report registers --plot DIR` and the VS Code extension's webview.
//
//   chart     a step/area chart of live registers (y) over the instructions in source order
//             (x); loops as translucent bands labelled "loop"; the peak as a dot labelled
//             "peak N at line L"; the budget as a solid horizontal line with its reason (noted
//             at the top when it lies far above the data), the allocation's estimate as a
//             dashed line when it differs from the peak; the area above the budget in red.
//   hover     every column carries an invisible full-height rectangle whose <title> is the
//             instruction ("line 123: ld.global.v4.f32 {...}, [%rd4]; — 87 live"); browsers
//             show it as a tooltip and a CSS :hover rule highlights the column. More than
//             kMaxPlotColumns instructions are bucketed, each column keeping its bucket's
//             maximum (and naming the instruction that reaches it).
//   themes    a light palette on its own background, switched to a dark one by
//             `prefers-color-scheme: dark`; presentation attributes carry the light palette
//             for renderers that ignore CSS.
//
// Pure: the renderer returns the SVG text, byte for byte the same for the same input; the
// caller decides where it goes. Every piece of input text is escaped for XML (and invalid
// UTF-8 or control characters are replaced), so any source line is safe to pass.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ptx::registers {

struct PlotInstruction {
  std::uint32_t line = 0;       // 1-based source line (0: unknown).
  std::string source;           // The instruction's source text (one line, may be long).
  std::uint16_t liveUnits = 0;  // Live 32-bit registers across the instruction.
  bool inLoop = false;
};

struct PlotInput {
  std::string kernel;  // Function name (a mangled C++ name is demangled and shortened for the
                       // visible heading; the full name stays in the <title>).
  std::string target;  // "sm_90a".
  std::vector<PlotInstruction> instructions;
  std::uint32_t peakIndex = 0;            // Index into instructions (out of range: the maximum).
  std::vector<std::string> liveAtPeak;    // Register names live at the peak.
  std::uint32_t estimatedRegisters = 0;   // The allocation's figure (can exceed the peak a little).
  std::uint32_t budget = 255;             // The per-thread limit that applies.
  std::string budgetReason;               // "255 per thread", ".maxnreg 64", ".maxntid 256 / .minnctapersm 2".
  std::uint32_t spilledUnits = 0;
  std::string occupancyNote;              // May be empty.
};

// The most columns a plot draws; longer kernels are bucketed (each bucket keeps its maximum).
inline constexpr std::size_t kMaxPlotColumns = 2000;

// The SVG document (UTF-8, no XML declaration, so it can also be inlined into HTML).
std::string renderRegisterPlot(const PlotInput& input);

}  // namespace ptx::registers
