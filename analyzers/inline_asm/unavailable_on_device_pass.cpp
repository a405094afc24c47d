// ASM013 unavailable-on-device-pass
//
// What it does: reports an instruction in an asm template that a device pass compiling the
// statement cannot run on its target — for example `wgmma` reached by the compute_90 pass that
// `-arch=sm_90a` runs besides compute_90a. The statement must be compiled by the pass (its
// `#if` guards are true there) and emitted (in a kernel, or a function a kernel calls).
//
// Why is this bad: ptxas rejects that pass's PTX ("not supported on .target 'sm_90'"), and
// `nvcc -ptx` does not even show it, because it writes and checks only the last pass.
//
// Example:
//     // nvcc -arch=sm_90a: passes compute_90 and compute_90a
//     __global__ void k() { asm volatile("wgmma.fence.sync.aligned;"); }
//
// Use instead:
//     #if defined(__CUDA_ARCH_FEAT_SM90_ALL)
//       asm volatile("wgmma.fence.sync.aligned;");
//     #endif
//
// Fix: guard the statement with the macros of the passes that can run it, or build only those
// passes (`-gencode arch=compute_90a,code=sm_90a`).
//
// References: docs/inline-ptx.md §5; each instruction's "Target ISA Notes" in the PTX ISA.
#include "inline_asm/AsmRuleContext.h"

namespace ptx {

void checkUnavailableOnDevicePass(const AsmRuleContext& context) {
  for (const Diagnostic& finding : context.fragmentLint.diagnostics) {
    if (finding.rule != "ISA003") continue;
    const cuda::FragmentModule::Entry* entry = context.fragments.entryAt(finding.range.begin);
    if (!entry) continue;
    const CheckedStatement* found = context.checkedOf(*entry);
    if (!found) continue;
    const CheckedStatement& checked = *found;
    if (checked.statement->activity != cuda::Truth::True || checked.placement.reachedByKernel != cuda::Truth::True)
      continue;
    context.report("ASM013", context.sourceOf(checked, finding.range),
                   concat({finding.message, " (device pass ", context.pass.describe(), ")"}));
  }
}

}  // namespace ptx
