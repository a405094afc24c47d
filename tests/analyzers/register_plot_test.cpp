// The register-pressure plot (analyzers/registers/RegisterPlot.h): the SVG is well-formed XML
// (checked by the small strict parser below), escapes what it is given, and draws what the input
// says: the peak, the budget, the estimate, one band per loop, one hover rectangle per column,
// the maximum of every bucket when it downsamples. A small case is pinned by a golden file
// (tests/plots/golden/; PTXLS_UPDATE_GOLDEN=1 rewrites it).
//
// With PTXLS_PLOT_OUT=DIR the sample plots are also written to DIR as .svg files, for
// tests/plots/check_svg_renders.py, which renders them in headless Chromium.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "TestSupport.h"
#include "registers/RegisterPlot.h"

using namespace ptx::registers;

namespace {

// ---------------------------------------------------------------------------------------------
// A minimal, strict XML parser: elements, attributes, character data, comments, CDATA and
// processing instructions; the five predefined entities and character references. Stricter than
// XML where our output must be: no raw '>' in text or attribute values either.

struct XmlNode {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;  // Values unescaped.
  std::vector<XmlNode> children;
  std::string text;  // This element's own character data, unescaped, in order.
  std::vector<std::string> segments;  // Own text between children (segments[i] before children[i]).

  const std::string* attribute(std::string_view key) const {
    for (const auto& [attributeName, value] : attributes) {
      if (attributeName == key) return &value;
    }
    return nullptr;
  }
  std::string get(std::string_view key) const {
    const std::string* value = attribute(key);
    return value ? *value : std::string();
  }
  bool hasClass(std::string_view cls) const {
    const std::string classes = " " + get("class") + " ";
    return classes.find(" " + std::string(cls) + " ") != std::string::npos;
  }
  // Text of this element and its descendants in document order, skipping <title> children
  // (what a reader sees rather than what a tooltip shows) unless `withTitles`.
  std::string visibleText(bool withTitles = false) const {
    std::string out;
    for (std::size_t i = 0; i < segments.size(); ++i) {
      out += segments[i];
      if (i < children.size() && (withTitles || children[i].name != "title")) out += children[i].visibleText(withTitles);
    }
    return out;
  }
  const XmlNode* child(std::string_view childName) const {
    for (const auto& c : children) {
      if (c.name == childName) return &c;
    }
    return nullptr;
  }
};

class XmlParser {
 public:
  explicit XmlParser(std::string_view text) : s_(text) {}

  // The root element, or nullopt with `error()` set.
  std::optional<XmlNode> parse() {
    if (!checkCharacters()) return std::nullopt;
    skipMisc();
    if (!at("<") || at("</")) return fail("expected the root element");
    XmlNode root;
    if (!element(root)) return std::nullopt;
    skipMisc();
    if (!error_.empty()) return std::nullopt;
    if (pos_ != s_.size()) return fail("content after the root element");
    return root;
  }
  const std::string& error() const { return error_; }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
  std::string error_;

  std::nullopt_t fail(const std::string& message) {
    if (error_.empty()) error_ = message + " at byte " + std::to_string(pos_);
    return std::nullopt;
  }
  bool failed(const std::string& message) {
    fail(message);
    return false;
  }
  bool at(std::string_view token) const { return s_.substr(pos_, token.size()) == token; }

