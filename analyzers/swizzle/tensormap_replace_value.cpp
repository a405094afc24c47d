// SWZ002 tensormap-replace-value
//
// (documentation to be written)
#include "RuleContext.h"

namespace ptx {

void checkTensorMapReplaceValue(const RuleContext&) {}

}  // namespace ptx
