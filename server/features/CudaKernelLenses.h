// CudaKernelLenses: the code lenses exact mode (cuda.exactMode) gives a CUDA document — one per
// `__global__` kernel with ptxas -v's registers and spills for each device pass that compiled it.
//
// ptxas names functions as they are mangled in the PTX (`_Z17barrier_roundtripPj`; an
// `extern "C"` kernel keeps its name): a kernel matches every function whose demangled name's
// last component, without template arguments, is the kernel's simple name (each instantiation of
// a template kernel, each overload).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ExactDiagnostics.h"
#include "cuda/CudaOutline.h"
#include "diag/Diagnostic.h"

namespace ptx::lsp {

struct KernelLens {
  ByteRange range;     // The kernel's name.
  std::string kernel;  // Its simple name.
  std::string title;   // "ptxas: 18 registers, 0 bytes spill (compute_90 from -arch=sm_90a); ..."
};

// The simple name of the function a PTX entry's (mangled) name stands for: "_Z1kPf" → "k",
// "_ZN2ns1kIiEEvPT_" → "k"; a name that does not demangle is its own ("my_kernel").
std::string simpleFunctionName(std::string_view ptxName);

// A lens per kernel of `outline` that some pass of `report` has figures for, in source order.
std::vector<KernelLens> kernelRegisterLenses(const cuda::CudaOutline& outline, const oracle::ExactReport& report);

}  // namespace ptx::lsp
