// Module: the PTX model of one file — header, symbols, scopes and resolved references.
//
// Built from a SyntaxTree in one pass over the statements, in source order, because PTX
// resolves names the way ptxas does: registers, variables and functions must be declared
// before use, labels may be used before their definition anywhere in the block that defines
// them or in its nested blocks, and a nested block may shadow an outer name.
// Every entity keeps byte ranges so that features can point at it. The model is incomplete
// by design on broken input: functions with syntax errors are modelled best-effort and are
// marked, so that checks can stay quiet there.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "diag/Diagnostic.h"
#include "isa/InstructionFacts.h"
#include "support/PlainIndex.h"
#include "syntax/SyntaxTree.h"

namespace ptx {

enum class SymbolKind : std::uint8_t { Register, Variable, Parameter, Function, Label, Prototype };

std::string_view toString(SymbolKind kind);

using SymbolId = std::uint32_t;
using ScopeId = std::uint32_t;
inline constexpr SymbolId kNoSymbol = UINT32_MAX;
inline constexpr ScopeId kNoScope = UINT32_MAX;

// The index `spelled` names in a parameterized range whose prefix is `prefix` (`%r12` in
// `%r<N>`: 12): the plain decimal index after the prefix (parsePlainIndex).
inline std::optional<std::uint32_t> rangeIndexOf(std::string_view spelled, std::string_view prefix) {
  if (spelled.size() <= prefix.size() || !spelled.starts_with(prefix)) return std::nullopt;
  return parsePlainIndex(spelled.substr(prefix.size()));
}

struct Symbol {
  // Fields are ordered by size, so that the record packs tightly: a `-G` file declares tens
  // of thousands of symbols.
  std::string name;  // For a parameterized range `%r<8>`, the prefix `%r`.
  std::string type;  // Element type (".b32"); empty when absent.
  // Array dimensions in order; nullopt for `[]` or a size that is not an integer literal.
  std::vector<std::optional<std::uint64_t>> dimensions;
  std::optional<std::uint64_t> alignment;  // `.align N` (literal values only).
  // Kernel parameters with `.ptr`: the pointed-to alignment (the space is pointerSpaceId's).
  std::optional<std::uint64_t> pointerAlignment;
  ByteRange nameRange;
  ByteRange declarationRange;
  std::uint32_t rangeCount = 0;   // N of `%r<N>`; 0 for an ordinary name.
  std::uint32_t vectorWidth = 0;  // 2, 4 or 8 for `.v2/.v4/.v8`; 0 for scalars.
  ScopeId scope = kNoScope;
  SymbolKind kind = SymbolKind::Register;
  bool isEntry = false;  // Functions: `.entry` rather than `.func`.
  bool hasBody = false;  // Functions: a definition rather than a prototype.
  bool isExtern = false;
  bool isArray = false;
  bool hasInitializer = false;
  bool isPointer = false;  // A kernel parameter with `.ptr`.
  // The declaration's keywords as enumerators (Modifier::Unknown when absent), resolved once
  // when the module is built, so that consumers compare ids rather than text. State spaces
  // and linkages come from keyword lists of the grammar that the Modifier table covers, so
  // their ids also give back their spellings (space() ...) without a string per symbol. The
  // type keeps its text: the grammar's list has a spelling the table lacks (`.s2f6x2`, which
  // ptxas takes only as an instruction type).
  Modifier spaceId = Modifier::Unknown;         // State space (.reg, .param ...); none for labels and functions.
  Modifier typeId = Modifier::Unknown;
  Modifier linkageId = Modifier::Unknown;       // .visible, .extern, .weak, .common.
  Modifier pointerSpaceId = Modifier::Unknown;  // Of a kernel parameter's `.ptr`.

  std::string_view space() const { return spellingOf(spaceId); }
  std::string_view linkage() const { return spellingOf(linkageId); }
  std::string_view pointerSpace() const { return spellingOf(pointerSpaceId); }

  StateSpace stateSpace() const { return infoOf(spaceId).space; }

  // A register: a `.reg` declaration or a `.reg` parameter of a function.
  bool isRegister() const {
    return kind == SymbolKind::Register || (kind == SymbolKind::Parameter && spaceId == Modifier::Reg);
  }

