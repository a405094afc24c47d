// DevicePasses: nvcc 13.0's architecture options as passes, and each pass's predefined macros.
//
// Evidence (nvcc 13.0.88, this machine):
// - `nvcc --list-gpu-arch`: compute_75 80 86 87 88 89 90 100 103 110 120 121. `-arch=X` is
//   accepted for X = sm_N / compute_N with those N, the `a` variant for N in {90, 100, 103, 110,
//   120, 121} and the `f` variant for N in {100, 103, 110, 120, 121}; sm_70, sm_90f, sm_99 and
//   lists (`-arch=sm_80,sm_90`) are "Unsupported gpu architecture".
// - `nvcc --dryrun -arch=sm_90a -c x.cu` runs cicc twice, `-arch compute_90` (its PTX only
//   checked by `ptxas -arch=compute_90` and embedded) and `-arch compute_90a` (→ ptxas sm_90a);
//   the same split for -arch=compute_90a, sm_100a, sm_100f (compute_100 + compute_100f),
//   sm_103a/f, sm_110a/f, sm_120a/f, sm_121a/f. Plain sm_N and compute_N run compute_N only.
// - `-gencode arch=compute_90a,code=sm_90a` (also `code=[sm_90a,compute_90a]`, and
//   `-arch=compute_90a -code=sm_90a`) runs only compute_90a; `arch=sm_80` is rejected ("must be
//   a virtual code architecture"); `code=` may name lto_N (with -rdc=true).
// - `-arch=all`: compute_75 80 86 87 88 89 90 100 103 110 120 121; `-arch=all-major`: 75 80 90
//   100 110 120. `-arch=native` without a GPU warns and uses the default, sm_75 (also what no
//   -arch at all gives). Repeated -arch: the last wins; -arch and -gencode add up.
// - The per-pass `-D` flags of the device preprocessing (dryrun), confirmed by a probe file whose
//   device globals are initialised from the macros and read back from each pass's kept PTX
//   (`--keep`; the .target lines are the ones ptxTarget gives):
//     compute_90:  __CUDA_ARCH__=900 __CUDA_ARCH_LIST__=900                      .target sm_90
//     compute_90a: __CUDA_ARCH__=900 __CUDA_ARCH_FEAT_SM90_ALL __CUDA_ARCH_SPECIFIC__=900
//                  __CUDA_ARCH_FAMILY_SPECIFIC__=900 __CUDA_ARCH_LIST__=900       .target sm_90a
//     compute_100f: __CUDA_ARCH__=1000 __CUDA_ARCH_FAMILY_SPECIFIC__=1000         .target sm_100f
//     compute_121: __CUDA_ARCH__=1210 only; compute_103a: __CUDA_ARCH_FEAT_SM103_ALL, =1030 ...
//   then, in every pass: -DCUDA_DOUBLE_MATH_FUNCTIONS -D__CUDACC__ -D__NVCC__
//   -D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88
//   -D__CUDA_API_VER_MAJOR__=13 -D__CUDA_API_VER_MINOR__=0 -D__NVCC_DIAG_PRAGMA_SUPPORT__=1
//   -D__CUDACC_DEVICE_ATOMIC_BUILTINS__=1. `-DNAME` without a value defines it as 1.
// - `__CUDA_ARCH_LIST__` is every pass's number ascending, each once: "900,1000" for
//   `-gencode` compute_90a and compute_100a, "800,900" for `-arch=sm_90 -gencode
//   arch=compute_80,...`, "900" for -arch=sm_90a.
#include "cuda/DevicePasses.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>

