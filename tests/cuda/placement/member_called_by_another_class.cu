// nvcc-flags: -arch=sm_90a
// Two class templates with a member named copy(); the kernel calls only A<float>::copy, so
// B<T>::copy's sm_100-only stmatrix.m16n8 never reaches ptxas (nvcc 13 -arch=sm_90a compiles
// it, and its PTX holds no stmatrix). A call by a name several functions share does not make
// each of them reached: no ASM013 error.
#include <cstdint>
template <typename T>
struct A {
  __device__ __forceinline__ static void copy(uint32_t v, void* smem) {
    asm volatile("st.shared.b32 [%0], %1;" ::"l"(__cvta_generic_to_shared(smem)), "r"(v));
  }
};
template <typename T>
struct B {
  __device__ __forceinline__ static void copy(uint32_t v, void* smem) {
    asm volatile("stmatrix.sync.aligned.m16n8.x1.trans.shared.b8 [%0], {%1};\n"
                 ::"l"(__cvta_generic_to_shared(smem)), "r"(v));
  }
};
__global__ void k(uint32_t x) {
  __shared__ alignas(16) uint32_t s[32];
  A<float>::copy(x, s);
}
