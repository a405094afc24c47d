// ALN007 constant-offset-out-of-bounds
//
// (documentation to be written)
#include "RuleContext.h"

namespace ptx {

void checkConstantOffsetOutOfBounds(const RuleContext&) {}

}  // namespace ptx
