// ALN008 alignment-assumed
//
// What it does: notes an address that the mbarrier, bulk-copy, tensor-copy and tensor-map
// rules (ALN001-ALN004) need aligned, which is aligned only if the variable it points into is
// placed at a stricter boundary than its declaration promises: a known offset into a buffer
// declared `.align 16` that a TMA copy needs 128-byte aligned. Nothing is proven wrong:
// ptxas usually places a lone variable at the start of its window, and the dynamic
// shared-memory array of a kernel without static shared memory starts at a 1024-byte
// boundary (measured on an H100: tests/gpu/RESULTS.md), which this rule takes into account.
// The note names the assumption the code rests on.
//
// Why is this bad: the ISA promises a variable only its declared alignment. Adding a static
// `__shared__` variable, another module-level buffer, or a different toolkit may move the
// variable to a boundary that is only as strong as declared, and the copy then faults
// (cudaErrorMisalignedAddress) or hangs. Provably misaligned addresses are errors of the
// asking rule, not this note.
//
// Example:
//     .shared .align 64 .b8 tile[8192];
//     cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [tile], [tmap, {%r1, %r2}], [bar];
//
// Use instead:
//     .shared .align 128 .b8 tile[8192];
//
// References: PTX ISA §5.4 (variable alignment: `.align` is the guaranteed minimum) and the
// alignment requirements of mbarrier, cp.async.bulk and cp.async.bulk.tensor.
#include "AddressAlignment.h"

namespace ptx {

void MisalignedAddress::report(const RuleContext& context, RuleCode rule, ByteRange where, std::string_view prefix) && {
  if (!proven) {
    context.report("ALN008", where, concat({prefix, message}), std::move(related));
  } else {
    context.report(rule, where, concat({prefix, message}), std::move(related));
  }
  if (raiseAlignment) context.attachFix(std::move(fixTitle), {*raiseAlignment});
}

}  // namespace ptx
