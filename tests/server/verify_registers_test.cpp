// The verify code lens: where ptxas is installed, each function gets a second lens, "verify with
// ptxas", whose server command (ptxls.server.verifyRegisters) runs ptxas -v in the background;
// when it is done the client is asked to refresh its code lenses, which then read ptxas's figure
// beside the estimate, until an edit makes it stale. Without ptxas there is no such lens.
//
// ptxas is a stand-in here: a shell script that prints what ptxas -v prints (and its arguments),
// found through $PTXAS by oracle::findPtxas.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "PtxasRunner.h"
#include "TestClient.h"
#include "features/CodeLenses.h"

using nlohmann::json;
using namespace ptx;
using namespace ptx::lsp;

namespace {

const char* const kUri = "file:///verify.ptx";

// A device function and a kernel that calls it.
const std::string kText =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".func (.reg .b32 r) twice(.reg .b32 a)\n{\n\tadd.s32 r, a, a;\n\tret;\n}\n"
    ".visible .entry kernel(.param .u64 out)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
    "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n"
    "\tcall (%r2), twice, (%r1);\n\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n";

// A stand-in ptxas in a folder of its own, named by $PTXAS while this lives (the previous value
// is restored after). It takes a second to answer, so that a test can see the run under way,
// and writes its arguments beside itself.
struct StandInPtxas {
  std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("ptxls-verify-" + std::to_string(::getpid()));
  std::filesystem::path script = folder / "ptxas";
  std::filesystem::path arguments = folder / "arguments";
  std::filesystem::path runs = folder / "runs";  // A line per run.
  std::optional<std::string> previous;

  StandInPtxas() {
    std::filesystem::create_directories(folder);
    std::ofstream(script) << "#!/bin/sh\n"
                          << "echo \"$@\" > '" << arguments.string() << "'\n"
                          << "echo run >> '" << runs.string() << "'\n"
                          << "sleep 1\n"
                          << "echo 'ptxas info    : Compiling entry function kernel for sm_80'\n"
                          << "echo 'ptxas info    : Function properties for twice'\n"
                          << "echo '    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads'\n"
                          << "echo 'ptxas info    : Used 10 registers'\n"
                          << "echo 'ptxas info    : Function properties for kernel'\n"
                          << "echo '    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads'\n"
                          << "echo 'ptxas info    : Used 40 registers, 360 bytes cmem[0]'\n";
    ::chmod(script.c_str(), 0755);
    if (const char* value = std::getenv("PTXAS")) previous = value;
    ::setenv("PTXAS", script.c_str(), 1);
  }
  // How many times it has run.
  int runCount() const {
    std::ifstream in(runs);
    int count = 0;
    for (std::string line; std::getline(in, line);) ++count;
    return count;
  }
  ~StandInPtxas() {
    if (previous) {
      ::setenv("PTXAS", previous->c_str(), 1);
    } else {
      ::unsetenv("PTXAS");
    }
    std::error_code ignored;
    std::filesystem::remove_all(folder, ignored);
  }
};

json lensesOf(ptx::test::TestClient& client, int id) {
  client.request(id, "textDocument/codeLens", {{"textDocument", {{"uri", kUri}}}});
  return client.reply(id)["result"];
}

// The estimate a register lens shows ("≈ 72 registers · ...").
std::uint32_t estimateIn(const json& lens) {
  std::string title = lens["command"]["title"].get<std::string>();
  return static_cast<std::uint32_t>(std::stoul(title.substr(title.find_first_of("0123456789"))));
}

std::string expectedTitle(std::uint32_t ptxas, std::uint32_t estimate) {
  std::string difference = estimate == ptxas  ? std::string("exact")
                           : estimate > ptxas ? "+" + std::to_string(estimate - ptxas)
                                              : "-" + std::to_string(ptxas - estimate);
  return "ptxas -v: " + std::to_string(ptxas) + " registers (estimate " + std::to_string(estimate) + ", " +
         difference + ")";
}

json verifyCommand(const std::string& function) {
  return {{"command", "ptxls.server.verifyRegisters"}, {"arguments", {kUri, function}}};
}

}  // namespace

