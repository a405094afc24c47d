// nvcc-flags: -arch=sm_80
// ASM012: the template's middle piece is a macro this file does not define (it would come from
// a header), so the statement cannot be rebuilt and is not checked; an information note says so.
// nvcc rejects this file alone (LOAD_CACHE_HINT undefined); with the header it compiles.
#include <cstdint>
__device__ uint32_t load(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.global" LOAD_CACHE_HINT ".u32 %0, [%1];" : "=r"(v) : "l"(p));  // expect: ASM012
  return v;
}
