// CudaKernelLenses: ptxas -v's figures from an exact-mode run, matched to the kernels of a CUDA
// document by name.
#include "features/CudaKernelLenses.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace ptx::lsp {
namespace {

// The index of the bracket that opens the group `text` ends with (`close` ends it), scanning
// back over nested groups; npos when it is unbalanced.
std::size_t openingOf(std::string_view text, char open, char close) {
  int depth = 0;
  for (std::size_t i = text.size(); i-- > 0;) {
    if (text[i] == close) ++depth;
    if (text[i] == open && --depth == 0) return i;
  }
  return std::string_view::npos;
}

}  // namespace

std::string simpleFunctionName(std::string_view ptxName) {
  std::string name(ptxName);
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> demangled(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                        &std::free);
  if (status != 0 || !demangled) return name;
  // "void ns::k<int>(int*)": drop the parameters, then the template arguments, then the
  // qualifiers and the return type in front.
  std::string_view text = demangled.get();
  if (text.ends_with(')')) text = text.substr(0, openingOf(text, '(', ')'));
  if (text.ends_with('>')) text = text.substr(0, openingOf(text, '<', '>'));
  if (std::size_t scope = text.rfind("::"); scope != std::string_view::npos) text.remove_prefix(scope + 2);
  if (std::size_t blank = text.rfind(' '); blank != std::string_view::npos) text.remove_prefix(blank + 1);
  return std::string(text);
}

std::vector<KernelLens> kernelRegisterLenses(const cuda::CudaOutline& outline, const oracle::ExactReport& report) {
  std::vector<KernelLens> lenses;
  for (std::int32_t index : cuda::kernelsOf(outline)) {
    const cuda::CudaFunction& kernel = outline.functions[static_cast<std::size_t>(index)];
    std::string title;
    for (std::size_t p = 0; p < report.result.passes.size() && p < report.passes.size(); ++p) {
      for (const auto& [name, figures] : report.result.passes[p].functions) {
        if (simpleFunctionName(name) != kernel.simpleName) continue;
        title += title.empty() ? "ptxas: " : "; ";
        title += std::to_string(figures.registers) + " registers, " + std::to_string(figures.spillStores) +
                 " bytes spill (" + report.passes[p].describe() + ")";
      }
    }
    if (!title.empty()) lenses.push_back({kernel.nameRange, kernel.simpleName, std::move(title)});
  }
  return lenses;
}

}  // namespace ptx::lsp
