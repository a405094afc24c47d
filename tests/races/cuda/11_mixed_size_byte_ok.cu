// RAC003 twin: a __syncthreads() separates the 32-bit stores from the byte loads.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned w[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  w[tid] = in[g] + 0x01020304u * (tid + 1);
  __syncthreads();
  unsigned char b = reinterpret_cast<const unsigned char*>(w)[((tid + 1) & 63) * 4 + 1];
  out[g] = b;
}
