// RAC001 defect: every thread stores a different value to the same word s[0] (write-write race
// inside one barrier interval); the barrier after it only orders the later reads.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[1];
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  s[0] = in[g] + threadIdx.x;  // expect: RAC001
  __syncthreads();
  out[g] = s[0];
}
