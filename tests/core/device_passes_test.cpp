// DevicePasses: nvcc 13.0's -arch/-gencode names as device passes, and each pass's macros. The
// expectations are what `nvcc --dryrun` and per-pass probe PTX showed (core/cuda/DevicePasses.cpp);
// tests/config/compile_commands_test.cpp re-checks them against the installed nvcc.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cuda/DevicePasses.h"

using namespace ptx::cuda;

namespace {

std::vector<std::string> archesOf(const std::vector<DevicePass>& passes) {
  std::vector<std::string> arches;
  for (const DevicePass& pass : passes) arches.push_back(pass.virtualArch);
  return arches;
}

std::vector<std::string> targetsOf(const std::vector<DevicePass>& passes) {
  std::vector<std::string> targets;
  for (const DevicePass& pass : passes) targets.push_back(pass.ptxTarget());
  return targets;
}

using Macros = std::vector<std::pair<std::string, std::string>>;

// The part of every pass's list after the architecture macros (dryrun of nvcc 13.0.88).
Macros commonTail() {
  return {{"CUDA_DOUBLE_MATH_FUNCTIONS", "1"}, {"__CUDACC__", "1"},       {"__NVCC__", "1"},
          {"__CUDACC_VER_MAJOR__", "13"},      {"__CUDACC_VER_MINOR__", "0"}, {"__CUDACC_VER_BUILD__", "88"},
          {"__CUDA_API_VER_MAJOR__", "13"},    {"__CUDA_API_VER_MINOR__", "0"}, {"__NVCC_DIAG_PRAGMA_SUPPORT__", "1"},
          {"__CUDACC_DEVICE_ATOMIC_BUILTINS__", "1"}};
}

Macros with(Macros head) {
  for (auto& macro : commonTail()) head.push_back(macro);
  return head;
}

}  // namespace

