// SEM005 module-header-order
//
// What it does: checks that a module starts with `.version` and then `.target`, as ptxas
// requires, and that `.address_size` (when present) follows them.
//
// Why is this bad: ptxas stops with "Missing .version directive at start of file" or
// "Missing .target directive at start of file" before looking at anything else.
//
// Example:
//     .target sm_90
//     .version 8.5
//
// Use instead:
//     .version 8.5
//     .target sm_90
//     .address_size 64
//
// References: PTX ISA §4.1 (source format), §11 (module directives).
#include "RuleContext.h"

namespace ptx {

void checkModuleHeader(const RuleContext& context) {
  const ModuleHeader& header = context.module.header;
  if (!header.firstItem) return;  // An empty file (or only comments) is not a module yet.
  // ptxas notices a bad header at the second directive; the range runs from the first item
  // to the start of the second, so it covers both lines.
  ByteRange first = *header.firstItem;
  ByteRange opening{first.begin, header.secondItem ? header.secondItem->begin + 1 : first.end};
  if (!header.version) {
    context.report("SEM005", opening,
                   "missing '.version' directive: a PTX module must start with '.version'");
    return;
  }
  if (header.versionIndex != 0) {
    context.report("SEM005", *header.version,
                   "'.version' must be the first directive of the module",
                   {{first, "the module starts here"}});
    return;
  }
  if (!header.target) {
    context.report("SEM005", opening,
                   "missing '.target' directive: '.target' must follow '.version'");
    return;
  }
  if (header.targetIndex != 1) {
    context.report("SEM005", *header.target,
                   "'.target' must directly follow '.version'");
  }
}

}  // namespace ptx
