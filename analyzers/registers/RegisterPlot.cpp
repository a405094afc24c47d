// RegisterPlot: the SVG renderer of register pressure (see RegisterPlot.h).
//
// Layout (user units, the viewBox is kWidth × kHeight):
//   heading     three text lines: the kernel and target; estimate, peak, budget and spills;
//               the occupancy note.
//   plot        [kPlotLeft, kPlotRight] × [kPlotTop, kPlotBottom]; x is the instruction index
//               (instruction i starts at kPlotLeft + i · width / n), y the live registers from 0
//               to a round top above the data (and above the budget when it is near).
//   x axis      two rows of tick labels: the instruction index and, below it, the source line of
//               the instruction at that index.
// Numbers are printed with at most one decimal from integer arithmetic on tenths, so the text
// does not depend on the locale or on how a double prints.
#include "registers/RegisterPlot.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <string_view>

#if __has_include(<cxxabi.h>)
#include <cxxabi.h>
#define PTXLS_HAVE_CXXABI 1
#endif

namespace ptx::registers {
namespace {

constexpr double kWidth = 1100;
constexpr double kHeight = 400;
constexpr double kPlotLeft = 64;
constexpr double kPlotRight = kWidth - 28;
constexpr double kPlotTop = 76;
constexpr double kPlotBottom = kHeight - 60;
constexpr double kPlotWidth = kPlotRight - kPlotLeft;
constexpr double kPlotHeight = kPlotBottom - kPlotTop;
constexpr std::size_t kMaxVisibleName = 80;     // Code points of the kernel in the heading.
constexpr std::size_t kMaxTooltipSource = 160;  // Code points of an instruction in a tooltip.
constexpr std::size_t kMaxLiveNames = 48;       // Register names listed in the peak's tooltip.
constexpr std::string_view kEmDash = "\xE2\x80\x94";
constexpr std::string_view kEnDash = "\xE2\x80\x93";
constexpr std::string_view kEllipsis = "\xE2\x80\xA6";
constexpr std::string_view kMiddleDot = " \xC2\xB7 ";

// ---------------------------------------------------------------------------------------------
// Text

void appendCodePoint(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Decodes `text` into code points that XML 1.0 allows: invalid UTF-8 becomes U+FFFD, control
// characters (tabs and line breaks included: every text here is one line) become spaces.
std::vector<std::uint32_t> codePoints(std::string_view text) {
  std::vector<std::uint32_t> out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    std::uint32_t cp = 0xFFFD;
    std::size_t length = 1;
    if (byte < 0x80) {
      cp = (byte < 0x20 || byte == 0x7F) ? ' ' : byte;
    } else {
      std::size_t need = 0;
      std::uint32_t value = 0;
      std::uint32_t minimum = 0;
      if ((byte & 0xE0) == 0xC0) { need = 1; value = byte & 0x1Fu; minimum = 0x80; }
      else if ((byte & 0xF0) == 0xE0) { need = 2; value = byte & 0x0Fu; minimum = 0x800; }
      else if ((byte & 0xF8) == 0xF0) { need = 3; value = byte & 0x07u; minimum = 0x10000; }
      bool valid = need > 0 && i + need < text.size();
      for (std::size_t k = 1; valid && k <= need; ++k) {
        const auto next = static_cast<unsigned char>(text[i + k]);
        if ((next & 0xC0) != 0x80) { valid = false; break; }
        value = (value << 6) | (next & 0x3Fu);
      }
      if (valid && value >= minimum && value <= 0x10FFFF && !(value >= 0xD800 && value <= 0xDFFF) &&
          value != 0xFFFE && value != 0xFFFF) {
        cp = value;
        length = need + 1;
      }
    }
    out.push_back(cp);
    i += length;
  }
  return out;
}

// `text` made safe for XML character data and attribute values (both quote kinds escaped).
std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 16);
  for (std::uint32_t cp : codePoints(text)) {
    switch (cp) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: appendCodePoint(out, cp);
    }
  }
  return out;
}

std::string fromCodePoints(const std::vector<std::uint32_t>& cps, std::size_t begin, std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < end; ++i) appendCodePoint(out, cps[i]);
  return out;
}

