// SignatureHelp: the operand templates of the instruction being typed — the forms of the
// instruction table that fit the modifiers typed so far — and which operand the cursor is
// in. Like completion, it reads the statement from the text, so it works before the
// statement is complete (no `;` yet).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "Lint.h"

namespace ptx::lsp {

struct SignatureInfo {
  std::string label;  // "add.s32 d, a, b"
  // Each operand's name within `label`, as byte offsets into `label` (which is ASCII, so
  // they are also UTF-16 offsets).
  std::vector<ByteRange> parameters;
  std::string documentation;  // Markdown: the form's template, each operand's kinds and type.
};

struct SignatureHelp {
  std::vector<SignatureInfo> signatures;
  std::uint32_t activeSignature = 0;
  // The operand the cursor is in (top-level commas before it); may be past the last
  // parameter of a signature, which then highlights none.
  std::uint32_t activeParameter = 0;
};

// nullopt unless the cursor is in the operand list of an instruction whose opcode and
// modifiers fit at least one form (`call` has no useful form and gets none).
std::optional<SignatureHelp> signatureHelpAt(std::string_view text, const LintResult& analysis, std::uint32_t offset);

}  // namespace ptx::lsp
