// FreedMemory: the one place the project calls glibc's malloc_trim.
#include "support/FreedMemory.h"

#include <cstdlib>  // Defines __GLIBC__ (through <features.h>) where glibc is the C library.

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ptx {

void returnFreedMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace ptx
