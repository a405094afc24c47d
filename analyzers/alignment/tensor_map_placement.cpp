// ALN004 tensor-map-placement
//
// (documentation to be written)
#include "RuleContext.h"

namespace ptx {

void checkTensorMapPlacement(const RuleContext&) {}

}  // namespace ptx
