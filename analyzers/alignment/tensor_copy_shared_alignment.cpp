// ALN003 tensor-copy-shared-alignment
//
// (documentation to be written)
#include "RuleContext.h"

namespace ptx {

void checkTensorCopySharedAlignment(const RuleContext&) {}

}  // namespace ptx
