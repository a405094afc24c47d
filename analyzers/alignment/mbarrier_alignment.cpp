// ALN001 mbarrier-alignment
//
// (documentation to be written)
#include "RuleContext.h"

namespace ptx {

void checkMbarrierAlignment(const RuleContext&) {}

}  // namespace ptx
