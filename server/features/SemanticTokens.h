// SemanticTokens: the colour of every word of a document, for `textDocument/semanticTokens`
// (full, range and delta).
//
// VS Code has no PTX grammar of its own, so the tokens cover everything a highlighter would
// — directives, opcodes, modifiers, types, literals, comments, operators — and add what only
// the model knows: whether a name is a register or variable, a parameter, a function or a
// label, which occurrence declares it, and which names are special registers. A name the
// model could not resolve gets no token, so a typo stays uncoloured. Without a model (a parse
// stopped early) names are classified from their place in the tree alone.
//
// Tokens are byte ranges in source order; they never overlap and never span lines (block
// comments are split per line), so they encode directly into LSP's relative form.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "Lint.h"
#include "protocol/Positions.h"
#include "text/LineIndex.h"

namespace ptx::lsp {

// Indexes into semanticTokenTypes(); the order is the legend's.
enum class SemanticTokenType : std::uint32_t {
  Keyword,     // directives, state spaces and linkage in declarations, `.entry`/`.func`
  Type,        // `.u32`, `.v4`, also as instruction modifiers (`ld.global.u32`)
  Function,    // kernels and functions; opcodes with defaultLibrary
  Parameter,   // function and kernel parameters
  Variable,    // registers and variables; special registers with defaultLibrary
  Label,       // labels and section names (VS Code's standard `label` type)
  Property,    // vector components (`%tid.x`), initializer fields, `.loc` attribute names
  EnumMember,  // `.target` architectures (`sm_90a`)
  Modifier,    // instruction modifiers (`.rn`, `.global` in `ld.global`), attribute names
  Macro,       // preprocessor lines and `@@DWARF` lines
  Comment,
  String,
  Number,
  Operator,    // constant-expression and address operators
};

// Bits of SemanticToken::modifiers; bit i is semanticTokenModifiers()[i].
enum SemanticTokenModifier : std::uint32_t {
  kDeclarationModifier = 1u << 0,     // the name's declaring occurrence
  kDefinitionModifier = 1u << 1,      // a function's name where its body follows
  kReadonlyModifier = 1u << 2,        // `.const` variables, kernel parameters, special registers
  kDefaultLibraryModifier = 1u << 3,  // opcodes, special registers, `WARP_SZ`, the sink `_`
};

// The legend the server announces in its capabilities.
const std::vector<std::string>& semanticTokenTypes();
const std::vector<std::string>& semanticTokenModifiers();

struct SemanticToken {
  std::uint32_t begin = 0;  // Byte offsets, on one line.
  std::uint32_t end = 0;
  std::uint32_t type = 0;       // A SemanticTokenType.
  std::uint32_t modifiers = 0;  // SemanticTokenModifier bits.

  friend bool operator==(const SemanticToken&, const SemanticToken&) = default;
};

// The tokens of `text` in source order; with `range`, only those overlapping it (whole, not
// clipped), found without walking the rest of the file.
std::vector<SemanticToken> semanticTokens(std::string_view text, const LintResult& analysis,
                                          std::optional<ByteRange> range = std::nullopt);

// LSP's integer encoding: five numbers per token (line delta, start delta, length, type,
// modifiers), with columns and lengths in the client's position encoding. `lines` indexes
// `text`. Linear in the text, however long its lines.
std::vector<std::uint32_t> encodeSemanticTokens(std::string_view text, const LineIndex& lines,
                                                const std::vector<SemanticToken>& tokens,
                                                PositionEncoding encoding);

// One replacement in an encoded array: data[start, start + deleteCount) becomes `data`.
struct SemanticTokensEdit {
  std::uint32_t start = 0;
  std::uint32_t deleteCount = 0;
  std::vector<std::uint32_t> data;

  friend bool operator==(const SemanticTokensEdit&, const SemanticTokensEdit&) = default;
};

// The edits that turn `previous` into `current` (for `semanticTokens/full/delta`): none when
// they are equal, otherwise one edit spanning what lies between their common prefix and
// common suffix, both cut to whole tokens (multiples of five integers).
std::vector<SemanticTokensEdit> diffSemanticTokens(const std::vector<std::uint32_t>& previous,
                                                   const std::vector<std::uint32_t>& current);

}  // namespace ptx::lsp