std::string trim(std::string_view text) {
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && static_cast<unsigned char>(text[begin]) <= ' ') ++begin;
  while (end > begin && static_cast<unsigned char>(text[end - 1]) <= ' ') --end;
  return std::string(text.substr(begin, end - begin));
}

// At most `limit` code points: the head, an ellipsis.
std::string truncateEnd(std::string_view text, std::size_t limit) {
  const auto cps = codePoints(text);
  if (cps.size() <= limit) return fromCodePoints(cps, 0, cps.size());
  return fromCodePoints(cps, 0, limit - 1) + std::string(kEllipsis);
}

// At most `limit` code points: the head, an ellipsis, the tail (a name's end tells kernels apart).
std::string truncateMiddle(std::string_view text, std::size_t limit) {
  const auto cps = codePoints(text);
  if (cps.size() <= limit) return fromCodePoints(cps, 0, cps.size());
  const std::size_t tail = (limit - 1) / 3;
  const std::size_t head = limit - 1 - tail;
  return fromCodePoints(cps, 0, head) + std::string(kEllipsis) + fromCodePoints(cps, cps.size() - tail, cps.size());
}

// "void ns::gemm<128>(float const*, int)" → "ns::gemm<128>": the parameter list and the return
// type go; anything it cannot balance is left as it is.
std::string stripSignature(std::string name) {
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    std::size_t i = name.size();
    while (i > 0) {
      --i;
      if (name[i] == ')') ++depth;
      else if (name[i] == '(' && --depth == 0) break;
    }
    if (depth == 0 && i > 0) name.erase(i);
  }
  int depth = 0;
  std::size_t lastSpace = std::string::npos;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '<' || c == '(' || c == '[') ++depth;
    else if (c == '>' || c == ')' || c == ']') --depth;
    else if (c == ' ' && depth == 0) lastSpace = i;
    if (depth < 0) return name;
  }
  if (depth == 0 && lastSpace != std::string::npos && lastSpace + 1 < name.size()) name.erase(0, lastSpace + 1);
  return name;
}

// The kernel as the heading shows it: demangled when it is a C++ name, without its signature,
// shortened in the middle.
std::string displayName(const std::string& kernel) {
  std::string name = kernel;
#ifdef PTXLS_HAVE_CXXABI
  if (kernel.size() > 2 && kernel.compare(0, 2, "_Z") == 0 && kernel.find('\0') == std::string::npos) {
    int status = 0;
    char* demangled = abi::__cxa_demangle(kernel.c_str(), nullptr, nullptr, &status);
    if (status == 0 && demangled != nullptr) {
      std::string stripped = stripSignature(demangled);
      if (!stripped.empty()) name = std::move(stripped);
    }
    std::free(demangled);
  }
#endif
  if (name.empty()) name = "(unnamed)";
  return truncateMiddle(name, kMaxVisibleName);
}

// ---------------------------------------------------------------------------------------------
// Numbers

// `value` with at most one decimal, rounded half away from zero, "-0" never printed.
std::string num(double value) {
  const long long tenths = std::llround(value * 10.0);
  std::string out;
  if (tenths < 0) out += '-';
  const unsigned long long magnitude = static_cast<unsigned long long>(tenths < 0 ? -tenths : tenths);
  out += std::to_string(magnitude / 10);
  if (magnitude % 10 != 0) {
    out += '.';
    out += static_cast<char>('0' + magnitude % 10);
  }
  return out;
}

// The smallest step of the 1, 2, 2.5, 5 × 10^k series (integers only) that is at least `raw`.
std::uint64_t niceStep(double raw) {
  for (std::uint64_t power = 1;; power *= 10) {
    for (std::uint64_t step : {power, 2 * power, power >= 10 ? 25 * power / 10 : 0, 5 * power}) {
      if (step != 0 && static_cast<double>(step) >= raw) return step;
    }
    if (power > (std::uint64_t{1} << 60)) return power;
  }
}

std::string plural(std::uint64_t count, std::string_view one, std::string_view many) {
  return std::to_string(count) + " " + std::string(count == 1 ? one : many);
}

