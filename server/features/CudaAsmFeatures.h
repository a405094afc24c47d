// CudaAsmFeatures: hover, definition, references, completion and semantic tokens inside the asm
// templates of a CUDA source — and nowhere else in it (the C++ is clangd's).
//
// A source offset is mapped to a template byte of the statement holding it (through escapes,
// adjacent literals and macro bodies: AsmStatement::templateSource), the template to the PTX of
// that statement (a synthesized module of its own, cuda::buildFragmentModule, whose `.reg`
// lines declare the operands with their constraint's type), and the PTX features answer there;
// their ranges are mapped back the same way. What is C++ itself — an operand `%N` — is answered
// from the statement: its constraint, register class, direction and C++ expression.
// Pure functions of the statements and offsets; no JSON, no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "cuda/AsmStatement.h"
#include "features/Completion.h"
#include "features/Hover.h"
#include "features/SemanticTokens.h"

namespace ptx::lsp {

// A cursor inside a template: before template byte `templateOffset` (its size: at the end).
struct AsmCursor {
  const cuda::AsmStatement* statement = nullptr;
  std::uint32_t templateOffset = 0;
  // On that byte's source (hover, definition); false right after a literal's last byte (the
  // closing quote), where only completion answers.
  bool onByte = true;
};

// The template holding the cursor at source byte `offset` (on or before one of its bytes, or
// right after the last byte of one of its literals), in the first statement that has one there
// (a macro body's bytes are every expanding statement's). Opaque statements have none.
std::optional<AsmCursor> asmCursorAt(const std::vector<cuda::AsmStatement>& statements, std::uint32_t offset);

// `ptxTarget` is the `.target` the templates are read for ("sm_90a").
std::optional<HoverResult> asmHoverAt(const std::vector<cuda::AsmStatement>& statements, std::string_view ptxTarget,
                                      std::uint32_t offset);

// A label's (or a template-declared register's) declaration in the template; for `%N`, the
// operand's C++ expression.
std::optional<ByteRange> asmDefinitionAt(const std::vector<cuda::AsmStatement>& statements, std::string_view ptxTarget,
                                         std::uint32_t offset);

// The uses of the name under the cursor inside its statement's template.
std::vector<ByteRange> asmReferencesAt(const std::vector<cuda::AsmStatement>& statements, std::string_view ptxTarget,
                                       std::uint32_t offset, bool includeDeclaration);

// PTX completion at the cursor, and after `%` the statement's operands `%0`..`%N-1`.
std::vector<CompletionItem> asmCompletionAt(const std::vector<cuda::AsmStatement>& statements, std::string_view ptxTarget,
                                            std::uint32_t offset);

// The PTX tokens of every template (with `range`: of those overlapping it), as source ranges
// inside the string literals, in order, never overlapping, never spanning lines.
std::vector<SemanticToken> asmSemanticTokens(std::string_view text, const std::vector<cuda::AsmStatement>& statements,
                                             std::string_view ptxTarget, std::optional<ByteRange> range = std::nullopt);

}  // namespace ptx::lsp