namespace ptx::cuda {
namespace {

constexpr std::array<unsigned, 12> kArchNumbers = {750, 800, 860, 870, 880, 890, 900, 1000, 1030, 1100, 1200, 1210};
constexpr std::array<unsigned, 6> kMajorArchNumbers = {750, 800, 900, 1000, 1100, 1200};
constexpr std::array<unsigned, 6> kArchSpecificNumbers = {900, 1000, 1030, 1100, 1200, 1210};
constexpr std::array<unsigned, 5> kFamilySpecificNumbers = {1000, 1030, 1100, 1200, 1210};

template <std::size_t N>
bool contains(const std::array<unsigned, N>& numbers, unsigned number) {
  return std::find(numbers.begin(), numbers.end(), number) != numbers.end();
}

// One architecture name taken apart: "compute_90a" → {compute, 900, 'a'}.
struct ArchName {
  enum class Kind { Real, Virtual, Lto } kind = Kind::Real;
  unsigned number = 0;
  char variant = 0;  // 0, 'a' or 'f'.
};

// Parses sm_N / compute_N / lto_N with an optional a or f, for an N nvcc 13 supports with that
// variant; nullopt for anything else.
std::optional<ArchName> parseArchName(std::string_view name) {
  ArchName parsed;
  if (name.starts_with("sm_")) {
    name.remove_prefix(3);
  } else if (name.starts_with("compute_")) {
    parsed.kind = ArchName::Kind::Virtual;
    name.remove_prefix(8);
  } else if (name.starts_with("lto_")) {
    parsed.kind = ArchName::Kind::Lto;
    name.remove_prefix(4);
  } else {
    return std::nullopt;
  }
  if (!name.empty() && (name.back() == 'a' || name.back() == 'f')) {
    parsed.variant = name.back();
    name.remove_suffix(1);
  }
  unsigned digits = 0;
  if (name.starts_with('0')) return std::nullopt;  // nvcc has no sm_090.
  auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), digits);
  if (name.empty() || error != std::errc{} || end != name.data() + name.size() || digits > 1000) return std::nullopt;
  parsed.number = digits * 10;
  if (!contains(kArchNumbers, parsed.number)) return std::nullopt;
  if (parsed.variant == 'a' && !contains(kArchSpecificNumbers, parsed.number)) return std::nullopt;
  if (parsed.variant == 'f' && !contains(kFamilySpecificNumbers, parsed.number)) return std::nullopt;
  return parsed;
}

DevicePass makePass(unsigned number, char variant, const std::string& origin) {
  DevicePass pass;
  pass.archNumber = number;
  pass.archSpecific = variant == 'a';
  pass.familySpecific = variant == 'f';
  pass.virtualArch = "compute_" + std::to_string(number / 10);
  if (variant != 0) pass.virtualArch.push_back(variant);
  pass.origin = origin;
  return pass;
}

std::string unsupported(std::string_view name) {
  std::string message = "unsupported GPU architecture '" + std::string(name) + "'";
  // CMake's CUDA_ARCHITECTURES spelling ("90a") is a common slip for nvcc's.
  if (!name.empty() && name.front() >= '0' && name.front() <= '9' && parseArchName("sm_" + std::string(name))) {
    return message + " (did you mean 'sm_" + std::string(name) + "'?)";
  }
  return message + " (nvcc 13 knows sm_75 to sm_121, with a and f variants where they exist, all, all-major)";
}

}  // namespace

std::string DevicePass::ptxTarget() const {
  std::string target = "sm_" + std::to_string(archNumber / 10);
  if (archSpecific) target.push_back('a');
  if (familySpecific) target.push_back('f');
  return target;
}

std::string DevicePass::describe() const { return virtualArch + " from " + origin; }

std::vector<std::pair<std::string, std::string>> DevicePass::macros(std::span<const DevicePass> compilation) const {
  std::string number = std::to_string(archNumber);
  std::vector<std::pair<std::string, std::string>> macros;
  macros.emplace_back("__CUDA_ARCH__", number);
  if (archSpecific) macros.emplace_back("__CUDA_ARCH_FEAT_SM" + std::to_string(archNumber / 10) + "_ALL", "1");
  if (archSpecific) macros.emplace_back("__CUDA_ARCH_SPECIFIC__", number);
  if (archSpecific || familySpecific) macros.emplace_back("__CUDA_ARCH_FAMILY_SPECIFIC__", number);
  // A pass alone still lists itself (nvcc never compiles a pass outside a compilation).
  macros.emplace_back("__CUDA_ARCH_LIST__", compilation.empty() ? number : archList(compilation));
  macros.emplace_back("CUDA_DOUBLE_MATH_FUNCTIONS", "1");
  macros.emplace_back("__CUDACC__", "1");
  macros.emplace_back("__NVCC__", "1");
  macros.emplace_back("__CUDACC_VER_MAJOR__", "13");
  macros.emplace_back("__CUDACC_VER_MINOR__", "0");
  macros.emplace_back("__CUDACC_VER_BUILD__", "88");
  macros.emplace_back("__CUDA_API_VER_MAJOR__", "13");
  macros.emplace_back("__CUDA_API_VER_MINOR__", "0");
  macros.emplace_back("__NVCC_DIAG_PRAGMA_SUPPORT__", "1");
  macros.emplace_back("__CUDACC_DEVICE_ATOMIC_BUILTINS__", "1");
  return macros;
}

