// ptxrun: loads one kernel `k` from a cubin (or .ptx) file with the CUDA driver API, runs it
// with one block of one thread, and prints one line "RESULT <text>" describing what happened.
// Part of the ptxls GPU confirmation tests (tests/gpu/README.md).
//
//   ptxrun mbar   FILE                 ALN001: mbarrier init/arrive/try_wait
//   ptxrun bulk   FILE DOFF SOFF SIZE  ALN002: 1-D cp.async.bulk global -> shared
//   ptxrun tensor FILE OFF             ALN003: 2-D cp.async.bulk.tensor into smem+OFF
//   ptxrun access FILE shared|global OFF   ALN005: 16-byte vector load at base+OFF
//
// Exit status: 0 the kernel ran (the line says whether the data were right),
//              1 a CUDA error at launch or at synchronisation, 2 a setup failure.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static std::string g_line;

static void add(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
static void add(const char* fmt, ...) {
  char b[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b, sizeof b, fmt, ap);
  va_end(ap);
  g_line += b;
}

[[noreturn]] static void finish(int rc) {
  printf("RESULT %s\n", g_line.c_str());
  fflush(stdout);
  exit(rc);
}

static const char* drvName(CUresult r) {
  const char* n = nullptr;
  cuGetErrorName(r, &n);
  return n ? n : "?";
}

#define SETUP(call)                                                         \
  do {                                                                      \
    CUresult r_ = (call);                                                   \
    if (r_ != CUDA_SUCCESS) {                                               \
      add("setup-failed:%s(%s)", #call, drvName(r_));                       \
      finish(2);                                                            \
    }                                                                       \
  } while (0)

static void* devAlloc(size_t n, int fill) {
  void* p = nullptr;
  if (cudaMalloc(&p, n) != cudaSuccess) { add("setup-failed:cudaMalloc"); finish(2); }
  cudaMemset(p, fill, n);
  return p;
}

// Launch k<<<1,1>>> with the given parameters, then synchronise; on error print and exit 1.
static void launch(CUfunction f, void** params) {
  CUresult lr = cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr);
  if (lr != CUDA_SUCCESS) {
    add("launch-error:%s", drvName(lr));
    finish(1);
  }
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    add("%s", cudaGetErrorName(e));
    finish(1);
  }
}

static void copyBack(void* host, const void* dev, size_t n) {
  cudaError_t e = cudaMemcpy(host, dev, n, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) { add("memcpy-error:%s", cudaGetErrorName(e)); finish(1); }
}

static const char* statusName(uint32_t s) {
  return s == 1 ? "completed" : s == 2 ? "mbarrier-phase-never-completed(kernel-gave-up-after-2s)"
                                       : "status-not-written";
}

