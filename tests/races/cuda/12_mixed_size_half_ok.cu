// RAC003 twin: the halves are read after a __syncthreads().
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned w[1];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  if (tid == 0) w[0] = in[blockIdx.x] | 0x00050003u;
  __syncthreads();
  unsigned short h = reinterpret_cast<const unsigned short*>(w)[tid & 1];
  out[g] = h;
}
