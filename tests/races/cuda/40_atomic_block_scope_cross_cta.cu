// SNC011 defect: every thread of both blocks adds its block number + 1 to out[0] with atomicAdd_block, a CTA-scoped
// atomic, although threads of the other block update the same global word. Atomicity is only
// guaranteed among threads of one CTA, so the two blocks' increments may conflict.
// launch: 2 64
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  atomicAdd_block(&out[0], blockIdx.x + 1u);  // expect: SNC011
}
