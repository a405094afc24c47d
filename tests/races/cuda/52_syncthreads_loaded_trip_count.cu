// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// SNC001 defect: a loop whose trip count each thread loads for itself (in[g] % 4) with
// __syncthreads() in its body: threads with fewer iterations stop arriving.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  unsigned trips = in[g] % 4, acc = 0;
  #pragma unroll 1
  for (unsigned i = 0; i < trips; ++i) {
    s[tid] = acc + i;
    __syncthreads();  // expect: SNC001
    acc += s[(tid + 1) & 63];
    __syncthreads();  // expect: SNC001
  }
  out[g] = acc;
}
