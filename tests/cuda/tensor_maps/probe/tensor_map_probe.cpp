// tensor_map_probe: asks the CUDA driver what cuTensorMapEncodeTiled and cuTensorMapEncodeIm2col
// return for each argument combination the TMA rules judge (analyzers/host_api/), so that every
// rule's severity rests on the driver's own verdict rather than on the documentation.
//
// Each case is a valid baseline with one change; the program prints one line per case,
// "<case>\t<CUresult name>", and the driver's version first. Build and run (a GPU machine):
//     g++ -std=c++20 -O1 -I/usr/local/cuda/include tensor_map_probe.cpp -ldl -o probe && ./probe
// The driver is opened with dlopen, so no libcuda stub is needed to link. The verdicts are
// recorded in tests/cuda/tensor_maps/driver-verdicts.txt.
#include <cuda.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

decltype(&cuInit) pInit;
decltype(&cuDriverGetVersion) pDriverGetVersion;
decltype(&cuDeviceGet) pDeviceGet;
decltype(&cuDeviceGetName) pDeviceGetName;
decltype(&cuDevicePrimaryCtxRetain) pPrimaryCtxRetain;
decltype(&cuCtxSetCurrent) pCtxSetCurrent;
decltype(&cuMemAlloc_v2) pMemAlloc;
decltype(&cuGetErrorName) pGetErrorName;
decltype(&cuTensorMapEncodeTiled) pEncodeTiled;
decltype(&cuTensorMapEncodeIm2col) pEncodeIm2col;

template <typename F>
void load(void* lib, F& f, const char* name) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  if (!f) {
    std::printf("missing symbol %s\n", name);
    std::exit(2);
  }
}

std::string nameOf(CUresult r) {
  const char* s = nullptr;
  pGetErrorName(r, &s);
  return s ? s : std::to_string(static_cast<int>(r));
}

CUdeviceptr gBase = 0;  // 2 MiB from cuMemAlloc: 512-B aligned at least.

struct Tiled {
  CUtensorMapDataType type = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  cuuint32_t rank = 2;
  std::size_t addressOffset = 0;
  bool nullAddress = false;
  cuuint64_t dims[5] = {1024, 512, 4, 4, 4};
  cuuint64_t strides[4] = {2048, 2048 * 512, 2048 * 512 * 4, 2048ull * 512 * 16};
  cuuint32_t box[5] = {64, 64, 1, 1, 1};
  cuuint32_t elementStrides[5] = {1, 1, 1, 1, 1};
  CUtensorMapInterleave interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
  CUtensorMapL2promotion l2 = CU_TENSOR_MAP_L2_PROMOTION_NONE;
  CUtensorMapFloatOOBfill oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
  std::size_t mapOffset = 0;  // Bytes added to the 128-B-aligned CUtensorMap's address.
};

// A rank-3 interleaved baseline: {8 channels of fp16 = 16 B, W, H}.
Tiled interleaved(CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle) {
  Tiled t;
  t.rank = 3;
  t.interleave = interleave;
  t.swizzle = swizzle;
  t.dims[0] = interleave == CU_TENSOR_MAP_INTERLEAVE_32B ? 16 : 8;
  t.dims[1] = 64;
  t.dims[2] = 64;
  cuuint64_t inner = t.dims[0] * 2;
  t.strides[0] = inner * 64;
  t.strides[1] = inner * 64 * 64;
  t.box[0] = static_cast<cuuint32_t>(t.dims[0]);
  t.box[1] = 8;
  t.box[2] = 8;
  return t;
}

CUresult encode(const Tiled& t) {
  alignas(128) static unsigned char storage[sizeof(CUtensorMap) + 128];
  auto* map = reinterpret_cast<CUtensorMap*>(storage + t.mapOffset);
  void* address = t.nullAddress ? nullptr : reinterpret_cast<void*>(gBase + t.addressOffset);
  return pEncodeTiled(map, t.type, t.rank, address, t.dims, t.strides, t.box, t.elementStrides, t.interleave, t.swizzle,
                      t.l2, t.oob);
}

