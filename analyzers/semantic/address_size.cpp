// SEM006 address-size
//
// What it does: checks `.address_size`: its value must be 32 or 64, it may appear only
// once, and 32 draws a warning because current ptxas no longer builds 32-bit device code.
//
// Why is this bad: ptxas rejects other values ("Illegal value for .address_size directive")
// and a second directive (a parsing error); with 32 it warns about the host mismatch and
// refuses code that touches memory ("32-Bit compilation is no longer supported").
//
// Example:
//     .address_size 32
//
// Use instead:
//     .address_size 64
//
// References: PTX ISA §11.1.3 (.address_size).
#include <string>

#include "RuleContext.h"

namespace ptx {

void checkAddressSize(const RuleContext& context) {
  const auto& sizes = context.module.header.addressSizes;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const auto& [value, range] = sizes[i];
    if (i > 0) {
      context.report("SEM006", Category::Semantic, range,
                     "'.address_size' may appear only once per module",
                     {{sizes[0].second, "first set here"}});
    } else if (value != 32 && value != 64) {
      context.report("SEM006", Category::Semantic, range,
                     "'.address_size' must be 32 or 64, not " + std::string(context.textOf(range)));
    } else if (value == 32) {
      Diagnostic warning;
      warning.rule = "SEM006";
      warning.severity = Severity::Warning;
      warning.category = Category::Semantic;
      warning.range = range;
      warning.message =
          "32-bit addressing: ptxas from CUDA 12 on no longer compiles 32-bit device code that "
          "accesses memory; use '.address_size 64'";
      context.out.push_back(std::move(warning));
    }
  }
}

}  // namespace ptx
