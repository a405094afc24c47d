// ALN002 bulk-copy-alignment
//
// (documentation to be written)
#include "RuleContext.h"

namespace ptx {

void checkBulkCopyAlignment(const RuleContext&) {}

}  // namespace ptx
