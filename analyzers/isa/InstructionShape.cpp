// InstructionShape: form selection and the operand checks behind ISA004–ISA008.
#include "isa/InstructionShape.h"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <thread>

#include "RuleContext.h"
#include "support/ParallelFor.h"

namespace ptx {
namespace {

std::string_view slice(std::string_view text, ByteRange range) {
  return text.substr(range.begin, range.end - range.begin);
}

std::string quoted(std::string_view word) {
  std::string out(1, '\'');
  out += word;
  out += '\'';
  return out;
}

bool hasKind(const OperandSpec& spec, std::uint16_t kinds) { return (spec.kinds & kinds) != 0; }

struct OperandIssue {
  ShapeProblem problem;
  ByteRange range;
  std::string message;
};

class FormChecker {
 public:
  FormChecker(std::string_view text, const Module& module, const InstructionSite& site, std::string_view opcode)
      : text_(text), module_(module), site_(site), opcode_(opcode) {}

  // Every operand problem of the statement measured against one form.
  std::vector<OperandIssue> check(const FormMatch& match) const {
    std::vector<OperandIssue> issues;
    const InstructionForm& form = *match.form;
    std::size_t required = static_cast<std::size_t>(std::count_if(
        form.operands.begin(), form.operands.end(), [](const OperandSpec& spec) { return !spec.optional; }));
    std::size_t given = site_.operandCount;
    if (given < required || given > form.operands.size()) {
      std::string message = quoted(opcode_);
      message += " takes ";
      message += countText(required, form.operands.size());
      message += ", not ";
      message += std::to_string(given);
      message += " (form: ";
      message += form.text.substr(0, form.text.find(' '));
      message += ' ';
      message += operandNames(form);
      message += ')';
      ByteRange where = site_.statement;
      if (given > form.operands.size()) where = module_.operands[site_.firstOperand + form.operands.size()].range;
      issues.push_back({ShapeProblem::OperandCount, where, std::move(message)});
      return issues;
    }
    for (std::size_t i = 0; i < given; ++i) {
      checkOperand(module_.operands[site_.firstOperand + i], form.operands[i], i, match, issues);
    }
    return issues;
  }

 private:
  // "operand 2 of 'add'", the start of every per-operand message.
  std::string operandText(std::size_t position) const {
    std::string text = "operand ";
    text += std::to_string(position + 1);
    text += " of ";
    text += quoted(opcode_);
    return text;
  }

  static std::string countText(std::size_t required, std::size_t total) {
    std::string text = std::to_string(required);
    if (total != required) {
      text += " to ";
      text += std::to_string(total);
    }
    text += total == 1 ? " operand" : " operands";
    return text;
  }

  static std::string operandNames(const InstructionForm& form) {
    std::string names;
    for (const OperandSpec& spec : form.operands) {
      if (!names.empty()) names += ", ";
      names += spec.name;
      if (spec.optional) names += '?';
    }
    return names;
  }

  static bool accepts(const OperandSpec& spec, const InstructionOperand& operand, const Symbol* symbol) {
    if (hasKind(spec, kOperandAny)) return true;
    switch (operand.shape) {
      case OperandShape::Register: {
        bool predicate = symbol != nullptr && symbol->typeId == Modifier::Pred;
        if (predicate) {
          return hasKind(spec, kOperandPredicate | kOperandNegatedPredicate | kOperandPredicatePair |
                                   kOperandRegister);
        }
        // A non-predicate register where only a predicate fits is a type problem, reported
        // by the type check with a better message.
        return hasKind(spec, kOperandRegister | kOperandPredicate | kOperandNegatedPredicate |
                                 kOperandPredicatePair | kOperandValuePredicatePair);
      }
      case OperandShape::SpecialRegister:
        return hasKind(spec, kOperandRegister | kOperandImmediate);
      case OperandShape::Symbol:
        return hasKind(spec, kOperandSymbol | kOperandLabel) ||
               (symbol != nullptr && symbol->kind == SymbolKind::Label);
      case OperandShape::UnresolvedName:
        return true;  // SEM001 reports it, or it is a label the model resolves later.
      case OperandShape::IntegerLiteral:
      case OperandShape::FloatLiteral:
        return hasKind(spec, kOperandImmediate);
      case OperandShape::Expression:
        return hasKind(spec, kOperandImmediate | kOperandRegister | kOperandSymbol);
      case OperandShape::Address:
        return hasKind(spec, kOperandAddress);
      case OperandShape::Vector:
        return hasKind(spec, kOperandVector);
      case OperandShape::Sink:
        return hasKind(spec, kOperandSink | kOperandValuePredicatePair);
      case OperandShape::PredicatePair:
        return hasKind(spec, kOperandPredicatePair | kOperandValuePredicatePair);
      case OperandShape::NegatedPredicate:
        return hasKind(spec, kOperandNegatedPredicate);
    }
    return true;
  }

