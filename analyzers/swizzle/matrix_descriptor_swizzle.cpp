// SWZ001 matrix-descriptor-swizzle
//
// (documentation to be written)
#include "RuleContext.h"

namespace ptx {

void checkMatrixDescriptorSwizzle(const RuleContext&) {}

}  // namespace ptx
