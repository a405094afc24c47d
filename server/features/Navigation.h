// Navigation: definition, references and document highlights for the symbol under the
// cursor — registers (one register of a `%r<N>` range at a time), variables, parameters,
// labels and functions — by the model's resolved references.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "model/Module.h"

namespace ptx::lsp {

// The declaring name of the symbol at `offset`, if any.
std::optional<ByteRange> definitionAt(const Module& module, std::uint32_t offset);

// Every use of the symbol at `offset` (and its declaration when asked), in source order.
std::vector<ByteRange> referencesAt(std::string_view text, const Module& module, std::uint32_t offset,
                                    bool includeDeclaration);

}  // namespace ptx::lsp
