// TMA009 tensor-map-nan-fill-type
//
// What it does: reports CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA on a tensor map whose
// data type is an integer type (UINT8 ... INT64) or a packed 4- or 6-bit type.
//
// Why is this bad: the NaN fill writes a special floating-point NaN into the out-of-bounds
// part of a box, which only means something for floating-point data. The driver returns
// CUDA_ERROR_INVALID_VALUE: driver 580 on an H200 rejected it with UINT8 (an error); the other
// integer and packed types are checked from the documentation only (warnings).
//
// Example:
//     cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT8, ...,
//                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
//
// Use instead:
//     ... CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);   // out-of-bounds elements read as zero
//
// Fix: use CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE for integer data.
//
// References: CUDA Driver API, cuTensorMapEncodeTiled (oobFill).
#include "host_api/HostCallContext.h"

namespace ptx {

void checkTensorMapNanFillType(const HostCallContext& context) {
  using namespace tensor_map;
  for (const TensorMapCall& call : context.calls) {
    if (!call.oobFill.value || *call.oobFill.value != kOobFillNanRequestZeroFma || !call.dataType.value) continue;
    std::int64_t type = *call.dataType.value;
    bool integer = type >= kDataTypeUint8 && type <= kDataTypeInt64;
    bool packed = type >= kDataType16U4Align8B && type <= kDataType16U6Align16B;
    if (!integer && !packed) continue;
    bool confirmed = call.encoder == TensorMapEncoder::Tiled && type == kDataTypeUint8;
    context.report("TMA009", call, call.oobFill.range,
                   concat({"CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA on ", dataTypeName(type),
                           " data; the NaN fill is for floating-point types"}),
                   confirmed ? DriverVerdict::Fails : DriverVerdict::Documented,
                   {{call.dataType.range, "the data type"}});
  }
}

}  // namespace ptx
