// Rename: renames a register, parameter, variable, label or function with its declaration(s)
// and every use the model resolved to it, after checking that the new name is a PTX
// identifier of the right kind and that no use would change the symbol it names.
//
// A parameterized register range `%r<10>` declares ten registers with one name. Renaming any
// of them renames the whole family: the prefix is what gets renamed, so `%r` → `%x` turns
// `%r<10>` into `%x<10>` and every `%r3` into `%x3` (prepareRename returns the prefix part
// of the name under the cursor, which the editor offers as the text to replace).
//
// Scopes are respected as ptxas resolves names: only uses that resolve to this declaration
// change, so `%r1` of another function or of a shadowing inner block is left alone. A
// function's prototype and its definition (and `.extern` declarations of a module variable)
// are one symbol. Names in `.section` data (DWARF) are not modelled and are not renamed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diag/Diagnostic.h"
#include "model/Module.h"

namespace ptx::lsp {

// The part of the name at `offset` that a rename replaces (also with the cursor just past
// it), or nullopt where there is nothing to rename: opcodes, directives, special registers,
// literals, names that resolve to no declaration.
std::optional<ByteRange> prepareRename(std::string_view text, const Module& module, std::uint32_t offset);

struct RenameResult {
  std::vector<FixEdit> edits;  // Sorted by position; empty when the name is unchanged.
  std::string error;           // Why the rename is refused; empty on success.

  bool ok() const { return error.empty(); }
};

// Renames the symbol at `offset` to `newName` (the new prefix, for a `%r<N>` family).
RenameResult rename(std::string_view text, const Module& module, std::uint32_t offset, std::string_view newName);

// Whether `name` is a PTX identifier: [a-zA-Z][a-zA-Z0-9_$]* or [_$%][a-zA-Z0-9_$]+.
bool isPtxIdentifier(std::string_view name);

}  // namespace ptx::lsp
