// AsmFragment: operand substitution and the synthesized PTX module.
#include "cuda/AsmFragment.h"

#include <algorithm>
#include <cctype>

namespace ptx::cuda {
namespace {

class SegmentWriter {
 public:
  explicit SegmentWriter(SubstitutedTemplate& out) : out_(out) {}

  // Template bytes [offset, offset + length) become `ptx`.
  void write(std::uint32_t offset, std::uint32_t length, std::string_view ptx) {
    auto position = static_cast<std::uint32_t>(out_.text.size());
    out_.text.append(ptx);
    auto& segments = out_.segments;
    bool identity = length == ptx.size();
    if (identity && !segments.empty()) {
      auto& last = segments.back();
      if (last.ptxLength == last.templateLength && last.templateOffset + last.templateLength == offset &&
          last.ptx + last.ptxLength == position) {
        last.ptxLength += length;
        last.templateLength += length;
        return;
      }
    }
    segments.push_back({position, static_cast<std::uint32_t>(ptx.size()), offset, length});
  }

 private:
  SubstitutedTemplate& out_;
};

}  // namespace

std::pair<std::uint32_t, std::uint32_t> SubstitutedTemplate::templateRangeOf(std::uint32_t ptxBegin,
                                                                               std::uint32_t ptxEnd) const {
  if (segments.empty()) return {0, 0};
  auto locate = [&](std::uint32_t offset, bool isEnd) -> std::uint32_t {
    auto it = std::upper_bound(segments.begin(), segments.end(), offset,
                               [](std::uint32_t o, const Segment& s) { return o < s.ptx; });
    if (it == segments.begin()) return segments.front().templateOffset;
    --it;
    std::uint32_t inside = offset - it->ptx;
    if (inside >= it->ptxLength) return it->templateOffset + it->templateLength;
    if (it->ptxLength == it->templateLength) return it->templateOffset + inside;
    return isEnd && inside > 0 ? it->templateOffset + it->templateLength : it->templateOffset;
  };
  std::uint32_t begin = locate(ptxBegin, false);
  std::uint32_t end = ptxEnd > ptxBegin ? locate(ptxEnd, true) : begin;
  if (end < begin) end = begin;
  return {begin, end};
}

std::uint32_t SubstitutedTemplate::ptxOffsetOf(std::uint32_t templateOffset) const {
  for (const Segment& segment : segments) {
    if (templateOffset >= segment.templateOffset + segment.templateLength) continue;
    if (templateOffset <= segment.templateOffset) return segment.ptx;
    if (segment.ptxLength == segment.templateLength) return segment.ptx + (templateOffset - segment.templateOffset);
    return segment.ptx + segment.ptxLength;
  }
  return static_cast<std::uint32_t>(text.size());
}

SubstitutedTemplate substituteOperands(const AsmStatement& statement) {
  SubstitutedTemplate out;
  const std::string& tpl = statement.templateText;
  out.text.reserve(tpl.size() + 16);
  SegmentWriter writer(out);
  auto size = static_cast<std::uint32_t>(tpl.size());
  std::uint32_t runStart = 0;
  auto flush = [&](std::uint32_t upTo) {
    if (upTo > runStart) writer.write(runStart, upTo - runStart, std::string_view(tpl).substr(runStart, upTo - runStart));
  };
  bool substitutes = statement.substitutes();
  for (std::uint32_t i = 0; i < size; ++i) {
    if (tpl[i] != '%' || i + 1 >= size) continue;
    char next = tpl[i + 1];
    if (!substitutes) {
      if (next == '%' || next == '=') {
        out.issues.push_back({TemplateEscapeIssue::Kind::EscapeWithoutOperands, i, i + 2, 0});
        ++i;
      } else if (std::isdigit(static_cast<unsigned char>(next))) {
        // Copied verbatim: ptxas meets an undeclared `%0`.
        std::uint32_t end = i + 1;
        while (end < size && std::isdigit(static_cast<unsigned char>(tpl[end]))) ++end;
        out.issues.push_back({TemplateEscapeIssue::Kind::OperandOutOfRange, i, end, 0});
        i = end - 1;
      }
      continue;
    }
    if (next == '%') {
      flush(i);
      writer.write(i, 2, "%");
      runStart = i + 2;
      ++i;
      continue;
    }
    if (next == '=') {
      flush(i);
      writer.write(i, 2, "0");
      runStart = i + 2;
      ++i;
      continue;
    }
    if (next == '[') {
      std::uint32_t close = i + 2;
      while (close < size && tpl[close] != ']' && tpl[close] != '\n') ++close;
      std::uint32_t end = close < size && tpl[close] == ']' ? close + 1 : close;
      out.issues.push_back({TemplateEscapeIssue::Kind::NamedOperand, i, end, 0});
      i = end - 1;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(next))) {
      std::uint32_t end = i + 1;
      std::uint64_t number = 0;
      while (end < size && std::isdigit(static_cast<unsigned char>(tpl[end]))) {
        number = std::min<std::uint64_t>(number * 10 + static_cast<unsigned>(tpl[end] - '0'), UINT32_MAX);
        ++end;
      }
      auto index = static_cast<std::uint32_t>(number);
      if (index >= statement.operands.size()) {
        out.issues.push_back({TemplateEscapeIssue::Kind::OperandOutOfRange, i, end, index});
        i = end - 1;
        continue;
      }
      const AsmOperand& operand = statement.operands[index];
      flush(i);
      auto ptxBegin = static_cast<std::uint32_t>(out.text.size());
      if (operand.kind == ConstraintKind::Immediate) {
        if (operand.pastedText) {
          writer.write(i, end - i, *operand.pastedText);
        } else {
          // A value known only at instantiation (a template parameter): a stand-in that every
          // immediate operand accepts. Checks that depend on the value must not trust it.
          out.pastedUnknownImmediate = true;
          writer.write(i, end - i, "1");
        }
      } else {
        writer.write(i, end - i, std::string_view(tpl).substr(i, end - i));
      }
      out.references.push_back({index, i, end, ptxBegin, static_cast<std::uint32_t>(out.text.size())});
      runStart = end;
      i = end - 1;
      continue;
    }
    // `%` + one letter + a digit is an operand modifier (`%c0`); longer names pass through.
    if (std::isalpha(static_cast<unsigned char>(next)) && i + 2 < size &&
        std::isdigit(static_cast<unsigned char>(tpl[i + 2]))) {
      std::uint32_t end = i + 2;
      while (end < size && std::isdigit(static_cast<unsigned char>(tpl[end]))) ++end;
      out.issues.push_back({TemplateEscapeIssue::Kind::OperandModifier, i, end, 0});
      i = end - 1;
      continue;
    }
  }
  flush(size);
  if (!substitutes) out.text = tpl, out.segments = {{0, size, 0, size}};
  return out;
}

