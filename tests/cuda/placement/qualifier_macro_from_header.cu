// nvcc-flags: -arch=sm_90a
// A function declared with a qualifier macro this file does not define (CUTLASS_DEVICE comes
// from cutlass/detail/helper_macros.hpp as `__forceinline__ __device__`): it may be device
// code, so its asm is checked — an error there is a warning, since the file alone cannot say
// whether ptxas sees it — while x86 asm under such a macro, which does not read as PTX, is not.
#include <cstdint>
CUTLASS_DEVICE void f(unsigned a) {
  asm volatile("mov.u32 %5, 1;" : : "r"(a));  // expect: ASM001 at "%5"
}
HOST_INLINE uint32_t cpu_id() {
  uint32_t eax = 0;
  asm volatile("cpuid" : "+a"(eax) : : "ebx", "ecx", "edx");
  return eax;
}
