// InstructionForms: reads the form notation of core/isa/instructions/*.def into tables, and
// matches instructions against them.
#include "isa/InstructionForms.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <charconv>
#include <map>
#include <memory>
#include <mutex>

namespace ptx {
namespace {

struct RawFamily {
  std::string_view name;
  std::string_view forms;
  std::string_view examples;
  std::string_view counterexamples;
};

constexpr std::string_view kCommonGroups =
#include "isa/instructions/common.def"
    ;

constexpr RawFamily kRawFamilies[] = {
#define PTX_INSTRUCTION(name, forms, examples, counterexamples) RawFamily{#name, forms, examples, counterexamples},
#include "isa/instructions/arithmetic.def"
#include "isa/instructions/math.def"
#include "isa/instructions/comparison.def"
#include "isa/instructions/video.def"
#include "isa/instructions/data.def"
#include "isa/instructions/control.def"
#include "isa/instructions/sync.def"
#include "isa/instructions/async.def"
#include "isa/instructions/tensor.def"
#include "isa/instructions/texture.def"
#undef PTX_INSTRUCTION
};

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\r')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

std::vector<std::string_view> splitWords(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  return words;
}

// Lines of a notation block, without comments ("//" to the end of the line) and blanks.
std::vector<std::string_view> notationLines(std::string_view block) {
  std::vector<std::string_view> lines;
  while (!block.empty()) {
    std::size_t end = block.find('\n');
    std::string_view line = block.substr(0, end);
    block = end == std::string_view::npos ? std::string_view() : block.substr(end + 1);
    if (auto comment = line.find("//"); comment != std::string_view::npos) line = line.substr(0, comment);
    line = trim(line);
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

bool isVectorWidth(std::string_view value) { return value == ".v2" || value == ".v4" || value == ".v8"; }

using GroupMap = std::map<std::string, std::vector<std::string>, std::less<>>;

// `.name = .a .b .c` (values may also be separated by '|').
bool parseGroupLine(std::string_view line, GroupMap& groups, std::string& error) {
  std::size_t equals = line.find('=');
  std::string_view name = trim(line.substr(0, equals));
  if (name.size() < 2 || name[0] != '.') {
    error = "group name must start with '.'";
    return false;
  }
  std::vector<std::string> values;
  for (std::string_view word : splitWords(line.substr(equals + 1))) {
    if (word == "|") continue;
    if (word.size() < 2 || word[0] != '.') {
      error = "group value must start with '.': ";
      error += word;
      return false;
    }
    values.emplace_back(word);
  }
  if (values.empty()) {
    error = "group has no values";
    return false;
  }
  groups[std::string(name)] = std::move(values);
  return true;
}

// `add{.rnd}{.ftz}.f32`: the opcode, then `.x` and `{.x}` elements.
bool parseTemplate(std::string_view spelled, std::string_view family, const GroupMap& groups,
                   InstructionForm& form, std::string& error) {
  if (!spelled.starts_with(family)) {
    error = "form does not start with the family name";
    return false;
  }
  std::size_t i = family.size();
  while (i < spelled.size()) {
    bool optional = spelled[i] == '{';
    if (optional) ++i;
    if (i >= spelled.size() || spelled[i] != '.') {
      error = "expected '.' in the modifier template";
      return false;
    }
    std::size_t start = i;
    ++i;
    while (i < spelled.size() && spelled[i] != '.' && spelled[i] != '{' && spelled[i] != '}') ++i;
    std::string_view element = spelled.substr(start, i - start);
    if (optional) {
      if (i >= spelled.size() || spelled[i] != '}') {
        error = "unclosed '{' in the modifier template";
        return false;
      }
      ++i;
    }
    FormElement parsed;
    parsed.spelling = std::string(element);
    parsed.optional = optional;
    if (auto group = groups.find(element); group != groups.end()) {
      parsed.values = group->second;
    } else {
      parsed.values = {std::string(element)};
    }
    parsed.isType = std::all_of(parsed.values.begin(), parsed.values.end(),
                                [](const std::string& value) { return findType(value) != nullptr; });
    parsed.isVector = std::all_of(parsed.values.begin(), parsed.values.end(),
                                  [](const std::string& value) { return isVectorWidth(value); });
    form.elements.push_back(std::move(parsed));
  }
  return true;
}

// `d:r/1d?` — name, kinds, optional type rule and relaxation, optional marker.
bool parseOperand(std::string_view spelled, const InstructionForm& form, OperandSpec& operand,
                  std::string& error) {
  spelled = trim(spelled);
  if (spelled.ends_with('?')) {
    operand.optional = true;
    spelled.remove_suffix(1);
  }
  std::size_t colon = spelled.find(':');
  if (colon == std::string_view::npos) {
    error = "operand needs 'name:kinds': ";
    error += spelled;
    return false;
  }
  operand.name = std::string(spelled.substr(0, colon));
  std::string_view rest = spelled.substr(colon + 1);
  std::size_t slash = rest.find('/');
  std::string_view kinds = rest.substr(0, slash);
  for (char kind : kinds) {
    switch (kind) {
      case 'r': operand.kinds |= kOperandRegister; break;
      case 'i': operand.kinds |= kOperandImmediate; break;
      case 's': operand.kinds |= kOperandSymbol; break;
      case 'a': operand.kinds |= kOperandAddress; break;
      case 'v': operand.kinds |= kOperandVector; break;
      case 'l': operand.kinds |= kOperandLabel; break;
      case 'p': operand.kinds |= kOperandPredicate; break;
      case 'n': operand.kinds |= kOperandNegatedPredicate; break;
      case 'q': operand.kinds |= kOperandPredicatePair; break;
      case '_': operand.kinds |= kOperandSink; break;
      case '*': operand.kinds |= kOperandAny; break;
      case 'm': operand.kinds |= kOperandValuePredicatePair; break;
      default:
        error = "unknown operand kind '";
        error += kind;
        error += '\'';
        return false;
    }
  }
  if (operand.kinds == 0) {
    error = "operand has no kinds: ";
    error += spelled;
    return false;
  }
  std::size_t typeElements = static_cast<std::size_t>(std::count_if(
      form.elements.begin(), form.elements.end(), [](const FormElement& element) { return element.isType; }));
  if (slash == std::string_view::npos) {
    // Registers and vectors default to the form's first type, when it has one.
    if ((operand.kinds & (kOperandRegister | kOperandVector | kOperandValuePredicatePair)) != 0 && typeElements > 0) {
      operand.typeRule = OperandTypeRule::Element;
      operand.typeIndex = 0;
    }
    return true;
  }
  std::string_view rule = rest.substr(slash + 1);
  // A relaxation suffix follows a type index or `w` (`/1d`, `/2s`), never a type name
  // (`/pred` is the type .pred).
  bool indexed = rule.size() == 2 && ((rule[0] >= '1' && rule[0] <= '4') || rule[0] == 'w');
  if (indexed && rule[1] == 'd') {
    operand.relax = OperandRelax::WiderDestination;
    rule.remove_suffix(1);
  } else if (indexed && rule[1] == 's') {
    operand.relax = OperandRelax::WiderSource;
    rule.remove_suffix(1);
  }
  if (rule == "-") return true;
  if (rule == "w") {
    operand.typeRule = OperandTypeRule::Wide;
    operand.typeIndex = 0;
  } else if (rule.size() == 1 && rule[0] >= '1' && rule[0] <= '4') {
    operand.typeRule = OperandTypeRule::Element;
    operand.typeIndex = static_cast<std::uint8_t>(rule[0] - '1');
  } else if (std::string dotted = std::string(1, '.').append(rule); findType(dotted) != nullptr) {
    operand.typeRule = OperandTypeRule::Fixed;
    operand.fixedType = std::move(dotted);
  } else {
    error = "unknown operand type rule '";
    error += rule;
    error += '\'';
    return false;
  }
  if (operand.typeRule != OperandTypeRule::Fixed && operand.typeIndex >= typeElements) {
    error = "operand type refers to a type element the form does not have: ";
    error += spelled;
    return false;
  }
  return true;
}

bool parseFormLine(std::string_view line, std::string_view family, const GroupMap& groups,
                   InstructionForm& form, std::string& error) {
  form.text = std::string(line);
  std::vector<std::string_view> words = splitWords(line);
  if (!parseTemplate(words[0], family, groups, form, error)) return false;
  std::string operands;
  for (std::size_t i = 1; i < words.size(); ++i) {
    std::string_view word = words[i];
    if (word.starts_with("ptx=")) {
      std::string_view version = word.substr(4);
      std::size_t dot = version.find('.');
      PtxVersion parsed;
      auto major = std::from_chars(version.data(), version.data() + dot, parsed.major);
      auto minor = std::from_chars(version.data() + dot + 1, version.data() + version.size(), parsed.minor);
      if (dot == std::string_view::npos || major.ec != std::errc() || minor.ec != std::errc()) {
        error = "bad ptx= version";
        return false;
      }
      form.minPtx = parsed;
    } else if (word.starts_with("sm=")) {
      std::string_view list = word.substr(3);
      while (!list.empty()) {
        std::size_t comma = list.find(',');
        std::string_view target = list.substr(0, comma);
        TargetArch arch;
        if (!parseTargetArch(target, arch)) {
          error = "bad sm= target";
          return false;
        }
        form.targets.emplace_back(target);
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
      }
    } else {
      operands += word;
    }
  }
  std::string_view rest = operands;
  while (!rest.empty()) {
    std::size_t comma = rest.find(',');
    OperandSpec operand;
    if (!parseOperand(rest.substr(0, comma), form, operand, error)) return false;
    if (!form.operands.empty() && form.operands.back().optional && !operand.optional) {
      error = "a required operand follows an optional one";
      return false;
    }
    form.operands.push_back(std::move(operand));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return true;
}

void parseBlock(std::string_view block, std::string_view family, GroupMap& groups,
                InstructionFamily* out, std::vector<std::string>& errors) {
  for (std::string_view line : notationLines(block)) {
    std::string error;
    bool ok = true;
    if (line[0] == '.') {
      ok = parseGroupLine(line, groups, error);
    } else if (out != nullptr) {
      InstructionForm form;
      ok = parseFormLine(line, family, groups, form, error);
      if (ok) out->forms.push_back(std::move(form));
    } else {
      ok = false;
      error = "only group lines may appear here";
    }
    if (!ok) {
      std::string message(family);
      message += ": ";
      message += error;
      message += " in \"";
      message += line;
      message += '"';
      errors.push_back(std::move(message));
    }
  }
}

// The table is parsed family by family on first use: a small file names a dozen families, and
// parsing all 135 would be most of its lint. Slots are sorted by name and never move, so the
// forms that matches point into stay put; each slot is filled once, under its own flag, so
// threads linting different files may fill different slots at the same time.
class Table {
 public:
  Table() {
    for (const RawFamily& raw : kRawFamilies) raws_.push_back(&raw);
    std::sort(raws_.begin(), raws_.end(), [](const RawFamily* a, const RawFamily* b) { return a->name < b->name; });
    for (std::size_t i = 1; i < raws_.size(); ++i) {
      if (raws_[i]->name == raws_[i - 1]->name) duplicates_.push_back(std::string(raws_[i]->name) + ": listed twice");
    }
    families_.resize(raws_.size());
    errors_.resize(raws_.size());
    built_ = std::make_unique<std::once_flag[]>(raws_.size());
    parseBlock(kCommonGroups, "common", common_, nullptr, commonErrors_);
  }

  const InstructionFamily* find(std::string_view name) {
    auto it = std::lower_bound(raws_.begin(), raws_.end(), name,
                               [](const RawFamily* raw, std::string_view key) { return raw->name < key; });
    if (it == raws_.end() || (*it)->name != name) return nullptr;
    return &built(static_cast<std::size_t>(it - raws_.begin()));
  }

  std::span<const InstructionFamily> all() {
    for (std::size_t i = 0; i < raws_.size(); ++i) built(i);
    return families_;
  }

  std::span<const std::string> errors() {
    std::call_once(allErrorsOnce_, [&] {
      all();
      allErrors_ = commonErrors_;
      for (const auto& list : errors_) allErrors_.insert(allErrors_.end(), list.begin(), list.end());
      allErrors_.insert(allErrors_.end(), duplicates_.begin(), duplicates_.end());
    });
    return allErrors_;
  }

 private:
  const InstructionFamily& built(std::size_t i) {
    std::call_once(built_[i], [&] { families_[i] = buildFamily(*raws_[i], errors_[i]); });
    return families_[i];
  }

  InstructionFamily buildFamily(const RawFamily& raw, std::vector<std::string>& errors) const {
    InstructionFamily family;
    family.name = raw.name;
    family.examples = raw.examples;
    family.counterexamples = raw.counterexamples;
    GroupMap groups = common_;
    parseBlock(raw.forms, raw.name, groups, &family, errors);
    if (family.forms.empty()) errors.push_back(std::string(raw.name) + ": no forms");
    if (findOpcode(raw.name) == nullptr) errors.push_back(std::string(raw.name) + ": not an opcode of Opcodes.def");
    for (const InstructionForm& form : family.forms) {
      for (const FormElement& element : form.elements) {
        family.vocabulary.insert(family.vocabulary.end(), element.values.begin(), element.values.end());
      }
    }
    std::sort(family.vocabulary.begin(), family.vocabulary.end());
    family.vocabulary.erase(std::unique(family.vocabulary.begin(), family.vocabulary.end()), family.vocabulary.end());
    return family;
  }

  std::vector<const RawFamily*> raws_;
  std::vector<InstructionFamily> families_;
  std::vector<std::vector<std::string>> errors_;
  std::unique_ptr<std::once_flag[]> built_;
  GroupMap common_;
  std::vector<std::string> commonErrors_;
  std::vector<std::string> duplicates_;
  std::once_flag allErrorsOnce_;
  std::vector<std::string> allErrors_;
};

// Never destroyed: the process ends without tearing down a table nothing will read again.
Table& table() {
  static Table* instance = new Table();
  return *instance;
}

// Assigns modifiers to elements (each element used once); true when every required element
// is filled. Tries template order first (a greedy left-to-right walk), then any order.
bool assignInOrder(const InstructionForm& form, std::span<const std::string_view> modifiers,
                   std::size_t modifier, std::size_t element, std::vector<std::uint32_t>& assignment) {
  if (modifier == modifiers.size()) {
    for (std::size_t e = element; e < form.elements.size(); ++e) {
      if (!form.elements[e].optional) return false;
    }
    return true;
  }
  for (std::size_t e = element; e < form.elements.size(); ++e) {
    const FormElement& candidate = form.elements[e];
    if (std::find(candidate.values.begin(), candidate.values.end(), modifiers[modifier]) !=
        candidate.values.end()) {
      assignment[modifier] = static_cast<std::uint32_t>(e);
      if (assignInOrder(form, modifiers, modifier + 1, e + 1, assignment)) return true;
    }
    if (!candidate.optional) return false;
  }
  return false;
}

bool assignAnyOrder(const InstructionForm& form, std::span<const std::string_view> modifiers,
                    std::size_t modifier, std::vector<bool>& used, std::vector<std::uint32_t>& assignment) {
  if (modifier == modifiers.size()) {
    for (std::size_t e = 0; e < form.elements.size(); ++e) {
      if (!form.elements[e].optional && !used[e]) return false;
    }
    return true;
  }
  for (std::size_t e = 0; e < form.elements.size(); ++e) {
    if (used[e]) continue;
    const FormElement& candidate = form.elements[e];
    if (std::find(candidate.values.begin(), candidate.values.end(), modifiers[modifier]) ==
        candidate.values.end()) {
      continue;
    }
    used[e] = true;
    assignment[modifier] = static_cast<std::uint32_t>(e);
    if (assignAnyOrder(form, modifiers, modifier + 1, used, assignment)) return true;
    used[e] = false;
  }
  return false;
}

struct TypeShape {
  char kind = 0;  // 'b', 's', 'u', 'f' (f16/bf16/f32/f64), 'x' (packed or narrow float), 'p'
  std::uint32_t bits = 0;
};

std::optional<TypeShape> computeShapeOf(std::string_view type) {
  if (type == ".pred") return TypeShape{'p', 1};
  const TypeInfo* info = findType(type);
  if (info == nullptr || type.size() < 3) return std::nullopt;
  char kind = type[1];
  bool plainNumber = type.find_first_not_of("0123456789", 2) == std::string_view::npos;
  if ((kind == 'b' || kind == 's' || kind == 'u') && plainNumber) return TypeShape{kind, info->sizeBits};
  if (type == ".f16" || type == ".bf16" || type == ".f32" || type == ".f64") return TypeShape{'f', info->sizeBits};
  return TypeShape{'x', info->sizeBits};
}

// shapeOf, remembered per spelling: operand checks ask it twice per register operand, for a
// handful of distinct spellings, and the type table's lookup hashes the text each time. A
// spelling of up to 8 bytes (every type's but `.samplerref`) is its own key; longer ones
// are not cached.
std::optional<TypeShape> shapeOf(std::string_view type) {
  if (type.empty() || type.size() > 8) return computeShapeOf(type);
  std::uint64_t bytes = 0;
  std::memcpy(&bytes, type.data(), type.size());
  struct Entry {
    std::uint64_t bytes = 0;
    std::size_t size = 0;  // 0: an empty slot.
    std::optional<TypeShape> shape;
  };
  thread_local std::array<Entry, 64> cache{};
  std::size_t slot = static_cast<std::size_t>(((bytes ^ type.size()) * 0x9E3779B97F4A7C15ull) >> 58);
  for (std::size_t probe = 0; probe < cache.size(); ++probe, slot = (slot + 1) % cache.size()) {
    Entry& entry = cache[slot];
    if (entry.size == type.size() && entry.bytes == bytes) return entry.shape;
    if (entry.size == 0) {
      entry = {bytes, type.size(), computeShapeOf(type)};
      return entry.shape;
    }
  }
  return computeShapeOf(type);  // The cache is full: more distinct spellings than types.
}

}  // namespace

std::span<const InstructionFamily> allInstructionFamilies() { return table().all(); }

const InstructionFamily* findInstructionFamily(std::string_view opcode) { return table().find(opcode); }

std::span<const std::string> instructionTableErrors() { return table().errors(); }

namespace {
std::vector<FormMatch> matchFormsExactly(const InstructionFamily& family, std::span<const std::string_view> modifiers);
}  // namespace

std::vector<FormMatch> matchForms(const InstructionFamily& family, std::span<const std::string_view> modifiers) {
  std::vector<FormMatch> matches = matchFormsExactly(family, modifiers);
  if (!matches.empty()) return matches;
  // ptxas tolerates some modifiers spelled twice (`bra.uni.uni`, `vote.sync.sync`), while it
  // rejects others; to stay free of false alarms, a repeat that fits once is accepted.
  std::vector<std::string_view> unique;
  for (std::string_view modifier : modifiers) {
    if (std::find(unique.begin(), unique.end(), modifier) == unique.end()) unique.push_back(modifier);
  }
  if (unique.size() == modifiers.size()) return matches;
  matches = matchFormsExactly(family, unique);
  // Element indexes refer to positions in `unique`; map them back to every spelling.
  for (FormMatch& match : matches) {
    std::vector<std::uint32_t> elements;
    for (std::string_view modifier : modifiers) {
      auto at = static_cast<std::size_t>(std::find(unique.begin(), unique.end(), modifier) - unique.begin());
      elements.push_back(match.elementOfModifier[at]);
    }
    match.elementOfModifier = std::move(elements);
    match.inTemplateOrder = false;
  }
  return matches;
}

namespace {

std::vector<FormMatch> matchFormsExactly(const InstructionFamily& family, std::span<const std::string_view> modifiers) {
  std::vector<FormMatch> matches;
  for (const InstructionForm& form : family.forms) {
    if (modifiers.size() > form.elements.size()) continue;
    FormMatch match;
    match.form = &form;
    match.elementOfModifier.assign(modifiers.size(), 0);
    if (!assignInOrder(form, modifiers, 0, 0, match.elementOfModifier)) {
      std::vector<bool> used(form.elements.size(), false);
      if (!assignAnyOrder(form, modifiers, 0, used, match.elementOfModifier)) continue;
      match.inTemplateOrder = false;
    }
    std::vector<std::string_view> valueOfElement(form.elements.size());
    for (std::size_t m = 0; m < modifiers.size(); ++m) valueOfElement[match.elementOfModifier[m]] = modifiers[m];
    for (std::size_t e = 0; e < form.elements.size(); ++e) {
      if (form.elements[e].isType) match.types.push_back(valueOfElement[e]);
      if (form.elements[e].isVector && !valueOfElement[e].empty()) {
        match.vectorWidth = static_cast<std::uint32_t>(valueOfElement[e][2] - '0');
      }
    }
    matches.push_back(std::move(match));
  }
  return matches;
}

}  // namespace

namespace {

// Like assignAnyOrder, but an assignment that leaves required elements empty also counts.
bool assignSome(const InstructionForm& form, std::span<const std::string_view> modifiers, std::size_t modifier,
                std::vector<bool>& used) {
  if (modifier == modifiers.size()) return true;
  for (std::size_t e = 0; e < form.elements.size(); ++e) {
    if (used[e]) continue;
    const FormElement& candidate = form.elements[e];
    if (std::find(candidate.values.begin(), candidate.values.end(), modifiers[modifier]) ==
        candidate.values.end()) {
      continue;
    }
    used[e] = true;
    if (assignSome(form, modifiers, modifier + 1, used)) return true;
    used[e] = false;
  }
  return false;
}

}  // namespace

std::vector<PartialFormMatch> matchFormsPartially(const InstructionFamily& family,
                                                  std::span<const std::string_view> modifiers) {
  std::vector<std::string_view> unique;
  for (std::string_view modifier : modifiers) {
    if (std::find(unique.begin(), unique.end(), modifier) == unique.end()) unique.push_back(modifier);
  }
  std::vector<PartialFormMatch> matches;
  for (const InstructionForm& form : family.forms) {
    if (unique.size() > form.elements.size()) continue;
    std::vector<bool> used(form.elements.size(), false);
    if (!assignSome(form, unique, 0, used)) continue;
    matches.push_back(PartialFormMatch{&form, std::move(used)});
  }
  return matches;
}

bool registerTypeFits(std::string_view instructionType, std::string_view registerType, OperandRelax relax) {
  auto wanted = shapeOf(instructionType);
  auto have = shapeOf(registerType);
  if (!wanted || !have) return true;  // Unknown spellings are not ours to judge.
  if (wanted->kind == 'p' || have->kind == 'p') return wanted->kind == have->kind;
  bool sameSize = have->bits == wanted->bits;
  bool integerLike = wanted->kind == 'b' || wanted->kind == 's' || wanted->kind == 'u';
  bool haveInteger = have->kind == 'b' || have->kind == 's' || have->kind == 'u';
  // Relaxed rules (ld, st, cvt): bit-size registers may be wider than any type; other
  // integer registers only than integer types.
  bool wider = relax != OperandRelax::Strict && have->bits > wanted->bits &&
               (have->kind == 'b' || (integerLike && haveInteger));
  bool sizeOk = sameSize || wider;
  if (!sizeOk) return false;
  switch (wanted->kind) {
    case 'b':
      return true;  // Any register of the size (floats only at the exact size, see above).
    case 's':
    case 'u':
      return haveInteger;
    case 'f':
      return have->kind == 'b' || (have->kind == 'f' && sameSize) || (have->kind == 'x' && sameSize);
    default:
      // Packed and narrow-float types live in bit-size registers (or .f16x2 ones).
      return have->kind == 'b' || have->kind == 'x';
  }
}

bool targetSatisfies(const TargetArch& target, std::string_view requirement) {
  TargetArch needed;
  if (!parseTargetArch(requirement, needed)) return true;
  switch (needed.suffix) {
    case 'a':
      return target.suffix == 'a' && target.number == needed.number;
    case 'f':
      return (target.suffix == 'a' || target.suffix == 'f') && target.number / 10 == needed.number / 10 &&
             target.number >= needed.number;
    default:
      return target.number >= needed.number;
  }
}

}  // namespace ptx
