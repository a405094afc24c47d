// NvccRunner (exact mode's engine) and Process: the compile command filtered down to the flags
// that matter to PTX, nvcc's and ptxas's reports read, a timeout that kills what the tool
// started, and the real nvcc compiling a .cu for two device passes with ptxas's errors mapped to
// the .cu lines of the asm template (skipped when nvcc is absent).
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <signal.h>
#include <unistd.h>

#include "NvccRunner.h"
#include "Process.h"
#include "TestSupport.h"

using namespace ptx::oracle;
namespace fs = std::filesystem;

namespace {

// A folder removed at scope exit.
struct Scratch {
  fs::path root;
  explicit Scratch(const std::string& name) {
    root = fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
    fs::create_directories(root);
  }
  ~Scratch() { fs::remove_all(root); }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(root / name) << text;
    return root / name;
  }
};

std::uint32_t lineWith(std::string_view text, std::string_view needle) {
  std::size_t at = text.find(needle);
  REQUIRE(at != std::string_view::npos);
  return static_cast<std::uint32_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n') + 1);
}

}  // namespace

TEST_CASE("A compile command keeps what matters to PTX and drops targets, outputs and the source", "[oracle][nvcc]") {
  std::vector<std::string> command = {"/usr/local/cuda/bin/nvcc", "-DN=3", "-I", "include", "-isystem", "/opt/x",
                                      "-std=c++17", "-arch=sm_90a", "-gencode", "arch=compute_80,code=sm_80",
                                      "--generate-code=arch=compute_90a,code=[sm_90a]", "-Xptxas", "-v",
                                      "-Xcompiler", "-fPIC", "-MD", "-MF", "k.d", "-c", "-o", "k.o", "src/../k.cu",
                                      "--expt-relaxed-constexpr", "-rdc=true", "--dryrun"};
  std::vector<std::string> kept = flagsForPtx(command, "k.cu", "/build");
  CHECK(kept == std::vector<std::string>{"-DN=3", "-I", "include", "-isystem", "/opt/x", "-std=c++17", "-Xptxas",
                                         "-v", "-Xcompiler", "-fPIC", "--expt-relaxed-constexpr", "-rdc=true"});
  // Flags alone (no compiler, no source) pass through.
  std::vector<std::string> flags = {"-DX", "-O3"};
  CHECK(flagsForPtx(flags, "k.cu") == flags);
  // The source named relatively in the command and absolutely by the caller (or the reverse).
  std::vector<std::string> relative = {"nvcc", "-DX", "src/k.cu"};
  CHECK(flagsForPtx(relative, "/build/src/k.cu", "/build") == std::vector<std::string>{"-DX"});
  std::vector<std::string> absolute = {"nvcc", "-DX", (fs::current_path() / "k.cu").string()};
  CHECK(flagsForPtx(absolute, "k.cu") == std::vector<std::string>{"-DX"});
}

TEST_CASE("nvcc's diagnostics are read with their file, line and severity", "[oracle][nvcc]") {
  auto diagnostics = parseNvccDiagnostics(
      "e.cu(5): error: identifier \"undefined_thing\" is undefined\n"
      "    out[0] = y + undefined_thing;\n"
      "                 ^\n"
      "\n"
      "/abs/h (1).cuh(2): warning #177-D: variable \"unused\" was declared but never referenced\n"
      "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
      "e.cu(4): error: Internal Compiler Error (codegen): \"asm operand index requested is larger\"\n"
      "ptxas /tmp/x/0-e.ptx, line 32; error   : Unknown modifier '.s33'\n"
      "nvcc fatal   : Unsupported gpu architecture 'compute_11'\n"
      "1 error detected in the compilation of \"e.cu\".\n",
      "/work");
  REQUIRE(diagnostics.size() == 4);
  CHECK(diagnostics[0].file == "/work/e.cu");
  CHECK(diagnostics[0].line == 5);
  CHECK(diagnostics[0].severity == "error");
  CHECK(diagnostics[0].message == "identifier \"undefined_thing\" is undefined");
  CHECK(diagnostics[1].file == "/abs/h (1).cuh");
  CHECK(diagnostics[1].severity == "warning");
  CHECK(diagnostics[1].message == "variable \"unused\" was declared but never referenced");
  CHECK(diagnostics[2].message == "Internal Compiler Error (codegen): \"asm operand index requested is larger\"");
  CHECK(diagnostics[3].file.empty());
  CHECK(diagnostics[3].severity == "fatal");
  CHECK(diagnostics[3].message == "Unsupported gpu architecture 'compute_11'");
}

