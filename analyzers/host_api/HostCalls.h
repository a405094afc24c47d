// HostCalls: the host-API rules' entry point (TMA0xx), which CudaLint runs once per CUDA source.
//
// Host code is not compiled per device pass: its view of the file is the host compilation's,
// whose macros are the host environment (what the host compiler predefines, no __CUDA_ARCH__)
// and the build's `-D` flags. The entry point finds the cuTensorMapEncodeTiled/Im2col calls
// there, evaluates their constant arguments and runs the rules that Rules.def lists with
// `reads` = HostCalls and the options enable.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuda/CppLexer.h"
#include "diag/Diagnostic.h"
#include "inline_asm/CudaLint.h"

namespace ptx {

// Appends the host-API rules' findings to `out`. Cheap when the file names no encode function.
void checkHostCalls(std::string_view text, const cuda::LexedSource& source,
                    std::span<const std::pair<std::string, std::string>> hostEnvironment,
                    const CudaLintOptions& options, std::vector<Diagnostic>& out);

}  // namespace ptx
