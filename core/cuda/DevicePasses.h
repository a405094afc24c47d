// DevicePasses: the device compilations ("passes") nvcc runs for a .cu file, as nvcc 13.0 means
// its architecture options, and the macros each pass predefines.
//
// One nvcc command compiles the device code once per virtual architecture: `-arch=sm_90a` runs
// a compute_90 pass (PTX for sm_90) *and* a compute_90a pass (PTX for sm_90a), each with its own
// `__CUDA_ARCH__` family of macros, so an asm statement is checked once per pass that reaches it.
// Everything here was read off nvcc 13.0.88 (`nvcc --dryrun`, `--list-gpu-arch`, and probe files
// whose kept per-pass PTX records what each pass saw); DevicePasses.cpp quotes the evidence.
// Pure: no I/O. Reading compile_commands.json and `.ptxls.json` is config/'s job.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ptx::cuda {

struct DevicePass {
  std::string virtualArch;      // "compute_90a": what nvcc passes to cicc as `-arch`.
  unsigned archNumber = 0;      // 900: the value of __CUDA_ARCH__ in this pass.
  bool archSpecific = false;    // The `a` variant (compute_90a).
  bool familySpecific = false;  // The `f` variant (compute_100f).
  // What asked for the pass, as the user wrote it: "-arch=sm_90a",
  // "-gencode arch=compute_90a,code=sm_90a", "--cuda-arch sm_90a", ".ptxls.json cuda.arch sm_90a".
  std::string origin;

  // The `.target` of the PTX this pass writes: "sm_90a" for compute_90a, "sm_90" for compute_90.
  std::string ptxTarget() const;
  // How messages name the pass: "compute_90 from -arch=sm_90a".
  std::string describe() const;
  // The macros nvcc predefines in this pass (name, replacement text), in nvcc's order: the
  // `-D` list nvcc hands the device-side preprocessor. `compilation` is every pass of the same
  // nvcc command (this one included): `__CUDA_ARCH_LIST__` lists their architecture numbers.
  // Macros that a command's flags add (`-rdc=true` → `__CUDACC_RDC__`, user `-D`) are not here
  // (config/CompileCommands gives them), nor the host compiler's own (`__GNUC__`, `__cplusplus`).
  std::vector<std::pair<std::string, std::string>> macros(std::span<const DevicePass> compilation) const;
};

// Passes, or why there are none.
struct PassList {
  std::vector<DevicePass> passes;
  std::string error;  // Empty when every name was understood.
};

// The passes of `nvcc -arch=NAME` (no `-code`): sm_80 → compute_80; sm_90a and compute_90a →
// compute_90 and compute_90a; sm_100f → compute_100 and compute_100f; `all` and `all-major` →
// one pass per architecture of nvcc 13's lists. `native` (the building machine's GPU, which a
// linter cannot know) and names nvcc 13 rejects give no passes and an error.
PassList passesForArch(std::string_view name, std::string origin);

// The pass of `-gencode arch=ARCH,code=CODE` (or `-arch=ARCH -code=CODE`): exactly the virtual
// architecture ARCH, which must be a compute_ name; `code` (one name, a comma list, or a
// bracketed list) only picks what ptxas builds, so it adds no pass, but its names are checked.
PassList passesForGencode(std::string_view arch, std::string_view code, std::string origin);

// The passes of several `-arch` names (`.ptxls.json`'s cuda.arch), each once; each name's origin
// is `originPrefix` followed by the name. A bad name stops nothing: the error names every bad
// name (separated by "; "), the passes are those of the good ones.
PassList passesForArchNames(std::span<const std::string> names, std::string_view originPrefix);

// The same for a comma-separated list ("sm_90a,sm_100a": `--cuda-arch`); blanks around a name
// are ignored. An empty list is an error.
PassList parseCudaArchList(std::string_view list, std::string_view originPrefix);

// Appends the passes of `more` whose virtual architecture `into` does not have yet (a pass
// asked for twice runs once; the first origin stays).
void appendUnique(std::vector<DevicePass>& into, std::span<const DevicePass> more);

// `__CUDA_ARCH_LIST__` of a compilation: its architecture numbers ascending, each once ("900,1000").
std::string archList(std::span<const DevicePass> compilation);

// The passes when nothing configures a target: one per architecture the file's own guards
// compare `__CUDA_ARCH__` with, else sm_80. A guard's number that is no nvcc 13 architecture
// maps to the lowest one at or above it (`>= 700` → 750; above sm_121: dropped). A number whose
// architecture has an `a` variant gets that pass (compute_90a for 900): with no build to go by,
// the pass that can run the most instructions, so nothing is reported unavailable that some
// build for that GPU could run.
std::vector<DevicePass> defaultPasses(const std::vector<unsigned>& archNumbersSeenInGuards);

// nvcc 13.0's architecture numbers (`nvcc --list-gpu-arch`), ascending.
std::span<const unsigned> supportedArchNumbers();

}  // namespace ptx::cuda