  static std::string expectedKinds(const OperandSpec& spec) {
    struct Name {
      std::uint16_t bit;
      const char* text;
    };
    static constexpr Name kNames[] = {
        {kOperandRegister, "a register"},    {kOperandImmediate, "a constant"},
        {kOperandSymbol, "a variable name"}, {kOperandAddress, "an address [..]"},
        {kOperandVector, "a vector {..}"},   {kOperandLabel, "a label"},
        {kOperandPredicate, "a predicate"},  {kOperandNegatedPredicate, "a predicate"},
        {kOperandPredicatePair, "a predicate (or p|q)"}, {kOperandSink, "'_'"},
        {kOperandValuePredicatePair, "a register (or d|p)"},
    };
    std::string text;
    std::vector<std::string_view> seen;
    for (const Name& name : kNames) {
      if (!hasKind(spec, name.bit)) continue;
      if (std::find(seen.begin(), seen.end(), name.text) != seen.end()) continue;
      if (!text.empty()) text += " or ";
      text += name.text;
      seen.push_back(name.text);
    }
    return text;
  }

  static std::string_view shapeText(OperandShape shape) {
    switch (shape) {
      case OperandShape::Register: return "a register";
      case OperandShape::SpecialRegister: return "a special register";
      case OperandShape::Symbol: return "a variable or function name";
      case OperandShape::UnresolvedName: return "a name";
      case OperandShape::IntegerLiteral: return "an integer constant";
      case OperandShape::FloatLiteral: return "a floating-point constant";
      case OperandShape::Expression: return "an expression";
      case OperandShape::Address: return "an address";
      case OperandShape::Vector: return "a vector";
      case OperandShape::Sink: return "'_'";
      case OperandShape::PredicatePair: return "a predicate pair";
      case OperandShape::NegatedPredicate: return "a negated predicate";
    }
    return "an operand";
  }

  // The type an operand's registers must fit, or empty when unchecked.
  static std::string expectedType(const OperandSpec& spec, const FormMatch& match) {
    switch (spec.typeRule) {
      case OperandTypeRule::None:
        return {};
      case OperandTypeRule::Fixed:
        return spec.fixedType;
      case OperandTypeRule::Element:
      case OperandTypeRule::Wide: {
        if (spec.typeIndex >= match.types.size() || match.types[spec.typeIndex].empty()) return {};
        std::string type(match.types[spec.typeIndex]);
        if (spec.typeRule == OperandTypeRule::Element) return type;
        const TypeInfo* info = findType(type);
        if (info == nullptr || type.size() < 2) return {};
        std::string wide(1, '.');
        wide += type[1];
        wide += std::to_string(info->sizeBits * 2);
        return wide;
      }
    }
    return {};
  }

  void checkRegisterType(const InstructionOperand& operand, const OperandSpec& spec, const std::string& type,
                         std::size_t position, std::vector<OperandIssue>& issues, bool forcePredicate = false) const {
    if (operand.symbol == kNoSymbol) return;
    const Symbol& symbol = module_.symbols[operand.symbol];
    // Vector registers (`.reg .v2 .b16 x`) are checked as a whole by ptxas; not here.
    if (!symbol.isRegister() || symbol.type.empty() || symbol.vectorWidth != 0) return;
    // 8-bit registers outside ld/st/cvt are ISA009's to report.
    if (isByteRegisterType(symbol.typeId) && !allowsByteRegisters(module_.factsOf(site_).family)) return;
    bool predicateOnly = forcePredicate || (!hasKind(spec, kOperandRegister | kOperandValuePredicatePair) &&
                                            hasKind(spec, kOperandPredicate | kOperandNegatedPredicate |
                                                              kOperandPredicatePair));
    std::string_view wanted = predicateOnly ? spellingOf(Modifier::Pred) : std::string_view(type);
    if (wanted.empty() || registerTypeFits(wanted, symbol.type, spec.relax)) return;
    std::string message = operandText(position);
    message += ": register ";
    message += quoted(slice(text_, operand.range));
    message += " is ";
    message += symbol.type;
    message += ", which does not fit ";
    message += wanted;
    if (spec.relax == OperandRelax::WiderDestination || spec.relax == OperandRelax::WiderSource) {
      message += " (a wider integer register would)";
    }
    issues.push_back({ShapeProblem::OperandType, operand.range, std::move(message)});
  }

