// 16-byte atomics in libcu++ (cuda_ptx_generated.h's __atomic_cuda_operand_b128 arms). Their raw-
// string templates are defective in CUDA 13.0: `ld.<sem>.b128 [%2],_d;` has its operands reversed
// and `.reg .b128 _d;` sits outside `{ }`, so ptxas rejects the compute_90a/compute_100a output
// ("Arguments mismatch for instruction 'ld'", "Duplicate definition of variable '_d'").
// Their compare-exchange does not even compile (it returns `__dst.x == __cmp.x` on a struct whose
// members are __x/__y), so it is not called here.
// record.py still records the text nvcc emits (the template rebuild must match it) and the ptxas
// errors, under "compiles".
#include <cstdint>
#include <cuda/atomic>

struct alignas(16) Pair
{
  std::uint64_t x, y;
};

__global__ void k_load(Pair* p, Pair* o, int order)
{
  Pair r;
  cuda::std::__atomic_load_cuda(const_cast<const Pair*>(p), r, order, cuda::std::__thread_scope_device_tag{});
  *o = r;
}

__global__ void k_public(Pair* p, Pair* o)
{
  cuda::atomic_ref<Pair, cuda::thread_scope_block> a(*p);
  o[0] = a.load();
  a.store(o[1]);
  o[2] = a.exchange(o[3]);
}