PassList passesForArch(std::string_view name, std::string origin) {
  PassList result;
  if (name == "all" || name == "all-major") {
    for (unsigned number : name == "all" ? std::span<const unsigned>(kArchNumbers) : std::span<const unsigned>(kMajorArchNumbers)) {
      result.passes.push_back(makePass(number, 0, origin));
    }
    return result;
  }
  if (name == "native") {
    result.error = "'native' means the GPU of the machine that builds, which ptxls cannot know; name the "
                   "architecture (e.g. sm_90a)";
    return result;
  }
  std::optional<ArchName> parsed = parseArchName(name);
  if (!parsed || parsed->kind == ArchName::Kind::Lto) {
    result.error = unsupported(name);
    return result;
  }
  // `a` and `f` names also compile the plain architecture's PTX (see the dryrun above).
  result.passes.push_back(makePass(parsed->number, 0, origin));
  if (parsed->variant != 0) result.passes.push_back(makePass(parsed->number, parsed->variant, origin));
  return result;
}

PassList passesForGencode(std::string_view arch, std::string_view code, std::string origin) {
  PassList result;
  std::optional<ArchName> parsed = parseArchName(arch);
  if (!parsed || parsed->kind != ArchName::Kind::Virtual) {
    result.error = parsed ? "'" + std::string(arch) + "' is not a virtual architecture (compute_...)" : unsupported(arch);
    return result;
  }
  if (code.starts_with('[') && code.ends_with(']')) code = code.substr(1, code.size() - 2);
  std::string badCodes;
  while (!code.empty()) {
    std::string_view one = code.substr(0, code.find(','));
    code.remove_prefix(std::min(code.size(), one.size() + 1));
    if (!parseArchName(one)) badCodes += (badCodes.empty() ? "'" : ", '") + std::string(one) + "'";
  }
  if (!badCodes.empty()) result.error = "unsupported code " + badCodes;
  result.passes.push_back(makePass(parsed->number, parsed->variant, std::move(origin)));
  return result;
}

PassList passesForArchNames(std::span<const std::string> names, std::string_view originPrefix) {
  PassList result;
  for (const std::string& name : names) {
    PassList one = passesForArch(name, std::string(originPrefix) + name);
    appendUnique(result.passes, one.passes);
    if (!one.error.empty()) result.error += (result.error.empty() ? "" : "; ") + one.error;
  }
  if (result.passes.empty() && result.error.empty()) result.error = "no architecture named";
  return result;
}

PassList parseCudaArchList(std::string_view list, std::string_view originPrefix) {
  std::vector<std::string> names;
  while (true) {
    std::size_t comma = list.find(',');
    std::string_view name = list.substr(0, comma);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (!name.empty()) names.emplace_back(name);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return passesForArchNames(names, originPrefix);
}

void appendUnique(std::vector<DevicePass>& into, std::span<const DevicePass> more) {
  for (const DevicePass& pass : more) {
    bool present = std::any_of(into.begin(), into.end(), [&](const DevicePass& have) { return have.virtualArch == pass.virtualArch; });
    if (!present) into.push_back(pass);
  }
}

std::string archList(std::span<const DevicePass> compilation) {
  std::vector<unsigned> numbers;
  for (const DevicePass& pass : compilation) numbers.push_back(pass.archNumber);
  std::sort(numbers.begin(), numbers.end());
  numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
  std::string list;
  for (unsigned number : numbers) {
    if (!list.empty()) list.push_back(',');
    list += std::to_string(number);
  }
  return list;
}

std::vector<DevicePass> defaultPasses(const std::vector<unsigned>& archNumbersSeenInGuards) {
  std::vector<DevicePass> passes;
  for (unsigned seen : archNumbersSeenInGuards) {
    auto at = std::lower_bound(kArchNumbers.begin(), kArchNumbers.end(), seen);
    if (at == kArchNumbers.end()) continue;
    char variant = contains(kArchSpecificNumbers, *at) ? 'a' : 0;
    DevicePass pass = makePass(*at, variant, "the default (a guard compares __CUDA_ARCH__ with " + std::to_string(seen) + ")");
    appendUnique(passes, std::span<const DevicePass>(&pass, 1));
  }
  // Ascending, so messages and per-pass results come in a stable order whatever the guards' order.
  std::sort(passes.begin(), passes.end(), [](const DevicePass& a, const DevicePass& b) { return a.archNumber < b.archNumber; });
  if (passes.empty()) passes = passesForArch("sm_80", "the default -arch=sm_80").passes;
  return passes;
}

std::span<const unsigned> supportedArchNumbers() { return kArchNumbers; }

}  // namespace ptx::cuda
