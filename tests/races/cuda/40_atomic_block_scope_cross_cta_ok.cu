// SNC011 twin: the shared counter is incremented with atomicAdd (device scope), which is atomic
// with respect to the threads of every block.
// launch: 2 64
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  atomicAdd(&out[0], blockIdx.x + 1u);
}
