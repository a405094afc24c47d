// AsmStatement: one `asm(...)` statement of a CUDA source as one device pass compiles it.
//
// The statement is what nvcc sees after preprocessing: its template rebuilt from adjacent
// string literals and object-like macros, with every template byte mapped back to the source
// byte it came from, and its operands numbered as nvcc numbers them (outputs first, `"+r"` one
// operand). Byte ranges are offsets into the original `.cu` text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuda/Preprocessor.h"
#include "diag/Diagnostic.h"

namespace ptx::cuda {

// What a constraint letter makes of its operand (docs: inline-ptx.md §2).
enum class ConstraintKind : std::uint8_t {
  B16,        // h
  B32,        // r
  B64,        // l
  B128,       // q
  F32,        // f
  F64,        // d
  Immediate,  // n: the value is pasted into the text
  Text,       // C: a constant string is pasted into the text
  Unsupported,
};

// The PTX register type an operand of this kind becomes (".b32"), or empty for pasted ones.
std::string_view registerTypeOf(ConstraintKind kind);
// Size in bits of the register (0 for pasted kinds).
unsigned registerBitsOf(ConstraintKind kind);

struct AsmOperand {
  bool isOutput = false;   // In the output section ("=r" or "+r").
  bool readWrite = false;  // "+": read and written.
  ConstraintKind kind = ConstraintKind::Unsupported;
  char letter = 0;
  std::string constraintText;  // Decoded ("=r").
  ByteRange constraint;        // The constraint's string literal(s).
  std::uint32_t letterOffset = 0;  // Source byte of the letter.
  ByteRange expression;        // Inside the parentheses.
  std::string expressionText;  // As written, whitespace collapsed.
  // For `n`: the literal value when the expression is an integer literal; for `C`: unknown.
  std::optional<std::string> pastedText;
};

struct AsmClobber {
  std::string name;
  ByteRange range;
};

struct AsmStatement {
  ByteRange range;    // From the keyword to the closing parenthesis.
  ByteRange keyword;  // `asm`, `__asm__` or `__asm`.
  bool isVolatile = false;
  // Operands are substituted only when the statement has at least one (inline-ptx.md §3).
  bool substitutes() const { return !operands.empty(); }

  std::string templateText;  // Decoded bytes nvcc pastes (before operand substitution).
  std::vector<std::uint32_t> templateSource;     // Source offset of each template byte.
  std::vector<std::uint8_t> templateSourceWidth;  // Source bytes each template byte spans.
  ByteRange templateRange;   // The template's literals in the source.

  std::vector<AsmOperand> operands;
  std::vector<AsmClobber> clobbers;
  bool memoryClobber = false;

  // Set when the statement cannot be rebuilt statically (a macro from another file, a
  // stringized parameter, an unterminated literal); nothing else is checked then.
  std::optional<std::string> opaqueReason;
  ByteRange opaqueRange;

  // Whether the pass compiles the statement (Unknown: under a condition we cannot decide).
  Truth activity = Truth::True;
  // The asm is in the replacement list of this function-like or object-like macro.
  std::optional<std::string> macroName;

  // The source range of template bytes [begin, end).
  ByteRange sourceOfTemplate(std::uint32_t begin, std::uint32_t end) const;
};

}  // namespace ptx::cuda