// Finds where `want` (n bytes) occurs in `have` (m bytes); -1 if nowhere.
static long findBytes(const uint8_t* have, size_t m, const uint8_t* want, size_t n) {
  for (size_t i = 0; i + n <= m; ++i)
    if (memcmp(have + i, want, n) == 0) return (long)i;
  return -1;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: ptxrun mbar|bulk|tensor|access FILE [args]\n");
    return 2;
  }
  std::string mode = argv[1];
  const char* file = argv[2];

  cudaFree(nullptr);  // creates the primary context; the driver API then uses it
  CUmodule mod;
  CUfunction fn;
  SETUP(cuModuleLoad(&mod, file));
  SETUP(cuModuleGetFunction(&fn, mod, "k"));

  if (mode == "mbar") {
    void* in = devAlloc(256, 0);
    void* out = devAlloc(64, 0);
    void* params[] = {&in, &out};
    launch(fn, params);
    uint32_t h[16];
    copyBack(h, out, sizeof h);
    add("ok status=%s buf32=[", statusName(h[0]));
    for (int i = 1; i <= 8; ++i) add("%s%08x", i > 1 ? " " : "", h[i]);
    add("] bar=[%08x %08x]", h[9], h[10]);
    finish(0);
  }

  if (mode == "bulk") {
    if (argc < 6) { add("usage"); finish(2); }
    int doff = atoi(argv[3]), soff = atoi(argv[4]), n = atoi(argv[5]);
    std::vector<uint8_t> src(512);
    for (size_t i = 0; i < src.size(); ++i) src[i] = (uint8_t)((i * 7 + 3) & 255);
    void* in = devAlloc(src.size(), 0);
    cudaMemcpy(in, src.data(), src.size(), cudaMemcpyHostToDevice);
    void* out = devAlloc(260, 0);
    void* params[] = {&in, &out};
    launch(fn, params);
    uint8_t h[260];
    copyBack(h, out, sizeof h);
    uint32_t st;
    memcpy(&st, h + 256, 4);
    std::vector<uint8_t> want(256, 0xEE);
    memcpy(want.data() + doff, src.data() + soff, n);
    int written = 0;
    for (int i = 0; i < 256; ++i) written += h[i] != 0xEE;
    if (memcmp(h, want.data(), 256) == 0) {
      add("ok status=%s data=correct(%d bytes at dst+%d from src+%d)", statusName(st), n, doff, soff);
    } else {
      add("ok status=%s data=WRONG(expected %d bytes at dst+%d from src+%d; %d bytes of dst changed",
          statusName(st), n, doff, soff, written);
      long at = findBytes(h, 256, src.data() + soff, n);
      if (at >= 0) add("; src+%d found at dst+%ld", soff, at);
      for (int s = 0; s < 64 && at < 0; ++s) {
        long a = findBytes(h, 256, src.data() + s, 16);
        if (a >= 0) { add("; 16 bytes of src+%d found at dst+%ld", s, a); break; }
      }
      add(")");
    }
    finish(0);
  }

  if (mode == "tensor") {
    if (argc < 4) { add("usage"); finish(2); }
    int off = atoi(argv[3]);
    const int W = 64, H = 64, BOX = 16;
    std::vector<float> t(W * H);
    for (int r = 0; r < H; ++r)
      for (int c = 0; c < W; ++c) t[r * W + c] = (float)(r * W + c);
    void* g = devAlloc(t.size() * 4, 0);
    cudaMemcpy(g, t.data(), t.size() * 4, cudaMemcpyHostToDevice);
    alignas(64) CUtensorMap tm;
    cuuint64_t dims[2] = {(cuuint64_t)W, (cuuint64_t)H};
    cuuint64_t strides[1] = {(cuuint64_t)W * 4};
    cuuint32_t box[2] = {BOX, BOX};
    cuuint32_t estr[2] = {1, 1};
    SETUP(cuTensorMapEncodeTiled(&tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims, strides, box,
                                 estr, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    void* out = devAlloc(2052, 0);
    void* params[] = {&tm, &out};
    launch(fn, params);
    std::vector<uint8_t> h(2052);
    copyBack(h.data(), out, h.size());
    uint32_t st;
    memcpy(&st, h.data() + 2048, 4);
    std::vector<float> boxv(BOX * BOX);
    for (int r = 0; r < BOX; ++r)
      for (int c = 0; c < BOX; ++c) boxv[r * BOX + c] = t[r * W + c];
    std::vector<uint8_t> want(2048, 0xEE);
    memcpy(want.data() + off, boxv.data(), 1024);
    int written = 0;
    for (int i = 0; i < 2048; ++i) written += h[i] != 0xEE;
    if (memcmp(h.data(), want.data(), 2048) == 0) {
      add("ok status=%s data=correct(16x16 f32 box at smem+%d)", statusName(st), off);
    } else {
      add("ok status=%s data=WRONG(expected box at smem+%d; %d bytes changed", statusName(st), off,
          written);
      long at = findBytes(h.data(), 2048, (const uint8_t*)boxv.data(), 1024);
      if (at >= 0) add("; whole box found at smem+%ld", at);
      else {
        long a = findBytes(h.data(), 2048, (const uint8_t*)boxv.data(), 64);
        if (a >= 0) add("; box row 0 found at smem+%ld", a);
      }
      add(")");
    }
    finish(0);
  }

  if (mode == "access") {
    if (argc < 5) { add("usage"); finish(2); }
    bool shared = std::string(argv[3]) == "shared";
    int off = atoi(argv[4]);
    std::vector<uint32_t> src(64);
    for (int i = 0; i < 64; ++i) src[i] = (uint32_t)i;
    void* in = devAlloc(256, 0);
    cudaMemcpy(in, src.data(), 256, cudaMemcpyHostToDevice);
    void* out = devAlloc(32, 0);
    void* params[] = {&in, &out};
    launch(fn, params);
    uint32_t h[5];
    copyBack(h, out, sizeof h);
    // Both the shared buffer and the global one hold u32 word i == i, so a word's value is its
    // byte offset / 4 from the (16-byte aligned) base.
    bool right = true;
    for (int i = 0; i < 4; ++i) right &= h[i] == (uint32_t)(off / 4 + i);
    add("ok status=%s data=%s(loaded words %u %u %u %u = %s base+%u; asked base+%d)",
        statusName(h[4]), right ? "correct" : "WRONG", h[0], h[1], h[2], h[3],
        shared ? "sbuf" : "global", h[0] * 4, off);
    finish(0);
  }

  add("unknown-mode:%s", mode.c_str());
  finish(2);
}
