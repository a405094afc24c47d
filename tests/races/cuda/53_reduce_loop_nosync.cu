// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// RAC001 defect: a tree reduction in a loop that is not unrolled, with no barrier between its
// steps. In step st/2 thread t reads s[t + st/2], which thread t + st/2 wrote in step st.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 64 + tid] + tid;
  __syncthreads();
  #pragma unroll 1
  for (unsigned st = 32; st > 0; st >>= 1) {
    if (tid < st) s[tid] += s[tid + st];  // expect: RAC001
  }
  __syncthreads();
  if (tid == 0) out[blockIdx.x] = s[0];
}
