// The server's exact mode (setting cuda.exactMode): only the client's settings turn it on (a
// workspace .ptxls.json cannot make the editor run nvcc); when on, a saved CUDA document is
// compiled on open and on save, ptxas's errors arrive with its inline-asm diagnostics at the asm
// line, each kernel gets a lens with ptxas -v's figure, and an edit makes them stale until the
// next save.
//
// nvcc is a stand-in here (found through $NVCC, with a stand-in ptxas beside it, which exact mode
// prefers): it writes a small PTX whose `.loc` points at the asm line of the case, and ptxas
// rejects that PTX when the source holds the defect (the generic mbarrier.init of
// tests/cuda/cases/asm005_mbarrier_init_generic.cu) and reports 18 registers otherwise. One test
// runs the real nvcc, and says "skipped: nvcc not installed" without it.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>

#include "NvccRunner.h"
#include "Settings.h"
#include "TestClient.h"
#include "features/CudaKernelLenses.h"

using nlohmann::json;
using namespace ptx;
namespace fs = std::filesystem;

namespace {

using Client = ptx::test::TestClient;

std::string readAll(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const fs::path kCases = fs::path(PTXLS_SOURCE_DIR) / "tests" / "cuda" / "cases";
const std::string kBroken = readAll(kCases / "asm005_mbarrier_init_generic.cu");
const std::string kFixed = readAll(kCases / "ok_asm005_mbarrier_init_generic.cu");
constexpr int kAsmLine = 12;  // 0-based: the `asm volatile("mbarrier.init...` line of both.

// A folder with the case as k.cu and, unless `real`, the stand-in nvcc and ptxas, named by $NVCC
// while this lives (the previous value is restored after).
struct ExactFolder {
  fs::path folder = fs::temp_directory_path() / ("ptxls-exact-" + std::to_string(::getpid()));
  fs::path cu = folder / "k.cu";
  fs::path runs = folder / "nvcc-runs";  // A line per nvcc run.
  std::string uri = "file://" + cu.string();
  std::optional<std::string> previous;
  bool replaced = false;

  explicit ExactFolder(const std::string& text, bool real = false) {
    fs::remove_all(folder);
    fs::create_directories(folder / "bin");
    std::ofstream(cu) << text;
    if (real) return;
    fs::path nvcc = folder / "bin" / "nvcc", ptxas = folder / "bin" / "ptxas";
    // nvcc -ptx -lineinfo ... -gencode arch=A,code=A -o OUT FILE.cu
    std::ofstream(nvcc) << "#!/bin/sh\n"
                        << "echo run >> '" << runs.string() << "'\n"
                        << "out=''; prev=''; for a in \"$@\"; do [ \"$prev\" = -o ] && out=\"$a\"; prev=\"$a\"; src=\"$a\"; done\n"
                        << "op='mbarrier.init.shared::cta.b64'\n"
                        << "grep -q 'mbarrier.init.b64' \"$src\" && op='mbarrier.init.b64'\n"
                        << "cat > \"$out\" <<EOF\n"
                        << ".version 8.0\n.target sm_90\n.address_size 64\n"
                        << "\t.file\t1 \"$src\"\n"
                        << ".visible .entry _Z17barrier_roundtripPj(\n\t.param .u64 p\n)\n{\n"
                        << "\t.reg .b32 %r<3>;\n"
                        << "\t.loc\t1 13 3\n"
                        << "\t// begin inline asm\n"
                        << "\t$op [%r1], %r2;\n"
                        << "\t// end inline asm\n"
                        << "\tret;\n}\nEOF\n";
    // ptxas -v --gpu-name T -o /dev/null FILE.ptx
    std::ofstream(ptxas) << "#!/bin/sh\n"
                         << "for a in \"$@\"; do ptx=\"$a\"; done\n"
                         << "if grep -q 'mbarrier.init.b64' \"$ptx\"; then\n"
                         << "  echo \"ptxas $ptx, line 11; error   : 32-bit address in a 64-bit module\"\n"
                         << "  exit 255\nfi\n"
                         << "echo 'ptxas info    : Compiling entry function _Z17barrier_roundtripPj'\n"
                         << "echo 'ptxas info    : Function properties for _Z17barrier_roundtripPj'\n"
                         << "echo '    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads'\n"
                         << "echo 'ptxas info    : Used 18 registers, 360 bytes cmem[0]'\n";
    ::chmod(nvcc.c_str(), 0755);
    ::chmod(ptxas.c_str(), 0755);
    if (const char* value = std::getenv("NVCC")) previous = value;
    ::setenv("NVCC", nvcc.c_str(), 1);
    replaced = true;
  }
  int nvccRuns() const {
    std::ifstream in(runs);
    int count = 0;
    for (std::string line; std::getline(in, line);) ++count;
    return count;
  }
  ~ExactFolder() {
    if (replaced && previous) ::setenv("NVCC", previous->c_str(), 1);
    if (replaced && !previous) ::unsetenv("NVCC");
    std::error_code error;
    fs::remove_all(folder, error);
  }
};

void open(Client& client, const std::string& uri, const std::string& text) {
  client.notify("textDocument/didOpen",
                {{"textDocument", {{"uri", uri}, {"languageId", "cuda-cpp"}, {"version", 1}, {"text", text}}}});
}

void save(Client& client, const std::string& uri) {
  client.notify("textDocument/didSave", {{"textDocument", {{"uri", uri}}}});
}

// The diagnostics last published for `uri`.
json lastDiagnostics(Client& client, const std::string& uri) {
  std::vector<json> published = client.published(uri);
  REQUIRE(!published.empty());
  return published.back()["params"]["diagnostics"];
}

int countCode(const json& diagnostics, const std::string& code) {
  int count = 0;
  for (const json& diagnostic : diagnostics) count += diagnostic["code"] == code;
  return count;
}

json lenses(Client& client, const std::string& uri, int id) {
  client.request(id, "textDocument/codeLens", {{"textDocument", {{"uri", uri}}}});
  return client.reply(id)["result"];
}

int lineOf(const std::string& text, const std::string& needle) {
  std::size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

const json kArch = {{"arch", {"sm_90"}}};

}  // namespace

TEST_CASE("cuda.exactMode is read from client settings and never from a project file", "[server][cuda][exact][settings]") {
  config::Settings client;
  CHECK_FALSE(client.cudaExactMode);
  CHECK(config::mergeSettings(client, json{{"cuda", {{"exactMode", true}}}}).empty());
  CHECK(client.cudaExactMode);
  CHECK(!config::mergeSettings(client, json{{"cuda", {{"exactMode", "yes"}}}}).empty());  // Not a boolean.
  ExactFolder folder("");
  fs::path project = folder.folder / ".ptxls.json";
  std::ofstream(project) << R"({"cuda": {"exactMode": true, "arch": ["sm_90"]}})";
  config::ProjectSettings loaded = config::loadProjectFile(project);
  CHECK_FALSE(loaded.settings.cudaExactMode);
  CHECK(loaded.settings.cudaArch == std::vector<std::string>{"sm_90"});  // The rest of the file applies.
  REQUIRE(loaded.problems.size() == 1);
  CHECK(loaded.problems[0].find("'cuda.exactMode' is ignored in a project file") != std::string::npos);
  // Nor can it turn off what the user turned on.
  std::ofstream(project) << R"({"cuda": {"exactMode": false}})";
  CHECK(config::loadProjectFile(project, client).settings.cudaExactMode);
}

TEST_CASE("Kernels are matched to ptxas's mangled names by their simple name", "[server][cuda][exact]") {
  CHECK(lsp::simpleFunctionName("_Z17barrier_roundtripPj") == "barrier_roundtrip");
  CHECK(lsp::simpleFunctionName("_ZN2ns1kIiEEvPT_") == "k");  // void ns::k<int>(int*)
  CHECK(lsp::simpleFunctionName("_ZN12_GLOBAL__N_16kernelEPf") == "kernel");  // (anonymous namespace)::kernel(float*)
  CHECK(lsp::simpleFunctionName("my_kernel") == "my_kernel");  // extern "C"
}

TEST_CASE("Exact mode is off by default and nvcc never runs", "[server][cuda][exact]") {
  ExactFolder exact(kBroken);
  Client client;
  client.initialize({}, {{"cuda", kArch}});
  open(client, exact.uri, kBroken);
  save(client, exact.uri);
  json diagnostics = lastDiagnostics(client, exact.uri);
  CHECK(countCode(diagnostics, "ASM005") == 1);  // The inline-asm lint still runs.
  CHECK(countCode(diagnostics, "NVC002") == 0);
  CHECK(lenses(client, exact.uri, 2).empty());
  CHECK(exact.nvccRuns() == 0);
}

TEST_CASE("A workspace .ptxls.json cannot turn exact mode on", "[server][cuda][exact]") {
  ExactFolder exact(kBroken);
  std::ofstream(exact.folder / ".ptxls.json") << R"({"cuda": {"arch": ["sm_90"], "exactMode": true}})";
  Client client;
  client.initialize();
  open(client, exact.uri, kBroken);
  save(client, exact.uri);
  CHECK(countCode(lastDiagnostics(client, exact.uri), "NVC002") == 0);
  CHECK(lenses(client, exact.uri, 2).empty());
  CHECK(exact.nvccRuns() == 0);
  // The user is told why.
  auto logs = client.takeAll([](const json& m) {
    return m.value("method", "") == "window/logMessage" &&
           m["params"]["message"].get<std::string>().find("'cuda.exactMode' is ignored in a project file") != std::string::npos;
  });
  CHECK(!logs.empty());
}

TEST_CASE("Exact mode from the client reports ptxas's error at the asm line on open", "[server][cuda][exact]") {
  ExactFolder exact(kBroken);
  Client client;
  client.initialize({}, {{"cuda", {{"arch", {"sm_90"}}, {"exactMode", true}}}});
  open(client, exact.uri, kBroken);
  json diagnostics = lastDiagnostics(client, exact.uri);
  CHECK(exact.nvccRuns() == 1);
  REQUIRE(countCode(diagnostics, "NVC002") == 1);
  CHECK(countCode(diagnostics, "ASM005") == 1);  // Merged with the inline-asm diagnostics.
  for (const json& diagnostic : diagnostics) {
    if (diagnostic["code"] != "NVC002") continue;
    CHECK(diagnostic["range"]["start"]["line"] == kAsmLine);
    CHECK(diagnostic["message"].get<std::string>().find("ptxas (compute_90") == 0);
    CHECK(diagnostic["message"].get<std::string>().find("32-bit address") != std::string::npos);
  }
  CHECK(lenses(client, exact.uri, 2).empty());  // ptxas rejected the PTX: no figures.
}

TEST_CASE("Exact mode's kernel lens shows ptxas's figure until an edit and again after a save", "[server][cuda][exact]") {
  ExactFolder exact(kFixed);
  Client client;
  client.initialize({{"workspace", {{"codeLens", {{"refreshSupport", true}}}}}},
                    {{"cuda", {{"arch", {"sm_90"}}, {"exactMode", true}}}});
  open(client, exact.uri, kFixed);
  // When the run is over the client is asked to refresh its lenses, and asks again.
  auto refreshes = [&] {
    return client.takeAll([](const json& m) { return m.value("method", "") == "workspace/codeLens/refresh"; }).size();
  };
  CHECK(refreshes() == 1);
  json result = lenses(client, exact.uri, 2);
  REQUIRE(result.size() == 1);
  CHECK(result[0]["range"]["start"]["line"] == lineOf(kFixed, "barrier_roundtrip("));
  std::string title = result[0]["command"]["title"];
  CHECK(title.find("ptxas: 18 registers, 0 bytes spill (compute_90") == 0);
  CHECK(countCode(lastDiagnostics(client, exact.uri), "NVC002") == 0);

  // An edit (not saved): the figures are stale, and nvcc does not run.
  client.notify("textDocument/didChange",
                {{"textDocument", {{"uri", exact.uri}, {"version", 2}}},
                 {"contentChanges", {{{"range", {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 0}}}}},
                                      {"text", "// edited\n"}}}}});
  CHECK(lenses(client, exact.uri, 3).empty());
  CHECK(exact.nvccRuns() == 1);

  // Saved: the file holds the text again, and the next run gives the figures back.
  std::ofstream(exact.cu) << "// edited\n" << kFixed;
  save(client, exact.uri);
  CHECK(refreshes() == 1);
  result = lenses(client, exact.uri, 4);
  CHECK(exact.nvccRuns() == 2);
  REQUIRE(result.size() == 1);
  CHECK(result[0]["range"]["start"]["line"] == lineOf(kFixed, "barrier_roundtrip(") + 1);
}

