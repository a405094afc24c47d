// ptxlint --report registers --ptxas: ptxas -v's figures beside the estimate. A stand-in
// ptxas (a script printing what ptxas prints) pins the output; the real one, when installed,
// checks that the figures come through.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include "PtxasRunner.h"
#include "TestSupport.h"

using namespace ptx;
namespace fs = std::filesystem;

namespace {

struct Run {
  int status;
  std::string output;
};

Run ptxlint(const std::string& environment, const std::string& arguments) {
  Run run;
  run.status = test::runCommand(environment + " " + std::string(PTXLINT_PATH) + " " + arguments + " 2>/dev/null", run.output);
  return run;
}

// A folder with a kernel and stand-in ptxas scripts, removed at scope exit.
struct Scratch {
  fs::path root;
  Scratch() {
    root = fs::temp_directory_path() / ("ptxas-verify-test-" + std::to_string(::getpid()));
    fs::create_directories(root);
    std::ofstream(root / "k.ptx") << test::kernel("  .reg .b32 %r<3>;\n  mov.u32 %r1, %tid.x;\n  ret;");
    script("fake-ptxas", "echo \"ptxas info    : Compiling entry function 'k' for 'sm_80'\"\n"
                         "echo \"ptxas info    : Function properties for k\"\n"
                         "echo \"    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\"\n"
                         "echo \"ptxas info    : Used 40 registers, used 0 barriers, 357 bytes cmem[0]\"\n"
                         "exit 0\n");
    script("rejecting-ptxas", "echo \"ptxas $6, line 7; error   : Unknown symbol '%r9'\" >&2\nexit 255\n");
  }
  ~Scratch() { fs::remove_all(root); }
  void script(const std::string& name, const std::string& body) {
    std::ofstream(root / name) << "#!/bin/sh\n" << body;
    fs::permissions(root / name, fs::perms::owner_all);
  }
};

}  // namespace

TEST_CASE("ptxas -v's report is read per function", "[cli][ptxas]") {
  auto functions = oracle::parsePtxasReport(
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90a'\n"
      "ptxas info    : Function properties for _Z1kPf\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 72 registers, used 1 barriers, 2048 bytes smem, 368 bytes cmem[0]\n"
      "ptxas info    : Function properties for helper\n"
      "    24 bytes stack frame, 20 bytes spill stores, 20 bytes spill loads\n");
  REQUIRE(functions.size() == 2);
  CHECK(functions["_Z1kPf"].registers == 72);
  CHECK(functions["_Z1kPf"].spillStores == 0);
  CHECK(functions["helper"].registers == 0);  // A callee's registers are not printed apart.
  CHECK(functions["helper"].spillStores == 20);
  CHECK(functions["helper"].spillLoads == 20);
}

TEST_CASE("ptxlint --ptxas puts ptxas's figure and the difference beside the estimate", "[cli][ptxas]") {
  Scratch scratch;
  std::string env = "PTXAS=" + (scratch.root / "fake-ptxas").string();
  Run text = ptxlint(env, "--report registers --ptxas " + (scratch.root / "k.ptx").string());
  CHECK(text.status == 0);
  CHECK_THAT(text.output, Catch::Contains("ptxas -v: 40 registers (estimate "));
  CHECK_THAT(text.output, Catch::Contains("8 bytes spill stores, 4 bytes spill loads"));

  Run json = ptxlint(env, "--report registers --ptxas --format json " + (scratch.root / "k.ptx").string());
  auto report = nlohmann::json::parse(json.output);
  const auto& file = report["files"][0];
  CHECK(file["ptxas_error"].is_null());
  const auto& function = file["functions"][0];
  CHECK(function["ptxas"]["registers"] == 40);
  CHECK(function["ptxas"]["spill_stores"] == 8);
  CHECK(function["ptxas"]["difference"] == function["registers"].get<long>() - 40);

  // Without --ptxas, the JSON carries no ptxas fields.
  auto plain = nlohmann::json::parse(ptxlint(env, "--report registers --format json " + (scratch.root / "k.ptx").string()).output);
  CHECK_FALSE(plain["files"][0].contains("ptxas_error"));
  CHECK_FALSE(plain["files"][0]["functions"][0].contains("ptxas"));
}

TEST_CASE("ptxlint --ptxas says why a file has no ptxas figures", "[cli][ptxas]") {
  Scratch scratch;
  std::string env = "PTXAS=" + (scratch.root / "rejecting-ptxas").string();
  auto report = nlohmann::json::parse(
      ptxlint(env, "--report registers --ptxas --format json " + (scratch.root / "k.ptx").string()).output);
  const auto& file = report["files"][0];
  std::string error = file["ptxas_error"].get<std::string>();
  CHECK_THAT(error, Catch::StartsWith("ptxas rejected the file: "));
  CHECK_THAT(error, Catch::Contains("Unknown symbol"));
  CHECK(error.find("ptxls-ptxas-") == std::string::npos);  // The temporary file's name is hidden.
  CHECK(file["functions"][0]["ptxas"].is_null());

  Run text = ptxlint(env, "--report registers --ptxas " + (scratch.root / "k.ptx").string());
  CHECK_THAT(text.output, Catch::Contains("ptxas -v not run: ptxas rejected the file"));

  Run usage = ptxlint("", "--ptxas " + (scratch.root / "k.ptx").string());
  CHECK(usage.status == 2);
}

TEST_CASE("ptxlint --ptxas with the real ptxas matches ptxas -v", "[cli][ptxas]") {
  auto ptxas = oracle::findPtxas();
  if (!ptxas) {
    WARN("skipped: no ptxas installed");
    return;
  }
  Scratch scratch;
  oracle::PtxasResult direct = oracle::runPtxas(*ptxas, test::kernel("  .reg .b32 %r<3>;\n  mov.u32 %r1, %tid.x;\n  ret;"), "sm_80");
  REQUIRE(direct.error.empty());
  REQUIRE(direct.functions.count("k") == 1);
  auto report = nlohmann::json::parse(
      ptxlint("PTXAS=" + *ptxas, "--report registers --ptxas --format json " + (scratch.root / "k.ptx").string()).output);
  CHECK(report["files"][0]["functions"][0]["ptxas"]["registers"] == direct.functions["k"].registers);
  CHECK(oracle::runPtxas(*ptxas, "garbage", "compute_80").error.find("sm_XX") != std::string::npos);
}
