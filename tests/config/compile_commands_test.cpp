// CompileCommands: finding compile_commands.json as clangd does, reading both entry forms, the
// entry for a file (headers inferred), every nvcc architecture flag form, and bad input. The
// last test checks the passes and macros against the installed nvcc's own --dryrun.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "CompileCommands.h"
#include "TestSupport.h"

using namespace ptx;
namespace fs = std::filesystem;

namespace {

// A temporary folder tree, removed at the end of the test.
struct Scratch {
  fs::path root;
  Scratch() {
    static std::atomic<int> counter{0};
    root = fs::temp_directory_path() / ("ptxls-compile-commands-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~Scratch() { fs::remove_all(root); }
  fs::path write(const fs::path& relative, std::string_view text) const {
    fs::path path = root / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
};

std::vector<std::string> archesOf(const std::vector<cuda::DevicePass>& passes) {
  std::vector<std::string> arches;
  for (const cuda::DevicePass& pass : passes) arches.push_back(pass.virtualArch);
  return arches;
}

std::vector<std::string> originsOf(const std::vector<cuda::DevicePass>& passes) {
  std::vector<std::string> origins;
  for (const cuda::DevicePass& pass : passes) origins.push_back(pass.origin);
  return origins;
}

config::NvccCommand nvccOf(std::vector<std::string> arguments) {
  config::CompileCommand command{"/work/build", "/work/src/k.cu", std::move(arguments)};
  return config::readNvccCommand(command);
}

// A database whose one entry compiles /work/src/k.cu with the shell `command`.
config::NvccCommand nvccOfCommandLine(const std::string& command) {
  nlohmann::json entry = {{"directory", "/work/build"}, {"file", "../src/k.cu"}, {"command", command}};
  config::CompilationDatabase database = config::parseCompilationDatabase(nlohmann::json::array({entry}).dump(), "/work/build/compile_commands.json");
  REQUIRE(database.commands.size() == 1);
  return config::readNvccCommand(database.commands[0]);
}

}  // namespace

TEST_CASE("Command strings are split as a POSIX shell splits them", "[compile-commands]") {
  using V = std::vector<std::string>;
  CHECK(config::splitCommandLine("  nvcc  -c\tk.cu \n") == V{"nvcc", "-c", "k.cu"});
  CHECK(config::splitCommandLine(R"(nvcc "-DNAME=\"a b\"" 'x y' a\ b)") == V{"nvcc", R"(-DNAME="a b")", "x y", "a b"});
  CHECK(config::splitCommandLine(R"(-DSTR=\"hi\" "c:\dir" '\n' "\\" "\$")") == V{R"(-DSTR="hi")", R"(c:\dir)", R"(\n)", R"(\)", "$"});
  CHECK(config::splitCommandLine("a\"b c\"d ''") == V{"ab cd", ""});
  CHECK(config::splitCommandLine("a \\\nb") == V{"a", "b"});
  CHECK(config::splitCommandLine("nvcc \"unterminated") == V{"nvcc", "unterminated"});
  CHECK(config::splitCommandLine("nvcc 'unterminated x") == V{"nvcc", "unterminated x"});
  CHECK(config::splitCommandLine("trailing\\") == V{"trailing\\"});
  CHECK(config::splitCommandLine("").empty());
}

TEST_CASE("Every nvcc architecture flag form gives nvcc's passes, cited as written", "[compile-commands]") {
  struct Case {
    std::vector<std::string> arguments;
    std::vector<std::string> arches;
    std::vector<std::string> origins;
  };
  const Case cases[] = {
      {{"-arch=sm_90a"}, {"compute_90", "compute_90a"}, {"-arch=sm_90a", "-arch=sm_90a"}},
      {{"-arch", "sm_80"}, {"compute_80"}, {"-arch sm_80"}},
      {{"--gpu-architecture=sm_100a"}, {"compute_100", "compute_100a"}, {"--gpu-architecture=sm_100a", "--gpu-architecture=sm_100a"}},
      {{"--gpu-architecture", "compute_90"}, {"compute_90"}, {"--gpu-architecture compute_90"}},
      {{"-gencode", "arch=compute_90a,code=sm_90a"}, {"compute_90a"}, {"-gencode arch=compute_90a,code=sm_90a"}},
      {{"-gencode=arch=compute_80,code=[compute_80,sm_80]"}, {"compute_80"}, {"-gencode=arch=compute_80,code=[compute_80,sm_80]"}},
      {{"--generate-code=arch=compute_90,code=[sm_90]", "--generate-code", "arch=compute_100f,code=[sm_100f]"},
       {"compute_90", "compute_100f"},
       {"--generate-code=arch=compute_90,code=[sm_90]", "--generate-code arch=compute_100f,code=[sm_100f]"}},
      {{"-gencode", "arch=compute_80,code=\"sm_80,compute_80\""}, {"compute_80"}, {"-gencode arch=compute_80,code=\"sm_80,compute_80\""}},
      {{"-gencode", "code=sm_86,arch=compute_80"}, {"compute_80"}, {"-gencode code=sm_86,arch=compute_80"}},
      // With -code, -arch is one virtual architecture, not the a/f split.
      {{"-arch=compute_90a", "-code=sm_90a"}, {"compute_90a"}, {"-arch=compute_90a -code=sm_90a"}},
      {{"--gpu-architecture=compute_80", "--gpu-code", "sm_80,sm_86"}, {"compute_80"}, {"--gpu-architecture=compute_80 --gpu-code sm_80,sm_86"}},
      // The last -arch wins; -arch's passes come before -gencode's; a pass asked twice runs once.
      {{"-arch=sm_80", "-arch=sm_90"}, {"compute_90"}, {"-arch=sm_90"}},
      {{"-gencode", "arch=compute_80,code=sm_80", "-arch=sm_90a", "-gencode=arch=compute_90a,code=sm_90a"},
       {"compute_90", "compute_90a", "compute_80"},
       {"-arch=sm_90a", "-arch=sm_90a", "-gencode arch=compute_80,code=sm_80"}},
      {{"-arch=all-major"}, {"compute_75", "compute_80", "compute_90", "compute_100", "compute_110", "compute_120"}, {}},
  };
  for (const Case& c : cases) {
    std::vector<std::string> arguments{"/usr/local/cuda/bin/nvcc"};
    arguments.insert(arguments.end(), c.arguments.begin(), c.arguments.end());
    arguments.insert(arguments.end(), {"-c", "k.cu", "-o", "k.o"});
    INFO((arguments.size() > 1 ? arguments[1] : std::string()));
    config::NvccCommand nvcc = nvccOf(arguments);
    CHECK(nvcc.isNvcc);
    CHECK(nvcc.problems.empty());
    CHECK(!nvcc.defaultArch);
    CHECK(archesOf(nvcc.passes) == c.arches);
    if (!c.origins.empty()) CHECK(originsOf(nvcc.passes) == c.origins);
  }
  // The same through a "command" string, nvcc's documented quoting included.
  config::NvccCommand quoted = nvccOfCommandLine(R"(nvcc -gencode arch=compute_80,code=\"sm_80,compute_80\" -gencode "arch=compute_90a,code=[sm_90a,compute_90a]" -c ../src/k.cu)");
  CHECK(archesOf(quoted.passes) == std::vector<std::string>{"compute_80", "compute_90a"});
  CHECK(quoted.problems.empty());
}

TEST_CASE("Flags nvcc entries carry that are not architectures never fail, and values stay values", "[compile-commands]") {
  // What CMake writes for a CUDA target, plus values that look like our flags (-MT -Dx, an options
  // file named -arch=...). -Xcompiler's -D counts: the host compiler preprocesses device passes.
  config::NvccCommand nvcc = nvccOf({"ccache", "/usr/local/cuda/bin/nvcc", "-forward-unknown-to-host-compiler", "-ccbin=/usr/bin/g++-12",
                                     "-ccbin", "/usr/bin/g++", "-Xcompiler", "-DHOST_ONLY", "-Xcompiler=-fPIC,-Wall", "--compiler-options",
                                     "-std=c++14", "-rdc=true", "--expt-relaxed-constexpr", "--extended-lambda", "-x", "cu",
                                     "@CMakeFiles/k.dir/includes_CUDA.rsp", "--options-file", "-arch=sm_70.rsp", "-Wno-deprecated-gpu-targets",
                                     "-march=native", "--generate-code=arch=compute_90a,code=[compute_90a,sm_90a]", "-MD", "-MT", "-Dx",
                                     "-MF", "k.d", "-O3", "-lineinfo", "--use_fast_math", "-G", "-dc", "-Xptxas", "-v", "-c", "k.cu"});
  CHECK(nvcc.isNvcc);
  CHECK(nvcc.problems.empty());
  CHECK(archesOf(nvcc.passes) == std::vector<std::string>{"compute_90a"});
  CHECK(nvcc.standard.empty());
  std::vector<std::string> names;
  for (const config::MacroFlag& flag : nvcc.macroFlags) names.push_back(flag.name);
  CHECK(names == std::vector<std::string>{"__CUDACC_RDC__", "__CUDACC_RELAXED_CONSTEXPR__", "__CUDACC_EXTENDED_LAMBDA__", "__CUDACC_DEBUG__",
                                          "__CUDACC_RDC__", "HOST_ONLY"});

  // nvcc's order: flag macros, then -Xcompiler's -D/-U/-I (comma- or blank-separated), then -D/-U.
  config::NvccCommand host = nvccOf({"nvcc", "-DX=1", "-Xcompiler", "-DX=2,-DY,-UZ", "-Xcompiler=-Ifoo", "--compiler-options",
                                     "-DW=3 -DV=4", "-rdc=true", "-arch=sm_80"});
  std::vector<std::string> flags;
  for (const config::MacroFlag& flag : host.macroFlags) flags.push_back((flag.undefine ? "-U" : "-D") + flag.name + "=" + flag.value);
  CHECK(flags == std::vector<std::string>{"-D__CUDACC_RDC__=1", "-DX=2", "-DY=1", "-UZ=", "-DW=3", "-DV=4", "-DX=1"});
  CHECK(host.includeDirs == std::vector<fs::path>{"/work/build/foo"});
}

TEST_CASE("Include folders, macros and the standard come from the entry", "[compile-commands]") {
  config::NvccCommand nvcc = nvccOf({"nvcc", "-I", "inc", "-I../third/cutlass/include", "--include-path=/abs,rel", "-isystem", "sys",
                                     "-DX=1,Y=2", "-D", "W", "--define-macro=EMPTY=", "-UV", "--undefine-macro", "Z", "--std", "c++20",
                                     "-include", "pre.h", "-arch=sm_80", "-c", "k.cu"});
  CHECK(nvcc.includeDirs == std::vector<fs::path>{"/work/build/inc", "/work/third/cutlass/include", "/abs", "/work/build/rel"});
  CHECK(nvcc.systemIncludeDirs == std::vector<fs::path>{"/work/build/sys"});
  CHECK(nvcc.preIncludes == std::vector<std::string>{"pre.h"});
  CHECK(nvcc.standard == "c++20");
  CHECK(nvcc.directory == "/work/build");
  CHECK(nvcc.arguments.size() == 21);
  std::vector<std::string> flags;
  for (const config::MacroFlag& flag : nvcc.macroFlags) flags.push_back((flag.undefine ? "-U" : "-D") + flag.name + "=" + flag.value);
  CHECK(flags == std::vector<std::string>{"-DX=1", "-DY=2", "-DW=1", "-DEMPTY=", "-UV=", "-UZ="});
  CHECK(nvccOf({"nvcc", "-std=c++17", "-arch=sm_80"}).standard == "c++17");

  // A pass's macros: its own, then the command's -D/-U in order.
  config::NvccCommand undefine = nvccOf({"nvcc", "-arch=sm_90a", "-DFOO=2", "-U__CUDA_ARCH_FEAT_SM90_ALL", "-UFOO", "-DFOO=3", "-rdc", "true"});
  std::map<std::string, std::string> macros;
  for (const auto& [name, value] : config::macrosFor(undefine, undefine.passes[1])) macros[name] = value;
  CHECK(macros.at("FOO") == "3");
  CHECK(macros.at("__CUDACC_RDC__") == "1");
  CHECK(macros.at("__CUDA_ARCH_SPECIFIC__") == "900");
  CHECK(!macros.contains("__CUDA_ARCH_FEAT_SM90_ALL"));
}

TEST_CASE("Entries without a usable architecture say why, and other compilers give no passes", "[compile-commands]") {
  config::NvccCommand none = nvccOf({"nvcc", "-c", "k.cu"});
  CHECK(none.defaultArch);
  CHECK(archesOf(none.passes) == std::vector<std::string>{"compute_75"});
  CHECK(none.passes[0].describe() == "compute_75 from nvcc's default -arch=sm_75");

  config::NvccCommand old = nvccOf({"nvcc", "-arch=sm_70", "-gencode", "arch=compute_90,code=sm_90"});
  CHECK(archesOf(old.passes) == std::vector<std::string>{"compute_90"});
  REQUIRE(old.problems.size() == 1);
  CHECK_THAT(old.problems[0], Catch::StartsWith("unsupported GPU architecture 'sm_70'") && Catch::EndsWith(" in -arch=sm_70"));

  CHECK_THAT(nvccOf({"nvcc", "-arch=native"}).problems.at(0), Catch::Contains("cannot know"));
  CHECK(nvccOf({"nvcc", "-arch=native"}).passes.empty());
  CHECK(nvccOf({"nvcc", "-arch=sm_90a", "-code=sm_90a"}).problems.at(0) == "'sm_90a' is not a virtual architecture (compute_...) in -arch=sm_90a");
  CHECK(nvccOf({"nvcc", "-code=sm_90"}).problems.at(0) == "-code=sm_90 without -arch (nvcc: \"-arch option not specified\")");
  CHECK(nvccOf({"nvcc", "-gencode", "code=sm_90"}).problems.at(0) == "-gencode code=sm_90 names no arch=");
  CHECK(nvccOf({"nvcc", "-gencode", "arch=compute_90,code=sm_90,compute_90"}).problems.at(0) ==
        "'compute_90' in -gencode arch=compute_90,code=sm_90,compute_90 is not arch=... or code=...");
  CHECK(nvccOf({"nvcc", "-arch"}).passes.size() == 1);  // A flag missing its value is dropped: nvcc's default.

  for (const char* compiler : {"clang++", "/usr/bin/g++", "nvc++", "ccache"}) {
    config::NvccCommand other = nvccOf({compiler, "--cuda-gpu-arch=sm_90a", "-arch=sm_90a", "-c", "k.cu"});
    CHECK(!other.isNvcc);
    CHECK(other.passes.empty());
  }
  CHECK(nvccOf({"sccache", "nvcc", "-arch=sm_80"}).isNvcc);
  CHECK(nvccOf({"C:/cuda/bin/nvcc.exe", "-arch=sm_80"}).isNvcc);
}

TEST_CASE("compile_commands.json is found as clangd finds it", "[compile-commands]") {
  Scratch scratch;
  fs::path file = scratch.write("a/b/c/k.cu", "");
  std::optional<fs::path> nothing = config::findCompilationDatabase(file);
  CHECK((!nothing || !nothing->string().starts_with(scratch.root.string())));

  fs::path top = scratch.write("a/compile_commands.json", "[]");
  CHECK(config::findCompilationDatabase(file) == top);
  // In one folder, compile_commands.json comes before build/compile_commands.json ...
  scratch.write("a/build/compile_commands.json", "[]");
  CHECK(config::findCompilationDatabase(file) == top);
  // ... and a nearer folder's build/ before a farther folder's file.
  fs::path nearer = scratch.write("a/b/build/compile_commands.json", "[]");
  CHECK(config::findCompilationDatabase(file) == nearer);
  fs::path own = scratch.write("a/b/c/compile_commands.json", "[]");
  CHECK(config::findCompilationDatabase(file) == own);
  // A relative path is taken from the working directory, as a command line gives it.
  fs::path previous = fs::current_path();
  fs::current_path(scratch.root / "a" / "b");
  CHECK(config::findCompilationDatabase("c/k.cu") == own);
  fs::current_path(previous);

  // --compile-commands DIR: that folder only, or the file itself.
  CHECK(config::compilationDatabaseIn(scratch.root / "a" / "build") == scratch.root / "a" / "build" / "compile_commands.json");
  CHECK(config::compilationDatabaseIn(top) == top);
  CHECK(!config::compilationDatabaseIn(scratch.root / "a" / "b" / "c" / "nothing"));
  CHECK(!config::compilationDatabaseIn(scratch.root / "a" / "b"));
}

TEST_CASE("The entry for a file: exact path, else inferred from the nearest source as clangd does", "[compile-commands]") {
  auto entry = [](std::string directory, std::string file, std::string arch) {
    return nlohmann::json{{"directory", directory}, {"file", file}, {"arguments", {"nvcc", "-arch=" + arch, "-c", file}}};
  };
  nlohmann::json entries = nlohmann::json::array({
      entry("/p/build", "../src/./main.cpp", "sm_75"),
      entry("/p/build", "../src/gemm.cu", "sm_80"),
      entry("/p/build", "/p/src/attention.cu", "sm_90a"),
      entry("/p/build", "../src/detail/scan.cu", "sm_100a"),
      entry("/p/build", "/p/tools/tool.cu", "sm_86"),
      {{"directory", "/p/build"}, {"file", "/p/src/gemm.cu"}, {"command", "nvcc -arch=sm_121 -c /p/src/gemm.cu"}},
  });
  config::CompilationDatabase database = config::parseCompilationDatabase(entries.dump(), "/p/build/compile_commands.json");
  REQUIRE(database.problems.empty());
  REQUIRE(database.commands.size() == 6);
  CHECK(database.commands[0].file == "/p/src/main.cpp");
  CHECK(database.commands[5].arguments == std::vector<std::string>{"nvcc", "-arch=sm_121", "-c", "/p/src/gemm.cu"});

  auto archOf = [&](const fs::path& file, bool inferred) {
    config::CommandMatch match = config::commandFor(database, file);
    REQUIRE(match.command != nullptr);
    CHECK(match.inferred == inferred);
    return match.command->arguments[1];
  };
  CHECK(archOf("/p/src/gemm.cu", false) == "-arch=sm_80");  // The first of two entries, as clangd takes.
  CHECK(archOf("/p/build/../src/detail/scan.cu", false) == "-arch=sm_100a");
  CHECK(archOf("/p/src/attention.cuh", true) == "-arch=sm_90a");  // Same folder, same stem.
  CHECK(archOf("/p/src/main.cuh", true) == "-arch=sm_75");
  CHECK(archOf("/p/src/util.cuh", true) == "-arch=sm_80");         // Same folder: the first .cu.
  CHECK(archOf("/p/src/detail/other.cuh", true) == "-arch=sm_100a");  // The nearest folder.
  CHECK(archOf("/p/src/detail/deeper/x.cuh", true) == "-arch=sm_100a");
  CHECK(archOf("/p/include/p/api.cuh", true) == "-arch=sm_80");  // /p shared; then the first .cu.
  CHECK(archOf("/elsewhere/x.cu", true) == "-arch=sm_80");

  CHECK(config::commandFor(config::parseCompilationDatabase("[]", "/p/compile_commands.json"), "/p/src/k.cu").command == nullptr);
}

TEST_CASE("Malformed compile_commands.json is a clear value, never a throw", "[compile-commands]") {
  auto unusable = [](std::string_view text) { return config::parseCompilationDatabase(text, "/p/compile_commands.json").unusable; };
  CHECK_THAT(unusable("[{\"file\": "), Catch::StartsWith("not valid JSON: parse error at line 1, column 11"));
  CHECK_THAT(unusable(""), Catch::StartsWith("not valid JSON: "));
  CHECK_THAT(unusable(std::string("\0\xff\xfe[", 4)), Catch::StartsWith("not valid JSON: "));
  CHECK_THAT(unusable("[\"\xc3\x28\"]"), Catch::StartsWith("not valid JSON: "));  // Invalid UTF-8.
  CHECK(unusable("{\"file\": \"k.cu\"}") == "not a JSON array");
  CHECK(unusable("[]").empty());

  config::CompilationDatabase database = config::parseCompilationDatabase(R"([
    1,
    {"directory": "/p"},
    {"directory": "/p", "file": 7, "command": "nvcc"},
    {"directory": "/p", "file": "a.cu"},
    {"directory": "/p", "file": "b.cu", "arguments": ["nvcc", 3]},
    {"directory": "/p", "file": "c.cu", "arguments": "nvcc -c c.cu"},
    {"directory": "/p", "file": "d.cu", "command": "   "},
    {"file": "e.cu", "command": "nvcc -arch=sm_80 -c e.cu", "output": "e.o"}
  ])", "/q/compile_commands.json");
  CHECK(database.unusable.empty());
  CHECK(database.problems == std::vector<std::string>{
                                 "entry 1: not an object",
                                 "entry 2: no \"file\" string",
                                 "entry 3: no \"file\" string",
                                 "entry 4: neither \"arguments\" nor a \"command\" string",
                                 "entry 5: \"arguments\" is not an array of strings",
                                 "entry 6: \"arguments\" is not an array of strings",
                                 "entry 7: empty command",
                             });
  REQUIRE(database.commands.size() == 1);
  CHECK(database.commands[0].file == "/q/e.cu");  // No "directory": the database's folder.

  Scratch scratch;
  CHECK(config::loadCompilationDatabase(scratch.root / "missing.json").unusable == "cannot open file");
  config::CudaTargets broken = config::cudaTargetsFor(scratch.write("k.cu", ""), std::optional<fs::path>(scratch.write("cc/compile_commands.json", "[{")));
  CHECK(broken.nvcc.passes.empty());
  CHECK(broken.database == scratch.root / "cc" / "compile_commands.json");
  REQUIRE(broken.problems.size() == 1);
  CHECK_THAT(broken.problems[0], Catch::Contains("compile_commands.json: not valid JSON: "));
}

TEST_CASE("cudaTargetsFor: the passes of a file, and where they came from", "[compile-commands]") {
  Scratch scratch;
  fs::path source = scratch.write("proj/src/kernel.cu", "");
  fs::path header = scratch.write("proj/src/kernel.cuh", "");
  nlohmann::json entries = nlohmann::json::array(
      {{{"directory", (scratch.root / "proj" / "build").string()},
        {"file", "../src/kernel.cu"},
        {"command", "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -I../include --generate-code=arch=compute_90a,code=[compute_90a,sm_90a] -c ../src/kernel.cu"}},
       {{"directory", (scratch.root / "proj" / "build").string()}, {"file", "../src/host.cpp"}, {"arguments", {"g++", "-c", "../src/host.cpp"}}}});
  fs::path database = scratch.write("proj/build/compile_commands.json", entries.dump(2));

  config::CudaTargets targets = config::cudaTargetsFor(source);
  CHECK(targets.problems.empty());
  CHECK(targets.database == database);
  CHECK(!targets.inferred);
  REQUIRE(targets.command);
  CHECK(targets.command->file == source);
  CHECK(archesOf(targets.nvcc.passes) == std::vector<std::string>{"compute_90a"});
  CHECK(targets.nvcc.passes[0].describe() == "compute_90a from --generate-code=arch=compute_90a,code=[compute_90a,sm_90a]");
  CHECK(targets.nvcc.includeDirs == std::vector<fs::path>{scratch.root / "proj" / "include"});

  config::CudaTargets inferred = config::cudaTargetsFor(header, std::optional<fs::path>(scratch.root / "proj" / "build"));
  CHECK(inferred.inferred);
  CHECK(archesOf(inferred.nvcc.passes) == std::vector<std::string>{"compute_90a"});

  config::CudaTargets host = config::cudaTargetsFor(scratch.root / "proj" / "src" / "host.cpp");
  CHECK(!host.nvcc.isNvcc);
  CHECK(host.nvcc.passes.empty());
  REQUIRE(host.problems.size() == 1);
  CHECK_THAT(host.problems[0], Catch::EndsWith("compile_commands.json does not run nvcc"));

  config::CudaTargets missing = config::cudaTargetsFor(source, std::optional<fs::path>(scratch.root / "nowhere"));
  CHECK(missing.database.empty());
  CHECK(missing.problems == std::vector<std::string>{"no compile_commands.json in " + (scratch.root / "nowhere").string()});
}

namespace {

// nvcc --dryrun's device passes: for each cicc run, its -arch and the macros of the device
// preprocessing that precedes it (gcc -E with -D__CUDA_ARCH__), -D/-U applied in order.
struct DryrunPass {
  std::string arch;
  std::map<std::string, std::string> macros;
};

std::vector<DryrunPass> dryrunPasses(const std::string& nvcc, const std::string& flags, std::string& output) {
  test::runCommand(nvcc + " --dryrun " + flags + " -c /nonexistent/k.cu -o /nonexistent/k.o 2>&1", output);
  std::vector<DryrunPass> passes;
  std::map<std::string, std::string> pending;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("#$ ")) continue;
    std::vector<std::string> words;
    std::istringstream split(line);
    for (std::string word; split >> word;) words.push_back(word.size() >= 2 && word.front() == '"' && word.back() == '"' ? word.substr(1, word.size() - 2) : word);
    bool devicePreprocess = line.find(" -E ") != std::string::npos && line.find("-D__CUDA_ARCH__=") != std::string::npos;
    if (devicePreprocess) {
      pending.clear();
      for (std::size_t i = 0; i < words.size(); ++i) {
        bool define = words[i].starts_with("-D");
        if (!define && !words[i].starts_with("-U")) continue;
        std::string item = words[i].size() > 2 ? words[i].substr(2) : (i + 1 < words.size() ? words[++i] : "");
        std::size_t equals = item.find('=');
        if (define) {
          pending[item.substr(0, equals)] = equals == std::string::npos ? "1" : item.substr(equals + 1);
        } else {
          pending.erase(item);
        }
      }
    }
    std::size_t cicc = line.find("cicc\" ");
    std::size_t arch = line.find(" -arch compute_");
    if (cicc != std::string::npos && arch != std::string::npos) {
      std::size_t begin = arch + 7;
      passes.push_back({line.substr(begin, line.find(' ', begin) - begin), pending});
    }
  }
  return passes;
}

}  // namespace

TEST_CASE("Passes and macros match the installed nvcc's --dryrun", "[compile-commands][nvcc]") {
  std::string nvcc = "/usr/local/cuda/bin/nvcc";
  std::string output;
  if (test::runCommand("command -v nvcc", output) == 0 && !output.empty()) nvcc = output.substr(0, output.find('\n'));
  if (!fs::exists(nvcc)) {
    WARN("skipped: no nvcc installed");
    return;
  }
  test::runCommand(nvcc + " --version", output);
  if (output.find("release 13.0,") == std::string::npos) {
    WARN("skipped: nvcc is not 13.0, whose architectures and macros core/cuda/DevicePasses records");
    return;
  }
  std::vector<std::string> flagSets = {
      "",
      "-arch=all",
      "-arch=all-major",
      "-arch=sm_90a -gencode arch=compute_80,code=sm_80",
      "-gencode arch=compute_90a,code=sm_90a -gencode arch=compute_100a,code=[sm_100a,compute_100a]",
      "--generate-code=arch=compute_100f,code=[sm_103f] -arch=compute_120a",
      "-arch=compute_90a -code=sm_90a,compute_90a",
      "-arch=sm_80 -arch=sm_90 -rdc=true --expt-relaxed-constexpr --extended-lambda -G -DX=1,Y=2 -D W -UW",
      "-arch=sm_80 -DX=1 -Xcompiler -DX=2,-DY,-UZ --compiler-options '-DW=3 -DV=4' -Xcompiler=-UY",
      "-forward-unknown-to-host-compiler -ccbin /usr/bin/g++ -Xcompiler -DHOST_ONLY -x cu -arch=sm_121f -dc",
  };
  for (unsigned number : cuda::supportedArchNumbers()) {
    for (std::string_view variant : {"", "a", "f"}) {
      for (std::string_view prefix : {"sm_", "compute_"}) {
        std::string name = std::string(prefix) + std::to_string(number / 10) + std::string(variant);
        if (variant.empty() || cuda::passesForArch(name, "").error.empty()) flagSets.push_back("-arch=" + name);
      }
    }
  }
  for (const std::string& flags : flagSets) {
    INFO("nvcc " << flags);
    std::vector<DryrunPass> expected = dryrunPasses(nvcc, flags, output);
    INFO(output);
    REQUIRE(!expected.empty());
    std::vector<std::string> arguments = config::splitCommandLine("nvcc " + flags + " -c k.cu");
    config::NvccCommand command = nvccOf(arguments);
    CHECK(command.problems.empty());
    REQUIRE(command.passes.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      CHECK(command.passes[i].virtualArch == expected[i].arch);
      CHECK(command.passes[i].ptxTarget() == "sm_" + expected[i].arch.substr(8));
      std::map<std::string, std::string> macros;
      for (const auto& [name, value] : config::macrosFor(command, command.passes[i])) macros[name] = value;
      CHECK(macros == expected[i].macros);
    }
  }
  // Names nvcc rejects, ptxls rejects too.
  for (const char* rejected : {"sm_70", "sm_90f", "sm_80a", "sm_101"}) {
    INFO(rejected);
    dryrunPasses(nvcc, std::string("-arch=") + rejected, output);
    CHECK_THAT(output, Catch::Contains("Unsupported gpu architecture"));
    CHECK(!cuda::passesForArch(rejected, "").error.empty());
  }
}
