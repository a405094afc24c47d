// SignatureHelp: renders the fitting forms of the instruction table as signatures.
#include "features/SignatureHelp.h"

#include <algorithm>

#include "features/Completion.h"
#include "isa/InstructionFacts.h"
#include "isa/InstructionForms.h"

namespace ptx::lsp {
namespace {

// Families with many forms (mma, tcgen05) would flood the popup while little is typed.
constexpr std::size_t kMaxSignatures = 24;

// Joins pieces into one string. (Spelled out because GCC 12 reports a false -Wrestrict
// on `"literal" + std::string` at -O3.)
template <typename... Pieces>
std::string concat(const Pieces&... pieces) {
  std::string out;
  (out.append(std::string_view(pieces)), ...);
  return out;
}

std::string kindsText(std::uint16_t kinds) {
  struct Name {
    std::uint16_t kind;
    std::string_view text;
  };
  static constexpr Name kNames[] = {
      {kOperandRegister, "register"},
      {kOperandImmediate, "immediate"},
      {kOperandSymbol, "variable or function name"},
      {kOperandAddress, "address `[...]`"},
      {kOperandVector, "vector `{...}`"},
      {kOperandLabel, "label"},
      {kOperandPredicate, "predicate"},
      {kOperandNegatedPredicate, "predicate or `!predicate`"},
      {kOperandPredicatePair, "predicate pair `p|q`"},
      {kOperandSink, "sink `_`"},
      {kOperandAny, "any operand"},
      {kOperandValuePredicatePair, "value with predicate `d|p`"},
  };
  std::string out;
  for (const Name& name : kNames) {
    if ((kinds & name.kind) == 0) continue;
    if (!out.empty()) out += ", ";
    out += name.text;
  }
  return out;
}

// The spelling of the N-th type element of a form (".type"), for forms not yet fully typed.
std::string_view typeElementSpelling(const InstructionForm& form, std::size_t n) {
  for (const FormElement& element : form.elements) {
    if (element.isType && n-- == 0) return element.spelling;
  }
  return {};
}

std::string typeText(const InstructionForm& form, const OperandSpec& operand, const FormMatch* match) {
  auto elementType = [&](std::size_t index) -> std::string {
    if (match != nullptr && index < match->types.size() && !match->types[index].empty()) {
      return std::string(match->types[index]);
    }
    return std::string(typeElementSpelling(form, index));
  };
  std::string out;
  switch (operand.typeRule) {
    case OperandTypeRule::None: return {};
    case OperandTypeRule::Element: out = concat("`", elementType(operand.typeIndex), "`"); break;
    case OperandTypeRule::Wide: out = concat("twice as wide as `", elementType(operand.typeIndex), "`"); break;
    case OperandTypeRule::Fixed: out = concat("`", operand.fixedType, "`"); break;
  }
  if (operand.relax == OperandRelax::WiderDestination || operand.relax == OperandRelax::WiderSource) {
    out += " (a wider register is allowed)";
  }
  return out;
}

SignatureInfo render(std::string_view spelling, const InstructionForm& form, const FormMatch* match) {
  SignatureInfo info;
  info.label = std::string(spelling);
  for (std::size_t i = 0; i < form.operands.size(); ++i) {
    const OperandSpec& operand = form.operands[i];
    info.label += i == 0 ? " " : ", ";
    if (operand.optional) info.label += '{';
    auto begin = static_cast<std::uint32_t>(info.label.size());
    info.label += operand.name;
    info.parameters.push_back(ByteRange{begin, static_cast<std::uint32_t>(info.label.size())});
    if (operand.optional) info.label += '}';
  }
  std::string& doc = info.documentation;
  doc = "```ptx\n";
  doc += std::string_view(form.text).substr(0, form.text.find(' '));
  doc += "\n```\n";
  for (const OperandSpec& operand : form.operands) {
    doc += "\n- `";
    doc += operand.name;
    doc += "`: ";
    doc += kindsText(operand.kinds);
    std::string type = typeText(form, operand, match);
    if (!type.empty()) doc += concat("; type ", type);
    if (operand.optional) doc += "; optional";
  }
  if (form.minPtx || !form.targets.empty()) {
    doc += "\n\nRequires";
    if (form.minPtx) {
      doc += concat(" PTX ISA ", std::to_string(form.minPtx->major), ".", std::to_string(form.minPtx->minor));
    }
    for (std::size_t t = 0; t < form.targets.size(); ++t) {
      doc += t == 0 ? (form.minPtx ? ", `" : " `") : " or `";
      doc += form.targets[t];
      doc += '`';
    }
    doc += '.';
  }
  doc += '\n';
  return info;
}

}  // namespace

std::optional<SignatureHelp> signatureHelpAt(std::string_view text, const LintResult& /*analysis*/,
                                             std::uint32_t offset) {
  std::optional<InstructionAtCursor> at = instructionAtCursor(text, offset);
  if (!at || !at->inOperands || familyNamed(at->opcode) == Family::Call) return std::nullopt;
  const InstructionFamily* family = findInstructionFamily(at->opcode);
  if (family == nullptr) return std::nullopt;
  SignatureHelp help;
  help.activeParameter = at->operandIndex;
  auto addUnique = [&](SignatureInfo info) {
    if (help.signatures.size() >= kMaxSignatures) return;
    bool known = std::any_of(help.signatures.begin(), help.signatures.end(),
                             [&](const SignatureInfo& other) { return other.label == info.label; });
    if (!known) help.signatures.push_back(std::move(info));
  };
  // With a complete spelling, each signature shows it as typed; otherwise each shows the
  // template of a form the typing may still become.
  std::vector<FormMatch> complete = matchForms(*family, at->modifiers);
  if (!complete.empty()) {
    std::string spelling(at->opcode);
    for (std::string_view modifier : at->modifiers) spelling += modifier;
    for (const FormMatch& match : complete) addUnique(render(spelling, *match.form, &match));
  } else {
    for (const PartialFormMatch& match : matchFormsPartially(*family, at->modifiers)) {
      const InstructionForm& form = *match.form;
      addUnique(render(std::string_view(form.text).substr(0, form.text.find(' ')), form, nullptr));
    }
  }
  if (help.signatures.empty()) return std::nullopt;
  // The first signature with an operand at the cursor.
  for (std::size_t i = 0; i < help.signatures.size(); ++i) {
    if (help.signatures[i].parameters.size() > help.activeParameter) {
      help.activeSignature = static_cast<std::uint32_t>(i);
      break;
    }
  }
  return help;
}

}  // namespace ptx::lsp