  // Valid UTF-8 and only the characters XML 1.0 allows.
  bool checkCharacters() {
    for (std::size_t i = 0; i < s_.size();) {
      const auto byte = static_cast<unsigned char>(s_[i]);
      pos_ = i;
      if (byte < 0x80) {
        if (byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r') return failed("control character");
        ++i;
        continue;
      }
      std::size_t need = (byte & 0xE0) == 0xC0 ? 1 : (byte & 0xF0) == 0xE0 ? 2 : (byte & 0xF8) == 0xF0 ? 3 : 0;
      if (need == 0 || i + need >= s_.size()) return failed("bad UTF-8");
      std::uint32_t cp = byte & (need == 1 ? 0x1Fu : need == 2 ? 0x0Fu : 0x07u);
      for (std::size_t k = 1; k <= need; ++k) {
        const auto next = static_cast<unsigned char>(s_[i + k]);
        if ((next & 0xC0) != 0x80) return failed("bad UTF-8 continuation");
        cp = (cp << 6) | (next & 0x3Fu);
      }
      const std::uint32_t minimum = need == 1 ? 0x80 : need == 2 ? 0x800 : 0x10000;
      if (cp < minimum || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF) {
        return failed("invalid code point");
      }
      i += need + 1;
    }
    pos_ = 0;
    return true;
  }

  static bool nameStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
  }
  static bool nameChar(char c) { return nameStart(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; }
  static bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

  void skipSpace() {
    while (pos_ < s_.size() && space(s_[pos_])) ++pos_;
  }
  std::string name() {
    const std::size_t begin = pos_;
    if (pos_ < s_.size() && nameStart(s_[pos_])) {
      ++pos_;
      while (pos_ < s_.size() && nameChar(s_[pos_])) ++pos_;
    }
    return std::string(s_.substr(begin, pos_ - begin));
  }

  // Comments, processing instructions and space outside the root.
  void skipMisc() {
    for (;;) {
      skipSpace();
      if (at("<!--")) {
        if (!comment()) return;
      } else if (at("<?")) {
        if (!instruction()) return;
      } else {
        return;
      }
    }
  }
  bool comment() {
    const std::size_t end = s_.find("-->", pos_ + 4);
    if (end == std::string_view::npos) return failed("unterminated comment");
    if (s_.substr(pos_ + 4, end - pos_ - 4).find("--") != std::string_view::npos) return failed("-- in comment");
    pos_ = end + 3;
    return true;
  }
  bool instruction() {
    const std::size_t end = s_.find("?>", pos_ + 2);
    if (end == std::string_view::npos) return failed("unterminated processing instruction");
    pos_ = end + 2;
    return true;
  }

  // Character data up to `stop`, unescaped; '<' never, '>' never (strict), '&' only as a reference.
  bool characters(char stop, std::string& out) {
    while (pos_ < s_.size() && s_[pos_] != stop) {
      const char c = s_[pos_];
      if (c == '<') return failed("raw '<' in character data");
      if (c == '>') return failed("raw '>' in character data");
      if (c == '&') {
        const std::size_t end = s_.find(';', pos_);
        if (end == std::string_view::npos || end - pos_ > 10) return failed("unterminated reference");
        const std::string_view ref = s_.substr(pos_ + 1, end - pos_ - 1);
        static const std::map<std::string_view, char> kNamed = {
            {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
        if (auto it = kNamed.find(ref); it != kNamed.end()) {
          out += it->second;
        } else if (ref.size() > 1 && ref[0] == '#') {
          const bool hex = ref[1] == 'x';
          const std::string digits(ref.substr(hex ? 2 : 1));
          if (digits.empty() || digits.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789") != std::string::npos) {
            return failed("bad character reference");
          }
          const unsigned long cp = std::stoul(digits, nullptr, hex ? 16 : 10);
          if (cp < 0x20 && cp != 9 && cp != 10 && cp != 13) return failed("reference to a control character");
          out += "?";  // The tests never compare referenced characters.
        } else {
          return failed("unknown entity &" + std::string(ref) + ";");
        }
        pos_ = end + 1;
        continue;
      }
      out += c;
      ++pos_;
    }
    return true;
  }

  bool element(XmlNode& node) {
    ++pos_;  // '<'
    node.name = name();
    if (node.name.empty()) return failed("bad element name");
    std::set<std::string> seen;
    for (;;) {
      const std::size_t before = pos_;
      skipSpace();
      if (at("/>")) {
        pos_ += 2;
        node.segments.push_back("");
        return true;
      }
      if (at(">")) {
        ++pos_;
        break;
      }
      if (pos_ == before) return failed("expected space before an attribute");
      std::string key = name();
      if (key.empty()) return failed("bad attribute name");
      if (!seen.insert(key).second) return failed("duplicate attribute " + key);
      skipSpace();
      if (!at("=")) return failed("expected '='");
      ++pos_;
      skipSpace();
      if (pos_ >= s_.size() || (s_[pos_] != '"' && s_[pos_] != '\'')) return failed("unquoted attribute");
      const char quote = s_[pos_++];
      std::string value;
      if (!characters(quote, value)) return false;
      if (pos_ >= s_.size()) return failed("unterminated attribute");
      ++pos_;
      node.attributes.emplace_back(std::move(key), std::move(value));
    }
    std::string segment;
    for (;;) {
      if (pos_ >= s_.size()) return failed("unclosed element " + node.name);
      if (at("</")) {
        pos_ += 2;
        const std::string closing = name();
        if (closing != node.name) return failed("</" + closing + "> closes <" + node.name + ">");
        skipSpace();
        if (!at(">")) return failed("expected '>'");
        ++pos_;
        node.segments.push_back(segment);
        node.text += segment;
        return true;
      }
      if (at("<!--")) {
        if (!comment()) return false;
      } else if (at("<![CDATA[")) {
        const std::size_t end = s_.find("]]>", pos_);
        if (end == std::string_view::npos) return failed("unterminated CDATA");
        segment += s_.substr(pos_ + 9, end - pos_ - 9);
        pos_ = end + 3;
      } else if (at("<?")) {
        if (!instruction()) return false;
      } else if (at("<")) {
        node.segments.push_back(segment);
        node.text += segment;
        segment.clear();
        XmlNode childNode;
        if (!element(childNode)) return false;
        node.children.push_back(std::move(childNode));
      } else if (!characters('<', segment)) {
        return false;
      }
    }
  }
};

XmlNode parseSvg(const std::string& svg) {
  XmlParser parser(svg);
  auto root = parser.parse();
  INFO(parser.error());
  REQUIRE(root.has_value());
  REQUIRE(root->name == "svg");
  return *root;
}

void collect(const XmlNode& node, const std::string& name, const std::string& cls, std::vector<const XmlNode*>& out) {
  if ((name.empty() || node.name == name) && (cls.empty() || node.hasClass(cls))) out.push_back(&node);
  for (const auto& child : node.children) collect(child, name, cls, out);
}
std::vector<const XmlNode*> find(const XmlNode& root, const std::string& name, const std::string& cls = "") {
  std::vector<const XmlNode*> out;
  collect(root, name, cls, out);
  return out;
}

double number(const XmlNode& node, std::string_view key) {
  const std::string* value = node.attribute(key);
  REQUIRE(value != nullptr);
  return std::stod(*value);
}

// The y coordinate of `registers`, from the y axis' own tick labels (two of them fix the scale).
struct YScale {
  double y0 = 0;
  double perUnit = 0;
  double at(double registers) const { return y0 - perUnit * registers; }
};
YScale yScaleOf(const XmlNode& root) {
  const auto ticks = find(root, "text", "ytick");
  REQUIRE(ticks.size() >= 2);
  const double v0 = std::stod(ticks[0]->visibleText());
  const double v1 = std::stod(ticks[1]->visibleText());
  const double y0 = number(*ticks[0], "y");
  const double y1 = number(*ticks[1], "y");
  REQUIRE(v1 > v0);
  YScale scale;
  scale.perUnit = (y0 - y1) / (v1 - v0);
  scale.y0 = y0 + scale.perUnit * v0 - 4;  // The labels sit 4 below their tick.
  return scale;
}

// The y coordinates a step path visits (its M and every V).
std::vector<double> pathYs(const std::string& d) {
  std::vector<double> ys;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (d[i] == 'V') {
      ys.push_back(std::stod(d.substr(i + 1)));
    } else if (d[i] == 'M') {
      const std::size_t comma = d.find(',', i);
      ys.push_back(std::stod(d.substr(comma + 1)));
    }
  }
  return ys;
}

// ---------------------------------------------------------------------------------------------
// Inputs

// A realistic kernel: a tiled GEMM-like main loop with the peak inside it, then a small
// reduction loop and the epilogue.
PlotInput gemmExample() {
  PlotInput input;
  input.kernel = "_Z11sgemm_tiledILi128ELi8EEvPKfS1_Pfiii";
  input.target = "sm_90a";
  input.budget = 128;
  input.budgetReason = ".maxntid 256 / .minnctapersm 2";
  input.estimatedRegisters = 90;
  input.occupancyNote = "25% occupancy on sm_90 at 256 threads/block (limited by registers)";
  std::uint32_t line = 24;
  auto add = [&](std::string source, int live, bool loop = false) {
    PlotInstruction instruction;
    instruction.line = line++;
    instruction.source = std::move(source);
    instruction.liveUnits = static_cast<std::uint16_t>(live);
    instruction.inLoop = loop;
    input.instructions.push_back(std::move(instruction));
  };
  add("ld.param.u64 %rd5, [_Z11sgemm_tiledILi128ELi8EEvPKfS1_Pfiii_param_0];", 2);
  add("ld.param.u64 %rd6, [_Z11sgemm_tiledILi128ELi8EEvPKfS1_Pfiii_param_1];", 4);
  add("ld.param.u64 %rd7, [_Z11sgemm_tiledILi128ELi8EEvPKfS1_Pfiii_param_2];", 6);
  add("ld.param.u32 %r12, [_Z11sgemm_tiledILi128ELi8EEvPKfS1_Pfiii_param_3];", 7);
  add("mov.u32 %r13, %tid.x;", 8);
  add("mov.u32 %r14, %ctaid.x;", 9);
  add("mov.u32 %r15, %ctaid.y;", 10);
  add("shl.b32 %r16, %r14, 7;", 10);
  add("mad.lo.s32 %r17, %r15, %r12, %r16;", 11);
  add("cvta.to.global.u64 %rd8, %rd5;", 12);
  add("mul.wide.s32 %rd9, %r17, 4;", 14);
  add("add.s64 %rd10, %rd8, %rd9;", 15);
  for (int i = 0; i < 32; ++i) add("mov.f32 %f" + std::to_string(i + 1) + ", 0f00000000;", 16 + i);
  add("mov.u32 %r18, 0;", 49);
  line += 2;
  // The main loop: tiles of A and B into registers, 32 accumulators updated with FMAs.
  for (int k = 0; k < 4; ++k) {
    add("ld.global.nc.v4.f32 {%f" + std::to_string(33 + 8 * k) + ", %f" + std::to_string(34 + 8 * k) + ", %f" +
            std::to_string(35 + 8 * k) + ", %f" + std::to_string(36 + 8 * k) + "}, [%rd" +
            std::to_string(11 + k) + "+" + std::to_string(16 * k) + "];",
        54 + 4 * k, true);
  }
  for (int k = 0; k < 4; ++k) {
    add("ld.global.nc.v4.f32 {%f" + std::to_string(37 + 8 * k) + ", %f" + std::to_string(38 + 8 * k) + ", %f" +
            std::to_string(39 + 8 * k) + ", %f" + std::to_string(40 + 8 * k) + "}, [%rd" +
            std::to_string(15 + k) + "+" + std::to_string(512 + 16 * k) + "];",
        70 + 4 * k, true);
  }
  for (int i = 0; i < 64; ++i) {
    const int live = i < 20 ? 86 + (i % 3 == 0 ? 1 : 0) : 86 - (i - 20) / 2;
    add("fma.rn.f32 %f" + std::to_string(1 + i % 32) + ", %f" + std::to_string(33 + i % 16) + ", %f" +
            std::to_string(49 + i % 16) + ", %f" + std::to_string(1 + i % 32) + ";",
        i == 13 ? 88 : live, true);
  }
  add("add.s32 %r18, %r18, 8;", 62, true);
  add("add.s64 %rd11, %rd11, 32;", 62, true);
  add("setp.lt.s32 %p1, %r18, %r12;", 62, true);
  add("@%p1 bra $L__BB0_2;", 61, true);
  line += 2;
  // A small reduction loop over shared memory.
  add("bar.sync 0;", 40);
  for (int i = 0; i < 10; ++i) {
    add(i % 2 == 0 ? "shfl.sync.down.b32 %r" + std::to_string(30 + i) + ", %r" + std::to_string(29 + i) +
                         ", 16, 31, -1;"
                   : "add.f32 %f" + std::to_string(70 + i) + ", %f" + std::to_string(69 + i) + ", %f1;",
        44 - i / 2, true);
  }
  add("@%p2 bra $L__BB0_5;", 38, true);
  line += 1;
  // The epilogue: the accumulators stored, registers released.
  for (int i = 0; i < 32; ++i) {
    add("st.global.f32 [%rd20+" + std::to_string(4 * i) + "], %f" + std::to_string(i + 1) + ";", 36 - i);
  }
  add("ret;", 0);
  input.peakIndex = 0;
  for (std::uint32_t i = 0; i < input.instructions.size(); ++i) {
    if (input.instructions[i].liveUnits > input.instructions[input.peakIndex].liveUnits) input.peakIndex = i;
  }
  input.liveAtPeak = {"%rd11", "%rd12", "%rd13", "%rd14", "%r12", "%r18", "%f1", "%f2", "%f3"};
  return input;
}

PlotInput smallExample() {
  PlotInput input;
  input.kernel = "add<&\"q\">";
  input.target = "sm_80";
  input.budget = 16;
  input.budgetReason = ".maxnreg 16";
  input.estimatedRegisters = 9;
  input.instructions = {
      {10, "ld.param.u64 %rd1, [p];", 2, false},
      {11, ".reg .b32 %r<4>; // \"decl\" & 'quotes'", 3, false},
      {12, "$L: ld.global.u32 %r1, [%rd1];", 6, true},
      {13, "add.s32 %r2, %r1, %r<4>;", 8, true},
      {14, "@%p1 bra $L;", 5, true},
      {15, "ret;", 0, false},
  };
  input.peakIndex = 3;
  input.liveAtPeak = {"%rd1", "%r1", "%r2"};
  return input;
}

// Writes a sample to $PTXLS_PLOT_OUT when that is set.
void keep(const std::string& name, const std::string& svg) {
  const char* out = std::getenv("PTXLS_PLOT_OUT");
  if (out == nullptr || *out == '\0') return;
  std::filesystem::create_directories(out);
  std::ofstream file(std::filesystem::path(out) / (name + ".svg"), std::ios::binary);
  file << svg;
  REQUIRE(file.good());
}

}  // namespace

TEST_CASE("register plot: a realistic kernel renders every element", "[plot]") {
  const PlotInput input = gemmExample();
  const std::string svg = renderRegisterPlot(input);
  keep("gemm-loop-peak", svg);
  const XmlNode root = parseSvg(svg);

  CHECK(root.get("xmlns") == "http://www.w3.org/2000/svg");
  const double width = number(root, "width");
  const double height = number(root, "height");
  CHECK(width >= 1000);
  CHECK(width <= 1200);
  CHECK(height >= 360);
  CHECK(height <= 420);
  CHECK(root.get("viewBox") == "0 0 " + root.get("width") + " " + root.get("height"));
  REQUIRE(!root.children.empty());
  CHECK(root.children.front().name == "title");
  CHECK(root.children.front().text.find(input.kernel) != std::string::npos);
  // Self-contained: no script, no external references.
  CHECK(svg.find("<script") == std::string::npos);
  CHECK(svg.find("href") == std::string::npos);
  CHECK(svg.find("@import") == std::string::npos);
  CHECK(svg.find("prefers-color-scheme:dark") != std::string::npos);
  CHECK(svg.find(".hit:hover") != std::string::npos);
  // The style is scoped under the root's class (a plot inlined into HTML styles only itself).
  CHECK(root.hasClass("ptxls-plot"));
  const XmlNode* style = root.child("style");
  REQUIRE(style != nullptr);
  std::size_t selectorStart = 0;
  for (std::size_t i = 0; i < style->text.size(); ++i) {
    const char c = style->text[i];
    if (c == '}') {
      selectorStart = i + 1;
    } else if (c == '{') {
      const std::string selectors = style->text.substr(selectorStart, i - selectorStart);
      selectorStart = i + 1;
      if (selectors.rfind("@media", 0) == 0) continue;
      std::size_t from = 0;
      for (;;) {
        const std::size_t comma = selectors.find(',', from);
        const std::string selector = selectors.substr(from, comma - from);
        CHECK(selector.rfind(".ptxls-plot ", 0) == 0);
        if (comma == std::string::npos) break;
        from = comma + 1;
      }
    }
  }

  const YScale y = yScaleOf(root);
  const std::uint32_t peak = input.instructions[input.peakIndex].liveUnits;
  const std::uint32_t peakLine = input.instructions[input.peakIndex].line;

  // The peak: its dot at the peak's height, its label with the numbers.
  const auto dots = find(root, "circle", "peak");
  REQUIRE(dots.size() == 1);
  CHECK(number(*dots[0], "cy") == Approx(y.at(peak)).margin(0.11));
  REQUIRE(dots[0]->child("title") != nullptr);
  CHECK(dots[0]->child("title")->text.find("%rd11, %rd12") != std::string::npos);
  const auto peakLabels = find(root, "text", "peak-label");
  REQUIRE(peakLabels.size() == 1);
  CHECK(peakLabels[0]->visibleText() == "peak " + std::to_string(peak) + " at line " + std::to_string(peakLine));

  // The budget: a horizontal line at its height, labelled with its reason.
  const auto budget = find(root, "line", "budget");
  REQUIRE(budget.size() == 1);
  CHECK(number(*budget[0], "y1") == number(*budget[0], "y2"));
  CHECK(number(*budget[0], "y1") == Approx(y.at(128)).margin(0.11));
  const auto budgetLabels = find(root, "text", "budget-label");
  REQUIRE(budgetLabels.size() == 1);
  CHECK(budgetLabels[0]->visibleText() == "budget 128 (.maxntid 256 / .minnctapersm 2)");

  // The estimate differs from the peak: a dashed line at its height.
  const auto estimate = find(root, "line", "estimate");
  REQUIRE(estimate.size() == 1);
  CHECK(number(*estimate[0], "y1") == Approx(y.at(90)).margin(0.11));
  CHECK(!estimate[0]->get("stroke-dasharray").empty());

  // The heading: shortened demangled name, target, figures, occupancy note.
  const auto headings = find(root, "text", "heading");
  REQUIRE(headings.size() == 1);
  CHECK(headings[0]->visibleText().find("sm_90a") != std::string::npos);
  const auto figures = find(root, "text", "figures");
  REQUIRE(figures.size() == 1);
  CHECK(figures[0]->visibleText().find("estimated 90 registers") != std::string::npos);
  CHECK(figures[0]->visibleText().find("peak 88 live at line " + std::to_string(peakLine)) != std::string::npos);
  CHECK(figures[0]->visibleText().find("spills") == std::string::npos);
  CHECK(find(root, "text", "occupancy").size() == 1);

  // Two loops, two bands, each labelled.
  CHECK(find(root, "rect", "loop").size() == 2);
  CHECK(find(root, "text", "loop-label").size() == 2);

  // One hover rectangle per instruction, each titled with its line, source and live count.
  const auto hits = find(root, "rect", "hit");
  REQUIRE(hits.size() == input.instructions.size());
  for (std::size_t i = 0; i < hits.size(); ++i) {
    const XmlNode* title = hits[i]->child("title");
    REQUIRE(title != nullptr);
    const auto& instruction = input.instructions[i];
    CHECK(title->text.rfind("line " + std::to_string(instruction.line) + ": " + instruction.source + " \xE2\x80\x94 " +
                                std::to_string(instruction.liveUnits) + " live",
                            0) == 0);
    CHECK(number(*hits[i], "height") > 200);
  }
  // The columns tile the plot from left to right.
  for (std::size_t i = 1; i < hits.size(); ++i) {
    CHECK(number(*hits[i], "x") == Approx(number(*hits[i - 1], "x") + number(*hits[i - 1], "width")).margin(0.11));
  }

  // Y ticks are round: equal steps from 0 of 1, 2, 2.5 or 5 × 10^k, the top above the data.
  const auto ticks = find(root, "text", "ytick");
  std::vector<long> values;
  for (const auto* tick : ticks) values.push_back(std::stol(tick->visibleText()));
  REQUIRE(values.size() >= 3);
  CHECK(values.front() == 0);
  const long stepSize = values[1] - values[0];
  CHECK(std::set<long>{1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500}.count(stepSize) == 1);
  for (std::size_t i = 1; i < values.size(); ++i) CHECK(values[i] - values[i - 1] == stepSize);
  CHECK(values.back() >= 128);
  // X ticks: instruction indexes, with source lines below.
  CHECK(find(root, "text", "xtick").size() >= 4);
  CHECK(find(root, "text", "xline").size() >= 4);
}

TEST_CASE("register plot: text is escaped everywhere", "[plot]") {
  PlotInput input = smallExample();
  input.budgetReason = "\"quoted\" <reason> & more";
  input.occupancyNote = "50% <occupancy> & \"more\"";
  input.liveAtPeak = {"%r<4>", "%rd&1"};
  input.instructions[2].source = "mov.b32 %r1, %r<4>;\t// a \"b\" & 'c' \x01 \xFF\xFE end";
  const std::string svg = renderRegisterPlot(input);
  keep("escaping", svg);
  const XmlNode root = parseSvg(svg);

  CHECK(svg.find("%r<4>") == std::string::npos);
  CHECK(svg.find("%r&lt;4&gt;") != std::string::npos);
  CHECK(svg.find("&amp;") != std::string::npos);
  CHECK(svg.find("&quot;") != std::string::npos);
  CHECK(root.children.front().text.find("add<&\"q\">") != std::string::npos);

  const auto hits = find(root, "rect", "hit");
  REQUIRE(hits.size() == 6);
  CHECK(hits[1]->child("title")->text.find(".reg .b32 %r<4>; // \"decl\" & 'quotes'") != std::string::npos);
  // Tabs and control characters become spaces, invalid UTF-8 the replacement character.
  const std::string loopTitle = hits[2]->child("title")->text;
  CHECK(loopTitle.find("mov.b32 %r1, %r<4>; // a \"b\" & 'c'   \xEF\xBF\xBD\xEF\xBF\xBD end") != std::string::npos);
  CHECK(find(root, "text", "budget-label")[0]->visibleText() == "budget 16 (\"quoted\" <reason> & more)");
  CHECK(find(root, "circle", "peak")[0]->child("title")->text.find("%r<4>, %rd&1") != std::string::npos);
  CHECK(find(root, "text", "occupancy")[0]->visibleText() == "50% <occupancy> & \"more\"");
}

TEST_CASE("register plot: one band per contiguous loop run", "[plot]") {
  PlotInput input;
  input.kernel = "loops";
  input.target = "sm_90";
  input.estimatedRegisters = 12;
  input.budget = 255;
  input.budgetReason = "255 per thread";
  // Loops at the start, in the middle (two runs split by one instruction) and at the end.
  const std::string pattern = "LLL..LLLL.LL....LL";
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    input.instructions.push_back({static_cast<std::uint32_t>(i + 1), "nop;", static_cast<std::uint16_t>(2 + i % 7),
                                  pattern[i] == 'L'});
  }
  input.peakIndex = 5;
  const std::string svg = renderRegisterPlot(input);
  keep("loop-bands", svg);
  const XmlNode root = parseSvg(svg);
  const auto bands = find(root, "rect", "loop");
  REQUIRE(bands.size() == 4);
  const auto hits = find(root, "rect", "hit");
  REQUIRE(hits.size() == pattern.size());
  // Each band spans exactly its run's columns.
  const std::vector<std::pair<std::size_t, std::size_t>> runs = {{0, 3}, {5, 9}, {10, 12}, {16, 18}};
  for (std::size_t b = 0; b < runs.size(); ++b) {
    const auto [begin, end] = runs[b];
    CHECK(number(*bands[b], "x") == Approx(number(*hits[begin], "x")).margin(0.11));
    CHECK(number(*bands[b], "x") + number(*bands[b], "width") ==
          Approx(number(*hits[end - 1], "x") + number(*hits[end - 1], "width")).margin(0.21));
  }
  CHECK(find(root, "text", "loop-label").size() == 4);

