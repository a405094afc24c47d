// DocumentSymbols: the outline of a module — module-scope variables, and kernels and
// functions with their parameters, registers, local variables and labels (nested blocks
// flattened into their function).
#pragma once

#include <string>
#include <vector>

#include "model/Module.h"

namespace ptx::lsp {

enum class OutlineKind { Kernel, Function, Parameter, Register, Variable, Label };

struct OutlineItem {
  std::string name;
  std::string detail;  // ".reg .b32", ".param .u64", ...
  OutlineKind kind;
  ByteRange range;           // The whole declaration.
  ByteRange selectionRange;  // The name.
  std::vector<OutlineItem> children;
};

std::vector<OutlineItem> documentOutline(const Module& module);

}  // namespace ptx::lsp