// ---------------------------------------------------------------------------------------------
// Chart

struct Column {
  std::size_t begin = 0;  // Instructions [begin, end).
  std::size_t end = 0;
  std::size_t top = 0;    // The first instruction with the bucket's maximum.
  std::uint32_t units = 0;
  bool inLoop = false;    // Any instruction of the bucket.
};

std::vector<Column> bucket(const std::vector<PlotInstruction>& instructions) {
  const std::size_t n = instructions.size();
  const std::size_t count = std::min(n, kMaxPlotColumns);
  std::vector<Column> columns(count);
  for (std::size_t c = 0; c < count; ++c) {
    Column& column = columns[c];
    column.begin = c * n / count;
    column.end = (c + 1) * n / count;
    column.top = column.begin;
    for (std::size_t i = column.begin; i < column.end; ++i) {
      if (i == column.begin || instructions[i].liveUnits > column.units) {
        column.units = instructions[i].liveUnits;
        column.top = i;
      }
      column.inLoop = column.inLoop || instructions[i].inLoop;
    }
  }
  return columns;
}

struct Scale {
  std::size_t count = 1;       // Instructions.
  std::uint64_t yTop = 1;      // Registers at kPlotTop.
  std::uint64_t yStep = 1;

  double x(std::size_t instruction) const {
    return kPlotLeft + kPlotWidth * static_cast<double>(instruction) / static_cast<double>(count);
  }
  double y(double units) const {
    return kPlotBottom - kPlotHeight * units / static_cast<double>(yTop);
  }
};

// Scoped under the root's class, so that a plot inlined into an HTML page styles only itself.
const char* const kStyle =
    ".ptxls-plot text{fill:#1f2328}"
    ".ptxls-plot .bg{fill:#ffffff}"
    ".ptxls-plot .muted{fill:#57606a}"
    ".ptxls-plot .grid{stroke:#d8dee4}"
    ".ptxls-plot .axis{stroke:#57606a}"
    ".ptxls-plot .area{fill:#218bff;fill-opacity:.2}"
    ".ptxls-plot .line{fill:none;stroke:#0969da;stroke-width:2}"
    ".ptxls-plot .over{fill:#cf222e;fill-opacity:.35}"
    ".ptxls-plot .loop{fill:#8250df;fill-opacity:.1}"
    ".ptxls-plot text.loop-label{fill:#8250df}"
    ".ptxls-plot .budget{stroke:#cf222e;stroke-width:1.5}"
    ".ptxls-plot text.budget-label,.ptxls-plot .spill{fill:#cf222e}"
    ".ptxls-plot .estimate{stroke:#9a6700;stroke-width:1.5;stroke-dasharray:6 4}"
    ".ptxls-plot text.estimate-label{fill:#9a6700}"
    ".ptxls-plot .peak{fill:#bc4c00;stroke:#ffffff;stroke-width:1.5}"
    ".ptxls-plot .peak-guide{stroke:#bc4c00}"
    ".ptxls-plot text.peak-label{fill:#bc4c00}"
    ".ptxls-plot .halo{paint-order:stroke;stroke:#ffffff;stroke-width:3px;stroke-linejoin:round}"
    ".ptxls-plot .hit{fill:#0969da;fill-opacity:0}"
    ".ptxls-plot .hit:hover{fill-opacity:.18}"
    ".ptxls-plot .halo,.ptxls-plot .loop-label{pointer-events:none}"
    "@media (prefers-color-scheme:dark){"
    ".ptxls-plot text{fill:#e6edf3}"
    ".ptxls-plot .bg{fill:#0d1117}"
    ".ptxls-plot .muted{fill:#8b949e}"
    ".ptxls-plot .grid{stroke:#30363d}"
    ".ptxls-plot .axis{stroke:#8b949e}"
    ".ptxls-plot .area{fill:#388bfd;fill-opacity:.25}"
    ".ptxls-plot .line{stroke:#58a6ff}"
    ".ptxls-plot .over{fill:#f85149}"
    ".ptxls-plot .loop{fill:#a371f7;fill-opacity:.14}"
    ".ptxls-plot text.loop-label{fill:#bc8cff}"
    ".ptxls-plot .budget{stroke:#ff7b72}"
    ".ptxls-plot text.budget-label,.ptxls-plot .spill{fill:#ff7b72}"
    ".ptxls-plot .estimate{stroke:#d29922}"
    ".ptxls-plot text.estimate-label{fill:#e3b341}"
    ".ptxls-plot .peak{fill:#ffa657;stroke:#0d1117}"
    ".ptxls-plot .peak-guide{stroke:#ffa657}"
    ".ptxls-plot text.peak-label{fill:#ffa657}"
    ".ptxls-plot .halo{stroke:#0d1117}"
    ".ptxls-plot .hit{fill:#58a6ff}"
    "}";

