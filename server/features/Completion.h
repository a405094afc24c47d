// Completion: what may be typed at the cursor — opcodes at a statement start, the modifiers
// an instruction can still take, types in declarations, and registers, special registers,
// variables, parameters, labels and functions in operand positions.
//
// While typing, the text is usually incomplete: the statement under the cursor does not
// parse and the model may miss the enclosing function. Completion therefore reads the
// cursor's context from the text itself — it lexes the enclosing function from its
// `.entry`/`.func` keyword — and takes only module-level declarations from the model.
// The cost is linear in the size of that one function, never in the size of the file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "Lint.h"

namespace ptx::lsp {

enum class CompletionKind : std::uint8_t {
  Opcode,           // An instruction family (`ld`, `mma`).
  Modifier,         // An instruction modifier (`.global`, `.rn`, `.v4`).
  Type,             // A type (`.b32`, `.pred`), in a declaration or as a modifier.
  Register,         // A declared register, or the prefix of a `%r<N>` range.
  SpecialRegister,  // `%tid`, `%laneid`, ... and their components (`.x`).
  Label,
  Variable,         // A variable of any state space other than `.reg`.
  Function,
  Parameter,        // A parameter of the enclosing function.
  Directive,        // `.reg`, `.entry`, `.maxntid`, ...
  Keyword,          // Other dotted words of declarations (`.align`, `.v4`, `.ptr`).
};

struct CompletionItem {
  std::string label;
  CompletionKind kind = CompletionKind::Keyword;
  std::string detail;         // One line.
  std::string documentation;  // Markdown; empty when there is none.
  std::string insertText;
  // The typed word the item replaces, up to the cursor, including a leading `%` or `.`; empty
  // (at the cursor) when nothing is typed yet. Clients filter on it.
  ByteRange replace;
  std::string sortText;  // Orders items by relevance; ties are ordered by label.
};

// The items for the cursor at byte `offset` of `text` (clamped to the text). `analysis` is
// the analysis of `text`; only its module-level declarations are used. Empty inside comments
// and strings and where nothing can be typed.
std::vector<CompletionItem> completeAt(std::string_view text, const LintResult& analysis, std::uint32_t offset);

// The instruction statement the cursor is in, as typed so far; shared with signature help.
struct InstructionAtCursor {
  std::string_view opcode;
  ByteRange opcodeRange;
  std::vector<std::string_view> modifiers;  // The dotted words attached to the opcode.
  bool inOperands = false;          // Past the opcode and its modifiers.
  std::uint32_t operandIndex = 0;   // Top-level commas before the cursor.
  bool inAddress = false;           // Inside `[...]`.
};

// nullopt when the cursor is not inside an instruction statement (a declaration, a
// directive, a comment or a string, or before the opcode).
std::optional<InstructionAtCursor> instructionAtCursor(std::string_view text, std::uint32_t offset);

}  // namespace ptx::lsp
