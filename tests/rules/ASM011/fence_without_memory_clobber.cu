// nvcc-flags: -arch=sm_80
// ASM011 (opt-in): a volatile fence without a "memory" clobber; nvcc may move the store to
// data[] below the fence. nvcc and ptxas accept it (ordering, not syntax).
__global__ void publish(int* data, int* flag, int v) {
  data[threadIdx.x] = v;
  asm volatile("fence.acq_rel.gpu;");  // expect: ASM011
  if (threadIdx.x == 0) atomicExch(flag, 1);
}