TEST_CASE("The verify lens runs ptxas in the background, then shows its figure beside the estimate until an edit",
          "[codelens][server][ptxas]") {
  StandInPtxas ptxas;
  ptx::test::TestClient client(oracle::findPtxas);
  client.initialize({{"workspace", {{"codeLens", {{"refreshSupport", true}}}}}});
  client.open(kUri, kText);

  // Each function: its register lens, then its verify lens on the same name.
  json lenses = lensesOf(client, 2);
  REQUIRE(lenses.size() == 4);
  for (std::size_t i : {1, 3}) {
    INFO("lens " << i);
    CHECK(lenses[i]["range"] == lenses[i - 1]["range"]);
    CHECK(lenses[i]["command"]["title"] == "verify with ptxas");
    CHECK(lenses[i]["command"]["command"] == "ptxls.server.verifyRegisters");
  }
  CHECK(lenses[3]["command"]["arguments"] == json::array({kUri, "kernel"}));
  std::uint32_t twiceEstimate = estimateIn(lenses[0]);
  std::uint32_t kernelEstimate = estimateIn(lenses[2]);

  // The command is queued, not run on the reading thread: lenses asked for meanwhile are answered
  // at once and say it is running (the stand-in takes a second).
  client.request(3, "workspace/executeCommand", verifyCommand("kernel"));
  client.request(4, "textDocument/codeLens", {{"textDocument", {{"uri", kUri}}}});
  {
    std::lock_guard lock(client.mutex);
    auto running = std::find_if(client.received.begin(), client.received.end(),
                                [](const json& m) { return m.contains("id") && m["id"] == 4; });
    REQUIRE(running != client.received.end());
    CHECK((*running)["result"][3]["command"]["title"] == "ptxas -v: running\u2026");
    CHECK(std::none_of(client.received.begin(), client.received.end(),
                       [](const json& m) { return m.contains("id") && m["id"] == 3; }));
  }
  client.reply(4);

  // Done: the command's answer carries the figures, and the client is asked to refresh its lenses.
  json answer = client.reply(3)["result"];
  CHECK(answer["version"] == 1);
  CHECK(answer["target"] == "sm_80");
  CHECK(answer["error"].is_null());
  CHECK(answer["functions"] == json::parse(R"([
      {"name": "kernel", "registers": 40, "spillStores": 0, "spillLoads": 0},
      {"name": "twice", "registers": 10, "spillStores": 0, "spillLoads": 0}])"));
  CHECK(client.takeAll([](const json& m) { return m.value("method", "") == "workspace/codeLens/refresh"; }).size() == 1);
  // ptxas was run with an argument vector for the module's target.
  std::string arguments;
  std::getline(std::ifstream(ptxas.arguments), arguments);
  CHECK_THAT(arguments, Catch::StartsWith("-v --gpu-name sm_80 -o /dev/null "));

  lenses = lensesOf(client, 5);
  REQUIRE(lenses.size() == 4);
  CHECK(lenses[1]["command"]["title"] == expectedTitle(10, twiceEstimate));
  CHECK(lenses[3]["command"]["title"] == expectedTitle(40, kernelEstimate));

  // Asking again for the same text is answered at once from the stored result, without a run.
  client.request(6, "workspace/executeCommand", verifyCommand("kernel"));
  CHECK(client.reply(6)["result"] == answer);
  CHECK(client.takeAll([](const json& m) { return m.value("method", "") == "workspace/codeLens/refresh"; }).empty());

  // An edit makes the result stale: the lenses offer a new run.
  client.notify("textDocument/didChange",
                {{"textDocument", {{"uri", kUri}, {"version", 2}}}, {"contentChanges", {{{"text", kText + "\n"}}}}});
  lenses = lensesOf(client, 7);
  REQUIRE(lenses.size() == 4);
  CHECK(lenses[1]["command"]["title"] == "verify with ptxas");
  CHECK(lenses[3]["command"]["title"] == "verify with ptxas");
}

TEST_CASE("The verify lens runs ptxas for the target the settings choose", "[codelens][server][ptxas]") {
  StandInPtxas ptxas;
  ptx::test::TestClient client(oracle::findPtxas);
  client.initialize(json::object(), {{"target", "sm_90a"}});
  client.open(kUri, kText);
  client.server.waitIdle();  // The command runs on the newest analysis.
  client.request(2, "workspace/executeCommand", verifyCommand("kernel"));
  CHECK(client.reply(2)["result"]["target"] == "sm_90a");
  std::string arguments;
  std::getline(std::ifstream(ptxas.arguments), arguments);
  CHECK_THAT(arguments, Catch::StartsWith("-v --gpu-name sm_90a "));
  // A client that cannot refresh code lenses is not asked to.
  CHECK(client.takeAll([](const json& m) { return m.value("method", "") == "workspace/codeLens/refresh"; }).empty());
}