// A suffix for the document's ids (a 32-bit FNV-1a of the kernel, target and budget), so that
// plots of different kernels inlined into one HTML page do not share ids.
std::string idSuffix(const PlotInput& input) {
  std::uint32_t hash = 2166136261u;
  auto mix = [&](std::string_view bytes) {
    for (char c : bytes) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 16777619u;
    }
    hash ^= 0xFFu;
    hash *= 16777619u;
  };
  mix(input.kernel);
  mix(input.target);
  mix(std::to_string(input.budget));
  static const char* const kHex = "0123456789abcdef";
  std::string id;
  for (int shift = 28; shift >= 0; shift -= 4) id += kHex[(hash >> shift) & 0xF];
  return id;
}

std::string budgetLabel(const PlotInput& input) {
  const std::string number = std::to_string(input.budget);
  const std::string reason = trim(input.budgetReason);
  if (reason.empty() || reason == number) return "budget " + number;
  if (reason.compare(0, number.size() + 1, number + " ") == 0) return "budget " + reason;
  return "budget " + number + " (" + reason + ")";
}

std::string where(const PlotInstruction& instruction, std::size_t index) {
  if (instruction.line == 0) return "instruction " + std::to_string(index);
  return "line " + std::to_string(instruction.line);
}

// The tooltip of one column.
std::string columnTitle(const std::vector<PlotInstruction>& instructions, const Column& column) {
  const PlotInstruction& top = instructions[column.top];
  const std::string source = truncateEnd(trim(top.source), kMaxTooltipSource);
  std::string title;
  if (column.end - column.begin == 1) {
    title = where(top, column.top) + ": " + source;
  } else {
    const PlotInstruction& first = instructions[column.begin];
    const PlotInstruction& last = instructions[column.end - 1];
    if (first.line != 0 && last.line != 0) {
      title = "lines " + std::to_string(first.line) + std::string(kEnDash) + std::to_string(last.line);
    } else {
      title = "instructions " + std::to_string(column.begin) + std::string(kEnDash) +
              std::to_string(column.end - 1);
    }
    title += " (" + plural(column.end - column.begin, "instruction", "instructions") + "), most live at " +
             where(top, column.top) + ": " + source;
  }
  title += " " + std::string(kEmDash) + " " + std::to_string(column.units) + " live";
  if (column.end - column.begin == 1 && top.inLoop) title += ", in a loop";
  return title;
}

class Svg {
 public:
  std::string out;

  void text(double x, double y, std::string_view cls, std::string_view content,
            std::string_view extra = {}) {
    out += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\"";
    if (!cls.empty()) out += " class=\"" + std::string(cls) + "\"";
    if (!extra.empty()) out += " " + std::string(extra);
    out += ">" + escape(content) + "</text>\n";
  }
  void line(double x1, double y1, double x2, double y2, std::string_view cls, std::string_view extra = {}) {
    out += "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) +
           "\" class=\"" + std::string(cls) + "\"";
    if (!extra.empty()) out += " " + std::string(extra);
    out += "/>\n";
  }
};