  // Whether `spelled` names this symbol (for ranges: prefix followed by an index < N).
  bool matches(std::string_view spelled) const;
};

// A performance-tuning directive in a function header (`.maxntid 128, 1, 1`).
struct HeaderDirective {
  std::string name;
  std::vector<std::uint64_t> values;  // Literal values; non-literal ones are left out.
  ByteRange range;
};

// A function or kernel with its signature.
struct FunctionInfo {
  SymbolId symbol = kNoSymbol;
  std::vector<SymbolId> returns;
  std::vector<SymbolId> parameters;
  std::vector<HeaderDirective> directives;
  ScopeId bodyScope = kNoScope;  // kNoScope for a prototype.
  bool hasSyntaxErrors = false;
  // The body's instructions: Module::instructions[firstInstruction, +instructionCount)
  // (empty for prototypes and for bodies a focused build skipped).
  std::uint32_t firstInstruction = 0;
  std::uint32_t instructionCount = 0;
};

struct Scope {
  ScopeId parent = kNoScope;
  ByteRange range;
  std::vector<SymbolId> symbols;  // Registers, variables, parameters, prototypes.
  std::vector<SymbolId> labels;
};

// How a name is used; checks phrase their messages by it.
enum class ReferenceRole : std::uint8_t { Operand, BranchTarget, Callee, Guard, Initializer };

struct Reference {
  ByteRange range;
  SymbolId target = kNoSymbol;  // kNoSymbol when unresolved (and not a predefined name).
  ReferenceRole role = ReferenceRole::Operand;
  bool predefined = false;  // A special register or WARP_SZ.
  bool inDamagedCode = false;  // Inside a function or statement with syntax errors.
};

struct ModuleHeader {
  std::optional<ByteRange> version;  // Range of the `.version` directive.
  std::uint32_t versionMajor = 0;
  std::uint32_t versionMinor = 0;
  std::vector<std::pair<std::string, ByteRange>> targets;
  std::optional<ByteRange> target;  // Range of the first `.target` directive.
  std::optional<std::uint32_t> addressSize;
  // Every `.address_size` directive: its value (0 when unreadable) and the value's range.
  std::vector<std::pair<std::uint32_t, ByteRange>> addressSizes;
  // Index among module items of `.version` and `.target` (ptxas wants them first and second).
  std::optional<std::size_t> versionIndex;
  std::optional<std::size_t> targetIndex;
  std::optional<ByteRange> firstItem;   // The first module item, whatever it is.
  std::optional<ByteRange> secondItem;  // The second one: where ptxas notices a bad header.
};

// The shape of one instruction operand, as the instruction table's operand kinds see it.
enum class OperandShape : std::uint8_t {
  Register,          // a name resolving to a `.reg` symbol
  SpecialRegister,   // %tid.x, %laneid, WARP_SZ, ...
  Symbol,            // a variable, parameter or function name (an address value)
  UnresolvedName,    // not declared before use: a label (resolved later) or an error
  IntegerLiteral,
  FloatLiteral,      // 1.5, 0f3F800000, 0d...
  Expression,        // any other constant expression
  Address,           // [base+offset] and the texture tuple forms
  Vector,            // {a, b, ...}; its elements follow in Module::operands
  Sink,              // _
  PredicatePair,     // p|q; its two elements follow in Module::operands
  NegatedPredicate,  // !p; `symbol` is p's
};

struct InstructionOperand {
  OperandShape shape = OperandShape::Expression;
  ByteRange range;
  SymbolId symbol = kNoSymbol;  // Register, Symbol, NegatedPredicate; an Address's base.
  // Vector and PredicatePair: their elements, at Module::operands[firstElement...].
  std::uint32_t firstElement = 0;
  std::uint32_t elementCount = 0;
  // Address: the constant expression after `+` in `[base+offset]`; empty when there is none.
  ByteRange offset;
  // Address of a texture or surface instruction (`[tex, {x, y}]`, `[tex, sampler, {x}]`): the
  // tuple's elements (coordinates, a sampler), vectors flattened, at
  // Module::operands[firstTupleElement...]. Kept apart from firstElement/elementCount, which
  // only vectors and predicate pairs use.
  std::uint32_t firstTupleElement = 0;
  std::uint32_t tupleElementCount = 0;
};

// An instruction statement: opcode, modifiers and operands (indexes into Module's pools).
struct InstructionSite {
  ByteRange opcode;
  ByteRange statement;
  bool inDamagedCode = false;
  std::uint32_t firstModifier = 0;  // Into Module::modifiers.
  std::uint32_t modifierCount = 0;
  std::uint32_t firstOperand = 0;   // Into Module::operands (top-level operands only).
  std::uint32_t operandCount = 0;
  ScopeId scope = kNoScope;         // The innermost block holding the statement.
  // `@p` / `@!p`: the guard predicate (kNoSymbol when unguarded or undeclared).
  ByteRange guard;                  // The whole `@!p`; empty when unguarded.
  SymbolId guardSymbol = kNoSymbol;
  bool guardNegated = false;
  // A call_instruction: its operands are the return values (the first callReturnCount) and
  // then the arguments; `callee` is the function (or the register holding its address) and
  // `callTargets` the prototype or `.calltargets` name of an indirect call.
  bool isCall = false;
  std::uint32_t factsIndex = 0;     // Into Module::instructionFacts (Module::factsOf).
  std::uint32_t callReturnCount = 0;
  SymbolId callee = kNoSymbol;
  ByteRange calleeRange;
  ByteRange callTargets;

