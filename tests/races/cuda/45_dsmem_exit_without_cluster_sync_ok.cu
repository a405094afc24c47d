// SNC015 twin (sm_90a, cluster of 2): each block counts into its neighbour's shared histogram
// through cluster.map_shared_rank, and a cluster.sync() before the exit keeps every block's
// shared memory alive until the atomics of the whole cluster are done.
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
  atomicAdd(&peer[in[g] & 63], 1u);
  out[g] = in[g];
  cluster.sync();
}