TEST_CASE("Arch names expand to nvcc's passes, a and f names to two", "[cuda][device-passes]") {
  struct Case {
    const char* name;
    std::vector<std::string> arches;
    std::vector<std::string> targets;
  };
  const Case cases[] = {
      {"sm_80", {"compute_80"}, {"sm_80"}},
      {"compute_90", {"compute_90"}, {"sm_90"}},
      {"sm_90a", {"compute_90", "compute_90a"}, {"sm_90", "sm_90a"}},
      {"compute_90a", {"compute_90", "compute_90a"}, {"sm_90", "sm_90a"}},
      {"sm_100f", {"compute_100", "compute_100f"}, {"sm_100", "sm_100f"}},
      {"sm_103a", {"compute_103", "compute_103a"}, {"sm_103", "sm_103a"}},
      {"sm_121", {"compute_121"}, {"sm_121"}},
      {"sm_121f", {"compute_121", "compute_121f"}, {"sm_121", "sm_121f"}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    PassList list = passesForArch(c.name, std::string("-arch=") + c.name);
    CHECK(list.error.empty());
    CHECK(archesOf(list.passes) == c.arches);
    CHECK(targetsOf(list.passes) == c.targets);
    for (const DevicePass& pass : list.passes) CHECK(pass.origin == std::string("-arch=") + c.name);
  }
  PassList a = passesForArch("sm_90a", "-arch=sm_90a");
  REQUIRE(a.passes.size() == 2);
  CHECK(a.passes[0].archNumber == 900);
  CHECK(!a.passes[0].archSpecific);
  CHECK(a.passes[1].archSpecific);
  CHECK(!a.passes[1].familySpecific);
  CHECK(a.passes[0].describe() == "compute_90 from -arch=sm_90a");
  CHECK(a.passes[1].describe() == "compute_90a from -arch=sm_90a");
  PassList f = passesForArch("sm_100f", "x");
  CHECK(f.passes[1].familySpecific);
  CHECK(!f.passes[1].archSpecific);
  CHECK(f.passes[1].archNumber == 1000);
}

TEST_CASE("all and all-major are nvcc 13's lists, native and unknown names are errors, never a crash", "[cuda][device-passes]") {
  PassList all = passesForArch("all", "-arch=all");
  CHECK(archesOf(all.passes) == std::vector<std::string>{"compute_75", "compute_80", "compute_86", "compute_87", "compute_88", "compute_89",
                                                         "compute_90", "compute_100", "compute_103", "compute_110", "compute_120", "compute_121"});
  CHECK(archesOf(passesForArch("all-major", "").passes) ==
        std::vector<std::string>{"compute_75", "compute_80", "compute_90", "compute_100", "compute_110", "compute_120"});
  CHECK(supportedArchNumbers().size() == 12);

  PassList native = passesForArch("native", "-arch=native");
  CHECK(native.passes.empty());
  CHECK_THAT(native.error, Catch::Contains("cannot know"));

  for (const char* bad : {"sm_70", "sm_90f", "sm_80a", "sm_99", "sm_", "sm", "", "compute_", "sm_090", "sm_90x", "lto_90",
                          "sm_99999999999999999999", "SM_90", "sm_80,sm_90", "sm_-90", "compute_100aa"}) {
    INFO(bad);
    PassList list = passesForArch(bad, "x");
    CHECK(list.passes.empty());
    CHECK_THAT(list.error, Catch::StartsWith("unsupported GPU architecture '" + std::string(bad) + "'"));
  }
  // CMake's spelling of an architecture gets nvcc's suggested.
  CHECK_THAT(passesForArch("90a", "x").error, Catch::EndsWith("(did you mean 'sm_90a'?)"));
}

TEST_CASE("A gencode runs exactly its virtual architecture, and code= only checks names", "[cuda][device-passes]") {
  PassList a = passesForGencode("compute_90a", "sm_90a", "-gencode arch=compute_90a,code=sm_90a");
  CHECK(a.error.empty());
  CHECK(archesOf(a.passes) == std::vector<std::string>{"compute_90a"});
  CHECK(a.passes[0].describe() == "compute_90a from -gencode arch=compute_90a,code=sm_90a");
  CHECK(archesOf(passesForGencode("compute_100f", "[sm_100f,compute_100f]", "").passes) == std::vector<std::string>{"compute_100f"});
  CHECK(passesForGencode("compute_90", "[lto_90,sm_90a]", "").error.empty());
  CHECK(archesOf(passesForGencode("compute_80", "sm_80,sm_86", "").passes) == std::vector<std::string>{"compute_80"});

  PassList real = passesForGencode("sm_80", "sm_80", "");
  CHECK(real.passes.empty());
  CHECK(real.error == "'sm_80' is not a virtual architecture (compute_...)");
  CHECK(passesForGencode("compute_70", "sm_70", "").passes.empty());
  PassList badCode = passesForGencode("compute_90", "[sm_90,sm_91]", "");
  CHECK(badCode.error == "unsupported code 'sm_91'");
  CHECK(badCode.passes.size() == 1);
}

TEST_CASE("Passes are deduplicated by virtual architecture and keep the first origin", "[cuda][device-passes]") {
  PassList list = parseCudaArchList(" sm_90a, sm_100a ,sm_90", "--cuda-arch ");
  CHECK(list.error.empty());
  CHECK(archesOf(list.passes) == std::vector<std::string>{"compute_90", "compute_90a", "compute_100", "compute_100a"});
  CHECK(list.passes[0].origin == "--cuda-arch sm_90a");
  CHECK(list.passes[3].describe() == "compute_100a from --cuda-arch sm_100a");

  PassList mixed = parseCudaArchList("sm_80,bogus,sm_70", "--cuda-arch ");
  CHECK(archesOf(mixed.passes) == std::vector<std::string>{"compute_80"});
  CHECK_THAT(mixed.error, Catch::Contains("'bogus'") && Catch::Contains("; unsupported GPU architecture 'sm_70'"));
  CHECK(parseCudaArchList("", "x").error == "no architecture named");
  CHECK(parseCudaArchList(" , ", "x").error == "no architecture named");

  std::vector<std::string> names{"sm_100a", "sm_100f"};
  PassList fromNames = passesForArchNames(names, ".ptxls.json cuda.arch ");
  CHECK(archesOf(fromNames.passes) == std::vector<std::string>{"compute_100", "compute_100a", "compute_100f"});
  CHECK(fromNames.passes[0].origin == ".ptxls.json cuda.arch sm_100a");

  std::vector<DevicePass> into = passesForArch("sm_80", "first").passes;
  appendUnique(into, passesForArch("sm_80", "second").passes);
  REQUIRE(into.size() == 1);
  CHECK(into[0].origin == "first");
}

TEST_CASE("Each pass predefines nvcc's macros, __CUDA_ARCH_LIST__ from its whole compilation", "[cuda][device-passes]") {
  std::vector<DevicePass> passes = passesForArch("sm_90a", "-arch=sm_90a").passes;
  CHECK(passes[0].macros(passes) == with({{"__CUDA_ARCH__", "900"}, {"__CUDA_ARCH_LIST__", "900"}}));
  CHECK(passes[1].macros(passes) == with({{"__CUDA_ARCH__", "900"},
                                          {"__CUDA_ARCH_FEAT_SM90_ALL", "1"},
                                          {"__CUDA_ARCH_SPECIFIC__", "900"},
                                          {"__CUDA_ARCH_FAMILY_SPECIFIC__", "900"},
                                          {"__CUDA_ARCH_LIST__", "900"}}));
  std::vector<DevicePass> family = passesForArch("sm_100f", "").passes;
  CHECK(family[1].macros(family) ==
        with({{"__CUDA_ARCH__", "1000"}, {"__CUDA_ARCH_FAMILY_SPECIFIC__", "1000"}, {"__CUDA_ARCH_LIST__", "1000"}}));
  std::vector<DevicePass> thor = passesForArch("sm_121a", "").passes;
  CHECK(thor[1].macros(thor)[1] == std::pair<std::string, std::string>{"__CUDA_ARCH_FEAT_SM121_ALL", "1"});

  // Two -gencode passes: each lists both numbers, ascending, whatever the order asked.
  std::vector<DevicePass> two = passesForGencode("compute_100a", "sm_100a", "").passes;
  appendUnique(two, passesForGencode("compute_90a", "sm_90a", "").passes);
  CHECK(archList(two) == "900,1000");
  CHECK(two[1].macros(two)[4] == std::pair<std::string, std::string>{"__CUDA_ARCH_LIST__", "900,1000"});
  CHECK(archList(passesForArch("sm_90a", "").passes) == "900");
  CHECK(passes[0].macros({}) == passes[0].macros(std::vector<DevicePass>{passes[0]}));
}

TEST_CASE("Without a configured target: the guards' own architectures, else sm_80", "[cuda][device-passes]") {
  std::vector<DevicePass> none = defaultPasses({});
  CHECK(archesOf(none) == std::vector<std::string>{"compute_80"});
  CHECK(none[0].describe() == "compute_80 from the default -arch=sm_80");

  std::vector<DevicePass> guarded = defaultPasses({900, 800, 900});
  CHECK(archesOf(guarded) == std::vector<std::string>{"compute_80", "compute_90a"});
  CHECK(guarded[1].origin == "the default (a guard compares __CUDA_ARCH__ with 900)");
  // Numbers nvcc 13 has no architecture for: the next one up; past the newest, nothing.
  CHECK(archesOf(defaultPasses({700, 530})) == std::vector<std::string>{"compute_75"});
  CHECK(archesOf(defaultPasses({1010})) == std::vector<std::string>{"compute_103a"});
  CHECK(archesOf(defaultPasses({1300})) == std::vector<std::string>{"compute_80"});
  CHECK(archesOf(defaultPasses({860, 1300})) == std::vector<std::string>{"compute_86"});
}
