// RAC003 defect: thread 0 stores the 32-bit word w[0] while the other threads read one of its
// 16-bit halves in the same barrier interval.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned w[1];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  if (tid == 0) w[0] = in[blockIdx.x] | 0x00050003u;                          // expect: RAC003
  unsigned short h = reinterpret_cast<const unsigned short*>(w)[tid & 1];  // expect: RAC003
  out[g] = h;
}