  bool isGuarded() const { return guard.end > guard.begin; }
};

struct Module {
  ModuleHeader header;
  std::vector<InstructionSite> instructions;
  std::vector<ByteRange> modifiers;  // Every instruction's modifiers, in order.
  // Every instruction's operands: a site's top-level operands are contiguous, and the
  // elements of its vectors and predicate pairs are stored after them.
  std::vector<InstructionOperand> operands;
  std::vector<Symbol> symbols;
  std::vector<Scope> scopes;  // scopes[0] is the module scope.
  // What each distinct instruction spelling is and does (core/isa/InstructionFacts.h): sites
  // spelled alike share one entry.
  std::vector<InstructionFacts> instructionFacts;
  const InstructionFacts& factsOf(const InstructionSite& site) const { return instructionFacts[site.factsIndex]; }
  const InstructionFacts& factsOf(std::size_t instruction) const { return factsOf(instructions[instruction]); }
  std::vector<Reference> references;
  std::vector<FunctionInfo> functions;  // In source order, prototypes included.
  // Pairs (existing, duplicate) of same-scope redeclarations that ptxas rejects.
  std::vector<std::pair<SymbolId, SymbolId>> duplicates;

  // Symbol ids ordered by the start of their names (filled by buildModule); references are
  // kept ordered by start too.
  std::vector<SymbolId> symbolsByPosition;

  // The opcode and modifiers of an instruction as written (`ld.global.u32`).
  ByteRange spellingOf(const InstructionSite& site) const {
    return {site.opcode.begin,
            site.modifierCount == 0 ? site.opcode.end : modifiers[site.firstModifier + site.modifierCount - 1].end};
  }

  // The symbol a byte offset names (a declaration or a reference), or kNoSymbol.
  SymbolId symbolAt(std::uint32_t offset) const;

  // The references that start inside `range` (a binary search: references are ordered).
  std::span<const Reference> referencesWithin(ByteRange range) const;

  // Where uses of a symbol can be: its scope's range (a function, a block), or everything
  // for module-level names. Lets hover and navigation skip the rest of a big file.
  ByteRange visibilityOf(SymbolId id) const {
    ScopeId scope = symbols[id].scope;
    if (scope == kNoScope || scope == 0 || scope >= scopes.size()) return {0, UINT32_MAX};
    return scopes[scope].range;
  }
};

// With `bodiesWithin`, only the bodies of functions overlapping that range are walked; every
// module-level declaration and every function's signature is still recorded. Incremental
// re-analysis uses it for the one function an edit touched.
// With `stop` set (by another thread) the build skips the module items it has not reached:
// the model is partial, for a caller that discards it (LintOptions::stop).
Module buildModule(std::string_view text, const SyntaxTree& tree, std::optional<ByteRange> bodiesWithin = std::nullopt,
                   const std::atomic<bool>* stop = nullptr);

// The same module as buildModule(text, tree), built on up to `threads` threads: groups of
// consecutive module items are built separately (their lookups in the module scope see what
// a one-pass build would have declared at that point) and joined with their ids shifted.
Module buildModuleParallel(std::string_view text, const SyntaxTree& tree, unsigned threads);

// The value of a PTX integer literal (decimal, 0x hex, 0b binary, 0 octal, optional U).
std::optional<std::uint64_t> parseIntegerLiteral(std::string_view spelled);

// Special registers and constants every PTX program may use (PTX ISA §10), including
// numbered families (%envreg0..31, %pm0..7, %pm0_64..%pm7_64) and `WARP_SZ`.
bool isPredefinedName(std::string_view name);

}  // namespace ptx
