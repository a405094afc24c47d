// libcu++ asks nvcc's __isLocal whether an atomic lives in automatic storage; defining
// _LIBCUDACXX_FORCE_PTX_AUTOMATIC_STORAGE_PATH (a supported testing switch of the header) selects
// its inline-asm `isspacep.local` fallback instead, so record.py can see that statement too.
#define _LIBCUDACXX_FORCE_PTX_AUTOMATIC_STORAGE_PATH
#include <cuda/std/atomic>

__global__ void k_atomic_ref(int* p, int* o)
{
  cuda::std::atomic_ref<int> a(*p);
  o[0] = a.fetch_add(o[1]);
}