  // The budget is far above the data: no line, a note instead.
  CHECK(find(root, "line", "budget").empty());
  const auto note = find(root, "text", "budget-label");
  REQUIRE(note.size() == 1);
  CHECK(note[0]->visibleText() == "budget 255 per thread, above the chart");

  // No loops, no bands.
  for (auto& instruction : input.instructions) instruction.inLoop = false;
  const XmlNode plain = parseSvg(renderRegisterPlot(input));
  CHECK(find(plain, "rect", "loop").empty());
  CHECK(find(plain, "text", "loop-label").empty());
}

TEST_CASE("register plot: downsampling keeps every bucket's maximum", "[plot]") {
  PlotInput input;
  input.kernel = "long_kernel";
  input.target = "sm_90a";
  input.budget = 255;
  input.budgetReason = "255 per thread";
  input.estimatedRegisters = 200;
  for (std::uint32_t i = 0; i < 10000; ++i) {
    input.instructions.push_back({i + 100, "add.s32 %r" + std::to_string(i) + ", %r1, " + std::to_string(i) + ";", 10,
                                  i >= 4000 && i < 6000});
  }
  input.instructions[7777].liveUnits = 200;  // The peak, alone.
  input.instructions[3].liveUnits = 150;     // Another lone spike, not the peak.
  input.peakIndex = 7777;
  const std::string svg = renderRegisterPlot(input);
  keep("downsampled-10000", svg);
  CHECK(svg.size() < 1'500'000);
  const XmlNode root = parseSvg(svg);

  const auto hits = find(root, "rect", "hit");
  CHECK(hits.size() == kMaxPlotColumns);
  const auto lines = find(root, "path", "line");
  REQUIRE(lines.size() == 1);
  const std::vector<double> ys = pathYs(lines[0]->get("d"));
  const YScale y = yScaleOf(root);
  const double top = *std::min_element(ys.begin(), ys.end());
  CHECK(top == Approx(y.at(200)).margin(0.11));
  CHECK(std::any_of(ys.begin(), ys.end(), [&](double v) { return std::abs(v - y.at(150)) < 0.11; }));
  CHECK(std::all_of(ys.begin(), ys.end(), [&](double v) {
    return std::abs(v - y.at(200)) < 0.11 || std::abs(v - y.at(150)) < 0.11 || std::abs(v - y.at(10)) < 0.11;
  }));
  const auto dots = find(root, "circle", "peak");
  REQUIRE(dots.size() == 1);
  CHECK(number(*dots[0], "cy") == Approx(top).margin(0.01));
  CHECK(find(root, "text", "peak-label")[0]->visibleText() == "peak 200 at line 7877");
  // The bucket holding the spike names it.
  std::size_t spikeTitles = 0;
  for (const auto* hit : hits) {
    const std::string& title = hit->child("title")->text;
    if (title.find("most live at line 7877: add.s32 %r7777, %r1, 7777; \xE2\x80\x94 200 live") != std::string::npos) {
      ++spikeTitles;
      CHECK(title.rfind("lines ", 0) == 0);
    }
  }
  CHECK(spikeTitles == 1);
  // The estimate equals the peak: no dashed line.
  CHECK(find(root, "line", "estimate").empty());
  CHECK(find(root, "rect", "loop").size() == 1);
}

TEST_CASE("register plot: no instructions", "[plot]") {
  PlotInput input;
  input.kernel = "empty_kernel";
  input.target = "sm_90";
  input.budgetReason = "255 per thread";
  const std::string svg = renderRegisterPlot(input);
  keep("empty", svg);
  const XmlNode root = parseSvg(svg);
  const auto empty = find(root, "text", "empty");
  REQUIRE(empty.size() == 1);
  CHECK(empty[0]->visibleText() == "no instructions");
  CHECK(find(root, "path").empty());
  CHECK(find(root, "rect", "hit").empty());
  CHECK(find(root, "circle").empty());
  CHECK(root.children.front().text.find("empty_kernel") != std::string::npos);
  // A peak index into nothing is harmless.
  input.peakIndex = 12;
  CHECK(renderRegisterPlot(input) == svg);
}

TEST_CASE("register plot: long kernel names are shortened only where they are shown", "[plot]") {
  PlotInput input = smallExample();
  std::string longName = "_ZN7cutlass6KernelINS_4gemm6kernel";
  for (int i = 0; i < 40; ++i) longName += "Segment" + std::to_string(i);
  longName += "_tail_end";
  input.kernel = longName;
  const std::string svg = renderRegisterPlot(input);
  keep("long-name", svg);
  const XmlNode root = parseSvg(svg);
  const auto headings = find(root, "text", "heading");
  REQUIRE(headings.size() == 1);
  const std::string visible = headings[0]->visibleText();
  CHECK(visible.find(longName) == std::string::npos);
  CHECK(visible.find("\xE2\x80\xA6") != std::string::npos);  // The ellipsis.
  CHECK(visible.size() < 120);
  CHECK(visible.find("_tail_end") != std::string::npos);      // The end survives.
  // Whole in the document's title and in the heading's own tooltip.
  CHECK(root.children.front().text.find(longName) != std::string::npos);
  REQUIRE(headings[0]->child("title") != nullptr);
  CHECK(headings[0]->child("title")->text == longName);

  // A mangled template kernel is shown demangled, without return type or parameters.
  input.kernel = "_Z11sgemm_tiledILi128ELi8EEvPKfS1_Pfiii";
  const XmlNode demangled = parseSvg(renderRegisterPlot(input));
  const std::string shown = find(demangled, "text", "heading")[0]->visibleText();
#if __has_include(<cxxabi.h>)
  CHECK(shown.rfind("sgemm_tiled<128, 8>", 0) == 0);
#endif
  CHECK(find(demangled, "text", "heading")[0]->child("title")->text == input.kernel);
}

TEST_CASE("register plot: spills and the area above the budget", "[plot]") {
  PlotInput input = gemmExample();
  input.budget = 64;
  input.budgetReason = ".maxnreg 64";
  input.estimatedRegisters = 64;
  input.spilledUnits = 24;
  input.occupancyNote = "";
  const std::string svg = renderRegisterPlot(input);
  keep("spills", svg);
  const XmlNode root = parseSvg(svg);
  const auto over = find(root, "path", "over");
  REQUIRE(over.size() == 1);
  const std::string clip = over[0]->get("clip-path");
  REQUIRE(clip.rfind("url(#", 0) == 0);
  const auto clips = find(root, "clipPath");
  REQUIRE(clips.size() == 1);
  CHECK("url(#" + clips[0]->get("id") + ")" == clip);
  CHECK(find(root, "text", "figures")[0]->visibleText().find("spills 24 registers") != std::string::npos);
  CHECK(find(root, "text", "budget-label")[0]->visibleText() == "budget 64 (.maxnreg 64)");
  CHECK(find(root, "text", "occupancy").empty());
  const YScale y = yScaleOf(root);
  CHECK(number(*find(root, "line", "budget")[0], "y1") == Approx(y.at(64)).margin(0.11));
  // The estimate is the budget: no line of its own (it would hide the budget's).
  CHECK(find(root, "line", "estimate").empty());
  input.estimatedRegisters = 70;
  const XmlNode between = parseSvg(renderRegisterPlot(input));
  const auto estimate = find(between, "line", "estimate");
  REQUIRE(estimate.size() == 1);
  CHECK(number(*estimate[0], "y1") == Approx(yScaleOf(between).at(70)).margin(0.11));
  CHECK(find(between, "text", "estimate-label")[0]->visibleText() == "estimated 70 registers");
}

TEST_CASE("register plot: peak index out of range falls back to the maximum", "[plot]") {
  PlotInput input = smallExample();
  input.peakIndex = 99;
  const XmlNode root = parseSvg(renderRegisterPlot(input));
  CHECK(find(root, "text", "peak-label")[0]->visibleText() == "peak 8 at line 13");
  // Unknown lines are named by instruction index.
  for (auto& instruction : input.instructions) instruction.line = 0;
  const XmlNode unlined = parseSvg(renderRegisterPlot(input));
  CHECK(find(unlined, "text", "peak-label")[0]->visibleText() == "peak 8");
  CHECK(find(unlined, "rect", "hit")[3]->child("title")->text.rfind("instruction 3: add.s32", 0) == 0);
  CHECK(find(unlined, "text", "xline").empty());
}

TEST_CASE("register plot: output is deterministic and matches the golden file", "[plot]") {
  const PlotInput input = smallExample();
  const std::string svg = renderRegisterPlot(input);
  CHECK(renderRegisterPlot(input) == svg);
  keep("small", svg);
  // Ids differ between kernels, so plots inlined side by side do not collide.
  PlotInput other = input;
  other.kernel = "other";
  const XmlNode a = parseSvg(svg);
  const XmlNode b = parseSvg(renderRegisterPlot(other));
  CHECK(a.children.front().get("id") != b.children.front().get("id"));
  CHECK(a.get("aria-labelledby").find(a.children.front().get("id")) != std::string::npos);
  parseSvg(svg);
  const auto golden = ptx::test::sourceDir() / "tests" / "plots" / "golden" / "small.svg";
  const char* update = std::getenv("PTXLS_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::filesystem::create_directories(golden.parent_path());
    std::ofstream(golden, std::ios::binary) << svg;
  }
  INFO("regenerate with PTXLS_UPDATE_GOLDEN=1 and review the diff: " << golden.string());
  REQUIRE(std::filesystem::exists(golden));
  CHECK(ptx::test::readFile(golden) == svg);
}

TEST_CASE("register plot: the XML checker rejects what it must", "[plot]") {
  auto ok = [](std::string_view text) { return XmlParser(text).parse().has_value(); };
  CHECK(ok("<svg a=\"1\"><g><text>x &amp; y</text></g></svg>"));
  CHECK(ok("<svg><!-- c --><![CDATA[<raw>]]></svg>"));
  CHECK_FALSE(ok("<svg><g></svg>"));
  CHECK_FALSE(ok("<svg>a < b</svg>"));
  CHECK_FALSE(ok("<svg>a > b</svg>"));
  CHECK_FALSE(ok("<svg>a & b</svg>"));
  CHECK_FALSE(ok("<svg a=\"x\" a=\"y\"/>"));
  CHECK_FALSE(ok("<svg a=\"<\"/>"));
  CHECK_FALSE(ok("<svg/><svg/>"));
  CHECK_FALSE(ok("<svg>\x01</svg>"));
  CHECK_FALSE(ok("<svg>\xFF</svg>"));
  CHECK_FALSE(ok("<svg>&bogus;</svg>"));
}