  void checkImmediateType(const InstructionOperand& operand, const std::string& type, std::size_t position,
                          std::vector<OperandIssue>& issues) const {
    if (type.size() < 2) return;
    char kind = type[1];
    Modifier typeId = modifierNamed(type);
    bool halfType = typeId == Modifier::F16 || typeId == Modifier::Bf16;
    bool floatType = halfType || typeId == Modifier::F32 || typeId == Modifier::F64;
    bool integerType = kind == 's' || kind == 'u';
    std::string_view spelled = slice(text_, operand.range);
    bool decimalFloat = operand.shape == OperandShape::FloatLiteral && !spelled.starts_with("0f") &&
                        !spelled.starts_with("0F") && !spelled.starts_with("0d") && !spelled.starts_with("0D");
    // ptxas: integer constants never stand for floats; floating-point constants never for
    // integers; a decimal one not for bits either (a 0f/0d bit pattern may, and .b64 takes a
    // decimal one as its double bits), nor for halves.
    bool mismatch = (operand.shape == OperandShape::IntegerLiteral && floatType) ||
                    (operand.shape == OperandShape::FloatLiteral && integerType) ||
                    (decimalFloat && ((kind == 'b' && typeId != Modifier::B64) || halfType));
    if (!mismatch) return;
    std::string message = operandText(position);
    message += ": ";
    message += shapeText(operand.shape);
    message += " does not fit ";
    message += type;
    message += floatType ? " (write it as a floating-point constant, e.g. 1.0 or 0f3F800000)" : "";
    issues.push_back({ShapeProblem::OperandType, operand.range, std::move(message)});
  }

  void checkOperand(const InstructionOperand& operand, const OperandSpec& spec, std::size_t position,
                    const FormMatch& match, std::vector<OperandIssue>& issues) const {
    const Symbol* symbol = operand.symbol == kNoSymbol ? nullptr : &module_.symbols[operand.symbol];
    if (!accepts(spec, operand, symbol)) {
      std::string message = operandText(position);
      message += " must be ";
      message += expectedKinds(spec);
      message += ", not ";
      message += shapeText(operand.shape);
      issues.push_back({ShapeProblem::OperandKind, operand.range, std::move(message)});
      return;
    }
    if (hasKind(spec, kOperandAny)) return;
    std::string type = expectedType(spec, match);
    // With .vN the vector operand must be a brace list (or a vector register), not a scalar.
    if (match.vectorWidth != 0 && hasKind(spec, kOperandVector) && operand.shape == OperandShape::Register &&
        symbol != nullptr && symbol->vectorWidth == 0) {
      std::string message = operandText(position);
      message += " must be a vector of ";
      message += std::to_string(match.vectorWidth);
      message += " elements for .v";
      message += std::to_string(match.vectorWidth);
      message += ", not a single register";
      issues.push_back({ShapeProblem::OperandKind, operand.range, std::move(message)});
      return;
    }
    switch (operand.shape) {
      case OperandShape::Register:
      case OperandShape::NegatedPredicate:
        checkRegisterType(operand, spec, type, position, issues);
        break;
      case OperandShape::IntegerLiteral:
      case OperandShape::FloatLiteral:
        checkImmediateType(operand, type, position, issues);
        break;
      case OperandShape::Vector: {
        if (match.vectorWidth != 0 && operand.elementCount != match.vectorWidth) {
          std::string message = operandText(position);
          message += " must be a vector of ";
          message += std::to_string(match.vectorWidth);
          message += " elements (.v";
          message += std::to_string(match.vectorWidth);
          message += "), not ";
          message += std::to_string(operand.elementCount);
          issues.push_back({ShapeProblem::OperandKind, operand.range, std::move(message)});
          return;
        }
        for (std::uint32_t e = 0; e < operand.elementCount; ++e) {
          const InstructionOperand& element = module_.operands[operand.firstElement + e];
          if (element.shape == OperandShape::Register) checkRegisterType(element, spec, type, position, issues);
        }
        break;
      }
      case OperandShape::PredicatePair: {
        // `d|p` (kind m): the value register has the operand's type, the second is a predicate.
        bool valuePair = hasKind(spec, kOperandValuePredicatePair) && !hasKind(spec, kOperandPredicatePair);
        for (std::uint32_t e = 0; e < operand.elementCount; ++e) {
          const InstructionOperand& element = module_.operands[operand.firstElement + e];
          if (element.shape != OperandShape::Register) continue;
          checkRegisterType(element, spec, type, position, issues, valuePair && e == 1);
        }
        break;
      }
      default:
        break;
    }
  }

