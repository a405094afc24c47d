// InlayHints: short labels the editor shows inside the text, for `textDocument/inlayHint`.
//
// Two kinds, each where the statement alone does not say it:
// - parameter names before the arguments and return values of a direct call
//   (`call (r: %r1), add, (a: %r2, b: %r3);`), because PTX calls are positional and the
//   callee's signature is usually far away; generated names that only say "parameter N of
//   f" (`_Z3addii_param_0`) and names that repeat the argument's are left out;
// - a register's declared type after an operand declared floating-point that a bit- or
//   integer-typed instruction reads or writes (`mov.b32 %r1, %f1: .f32;`): the bits of a
//   float reinterpreted, which nothing on the line shows. `.b` registers are untyped and get
//   nothing (recent LLVM declares every register `.b32`), and neither does an instruction
//   that names a floating-point type (`cvt.rn.f32.s32` converts, it does not reinterpret),
//   so ordinary code stays quiet.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "Lint.h"

namespace ptx::lsp {

// The values are LSP's InlayHintKind.
enum class InlayHintKind : std::uint8_t { Type = 1, Parameter = 2 };

struct InlayHint {
  std::uint32_t offset = 0;  // Byte offset the label is shown at.
  std::string label;
  InlayHintKind kind = InlayHintKind::Type;
  bool paddingLeft = false;
  bool paddingRight = false;

  friend bool operator==(const InlayHint&, const InlayHint&) = default;
};

// The hints whose offsets lie in `range` (ends included), in source order. Needs the model:
// without one (a parse stopped early) there are none.
std::vector<InlayHint> inlayHints(std::string_view text, const LintResult& analysis, ByteRange range);

}  // namespace ptx::lsp