struct Im2col {
  CUtensorMapDataType type = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  cuuint32_t rank = 4;  // NHWC: {C, W, H, N}
  cuuint64_t dims[5] = {64, 32, 32, 2, 1};
  cuuint64_t strides[4] = {128, 128 * 32, 128 * 32 * 32, 128 * 32 * 32 * 2};
  int lower[3] = {-1, -1, -1};
  int upper[3] = {-1, -1, -1};
  cuuint32_t channelsPerPixel = 64;
  cuuint32_t pixelsPerColumn = 128;
  cuuint32_t elementStrides[5] = {1, 1, 1, 1, 1};
  CUtensorMapInterleave interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
};

CUresult encode(const Im2col& t) {
  alignas(128) static CUtensorMap map;
  return pEncodeIm2col(&map, t.type, t.rank, reinterpret_cast<void*>(gBase), t.dims, t.strides, t.lower, t.upper,
                       t.channelsPerPixel, t.pixelsPerColumn, t.elementStrides, t.interleave, t.swizzle,
                       CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

struct Case {
  std::string name;
  std::function<CUresult()> run;
};

template <typename T>
Case tiled(std::string name, T change) {
  return {"tiled." + std::move(name), [change] {
            Tiled t;
            change(t);
            return encode(t);
          }};
}

template <typename T>
Case im2col(std::string name, T change) {
  return {"im2col." + std::move(name), [change] {
            Im2col t;
            change(t);
            return encode(t);
          }};
}

}  // namespace

int main() {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib) {
    std::printf("no driver: %s\n", dlerror());
    return 2;
  }
  load(lib, pInit, "cuInit");
  load(lib, pDriverGetVersion, "cuDriverGetVersion");
  load(lib, pDeviceGet, "cuDeviceGet");
  load(lib, pDeviceGetName, "cuDeviceGetName");
  load(lib, pPrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  load(lib, pCtxSetCurrent, "cuCtxSetCurrent");
  load(lib, pMemAlloc, "cuMemAlloc_v2");
  load(lib, pGetErrorName, "cuGetErrorName");
  load(lib, pEncodeTiled, "cuTensorMapEncodeTiled");
  load(lib, pEncodeIm2col, "cuTensorMapEncodeIm2col");
  if (pInit(0) != CUDA_SUCCESS) return 2;
  int version = 0;
  pDriverGetVersion(&version);
  CUdevice device;
  pDeviceGet(&device, 0);
  char deviceName[128] = {};
  pDeviceGetName(deviceName, sizeof deviceName, device);
  CUcontext context;
  pPrimaryCtxRetain(&context, device);
  pCtxSetCurrent(context);
  if (pMemAlloc(&gBase, 2u << 20) != CUDA_SUCCESS) return 2;
  std::printf("driver\t%d\ndevice\t%s\n", version, deviceName);

  using T = Tiled;
  using I = Im2col;
  std::vector<Case> cases = {
      tiled("baseline", [](T&) {}),
      // TMA001 rank
      tiled("rank0", [](T& t) { t.rank = 0; }),
      tiled("rank1", [](T& t) { t.rank = 1; }),
      tiled("rank5", [](T& t) { t.rank = 5; }),
      tiled("rank6", [](T& t) { t.rank = 6; }),
      tiled("rank2_interleave16", [](T& t) { t.interleave = CU_TENSOR_MAP_INTERLEAVE_16B; t.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE; }),
      tiled("rank2_interleave32", [](T& t) { t.interleave = CU_TENSOR_MAP_INTERLEAVE_32B; t.swizzle = CU_TENSOR_MAP_SWIZZLE_32B; }),
      {"tiled.rank3_interleave16", [] { return encode(interleaved(CU_TENSOR_MAP_INTERLEAVE_16B, CU_TENSOR_MAP_SWIZZLE_NONE)); }},
      {"tiled.rank3_interleave32_swizzle32", [] { return encode(interleaved(CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_32B)); }},
      im2col("baseline", [](I&) {}),
      im2col("rank2", [](I& t) { t.rank = 2; }),
      im2col("rank3", [](I& t) { t.rank = 3; }),
      im2col("rank5", [](I& t) { t.rank = 5; t.dims[4] = 1; }),
      im2col("rank6", [](I& t) { t.rank = 6; }),
      // TMA002 global dims
      tiled("dim1_zero", [](T& t) { t.dims[1] = 0; }),
      tiled("dim0_one", [](T& t) { t.dims[0] = 1; }),
      tiled("dim1_2pow32", [](T& t) { t.dims[1] = 1ull << 32; }),
      tiled("dim1_2pow32_plus1", [](T& t) { t.dims[1] = (1ull << 32) + 1; }),
      tiled("dim_unused_zero", [](T& t) { t.dims[2] = 0; }),
      im2col("dim2_zero", [](I& t) { t.dims[2] = 0; }),
      // TMA003 global strides
      tiled("stride_2056", [](T& t) { t.strides[0] = 2056; }),
      tiled("stride_2064", [](T& t) { t.strides[0] = 2064; }),
      tiled("stride_0", [](T& t) { t.strides[0] = 0; }),
      tiled("stride_1024_below_row", [](T& t) { t.strides[0] = 1024; }),
      tiled("stride_2pow40", [](T& t) { t.strides[0] = 1ull << 40; }),
      tiled("stride_2pow40_minus16", [](T& t) { t.strides[0] = (1ull << 40) - 16; }),
      tiled("stride_unused_odd", [](T& t) { t.strides[1] = 7; }),
      tiled("rank3_stride1_below_stride0", [](T& t) { t.rank = 3; t.dims[2] = 4; t.strides[1] = 1024; t.box[2] = 1; }),
      {"tiled.interleave32_stride_48", [] { T t = interleaved(CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_32B); t.strides[0] = 2048 + 16; return encode(t); }},
      {"tiled.interleave16_stride_48", [] { T t = interleaved(CU_TENSOR_MAP_INTERLEAVE_16B, CU_TENSOR_MAP_SWIZZLE_NONE); t.strides[0] = 1024 + 16; return encode(t); }},
      im2col("stride_136", [](I& t) { t.strides[0] = 136; }),
      // TMA004 box
      tiled("box1_256", [](T& t) { t.box[1] = 256; }),
      tiled("box1_257", [](T& t) { t.box[1] = 257; }),
      tiled("box1_0", [](T& t) { t.box[1] = 0; }),
      tiled("box0_0", [](T& t) { t.box[0] = 0; }),
      tiled("box_unused_0", [](T& t) { t.box[2] = 0; }),
      tiled("box0_fp32_6_24B", [](T& t) { t.type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32; t.box[0] = 6; t.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE; }),
      tiled("box0_fp32_8_32B", [](T& t) { t.type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32; t.box[0] = 8; t.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE; }),
      tiled("box0_u8_4_4B", [](T& t) { t.type = CU_TENSOR_MAP_DATA_TYPE_UINT8; t.box[0] = 4; t.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE; }),
      tiled("box_larger_than_dims", [](T& t) { t.dims[0] = 32; t.dims[1] = 16; t.box[0] = 64; t.box[1] = 64; }),
      {"tiled.interleave16_box0_fp16_4_8B", [] { T t = interleaved(CU_TENSOR_MAP_INTERLEAVE_16B, CU_TENSOR_MAP_SWIZZLE_NONE); t.box[0] = 4; return encode(t); }},
      {"tiled.interleave16_box0_fp16_256", [] { T t = interleaved(CU_TENSOR_MAP_INTERLEAVE_16B, CU_TENSOR_MAP_SWIZZLE_NONE); t.box[0] = 256; return encode(t); }},
      im2col("channels_256", [](I& t) { t.channelsPerPixel = 256; t.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE; t.dims[0] = 256; t.strides[0] = 512; t.strides[1] = 512 * 32; t.strides[2] = 512 * 32 * 32; }),
      im2col("channels_257", [](I& t) { t.channelsPerPixel = 257; t.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE; t.dims[0] = 512; t.strides[0] = 1024; t.strides[1] = 1024 * 32; t.strides[2] = 1024 * 32 * 32; }),
      im2col("channels_0", [](I& t) { t.channelsPerPixel = 0; }),
      im2col("channels_fp16_4_8B", [](I& t) { t.channelsPerPixel = 4; t.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE; }),
      im2col("pixels_1024", [](I& t) { t.pixelsPerColumn = 1024; }),
      im2col("pixels_1025", [](I& t) { t.pixelsPerColumn = 1025; }),
      im2col("pixels_0", [](I& t) { t.pixelsPerColumn = 0; }),
      // TMA005 inner box vs swizzle span
      tiled("swz128_inner256B", [](T& t) { t.box[0] = 128; }),
      tiled("swz128_inner128B", [](T& t) { t.box[0] = 64; }),
      tiled("swz64_inner128B", [](T& t) { t.swizzle = CU_TENSOR_MAP_SWIZZLE_64B; }),
      tiled("swz64_inner64B", [](T& t) { t.swizzle = CU_TENSOR_MAP_SWIZZLE_64B; t.box[0] = 32; }),
      tiled("swz32_inner64B", [](T& t) { t.swizzle = CU_TENSOR_MAP_SWIZZLE_32B; t.box[0] = 32; }),
      tiled("swz32_inner32B", [](T& t) { t.swizzle = CU_TENSOR_MAP_SWIZZLE_32B; t.box[0] = 16; }),
      tiled("swz128atom32_inner256B", [](T& t) { t.swizzle = CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B; t.box[0] = 128; }),
      tiled("swz128atom32_inner128B", [](T& t) { t.swizzle = CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B; }),
      tiled("swz128atom64_inner128B", [](T& t) { t.swizzle = CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B; }),
      tiled("swz_none_inner512B", [](T& t) { t.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE; t.box[0] = 256; }),
      {"tiled.interleave16_swz32_inner64B", [] { T t = interleaved(CU_TENSOR_MAP_INTERLEAVE_16B, CU_TENSOR_MAP_SWIZZLE_32B); t.dims[0] = 32; t.box[0] = 32; t.strides[0] = 64 * 64; t.strides[1] = 64 * 64 * 64; return encode(t); }},
      im2col("swz128_channels_256B", [](I& t) { t.channelsPerPixel = 128; t.dims[0] = 128; t.strides[0] = 256; t.strides[1] = 256 * 32; t.strides[2] = 256 * 32 * 32; }),
      im2col("swz64_channels_128B", [](I& t) { t.swizzle = CU_TENSOR_MAP_SWIZZLE_64B; }),
      im2col("swz64_channels_64B", [](I& t) { t.swizzle = CU_TENSOR_MAP_SWIZZLE_64B; t.channelsPerPixel = 32; }),
      // TMA006 element strides
      tiled("estride1_8", [](T& t) { t.elementStrides[1] = 8; }),
      tiled("estride1_9", [](T& t) { t.elementStrides[1] = 9; }),
      tiled("estride1_0", [](T& t) { t.elementStrides[1] = 0; }),
      tiled("estride0_0_interleave_none", [](T& t) { t.elementStrides[0] = 0; }),
      tiled("estride0_9_interleave_none", [](T& t) { t.elementStrides[0] = 9; }),
      tiled("estride0_2_interleave_none", [](T& t) { t.elementStrides[0] = 2; }),
      tiled("estride_unused_9", [](T& t) { t.elementStrides[2] = 9; }),
      {"tiled.interleave16_estride0_9", [] { T t = interleaved(CU_TENSOR_MAP_INTERLEAVE_16B, CU_TENSOR_MAP_SWIZZLE_NONE); t.elementStrides[0] = 9; return encode(t); }},
      im2col("estride1_9", [](I& t) { t.elementStrides[1] = 9; }),
      // TMA007 interleave / swizzle
      {"tiled.interleave32_swizzle_none", [] { return encode(interleaved(CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_NONE)); }},
      {"tiled.interleave32_swizzle64", [] { return encode(interleaved(CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_64B)); }},
      {"tiled.interleave32_swizzle128", [] { return encode(interleaved(CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_128B)); }},
      {"tiled.interleave16_swizzle128", [] { return encode(interleaved(CU_TENSOR_MAP_INTERLEAVE_16B, CU_TENSOR_MAP_SWIZZLE_128B)); }},
      // TMA008 global address
      tiled("address_plus8", [](T& t) { t.addressOffset = 8; }),
      tiled("address_plus16", [](T& t) { t.addressOffset = 16; }),
      tiled("address_null", [](T& t) { t.nullAddress = true; }),
      {"tiled.interleave32_address_plus16", [] { T t = interleaved(CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_32B); t.addressOffset = 16; return encode(t); }},
      {"tiled.interleave32_address_plus32", [] { T t = interleaved(CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_32B); t.addressOffset = 32; return encode(t); }},
      tiled("map_plus8", [](T& t) { t.mapOffset = 8; }),
      // TMA009 oob fill
      tiled("nanfill_uint8", [](T& t) { t.type = CU_TENSOR_MAP_DATA_TYPE_UINT8; t.box[0] = 128; t.oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA; }),
      tiled("nanfill_int32", [](T& t) { t.type = CU_TENSOR_MAP_DATA_TYPE_INT32; t.box[0] = 32; t.oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA; }),
      tiled("nanfill_fp16", [](T& t) { t.oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA; }),
      tiled("nanfill_tf32", [](T& t) { t.type = CU_TENSOR_MAP_DATA_TYPE_TFLOAT32; t.box[0] = 32; t.oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA; }),
      // TMA010 im2col pixel box corners
      im2col("rank4_lower_minus128", [](I& t) { t.lower[0] = -128; t.lower[1] = -128; }),
      im2col("rank4_lower_minus129", [](I& t) { t.lower[0] = -129; }),
      im2col("rank4_upper_128", [](I& t) { t.upper[0] = 128; }),
      im2col("rank4_upper_127", [](I& t) { t.upper[0] = 127; }),
      im2col("rank3_lower_minus32768", [](I& t) { t.rank = 3; t.lower[0] = -32768; }),
      im2col("rank3_lower_minus32769", [](I& t) { t.rank = 3; t.lower[0] = -32769; }),
      im2col("rank5_lower_minus16", [](I& t) { t.rank = 5; t.lower[0] = -16; }),
      im2col("rank5_lower_minus17", [](I& t) { t.rank = 5; t.lower[0] = -17; }),
      im2col("rank5_upper_16", [](I& t) { t.rank = 5; t.upper[0] = 16; }),
      im2col("rank4_unused_corner_minus129", [](I& t) { t.lower[2] = -129; }),
      im2col("rank4_zero_area_w", [](I& t) { t.lower[0] = 0; t.upper[0] = -32; }),
      im2col("rank4_negative_area_w", [](I& t) { t.lower[0] = 0; t.upper[0] = -40; }),
      // Enumerator values beyond the enums.
      tiled("swizzle_7", [](T& t) { t.swizzle = static_cast<CUtensorMapSwizzle>(7); }),
      tiled("type_16", [](T& t) { t.type = static_cast<CUtensorMapDataType>(16); }),
      tiled("packed_16u4_align8b", [](T& t) { t.type = CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B; t.box[0] = 128; t.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE; }),
  };
  for (const Case& c : cases) std::printf("%s\t%s\n", c.name.c_str(), nameOf(c.run()).c_str());
  return 0;
}