void renderHeading(Svg& svg, const PlotInput& input, bool empty, std::uint32_t peakUnits,
                   std::uint32_t peakLine) {
  // Line 1: the kernel (full name as its tooltip) and the target.
  svg.out += "<text x=\"16\" y=\"24\" class=\"heading\" font-size=\"15\" font-weight=\"600\"><title>" +
             escape(input.kernel) + "</title>" + escape(displayName(input.kernel));
  if (!input.target.empty()) {
    svg.out += "<tspan class=\"muted\" font-weight=\"400\">" + escape(std::string(kMiddleDot) + input.target) +
               "</tspan>";
  }
  svg.out += "</text>\n";

  // Line 2: the figures.
  std::string figures = "estimated " + plural(input.estimatedRegisters, "register", "registers");
  if (!empty) {
    figures += std::string(kMiddleDot) + "peak " + std::to_string(peakUnits) + " live";
    if (peakLine != 0) figures += " at line " + std::to_string(peakLine);
  }
  figures += std::string(kMiddleDot) + budgetLabel(input);
  svg.out += "<text x=\"16\" y=\"44\" class=\"figures\" font-size=\"12.5\">" + escape(figures);
  if (input.spilledUnits > 0) {
    svg.out += "<tspan class=\"spill\" fill=\"#cf222e\" font-weight=\"600\">" +
               escape(std::string(kMiddleDot) + "spills " +
                      plural(input.spilledUnits, "register", "registers")) +
               "</tspan>";
  }
  svg.out += "</text>\n";

  // Line 3: the occupancy note.
  const std::string note = trim(input.occupancyNote);
  if (!note.empty()) svg.text(16, 62, "muted occupancy", truncateEnd(note, 150), "font-size=\"12\"");
}

}  // namespace