TEST_CASE("Turning exact mode on in the client's settings runs it without a save", "[server][cuda][exact]") {
  ExactFolder exact(kBroken);
  Client client;
  client.initialize({}, {{"cuda", kArch}});
  open(client, exact.uri, kBroken);
  CHECK(countCode(lastDiagnostics(client, exact.uri), "NVC002") == 0);
  client.notify("workspace/didChangeConfiguration",
                {{"settings", {{"ptxls", {{"cuda", {{"arch", {"sm_90"}}, {"exactMode", true}}}}}}}});
  CHECK(countCode(lastDiagnostics(client, exact.uri), "NVC002") == 1);
  CHECK(exact.nvccRuns() == 1);
  // Turned off again: its findings go with the next publication, and saves run nothing.
  client.notify("workspace/didChangeConfiguration",
                {{"settings", {{"ptxls", {{"cuda", {{"arch", {"sm_90"}}, {"exactMode", false}}}}}}}});
  CHECK(countCode(lastDiagnostics(client, exact.uri), "NVC002") == 0);
  save(client, exact.uri);
  client.server.waitIdle();
  CHECK(exact.nvccRuns() == 1);
}

TEST_CASE("Exact mode does not compile a file whose text differs from the editor's", "[server][cuda][exact]") {
  ExactFolder exact(kFixed);
  Client client;
  client.initialize({}, {{"cuda", {{"arch", {"sm_90"}}, {"exactMode", true}}}});
  open(client, exact.uri, "// unsaved\n" + kFixed);
  client.server.waitIdle();
  CHECK(lenses(client, exact.uri, 2).empty());
  CHECK(exact.nvccRuns() == 0);
}

