// nvcc-flags: -arch=sm_80
// The fixed twin: the fence has a "memory" clobber, so the store stays before it.
// nvcc and ptxas accept it.
__global__ void publish(int* data, int* flag, int v) {
  data[threadIdx.x] = v;
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
  if (threadIdx.x == 0) atomicExch(flag, 1);
}