TEST_CASE("With registers.verifyWithPtxas, each full analysis of the newest version runs ptxas without a click",
          "[codelens][server][ptxas]") {
  StandInPtxas ptxas;
  ptx::test::TestClient client(oracle::findPtxas);
  client.initialize({{"workspace", {{"codeLens", {{"refreshSupport", true}}}}}},
                    {{"registers", {{"verifyWithPtxas", true}}}});
  auto refreshes = [&] {
    return client.takeAll([](const json& m) { return m.value("method", "") == "workspace/codeLens/refresh"; }).size();
  };

  // Opening the document: after its analysis, one run (on the verifier thread; waitIdle waits
  // for it), then the client is asked to refresh its lenses, which show ptxas's figures.
  client.open(kUri, kText);
  client.server.waitIdle();
  CHECK(ptxas.runCount() == 1);
  CHECK(refreshes() == 1);
  json lenses = lensesOf(client, 2);
  REQUIRE(lenses.size() == 4);
  CHECK(lenses[1]["command"]["title"] == expectedTitle(10, estimateIn(lenses[0])));
  CHECK(lenses[3]["command"]["title"] == expectedTitle(40, estimateIn(lenses[2])));
  // The command reads the stored result at once: no second run.
  client.request(3, "workspace/executeCommand", verifyCommand("kernel"));
  CHECK(client.reply(3)["result"]["version"] == 1);
  CHECK(ptxas.runCount() == 1);
  CHECK(refreshes() == 0);

  // An edit inside a function (analyzed incrementally first, then in full): ptxas runs once more,
  // for the new version.
  std::string edited = kText;
  edited.replace(edited.find("add.s32 r, a, a;"), 16, "add.s32 r, a, 1;");
  client.notify("textDocument/didChange",
                {{"textDocument", {{"uri", kUri}, {"version", 2}}}, {"contentChanges", {{{"text", edited}}}}});
  client.server.waitIdle();
  CHECK(ptxas.runCount() == 2);
  CHECK(refreshes() == 1);
  client.request(4, "workspace/executeCommand", verifyCommand("kernel"));
  CHECK(client.reply(4)["result"]["version"] == 2);
  lenses = lensesOf(client, 5);
  REQUIRE(lenses.size() == 4);
  CHECK(lenses[3]["command"]["title"] == expectedTitle(40, estimateIn(lenses[2])));
  CHECK(ptxas.runCount() == 2);
}

TEST_CASE("Without registers.verifyWithPtxas, ptxas runs only when the command asks", "[codelens][server][ptxas]") {
  StandInPtxas ptxas;
  ptx::test::TestClient client(oracle::findPtxas);
  client.initialize({{"workspace", {{"codeLens", {{"refreshSupport", true}}}}}});
  client.open(kUri, kText);
  client.server.waitIdle();
  CHECK(ptxas.runCount() == 0);
  CHECK(client.takeAll([](const json& m) { return m.value("method", "") == "workspace/codeLens/refresh"; }).empty());
  json lenses = lensesOf(client, 2);
  REQUIRE(lenses.size() == 4);
  CHECK(lenses[3]["command"]["title"] == "verify with ptxas");
  client.request(3, "workspace/executeCommand", verifyCommand("kernel"));
  CHECK(client.reply(3)["result"]["version"] == 1);
  CHECK(ptxas.runCount() == 1);
}

TEST_CASE("Without ptxas there is no verify lens, and the command says why", "[codelens][server][ptxas]") {
  // The default TestClient finds no ptxas, whatever this machine has installed.
  ptx::test::TestClient client;
  client.request(1, "initialize", {{"capabilities", json::object()}});
  json commands = client.reply(1)["result"]["capabilities"]["executeCommandProvider"]["commands"];
  CHECK(std::find(commands.begin(), commands.end(), "ptxls.server.verifyRegisters") != commands.end());
  client.notify("initialized", json::object());
  client.open(kUri, kText);
  json lenses = lensesOf(client, 2);
  REQUIRE(lenses.size() == 2);
  for (const json& lens : lenses) CHECK(lens["command"]["command"] == "ptxls.showRegisterReport");
  client.request(3, "workspace/executeCommand", verifyCommand("kernel"));
  json reply = client.reply(3);
  REQUIRE(reply.contains("error"));
  CHECK(reply["error"]["code"] == -32803);
  CHECK_THAT(reply["error"]["message"].get<std::string>(), Catch::Contains("ptxas was not found"));
}

TEST_CASE("A verify lens title gives ptxas's figure and the estimate's difference from it", "[codelens]") {
  CHECK(verifyLensTitle("k", 72, {true, false, nullptr}) == "verify with ptxas");
  CHECK(verifyLensTitle("k", 72, {true, true, nullptr}) == "ptxas -v: running\u2026");
  oracle::PtxasResult result;
  result.ran = true;
  result.functions["k"].registers = 64;
  CHECK(verifyLensTitle("k", 72, {true, false, &result}) == "ptxas -v: 64 registers (estimate 72, +8)");
  CHECK(verifyLensTitle("k", 60, {true, false, &result}) == "ptxas -v: 64 registers (estimate 60, -4)");
  CHECK(verifyLensTitle("k", 64, {true, false, &result}) == "ptxas -v: 64 registers (estimate 64, exact)");
  CHECK(verifyLensTitle("other", 64, {true, false, &result}) == "ptxas -v: no figure for this function");
  result.functions["k"].spillStores = 16;
  result.functions["k"].spillLoads = 8;
  CHECK(verifyLensTitle("k", 64, {true, false, &result}) ==
        "ptxas -v: 64 registers (estimate 64, exact) \u00b7 spills 16 B stored, 8 B loaded");
  oracle::PtxasResult rejected;
  rejected.ran = true;
  rejected.error = "ptxas rejected the file: <input>, line 3; error   : bad";
  CHECK(verifyLensTitle("k", 64, {true, false, &rejected}) == "ptxas -v: ptxas rejected the file: <input>, line 3; error   : bad");
}
