// nvcc-flags: -arch=sm_80
// The fixed twin: the macro is defined in the file, so the template is rebuilt and checked.
// nvcc and ptxas accept it.
#include <cstdint>
#define LOAD_CACHE_HINT ".cg"
__device__ uint32_t load(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.global" LOAD_CACHE_HINT ".u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}
