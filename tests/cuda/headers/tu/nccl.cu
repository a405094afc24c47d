// Instantiates the inline asm of NCCL's device API headers (nccl_device/) for record.py: the
// lane helpers, the LL all-to-all session's volatile vector loads/stores, the LSA barrier's
// multimem reduction and the GIN signal shadow update.
#include <nccl_device.h>

__global__ void k_lane(unsigned* o)
{
  o[0] = nccl::utility::lane();
  o[1] = nccl::utility::lanemask_lt();
}

__global__ void k_ll_a2a(const ncclDevComm* comm, ncclLLA2AHandle handle, unsigned* io)
{
  ncclCoopWarp warp;
  ncclLLA2ASession<ncclCoopWarp> session(warp, *comm, ncclTeamWorld(*comm), handle, blockIdx.x, 64);
  session.send(io[0], io[1], io[2]);
  session.send(io[0], io[1], *reinterpret_cast<unsigned long long*>(io + 4));
  session.bcast(io[1], io[3]);
  io[8]                                           = session.recv<unsigned>(io[1]);
  *reinterpret_cast<unsigned long long*>(io + 10) = session.recv<unsigned long long>(io[1]);
  session.endEpoch(warp);
}

__global__ void k_lsa_barrier(const ncclDevComm* comm, unsigned* io)
{
  ncclCoopCta cta;
  ncclLsaBarrierSession<ncclCoopCta> bar(cta, *comm, ncclTeamTagLsa(), blockIdx.x, io[0] != 0);
  bar.sync(cta, cuda::memory_order_acq_rel);
}
