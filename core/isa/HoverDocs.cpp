// HoverDocs: renders reference entries as short Markdown documents.
#include "isa/HoverDocs.h"

#include "isa/InstructionForms.h"
#include "isa/IsaReference.h"
#include "isa/ModifierDocs.h"

namespace ptx {
namespace {

std::string versionText(PtxVersion version) {
  return std::to_string(version.major) + "." + std::to_string(version.minor);
}

// "Requires PTX ISA 7.8, sm_90." with sm_10 (every target) left out.
std::string requirementLine(PtxVersion version, std::string_view target) {
  std::string line = "Requires PTX ISA ";
  line += versionText(version);
  if (!target.empty() && target != "sm_10") {
    line += ", `";
    line += target;
    line += '`';
  }
  line += '.';
  return line;
}

void appendCode(std::string& out, std::string_view code) {
  out += "```ptx\n";
  out += code;
  if (!code.ends_with('\n')) out += '\n';
  out += "```\n";
}

}  // namespace

std::optional<std::string> instructionSummary(std::string_view opcode) {
  const OpcodeInfo* info = findOpcode(opcode);
  if (info == nullptr) return std::nullopt;
  std::string out = "**";
  out += info->name;
  out += "** — instruction\n\n";
  out += info->summary;
  out += "\n\n";
  appendCode(out, info->syntax);
  out += "\n";
  out += info->operands;
  out += "\n\n";
  out += requirementLine(info->minPtx, info->minTarget);
  out += '\n';
  return out;
}

std::optional<std::string> instructionHover(std::string_view opcode) {
  std::optional<std::string> summary = instructionSummary(opcode);
  if (!summary) return std::nullopt;
  std::string out = std::move(*summary);
  if (const InstructionFamily* family = findInstructionFamily(opcode)) {
    out += "\nForms (";
    out += std::to_string(family->forms.size());
    out += "):\n";
    // Each form as the ISA writes it: template, operand names, and what it needs.
    std::string forms;
    for (const InstructionForm& form : family->forms) {
      forms += std::string_view(form.text).substr(0, form.text.find(' '));
      for (std::size_t i = 0; i < form.operands.size(); ++i) {
        forms += i == 0 ? " " : ", ";
        if (form.operands[i].optional) forms += '{';
        forms += form.operands[i].name;
        if (form.operands[i].optional) forms += '}';
      }
      forms += ';';
      if (form.minPtx || !form.targets.empty()) {
        forms += "  // ";
        if (form.minPtx) forms += "PTX " + versionText(*form.minPtx);
        for (std::size_t t = 0; t < form.targets.size(); ++t) {
          forms += t == 0 ? (form.minPtx ? ", " : "") : " or ";
          forms += form.targets[t];
        }
      }
      forms += '\n';
    }
    appendCode(out, forms);
  }
  return out;
}

namespace {

// "**.rn** — modifier" and its description; nullopt when the table has none.
std::optional<std::string> descriptionMarkdown(std::string_view spelled, Family family) {
  std::string_view description = describeModifier(modifierNamed(spelled), family);
  if (description.empty()) return std::nullopt;
  std::string out = "**";
  out += spelled;
  out += "** — modifier\n\n";
  out += description;
  out += '\n';
  return out;
}

// The reference tables' entry for `word`: instruction, special register, directive, type or
// state space.
std::optional<std::string> referenceMarkdown(std::string_view word) {
  if (word.empty()) return std::nullopt;
  if (word[0] != '.' && word[0] != '%' && word != "WARP_SZ") return instructionHover(word);
  if (word[0] == '%' || word == "WARP_SZ") {
    // `%tid.x` documents `%tid`.
    std::string_view base = word;
    if (auto dot = word.find('.'); dot != std::string_view::npos) base = word.substr(0, dot);
    const SpecialRegisterInfo* info = findSpecialRegister(base);
    if (info == nullptr) return std::nullopt;
    std::string out = "**";
    out += base;
    out += "** — special register";
    if (!info->type.empty()) {
      out += " (`";
      out += info->type;
      out += "`)";
    }
    out += "\n\n";
    out += info->summary;
    out += "\n\n";
    out += requirementLine(info->minPtx, info->minTarget);
    out += '\n';
    return out;
  }
  if (const DirectiveInfo* info = findDirective(word)) {
    std::string out = "**";
    out += info->name;
    out += "** — directive\n\n";
    out += info->summary;
    out += "\n\n";
    appendCode(out, info->syntax);
    out += "\n";
    out += requirementLine(info->minPtx, info->minTarget);
    out += '\n';
    return out;
  }
  if (const TypeInfo* info = findType(word)) {
    std::string out = "**";
    out += info->name;
    out += "** — type, ";
    out += std::to_string(info->sizeBits);
    out += " bits\n\n";
    out += info->summary;
    out += "\n\n";
    out += requirementLine(info->minPtx, info->minTarget);
    out += '\n';
    return out;
  }
  // `.shared::cta` documents `.shared`.
  std::string_view space = word.substr(0, word.find("::"));
  if (const StateSpaceInfo* info = findStateSpace(space)) {
    std::string out = "**";
    out += info->name;
    out += "** — state space\n\n";
    out += info->summary;
    out += "\n\nAddressable: ";
    out += info->addressable;
    out += ". Access: ";
    out += info->access;
    out += ".\n";
    return out;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> hoverMarkdown(std::string_view word) {
  if (auto reference = referenceMarkdown(word)) return reference;
  if (!word.starts_with('.')) return std::nullopt;
  return descriptionMarkdown(word, Family::Unknown);
}

std::optional<std::string> modifierHover(std::string_view spelled, Family family) {
  if (!spelled.starts_with('.')) return std::nullopt;
  // On an instruction a modifier means what the instruction makes of it (`.weak` is a
  // memory semantics there, not the linkage directive).
  if (auto description = descriptionMarkdown(spelled, family)) return description;
  return referenceMarkdown(spelled);
}

std::span<const std::string_view> specialRegisterComponents(std::string_view name) {
  static constexpr std::string_view kComponents[] = {".x", ".y", ".z"};
  const SpecialRegisterInfo* info = findSpecialRegister(name);
  // The vector registers say so in their type: ".v4.u32 with .x .y .z components ...".
  if (info == nullptr || info->type.find(".x") == std::string_view::npos) return {};
  return kComponents;
}

}  // namespace ptx
