// RAC004 twin (sm_90a, cluster of 2): each block writes into its neighbour's shared `box`
// through cluster.map_shared_rank, then waits on cluster.sync() before reading its own `box`:
// the cluster barrier orders the neighbour's stores before the read.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void __cluster_dims__(2, 1, 1) k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned box[64];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned tid = threadIdx.x;
  box[tid] = 0;
  cluster.sync();
  unsigned* peer = cluster.map_shared_rank(box, cluster.block_rank() ^ 1);
  peer[tid] = in[blockIdx.x * 64 + tid] + 1;
  cluster.sync();
  out[blockIdx.x * 64 + tid] = box[tid];
  cluster.sync();
}