bool bracesBalance(std::string_view ptx) {
  int depth = 0;
  for (std::size_t i = 0; i < ptx.size(); ++i) {
    char c = ptx[i];
    if (c == '/' && i + 1 < ptx.size() && ptx[i + 1] == '/') {
      std::size_t eol = ptx.find('\n', i);
      if (eol == std::string_view::npos) break;
      i = eol;
      continue;
    }
    if (c == '/' && i + 1 < ptx.size() && ptx[i + 1] == '*') {
      std::size_t close = ptx.find("*/", i + 2);
      if (close == std::string_view::npos) break;
      i = close + 1;
      continue;
    }
    if (c == '{') ++depth;
    if (c == '}' && --depth < 0) return false;
  }
  return depth == 0;
}

const FragmentModule::Entry* FragmentModule::entryAt(std::uint32_t offset) const {
  auto it = std::upper_bound(entries.begin(), entries.end(), offset,
                             [](std::uint32_t o, const Entry& e) { return o < e.bodyBegin; });
  if (it == entries.begin()) return nullptr;
  --it;
  return offset <= it->bodyEnd ? &*it : nullptr;
}

FragmentModule buildFragmentModule(const std::vector<AsmStatement>& statements, std::string_view ptxTarget,
                                   std::string_view ptxVersion, FragmentSelection selection) {
  FragmentModule module;
  module.text.reserve(256 + statements.size() * 160);
  module.text.append(".version ").append(ptxVersion).append("\n.target ").append(ptxTarget).append("\n.address_size 64\n");
  for (std::uint32_t s = 0; s < statements.size(); ++s) {
    const AsmStatement& statement = statements[s];
    if (statement.opaqueReason) continue;
    SubstitutedTemplate substituted = substituteOperands(statement);
    if (selection == FragmentSelection::Checkable && (!substituted.issues.empty() || !bracesBalance(substituted.text)))
      continue;
    module.text.append("\n.func __ptxls_asm_").append(std::to_string(s)).append("()\n{\n");
    for (std::uint32_t k = 0; k < statement.operands.size(); ++k) {
      std::string_view type = registerTypeOf(statement.operands[k].kind);
      if (type.empty()) continue;
      module.text.append(".reg ").append(type).append(" %").append(std::to_string(k)).append(";\n");
    }
    FragmentModule::Entry entry;
    entry.statement = s;
    entry.bodyBegin = static_cast<std::uint32_t>(module.text.size());
    module.text.append(substituted.text);
    entry.bodyEnd = static_cast<std::uint32_t>(module.text.size());
    module.text.append("\n}\n");
    entry.substituted = std::move(substituted);
    module.entries.push_back(std::move(entry));
  }
  return module;
}

}  // namespace ptx::cuda