TEST_CASE("Exact mode with the real nvcc reports ptxas's error on the asm line and the fixed twin's figures", "[server][cuda][exact]") {
  if (!oracle::findNvcc()) {
    WARN("skipped: nvcc not installed");
    return;
  }
  {
    ExactFolder exact(kBroken, /*real=*/true);
    Client client;
    client.initialize({}, {{"cuda", {{"arch", {"sm_90"}}, {"exactMode", true}}}});
    open(client, exact.uri, kBroken);
    json diagnostics = lastDiagnostics(client, exact.uri);
    bool onAsmLine = false;
    for (const json& diagnostic : diagnostics)
      onAsmLine = onAsmLine || (diagnostic["code"] == "NVC002" && diagnostic["range"]["start"]["line"] == kAsmLine);
    CHECK(onAsmLine);
  }
  ExactFolder exact(kFixed, /*real=*/true);
  Client client;
  client.initialize({}, {{"cuda", {{"arch", {"sm_90"}}, {"exactMode", true}}}});
  open(client, exact.uri, kFixed);
  CHECK(countCode(lastDiagnostics(client, exact.uri), "NVC002") == 0);
  json result = lenses(client, exact.uri, 2);
  REQUIRE(result.size() == 1);
  CHECK(result[0]["command"]["title"].get<std::string>().find(" registers, 0 bytes spill (compute_90") != std::string::npos);
}