std::string renderRegisterPlot(const PlotInput& input) {
  const auto& instructions = input.instructions;
  const std::size_t n = instructions.size();
  const bool empty = n == 0;

  // The peak: the given index, or the first maximum when it is out of range.
  std::size_t peak = input.peakIndex;
  if (!empty && peak >= n) {
    peak = 0;
    for (std::size_t i = 1; i < n; ++i) {
      if (instructions[i].liveUnits > instructions[peak].liveUnits) peak = i;
    }
  }
  const std::uint32_t peakUnits = empty ? 0 : instructions[peak].liveUnits;
  const std::uint32_t peakLine = empty ? 0 : instructions[peak].line;

  std::uint32_t dataMax = input.estimatedRegisters;
  for (const auto& instruction : instructions) dataMax = std::max<std::uint32_t>(dataMax, instruction.liveUnits);

  const std::string ids = idSuffix(input);
  Svg svg;
  svg.out.reserve(4096 + std::min<std::size_t>(n, kMaxPlotColumns) * 200);
  const std::string full = "Register pressure of " + (input.kernel.empty() ? "(unnamed)" : input.kernel) +
                           (input.target.empty() ? "" : " (" + input.target + ")");
  std::string summary = "estimated " + plural(input.estimatedRegisters, "register", "registers");
  if (!empty) {
    summary += ", peak " + std::to_string(peakUnits) + " live";
    if (peakLine != 0) summary += " at line " + std::to_string(peakLine);
  }
  summary += ", " + budgetLabel(input);
  if (input.spilledUnits > 0) summary += ", spills " + plural(input.spilledUnits, "register", "registers");
  if (empty) summary += "; no instructions";

  svg.out += "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"ptxls-plot\" width=\"" + num(kWidth) + "\" height=\"" + num(kHeight) +
             "\" viewBox=\"0 0 " + num(kWidth) + " " + num(kHeight) +
             "\" role=\"img\" aria-labelledby=\"ptxls-title-" + ids + " ptxls-desc-" + ids + "\" "
             "font-family=\"system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif\" font-size=\"12\">\n";
  svg.out += "<title id=\"ptxls-title-" + ids + "\">" + escape(full) + "</title>\n";
  std::string desc = summary;
  if (!input.liveAtPeak.empty()) {
    desc += ". Live at the peak:";
    for (const auto& name : input.liveAtPeak) desc += " " + name;
  }
  if (!trim(input.occupancyNote).empty()) desc += ". " + trim(input.occupancyNote);
  svg.out += "<desc id=\"ptxls-desc-" + ids + "\">" + escape(desc) + "</desc>\n";
  svg.out += "<style>" + std::string(kStyle) + "</style>\n";
  svg.out += "<rect class=\"bg\" width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  renderHeading(svg, input, empty, peakUnits, peakLine);

  if (empty) {
    svg.out += "<rect class=\"frame\" x=\"" + num(kPlotLeft) + "\" y=\"" + num(kPlotTop) + "\" width=\"" +
               num(kPlotWidth) + "\" height=\"" + num(kPlotHeight) +
               "\" fill=\"none\" stroke=\"#d8dee4\" stroke-dasharray=\"4 4\"/>\n";
    svg.text(kPlotLeft + kPlotWidth / 2, kPlotTop + kPlotHeight / 2, "muted empty", "no instructions",
             "text-anchor=\"middle\" font-size=\"16\"");
    svg.out += "</svg>\n";
    return std::move(svg.out);
  }

  const std::vector<Column> columns = bucket(instructions);

  // The y range: round steps above the data (with room for the peak's label), taking in the
  // budget when it is near enough that the data keeps most of the height.
  const bool budgetShown =
      input.budget > 0 && static_cast<double>(input.budget) <= std::max(1.6 * dataMax, dataMax + 32.0);
  double yWanted = std::max({static_cast<double>(dataMax) * 1.12 + 1.0, 4.0});
  if (budgetShown) yWanted = std::max(yWanted, static_cast<double>(input.budget) * 1.06 + 1.0);
  Scale scale;
  scale.count = n;
  scale.yStep = niceStep(yWanted / 5.0);
  scale.yTop = (static_cast<std::uint64_t>(std::ceil(yWanted)) + scale.yStep - 1) / scale.yStep * scale.yStep;

  // Loop bands: contiguous runs of columns with a loop instruction.
  for (std::size_t c = 0; c < columns.size();) {
    if (!columns[c].inLoop) { ++c; continue; }
    std::size_t end = c;
    while (end < columns.size() && columns[end].inLoop) ++end;
    const double x0 = scale.x(columns[c].begin);
    const double x1 = scale.x(columns[end - 1].end);
    svg.out += "<rect class=\"loop\" x=\"" + num(x0) + "\" y=\"" + num(kPlotTop) + "\" width=\"" + num(x1 - x0) +
               "\" height=\"" + num(kPlotHeight) + "\" fill=\"#8250df\" fill-opacity=\"0.1\"/>\n";
    if (x1 - x0 >= 26) {
      svg.text(x0 + 4, kPlotTop + 13, "loop-label", "loop", "font-size=\"11\" fill=\"#8250df\"");
    }
    c = end;
  }

  // Grid and y axis.
  for (std::uint64_t tick = 0; tick <= scale.yTop; tick += scale.yStep) {
    const double y = scale.y(static_cast<double>(tick));
    if (tick > 0) svg.line(kPlotLeft, y, kPlotRight, y, "grid", "stroke=\"#d8dee4\"");
    svg.line(kPlotLeft - 5, y, kPlotLeft, y, "axis", "stroke=\"#57606a\"");
    svg.text(kPlotLeft - 8, y + 4, "muted ytick", std::to_string(tick), "text-anchor=\"end\"");
  }
  svg.out += "<text class=\"muted axis-title\" transform=\"translate(18 " + num(kPlotTop + kPlotHeight / 2) +
             ") rotate(-90)\" text-anchor=\"middle\">live 32-bit registers</text>\n";

  // The step chart: one horizontal run per column, vertical moves between different heights.
  struct Run {
    double x1;
    double y;
  };
  std::vector<Run> runs;
  for (const Column& column : columns) {
    const double x1 = scale.x(column.end);
    const double y = scale.y(column.units);
    if (!runs.empty() && num(runs.back().y) == num(y)) runs.back().x1 = x1;
    else runs.push_back({x1, y});
  }
  std::string step = "H" + num(runs[0].x1);
  for (std::size_t r = 1; r < runs.size(); ++r) step += "V" + num(runs[r].y) + "H" + num(runs[r].x1);
  const std::string area = "M" + num(kPlotLeft) + "," + num(kPlotBottom) + "V" + num(runs[0].y) + step + "V" +
                           num(kPlotBottom) + "Z";
  svg.out += "<path class=\"area\" d=\"" + area + "\" fill=\"#218bff\" fill-opacity=\"0.2\" shape-rendering=\"crispEdges\"/>\n";
  if (budgetShown && dataMax > input.budget) {
    const std::string id = "ptxls-over-" + idSuffix(input);
    svg.out += "<clipPath id=\"" + id + "\"><rect x=\"" + num(kPlotLeft) + "\" y=\"" + num(kPlotTop) +
               "\" width=\"" + num(kPlotWidth) + "\" height=\"" + num(scale.y(input.budget) - kPlotTop) +
               "\"/></clipPath>\n";
    svg.out += "<path class=\"over\" d=\"" + area + "\" clip-path=\"url(#" + id +
               ")\" fill=\"#cf222e\" fill-opacity=\"0.35\"/>\n";
  }
  svg.out += "<path class=\"line\" d=\"M" + num(kPlotLeft) + "," + num(runs[0].y) + step +
             "\" fill=\"none\" stroke=\"#0969da\" stroke-width=\"2\" stroke-linejoin=\"round\"/>\n";

  // Budget and estimate.
  const double budgetY = scale.y(input.budget);
  // The estimate gets its own line only where it says something the peak and budget do not.
  const bool estimateShown = input.estimatedRegisters > 0 && input.estimatedRegisters != peakUnits &&
                             !(budgetShown && input.estimatedRegisters == input.budget);
  const double estimateY = scale.y(input.estimatedRegisters);
  if (budgetShown) {
    svg.line(kPlotLeft, budgetY, kPlotRight, budgetY, "budget", "stroke=\"#cf222e\" stroke-width=\"1.5\"");
    svg.text(kPlotRight - 4, budgetY - 5, "budget-label halo", budgetLabel(input),
             "text-anchor=\"end\" fill=\"#cf222e\"");
  } else {
    svg.text(kPlotRight - 4, kPlotTop + 13, "budget-label halo", budgetLabel(input) + ", above the chart",
             "text-anchor=\"end\" fill=\"#cf222e\" font-size=\"11\"");
  }
  if (estimateShown) {
    // Labelled at the left end, so that it never meets the budget's label at the right.
    svg.line(kPlotLeft, estimateY, kPlotRight, estimateY, "estimate",
             "stroke=\"#9a6700\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"");
    svg.text(kPlotLeft + 6, estimateY - 5, "estimate-label halo",
             "estimated " + plural(input.estimatedRegisters, "register", "registers"), "fill=\"#9a6700\"");
  }

  // X axis: instruction index ticks, with the source line of each tick's instruction below.
  svg.line(kPlotLeft, kPlotBottom, kPlotRight, kPlotBottom, "axis", "stroke=\"#57606a\"");
  svg.line(kPlotLeft, kPlotTop, kPlotLeft, kPlotBottom, "axis", "stroke=\"#57606a\"");
  const std::uint64_t xStep = niceStep(static_cast<double>(n) / 8.0);
  for (std::uint64_t tick = 0; tick <= n; tick += xStep) {
    const double x = scale.x(tick);
    svg.line(x, kPlotBottom, x, kPlotBottom + 5, "axis", "stroke=\"#57606a\"");
    const char* anchor = tick == 0 ? "start" : tick == n ? "end" : "middle";
    svg.text(x, kPlotBottom + 17, "muted xtick", std::to_string(tick),
             std::string("text-anchor=\"") + anchor + "\"");
    // The end tick names the last instruction's line, unless its own tick already does.
    const PlotInstruction& at = instructions[std::min<std::size_t>(tick, n - 1)];
    if (at.line != 0 && (tick < n || xStep > 1)) {
      svg.text(x, kPlotBottom + 31, "muted xline", "line " + std::to_string(at.line),
               std::string("text-anchor=\"") + anchor + "\" font-size=\"10.5\"");
    }
  }
  svg.text(kPlotLeft + kPlotWidth / 2, kPlotBottom + 50, "muted axis-title",
           "instructions in order (index; source line below)", "text-anchor=\"middle\"");

  // The peak's column, and a dotted guide from the peak down to the x axis.
  const Column* peakColumn = &columns.front();
  for (const Column& column : columns) {
    if (peak >= column.begin && peak < column.end) peakColumn = &column;
  }
  const double peakX = (scale.x(peakColumn->begin) + scale.x(peakColumn->end)) / 2;
  const double peakY = scale.y(peakUnits);
  svg.line(peakX, peakY, peakX, kPlotBottom, "peak-guide",
           "stroke=\"#bc4c00\" stroke-opacity=\"0.6\" stroke-dasharray=\"2 3\"");

  // Hover: one invisible full-height rectangle per column, titled with its instruction.
  svg.out += "<g class=\"hits\">\n";
  for (const Column& column : columns) {
    const double x0 = scale.x(column.begin);
    const double x1 = scale.x(column.end);
    svg.out += "<rect class=\"hit\" x=\"" + num(x0) + "\" y=\"" + num(kPlotTop) + "\" width=\"" +
               num(std::max(x1 - x0, 0.1)) + "\" height=\"" + num(kPlotHeight) + "\" fill-opacity=\"0\"><title>" +
               escape(columnTitle(instructions, column)) + "</title></rect>\n";
  }
  svg.out += "</g>\n";

  // The peak: a dot (its tooltip lists the live registers) and its label.
  std::string live = "peak " + std::to_string(peakUnits) + " live";
  if (peakLine != 0) live += " at line " + std::to_string(peakLine);
  if (!input.liveAtPeak.empty()) {
    live += ": ";
    for (std::size_t i = 0; i < input.liveAtPeak.size() && i < kMaxLiveNames; ++i) {
      if (i > 0) live += ", ";
      live += input.liveAtPeak[i];
    }
    if (input.liveAtPeak.size() > kMaxLiveNames) {
      live += " and " + std::to_string(input.liveAtPeak.size() - kMaxLiveNames) + " more";
    }
  }
  svg.out += "<circle class=\"peak\" cx=\"" + num(peakX) + "\" cy=\"" + num(peakY) +
             "\" r=\"4.5\" fill=\"#bc4c00\" stroke=\"#ffffff\" stroke-width=\"1.5\" pointer-events=\"all\"><title>" +
             escape(live) + "</title></circle>\n";
  const std::string peakText = "peak " + std::to_string(peakUnits) +
                               (peakLine != 0 ? " at line " + std::to_string(peakLine) : std::string());
  // The label beside the dot, on the side with room, above the data it spans.
  const double labelWidth = 7.2 * static_cast<double>(peakText.size());
  const bool leftOfDot = peakX + 8 + labelWidth > kPlotRight;
  const double labelX0 = leftOfDot ? peakX - 8 - labelWidth : peakX + 8;
  const double labelX1 = leftOfDot ? peakX - 8 : peakX + 8 + labelWidth;
  std::uint32_t under = peakUnits;
  for (const Column& column : columns) {
    if (scale.x(column.end) >= labelX0 && scale.x(column.begin) <= labelX1) under = std::max(under, column.units);
  }
  double labelY = std::min(peakY, scale.y(under)) - 9;
  // Clear of the budget and estimate lines (a line through the text is hard to read).
  std::vector<double> rules;
  if (budgetShown) rules.push_back(budgetY);
  if (estimateShown) rules.push_back(estimateY);
  std::sort(rules.begin(), rules.end(), std::greater<>());
  for (double rule : rules) {
    if (rule >= labelY - 13 && rule <= labelY + 5) labelY = rule - 6;
  }
  if (labelY < kPlotTop + 12) labelY = std::max(peakY, scale.y(under)) + 18;
  svg.text(leftOfDot ? labelX1 : labelX0, labelY, "peak-label halo", peakText,
           std::string("text-anchor=\"") + (leftOfDot ? "end" : "start") +
               "\" fill=\"#bc4c00\" font-weight=\"600\"");

  svg.out += "</svg>\n";
  return std::move(svg.out);
}

}  // namespace ptx::registers
