// RAC001 defect: an iterative stencil whose only barrier is after the loop. Inside the loop
// thread t reads s[t + 1] while thread t + 1 overwrites it (and the next iteration reads it again).
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  s[tid] = tid;
  __syncthreads();
  for (unsigned i = 0; i < 4; ++i) {
    unsigned v = s[(tid + 1) & 63];  // expect: RAC001
    s[tid] = v + in[g] + i;          // expect: RAC001
  }
  __syncthreads();
  out[g] = s[tid];
}