  std::string_view text_;
  const Module& module_;
  const InstructionSite& site_;
  std::string_view opcode_;
};

// Why no form fits the modifiers (all of them known to the family).
std::string explainCombination(const InstructionFamily& family, std::span<const std::string_view> modifiers,
                               std::string_view spelled) {
  // The form that hosts the most modifiers, filling each element once.
  const InstructionForm* best = nullptr;
  std::vector<int> bestHost;
  std::size_t bestHosted = 0;
  for (const InstructionForm& form : family.forms) {
    std::vector<int> host(modifiers.size(), -1);
    std::vector<bool> used(form.elements.size(), false);
    std::size_t hosted = 0;
    for (std::size_t m = 0; m < modifiers.size(); ++m) {
      for (std::size_t e = 0; e < form.elements.size(); ++e) {
        const auto& values = form.elements[e].values;
        if (!used[e] && std::find(values.begin(), values.end(), modifiers[m]) != values.end()) {
          used[e] = true;
          host[m] = static_cast<int>(e);
          ++hosted;
          break;
        }
      }
    }
    if (best == nullptr || hosted > bestHosted) {
      best = &form;
      bestHost = host;
      bestHosted = hosted;
    }
  }
  std::string message = quoted(spelled);
  message += ": ";
  if (best == nullptr) return message + "no form takes these modifiers";
  std::string_view formTemplate = std::string_view(best->text).substr(0, best->text.find(' '));
  for (std::size_t m = 0; m < modifiers.size(); ++m) {
    if (bestHost[m] >= 0) continue;
    // Unhosted: a second value for an element already filled, or foreign to this form.
    for (std::size_t other = 0; other < m; ++other) {
      if (bestHost[other] < 0) continue;
      const auto& values = best->elements[static_cast<std::size_t>(bestHost[other])].values;
      if (std::find(values.begin(), values.end(), modifiers[m]) != values.end()) {
        message += quoted(modifiers[other]);
        message += " and ";
        message += quoted(modifiers[m]);
        message += " are alternatives (";
        message += best->elements[static_cast<std::size_t>(bestHost[other])].spelling;
        message += "); give one";
        return message;
      }
    }
    message += quoted(modifiers[m]);
    message += " cannot be combined with the other modifiers (closest form: ";
    message += formTemplate;
    message += ')';
    return message;
  }
  // Everything hosted: a required element is missing. Gather, over every form that hosts all
  // the modifiers, the first required element it lacks, so the message lists the choices.
  std::vector<std::string> choices;
  std::vector<std::string_view> forms;
  for (const InstructionForm& form : family.forms) {
    std::vector<bool> used(form.elements.size(), false);
    bool all = true;
    for (std::string_view modifier : modifiers) {
      bool placed = false;
      for (std::size_t e = 0; e < form.elements.size() && !placed; ++e) {
        const auto& values = form.elements[e].values;
        if (!used[e] && std::find(values.begin(), values.end(), modifier) != values.end()) {
          used[e] = true;
          placed = true;
        }
      }
      all = all && placed;
    }
    if (!all) continue;
    for (std::size_t e = 0; e < form.elements.size(); ++e) {
      if (form.elements[e].optional || used[e]) continue;
      for (const std::string& value : form.elements[e].values) {
        if (std::find(choices.begin(), choices.end(), value) == choices.end()) choices.push_back(value);
      }
      forms.push_back(std::string_view(form.text).substr(0, form.text.find(' ')));
      break;
    }
  }
  if (choices.size() > 1 && choices.size() <= 12) {
    message += "missing one of";
    for (const std::string& choice : choices) {
      message += ' ';
      message += choice;
    }
    message += " (forms:";
    for (std::size_t f = 0; f < forms.size() && f < 4; ++f) {
      message += ' ';
      message += forms[f];
    }
    if (forms.size() > 4) message += " ...";
    message += ')';
    return message;
  }
  std::vector<bool> filled(best->elements.size(), false);
  for (int host : bestHost) filled[static_cast<std::size_t>(host)] = true;
  for (std::size_t e = 0; e < best->elements.size(); ++e) {
    const FormElement& element = best->elements[e];
    if (element.optional || filled[e]) continue;
    message += "missing ";
    if (element.values.size() == 1) {
      message += quoted(element.values[0]);
    } else {
      message += "one of";
      for (std::size_t v = 0; v < element.values.size() && v < 8; ++v) {
        message += ' ';
        message += element.values[v];
      }
      if (element.values.size() > 8) message += " ...";
    }
    message += " (form: ";
    message += formTemplate;
    message += ')';
    return message;
  }
  return message + "no form takes these modifiers";
}

// Operand findings against the form the operands fit best (none when one fits entirely).
void checkOperands(std::string_view text, const Module& module, const InstructionSite& site, std::string_view opcode,
                   std::uint32_t instruction, const std::vector<FormMatch>& matches, InstructionShapes& shapes) {
  FormChecker checker(text, module, site, opcode);
  std::vector<OperandIssue> bestIssues;
  for (const FormMatch& match : matches) {
    std::vector<OperandIssue> issues = checker.check(match);
    if (issues.empty()) return;
    // Prefer a form whose operand count fits, then the one with the fewest problems.
    auto rank = [](const std::vector<OperandIssue>& list) {
      bool countProblem = !list.empty() && list[0].problem == ShapeProblem::OperandCount;
      return std::pair<int, std::size_t>(countProblem ? 1 : 0, list.size());
    };
    if (bestIssues.empty() || rank(issues) < rank(bestIssues)) bestIssues = std::move(issues);
  }
  for (OperandIssue& issue : bestIssues) {
    shapes.findings.push_back({issue.problem, instruction, issue.range, std::move(issue.message), {}});
  }
}

}  // namespace

bool isByteRegisterType(Modifier type) { return type == Modifier::B8 || type == Modifier::U8 || type == Modifier::S8; }

bool allowsByteRegisters(Family family) {
  // ptxas also takes .b8 registers as suld results and sust sources, and as the fp8 vector
  // elements of multimem.ld_reduce and multimem.st.
  switch (family) {
    case Family::Ld: case Family::Ldu: case Family::St: case Family::Cvt: case Family::Call:
    case Family::Suld: case Family::Sust: case Family::Multimem: return true;
    default: return false;
  }
}

namespace {

// Matches instructions [first, last): findings go to `shapes` in order, match sets are numbered
// from `shapes.matchSets.size()` on in order of first use, and `setOf[index - first]` receives
// each instruction's set. `keys` gets, per new set, the facts index (the spelling) it is
// shared under.
void matchRange(std::string_view text, const Module& module, std::size_t first, std::size_t last, std::uint32_t* setOf,
                InstructionShapes& shapes, std::vector<std::uint32_t>& keys) {
  // Facts index (one per distinct spelling) → its entry in matchSets.
  std::vector<std::uint32_t> seen(module.instructionFacts.size(), InstructionShapes::kNoMatchSet);
  std::vector<std::string_view> modifiers;
  for (std::size_t index = first; index < last; ++index) {
    const InstructionSite& site = module.instructions[index];
    if (site.inDamagedCode || site.isCall) continue;
    std::string_view opcode = slice(text, site.opcode);
    auto instruction = static_cast<std::uint32_t>(index);
    if (std::uint32_t hit = seen[site.factsIndex]; hit != InstructionShapes::kNoMatchSet) {
      setOf[index - first] = hit;
      checkOperands(text, module, site, opcode, instruction, shapes.matchSets[hit], shapes);
      continue;
    }
    const InstructionFamily* family = findInstructionFamily(opcode);
    if (family == nullptr) continue;
    modifiers.clear();
    bool unknown = false;
    for (std::uint32_t m = 0; m < site.modifierCount; ++m) {
      ByteRange range = module.modifiers[site.firstModifier + m];
      std::string_view modifier = slice(text, range);
      modifiers.push_back(modifier);
      if (std::binary_search(family->vocabulary.begin(), family->vocabulary.end(), modifier)) continue;
      unknown = true;
      if (findType(modifier) != nullptr) {
        // A real type the family does not take: ptxas says "Unexpected instruction types".
        std::string message = quoted(opcode);
        message += " does not take type ";
        message += modifier;
        message += "; it takes";
        for (const std::string& value : family->vocabulary) {
          if (findType(value) != nullptr) {
            message += ' ';
            message += value;
          }
        }
        shapes.findings.push_back({ShapeProblem::InvalidCombination, instruction, range, std::move(message), {}});
        continue;
      }
      std::vector<std::string_view> candidates(family->vocabulary.begin(), family->vocabulary.end());
      std::string_view suggestion = closestMatch(modifier, candidates);
      std::string message = "unknown modifier ";
      message += quoted(modifier);
      message += " for ";
      message += quoted(opcode);
      if (!suggestion.empty()) {
        message += "; did you mean ";
        message += quoted(suggestion);
        message += '?';
      }
      shapes.findings.push_back(
          {ShapeProblem::UnknownModifier, instruction, range, std::move(message), std::string(suggestion)});
    }
    if (unknown) continue;
    std::vector<FormMatch> matches = matchForms(*family, modifiers);
    if (matches.empty()) {
      ByteRange range = module.spellingOf(site);
      shapes.findings.push_back({ShapeProblem::InvalidCombination, instruction, range,
                                 explainCombination(*family, modifiers, slice(text, range)), {}});
      continue;
    }
    auto set = static_cast<std::uint32_t>(shapes.matchSets.size());
    shapes.matchSets.push_back(std::move(matches));
    keys.push_back(site.factsIndex);
    setOf[index - first] = set;
    seen[site.factsIndex] = set;
    checkOperands(text, module, site, opcode, instruction, shapes.matchSets[set], shapes);
  }
}

}  // namespace

InstructionShapes checkInstructionShapes(std::string_view text, const Module& module) {
  InstructionShapes shapes;
  shapes.matchSetOf.assign(module.instructions.size(), InstructionShapes::kNoMatchSet);
  std::vector<std::uint32_t> keys;
  matchRange(text, module, 0, module.instructions.size(), shapes.matchSetOf.data(), shapes, keys);
  return shapes;
}

// The same result as checkInstructionShapes, from consecutive ranges of instructions matched
// on up to `threads` threads and joined in order: a range's set whose spelling (facts index) an
// earlier range already matched becomes that set (matching is a function of the spelling), every other set
// is appended, so sets are numbered in order of first use as in one pass. Declared where it
// is used (Lint.cpp's parallel pipeline).
InstructionShapes checkInstructionShapesParallel(std::string_view text, const Module& module, unsigned threads) {
  std::size_t count = module.instructions.size();
  std::size_t ranges = std::min<std::size_t>(std::size_t{threads} * 4, count / 256);
  if (threads <= 1 || ranges < 2) return checkInstructionShapes(text, module);
  InstructionShapes shapes;
  shapes.matchSetOf.assign(count, InstructionShapes::kNoMatchSet);
  std::vector<InstructionShapes> parts(ranges);
  std::vector<std::vector<std::uint32_t>> keys(ranges);
  auto bound = [&](std::size_t r) { return count * r / ranges; };
  parallelFor(ranges, threads, [&](std::size_t r) {
    matchRange(text, module, bound(r), bound(r + 1), shapes.matchSetOf.data() + bound(r), parts[r], keys[r]);
  });
  std::vector<std::uint32_t> seen(module.instructionFacts.size(), InstructionShapes::kNoMatchSet);
  std::vector<std::uint32_t> globalOf;
  for (std::size_t r = 0; r < ranges; ++r) {
    InstructionShapes& part = parts[r];
    globalOf.assign(part.matchSets.size(), InstructionShapes::kNoMatchSet);
    for (std::size_t set = 0; set < part.matchSets.size(); ++set) {
      std::uint32_t key = keys[r][set];
      if (seen[key] != InstructionShapes::kNoMatchSet) {
        globalOf[set] = seen[key];
        continue;
      }
      auto id = static_cast<std::uint32_t>(shapes.matchSets.size());
      shapes.matchSets.push_back(std::move(part.matchSets[set]));
      seen[key] = id;
      globalOf[set] = id;
    }
    for (std::size_t index = bound(r); index < bound(r + 1); ++index) {
      std::uint32_t& set = shapes.matchSetOf[index];
      if (set != InstructionShapes::kNoMatchSet) set = globalOf[set];
    }
    std::move(part.findings.begin(), part.findings.end(), std::back_inserter(shapes.findings));
  }
  return shapes;
}

}  // namespace ptx
