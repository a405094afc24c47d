// ALN006 cp-async-size
//
// (documentation to be written)
#include "RuleContext.h"

namespace ptx {

void checkCpAsyncSize(const RuleContext&) {}

}  // namespace ptx
