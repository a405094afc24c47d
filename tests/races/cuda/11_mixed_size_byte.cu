// RAC003 defect: each thread stores a 32-bit word w[tid] and reads byte 1 of the next thread's
// word through an 8-bit load in the same barrier interval (partially overlapping accesses).
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned w[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  w[tid] = in[g] + 0x01020304u * (tid + 1);                                       // expect: RAC003
  unsigned char b = reinterpret_cast<const unsigned char*>(w)[((tid + 1) & 63) * 4 + 1];  // expect: RAC003
  out[g] = b;
}