TEST_CASE("ptxas's errors are read with their PTX line, and its -v lines are not errors", "[oracle][nvcc]") {
  auto diagnostics = parsePtxasDiagnostics(
      "ptxas info    : 0 bytes gmem\n"
      "ptxas /tmp/ptxls-nvcc-1/0-k.ptx, line 40; error   : Not a name of any known instruction: 'bogus'\n"
      "ptxas /tmp/ptxls-nvcc-1/0-k.ptx, line 7; warning : Program uses 32-bit address\n"
      "ptxas fatal   : Ptx assembly aborted due to errors\n");
  REQUIRE(diagnostics.size() == 3);
  CHECK(diagnostics[0].ptxLine == 40);
  CHECK(diagnostics[0].severity == "error");
  CHECK(diagnostics[0].message == "Not a name of any known instruction: 'bogus'");
  CHECK(diagnostics[1].ptxLine == 7);
  CHECK(diagnostics[1].severity == "warning");
  CHECK(diagnostics[2].ptxLine == 0);
  CHECK(diagnostics[2].severity == "fatal");
}

TEST_CASE("A process past its timeout is killed with what it started, and runs in its working directory", "[oracle][process]") {
  Scratch scratch("process-test");
  std::string pidFile = (scratch.root / "child.pid").string();
  std::vector<std::string> argv = {"/bin/sh", "-c", "sleep 30 & echo $! > " + pidFile + "; echo started; wait"};
  auto start = std::chrono::steady_clock::now();
  ProcessResult run = runProcess(argv, std::chrono::milliseconds(300));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  CHECK(run.started);
  CHECK(run.timedOut);
  CHECK(run.exitCode == -1);
  CHECK(run.output == "started\n");
  pid_t child = static_cast<pid_t>(std::stol(ptx::test::readFile(pidFile)));
  // The background `sleep` was in the tool's process group: it is gone (reaped by init shortly).
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    gone = ::kill(child, 0) != 0 || ptx::test::readFile("/proc/" + std::to_string(child) + "/stat").find(") Z") != std::string::npos;
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(gone);

  std::vector<std::string> pwd = {"/bin/sh", "-c", "pwd; echo oops >&2; exit 3"};
  ProcessResult inside = runProcess(pwd, std::chrono::seconds(10), scratch.root);
  CHECK(inside.exitCode == 3);
  CHECK(inside.output == fs::canonical(scratch.root).string() + "\noops\n");
  std::vector<std::string> missing = {"/nonexistent/tool"};
  CHECK_FALSE(runProcess(missing, std::chrono::seconds(1)).started);
}

