// ALN005 access-alignment
//
// (documentation to be written)
#include "RuleContext.h"

namespace ptx {

void checkAccessAlignment(const RuleContext&) {}

}  // namespace ptx
