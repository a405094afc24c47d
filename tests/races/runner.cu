// Host runner for the race / synchronisation cases in tests/races/cuda.
//
// Every case is one file with one kernel
//     extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n);
// and this file includes it, so each case builds into its own small program:
//
//   nvcc -arch=sm_90a -lineinfo -o CASE tests/races/runner.cu \
//        -DKERNEL_FILE='"tests/races/cuda/CASE.cu"' [-DBLOCKS=2 -DTHREADS=64]
//
// The program allocates two zeroed 1 MiB buffers (out, in; n = number of 32-bit words in each),
// launches k<<<BLOCKS, THREADS>>> (default 2 x 64), waits for it without blocking forever (the
// stream is polled; after RUNNER_TIMEOUT_S seconds, 20 by default, it prints TIMEOUT and exits
// with status 3 so a hung case cannot stall a whole sanitizer sweep), and prints one line:
//   RESULT launch=<cudaError name> sync=<cudaError name> out0=<out[0]>
// Exit status: 0 when the kernel finished with cudaSuccess, 1 on a CUDA error, 3 on timeout.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <unistd.h>

#ifndef KERNEL_FILE
#error "compile with -DKERNEL_FILE='\"path/to/case.cu\"'"
#endif
#include KERNEL_FILE

#ifndef BLOCKS
#define BLOCKS 2
#endif
#ifndef THREADS
#define THREADS 64
#endif

static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::printf("RESULT setup-failed %s: %s\n", what, cudaGetErrorName(e));
    std::fflush(stdout);
    std::exit(1);
  }
}

int main() {
  const size_t bytes = size_t(1) << 20;
  const unsigned words = unsigned(bytes / sizeof(unsigned));
  double limit = 20.0;
  if (const char* env = std::getenv("RUNNER_TIMEOUT_S")) limit = std::atof(env);

  unsigned* out = nullptr;
  unsigned* in = nullptr;
  check(cudaMalloc(&out, bytes), "cudaMalloc(out)");
  check(cudaMalloc(&in, bytes), "cudaMalloc(in)");
  check(cudaMemset(out, 0, bytes), "cudaMemset(out)");
  check(cudaMemset(in, 0, bytes), "cudaMemset(in)");
  check(cudaDeviceSynchronize(), "setup sync");

  k<<<BLOCKS, THREADS>>>(out, in, words);
  cudaError_t launch = cudaGetLastError();

  cudaError_t sync = launch;
  if (launch == cudaSuccess) {
    auto start = std::chrono::steady_clock::now();
    while ((sync = cudaStreamQuery(0)) == cudaErrorNotReady) {
      std::chrono::duration<double> waited = std::chrono::steady_clock::now() - start;
      if (waited.count() > limit) {
        std::printf("RESULT launch=%s sync=TIMEOUT after %.0f s\n", cudaGetErrorName(launch), limit);
        std::fflush(stdout);
        _exit(3);  // leave without touching the context again; the driver tears it down
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

  unsigned out0 = 0;
  if (sync == cudaSuccess) cudaMemcpy(&out0, out, sizeof out0, cudaMemcpyDeviceToHost);
  std::printf("RESULT launch=%s sync=%s out0=%u\n", cudaGetErrorName(launch), cudaGetErrorName(sync), out0);
  std::fflush(stdout);
  return sync == cudaSuccess ? 0 : 1;
}