TEST_CASE("Exact mode maps ptxas errors of every pass to the .cu lines of the asm template", "[oracle][nvcc]") {
  auto nvcc = findNvcc();
  if (!nvcc) {
    WARN("skipped: no nvcc installed");
    return;
  }
  Scratch scratch("nvcc-runner-test");
  // The helper's error is on both passes and inlined twice; the kernel's only where
  // __CUDA_ARCH__ >= 900. SEEDED comes from the compile command's flags.
  std::string source = R"cu(#ifndef SEEDED
#error "the compile command's -D did not reach nvcc"
#endif
__device__ __forceinline__ unsigned helper(unsigned a,
                                           unsigned b) {
  unsigned r;
  asm volatile(
      "{\n\t"
      ".reg .b32 t;\n\t"
      "add.u32 t, %1, %2;\n\t"
      "bogus.op.u32 %0, t;\n\t"
      "}"
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}
__global__ void k(unsigned* out, unsigned x) {
  unsigned y = x;
#if __CUDA_ARCH__ >= 900
  asm volatile("mov.u32 %0, %1;\n\t" "add.u32 %0, %0, 1;\n\tsub.s33 %0, %0, 1;"
               : "=r"(y) : "r"(x));
#endif
  out[0] = helper(y, x) + helper(x,
                                 y);
}
)cu";
  fs::path cu = scratch.write("k.cu", source);
  std::vector<std::string> command = {*nvcc, "-DSEEDED", "-arch=sm_52", "-c", "-o", "k.o", "k.cu"};
  std::vector<NvccPassRequest> passes = {{"compute_80", ""}, {"compute_90a", "sm_90a"}};
  ExactOptions options;
  options.workingDirectory = scratch.root;
  ExactResult result = compileForPasses("k.cu", command, passes, options);
  REQUIRE(result.error.empty());
  REQUIRE(result.passes.size() == 2);
  std::uint32_t bogusLine = lineWith(source, "bogus.op");
  std::uint32_t subLine = lineWith(source, "sub.s33");
  for (const ExactPass& pass : result.passes) {
    INFO(pass.pass.virtualArch << ": " << pass.error << "\n" << pass.nvccOutput);
    CHECK(pass.error.empty());
    CHECK(pass.nvccDiagnostics.empty());
    CHECK(pass.ptx.find("// begin inline asm") != std::string::npos);
    CHECK(pass.ptxasExitCode != 0);
    CHECK(pass.functions.empty());
    std::size_t bogus = 0, sub = 0;
    for (const PtxasDiagnostic& diagnostic : pass.ptxasDiagnostics) {
      INFO(diagnostic.ptxLine << ": " << diagnostic.severity << ": " << diagnostic.message);
      if (diagnostic.severity == "fatal") {
        CHECK(diagnostic.ptxLine == 0);
        continue;
      }
      CHECK(diagnostic.source.insideInlineAsm);
      CHECK(diagnostic.source.exact);
      CHECK(fs::equivalent(diagnostic.source.file, cu));
      if (diagnostic.message.find("bogus") != std::string::npos || diagnostic.message.find(".op") != std::string::npos) {
        ++bogus;
        CHECK(diagnostic.source.line == bogusLine);
        CHECK(diagnostic.source.column == 8);
        CHECK(diagnostic.source.asmLine == 7);
        CHECK(diagnostic.source.locLine != bogusLine);  // The .loc names the operands, not the template line.
      } else {
        ++sub;
        CHECK(diagnostic.source.line == subLine);
        CHECK(diagnostic.source.asmLine == subLine);
      }
    }
    CHECK(bogus >= 2);  // Inlined twice: two PTX lines, one .cu line.
    CHECK(sub == (pass.pass.virtualArch == "compute_90a" ? 2u : 0u));
  }
  CHECK(result.passes[0].pass.ptxTarget == "sm_80");
  CHECK(result.passes[1].pass.ptxTarget == "sm_90a");
  CHECK(result.passes[0].ptx.find(".target sm_80") != std::string::npos);
  CHECK(result.passes[1].ptx.find(".target sm_90a") != std::string::npos);
}

TEST_CASE("Exact mode keeps nvcc's own errors, and a clean pass gets ptxas -v's figures", "[oracle][nvcc]") {
  auto nvcc = findNvcc();
  if (!nvcc) {
    WARN("skipped: no nvcc installed");
    return;
  }
  Scratch scratch("nvcc-runner-errors");
  fs::path broken = scratch.write("broken.cu", "__global__ void k(int* o) {\n  o[0] = undefined_thing;\n}\n");
  std::vector<NvccPassRequest> passes = {{"compute_80", ""}};
  ExactResult failed = compileForPasses(broken, {}, passes);
  REQUIRE(failed.passes.size() == 1);
  const ExactPass& pass = failed.passes[0];
  CHECK(pass.nvccExitCode != 0);
  REQUIRE(pass.nvccDiagnostics.size() == 1);
  CHECK(fs::equivalent(pass.nvccDiagnostics[0].file, broken));
  CHECK(pass.nvccDiagnostics[0].line == 2);
  CHECK(pass.nvccDiagnostics[0].severity == "error");
  CHECK(pass.ptx.empty());
  CHECK(pass.ptxasExitCode == -1);
  CHECK_THAT(pass.error, Catch::Contains("nvcc wrote no PTX"));

  fs::path clean = scratch.write("clean.cuh", "__global__ void k(int* o) {\n  asm volatile(\"add.s32 %0, %0, 1;\" : \"+r\"(o[0]));\n}\n");
  ExactResult passed = compileForPasses(clean, {}, passes);  // A header: compiled as CUDA.
  REQUIRE(passed.passes.size() == 1);
  INFO(passed.passes[0].nvccOutput);
  CHECK(passed.passes[0].nvccExitCode == 0);
  CHECK(passed.passes[0].ptxasExitCode == 0);
  CHECK(passed.passes[0].ptxasDiagnostics.empty());
  CHECK(passed.passes[0].functions.count("_Z1kPi") == 1);

  std::vector<NvccPassRequest> bad = {{"compute_80,code=sm_80", ""}};
  CHECK_THAT(compileForPasses(clean, {}, bad).passes[0].error, Catch::StartsWith("not a device pass"));
}
