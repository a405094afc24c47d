// SNC015 defect (sm_90a, cluster of 2): each block counts into its neighbour's shared histogram
// through cluster.map_shared_rank and then exits with no cluster.sync(): the neighbour may
// already have exited, its shared memory with it, while the atomics still reach into it.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void __cluster_dims__(2, 1, 1) k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned hist[64];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * 64 + tid;
  hist[tid] = 0;
  cluster.sync();
  unsigned* peer = cluster.map_shared_rank(hist, cluster.block_rank() ^ 1);
  atomicAdd(&peer[in[g] & 63], 1u);  // expect: SNC015
  out[g] = in[g];
}
