// RAC004 defect (sm_90a, cluster of 2): each block writes into its neighbour's shared `box`
// through cluster.map_shared_rank, then waits only on __syncthreads() before reading its own
// `box`. A CTA barrier does not order the neighbour's stores: the read may see the old value.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void __cluster_dims__(2, 1, 1) k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned box[64];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned tid = threadIdx.x;
  box[tid] = 0;
  cluster.sync();
  unsigned* peer = cluster.map_shared_rank(box, cluster.block_rank() ^ 1);
  peer[tid] = in[blockIdx.x * 64 + tid] + 1;  // expect: RAC004
  __syncthreads();
  out[blockIdx.x * 64 + tid] = box[tid];  // expect: RAC004
  cluster.sync();
}
