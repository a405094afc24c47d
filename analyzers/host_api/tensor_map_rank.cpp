// TMA001 tensor-map-rank
//
// What it does: reports a cuTensorMapEncodeTiled or cuTensorMapEncodeIm2col call whose
// tensorRank, a constant the file shows, is one the driver does not accept: 0 or more than 5
// (an im2col map needs 3 to 5), or fewer than 3 with an interleaved layout.
//
// Why is this bad: the driver returns CUDA_ERROR_INVALID_VALUE and leaves the map unwritten;
// a kernel that then uses it faults or reads garbage. Driver 580 on an H200 rejected rank 6
// and CU_TENSOR_MAP_INTERLEAVE_32B at rank 2 (errors); rank 0, CU_TENSOR_MAP_INTERLEAVE_16B at
// rank 2 and im2col ranks outside 3..5 are forbidden by the documentation only, so they are
// warnings (tests/cuda/tensor_maps/driver-verdicts.txt).
//
// Example:
//     cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 6, ptr, dims, strides, box, ones,
//                            CU_TENSOR_MAP_INTERLEAVE_NONE, ...);
//
// Use instead:
//     fold dimensions until at most 5 remain (TMA copies have 1 to 5 dimensions).
//
// Fix: pass the number of entries of globalDim (1 to 5); an interleaved layout (NC/8HWC8)
// needs at least 3 dimensions.
//
// References: CUDA Driver API, Tensor Map Object Management (cuTensorMapEncodeTiled,
// cuTensorMapEncodeIm2col); CUDA Programming Guide §7.29.2.
#include "host_api/HostCallContext.h"

namespace ptx {

void checkTensorMapRank(const HostCallContext& context) {
  using namespace tensor_map;
  for (const TensorMapCall& call : context.calls) {
    if (!call.rank.value) continue;
    std::int64_t rank = *call.rank.value;
    std::string spelled = std::to_string(rank);
    bool tiled = call.encoder == TensorMapEncoder::Tiled;
    if (tiled && rank == 0) {
      context.report("TMA001", call, call.rank.range, "tensorRank is 0; a tensor map has 1 to 5 dimensions",
                     DriverVerdict::Documented);
    } else if (rank > 5) {
      context.report("TMA001", call, call.rank.range,
                     concat({"tensorRank is ", spelled, "; a tensor map has at most 5 dimensions"}),
                     tiled ? DriverVerdict::Fails : DriverVerdict::Documented);
    } else if (!tiled && rank < 3) {
      context.report("TMA001", call, call.rank.range,
                     concat({"tensorRank is ", spelled, "; an im2col tensor map has 3 to 5 dimensions"}),
                     DriverVerdict::Documented);
    } else if (call.interleave.value && *call.interleave.value != kInterleaveNone && rank < 3) {
      std::string interleave = interleaveName(*call.interleave.value);
      context.report(
          "TMA001", call, call.rank.range,
          concat(
              {"tensorRank is ", spelled, " with ", interleave, "; an interleaved layout needs at least 3 dimensions"}),
          tiled && *call.interleave.value == kInterleave32B ? DriverVerdict::Fails : DriverVerdict::Documented,
          {{call.interleave.range, "the interleaved layout"}});
    }
  }
}

}  // namespace ptx
