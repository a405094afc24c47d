// FreedMemory: hands heap pages that the allocator holds free back to the system.
//
// glibc keeps what a program frees for its next allocations. A batch lint exits soon after;
// a language server lives for hours and analyzes a large document in stages (tree, model,
// rules), each freeing its scratch before the next grows the heap beside the fragments, so
// its resident memory would climb to the sum of the stages' peaks rather than the largest.
#pragma once

namespace ptx {

// Returns free heap pages to the system (malloc_trim on glibc; nothing elsewhere). Costs a
// pass over the allocator's free lists: a few milliseconds on a heap of hundreds of MB.
void returnFreedMemory();

}  // namespace ptx
