// ModifierDocs: a short description of what an instruction modifier means (`.rn`, `.ftz`,
// `.acquire`, `.L2::cache_hint`), from the data in ModifierDocs.def. Hover and completion
// both show it.
#pragma once

#include <string_view>

#include "isa/InstructionFacts.h"

namespace ptx {

// The description of `modifier` on an instruction of `family` (Family::Unknown when the
// family is not known: the general meaning); empty when the table has none.
std::string_view describeModifier(Modifier modifier, Family family = Family::Unknown);

}  // namespace ptx
