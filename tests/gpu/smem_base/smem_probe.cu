// smem_probe: launches the dynamic-shared-memory base probes (tests/gpu/smem_base/ptx/*.ptx,
// assembled to cubins by run.sh) with the CUDA driver API and prints what each kernel saw.
//
//   smem_probe FILE...        FILE: a .cubin (loaded as is) or a .ptx (JIT-compiled by the driver)
//
// For every file, every dynamic size (0, 1 KiB, 64 KiB, and the largest the opt-in limit
// leaves beside the static shared memory) and every launch (plain cuLaunchKernel, and
// cuLaunchKernelEx with a 2x1x1 cluster), the kernel runs as 2 CTAs of 128 threads; threads 0
// and 127 of each CTA write a record (gen_ptx.py, RECORD). One line per launch:
//   CASE file=... loader=cubin|jit static_attr=N dyn=N cluster=1|2 result=ok|<error>
//        dyn_shared=0x... (and the other fields) agree=yes|no
// followed by one "  rec" line per record.  Exit status 0 unless setup failed.
#include <cuda.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static const char* errName(CUresult r) {
  const char* n = nullptr;
  cuGetErrorName(r, &n);
  return n ? n : "?";
}

#define CHECK(call)                                                       \
  do {                                                                    \
    CUresult r_ = (call);                                                 \
    if (r_ != CUDA_SUCCESS) {                                             \
      fprintf(stderr, "FATAL %s: %s\n", #call, errName(r_));              \
      exit(2);                                                            \
    }                                                                     \
  } while (0)

static const char* kFields[] = {
    "dyn_shared", "dyn_generic_lo", "dyn_generic_hi", "dyn_to_shared", "dynamic_smem_size",
    "total_smem_size", "aggr_smem_size", "reserved_begin", "reserved_end", "reserved_cap",
    "sa_shared", "sb_shared", "static_check", "dyn_check", "ctaid_x", "tid_x",
    "cluster_ctarank", "clusterid_x", "cluster_nctarank", "smem_u64_lo", "sa_generic_lo",
    "sa_generic_hi"};
static const int kNF = sizeof(kFields) / sizeof(kFields[0]);
static const int kWords = 32;
static const int kCtas = 2, kThreads = 128, kRecs = kCtas * 2;

static std::vector<char> readFile(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) { fprintf(stderr, "FATAL cannot open %s\n", path); exit(2); }
  std::vector<char> b;
  char tmp[65536];
  size_t n;
  while ((n = fread(tmp, 1, sizeof tmp, f)) > 0) b.insert(b.end(), tmp, tmp + n);
  fclose(f);
  b.push_back(0);
  return b;
}

int main(int argc, char** argv) {
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CUctxCreateParams cp = {};
  CHECK(cuCtxCreate(&ctx, &cp, 0, dev));
  char name[256];
  CHECK(cuDeviceGetName(name, sizeof name, dev));
  int cc_major, cc_minor, optin, perblock, reserved, persm, drv;
  CHECK(cuDeviceGetAttribute(&cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  CHECK(cuDeviceGetAttribute(&cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  CHECK(cuDeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev));
  CHECK(cuDeviceGetAttribute(&perblock, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, dev));
  CHECK(cuDeviceGetAttribute(&reserved, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, dev));
  CHECK(cuDeviceGetAttribute(&persm, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, dev));
  CHECK(cuDriverGetVersion(&drv));
  printf("# device: %s, compute capability %d.%d, driver API version %d\n", name, cc_major,
         cc_minor, drv);
  printf("# shared memory: per block %d, per block opt-in %d, reserved per block %d, per SM %d\n",
         perblock, optin, reserved, persm);

  CUdeviceptr out;
  const size_t outBytes = kRecs * kWords * 4;
  CHECK(cuMemAlloc(&out, outBytes));

  for (int a = 1; a < argc; ++a) {
    const char* path = argv[a];
    std::string p(path);
    bool jit = p.size() > 4 && p.substr(p.size() - 4) == ".ptx";
    std::vector<char> img = readFile(path);
    CUmodule mod;
    CUresult lr = cuModuleLoadData(&mod, img.data());
    std::string base = p.substr(p.find_last_of('/') + 1);
    base = base.substr(0, base.find('.'));
    if (lr != CUDA_SUCCESS) {
      printf("CASE file=%s loader=%s load-error=%s\n", base.c_str(), jit ? "jit" : "cubin",
             errName(lr));
      continue;
    }
    CUfunction f;
    CHECK(cuModuleGetFunction(&f, mod, "k"));
    int staticBytes = 0, regs = 0, maxDynDefault = 0;
    CHECK(cuFuncGetAttribute(&staticBytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
    CHECK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    CHECK(cuFuncGetAttribute(&maxDynDefault, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f));
    int maxDyn = optin - staticBytes;
    std::vector<int> dyns = {0, 1024, 65536, maxDyn};
    for (int dyn : dyns) {
      std::string setErr = "";
      CUresult sr = cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                       dyn > maxDynDefault ? dyn : maxDynDefault);
      if (sr != CUDA_SUCCESS) setErr = errName(sr);
      for (int cluster : {1, 2}) {
        CHECK(cuMemsetD8(out, 0xEE, outBytes));
        void* params[] = {&out};
        CUresult r;
        if (cluster == 1) {
          r = cuLaunchKernel(f, kCtas, 1, 1, kThreads, 1, 1, dyn, nullptr, params, nullptr);
        } else {
          CUlaunchConfig cfg = {};
          cfg.gridDimX = kCtas; cfg.gridDimY = 1; cfg.gridDimZ = 1;
          cfg.blockDimX = kThreads; cfg.blockDimY = 1; cfg.blockDimZ = 1;
          cfg.sharedMemBytes = dyn;
          CUlaunchAttribute at[1];
          at[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
          at[0].value.clusterDim.x = 2;
          at[0].value.clusterDim.y = 1;
          at[0].value.clusterDim.z = 1;
          cfg.attrs = at;
          cfg.numAttrs = 1;
          r = cuLaunchKernelEx(&cfg, f, params, nullptr);
        }
        if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
        printf("CASE file=%s loader=%s static_attr=%d regs=%d dyn=%d cluster=%d", base.c_str(),
               jit ? "jit" : "cubin", staticBytes, regs, dyn, cluster);
        if (!setErr.empty()) printf(" set_max_dyn_error=%s", setErr.c_str());
        if (r != CUDA_SUCCESS) {
          printf(" result=%s\n", errName(r));
          continue;
        }
        uint32_t h[kRecs * kWords];
        CHECK(cuMemcpyDtoH(h, out, outBytes));
        bool agree = true;
        for (int i = 1; i < kRecs; ++i)
          for (int w : {0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 19})
            if (h[i * kWords + w] != h[w]) agree = false;
        uint32_t d = h[0];
        printf(" result=ok dyn_shared=0x%x mod16=%u mod128=%u mod1024=%u sa=0x%x sb=0x%x"
               " total=%u aggr=%u dynsz=%u reserved=[0x%x,0x%x) cap=0x%x agree=%s\n",
               d, d % 16, d % 128, d % 1024, h[10], h[11], h[5], h[6], h[4], h[7], h[8], h[9],
               agree ? "yes" : "no");
        for (int i = 0; i < kRecs; ++i) {
          printf("  rec");
          for (int w = 0; w < kNF; ++w) printf(" %s=0x%x", kFields[w], h[i * kWords + w]);
          printf("\n");
        }
      }
    }
    CHECK(cuModuleUnload(mod));
  }
  CHECK(cuMemFree(out));
  return 0;
}
