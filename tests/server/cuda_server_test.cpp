// The server on CUDA documents, through JSON-RPC as an editor beside clangd drives it:
// diagnostics of the inline PTX at the right characters and updated by edits inside asm strings,
// hover, completion, definition and semantic tokens inside templates, null or nothing anywhere
// else, the device passes from settings and compile_commands.json, and bad input.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "CudaDocument.h"
#include "TestClient.h"

using nlohmann::json;
using namespace ptx;

namespace {

using Client = ptx::test::TestClient;

const std::string kUri = "file:///work/stage.cu";

// Line 3 (0-based) holds the misspelt modifier `.glbal` at characters 34 to 40.
const std::string kStage =
    "#include <cstdint>\n"
    "__device__ __forceinline__ void cp_async_cg_16(void* smem_ptr, const void* gmem_ptr) {\n"
    "  const uint32_t smem = static_cast<uint32_t>(__cvta_generic_to_shared(smem_ptr));\n"
    "  asm volatile(\"cp.async.cg.shared.glbal [%0], [%1], 16;\\n\" ::\"r\"(smem), \"l\"(gmem_ptr));\n"
    "}\n"
    "__device__ __forceinline__ void spin(unsigned bar) {\n"
    "  asm volatile(\"{\\n\\t.reg .pred done;\\n\"\n"
    "               \"WAIT_%=:\\n\\t\"\n"
    "               \"mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\\n\\t\"\n"
    "               \"@!done bra.uni WAIT_%=;\\n}\" ::\"r\"(bar) : \"memory\");\n"
    "}\n";

void openCuda(Client& client, const std::string& uri, const std::string& text, const std::string& languageId = "cuda-cpp") {
  client.notify("textDocument/didOpen",
                {{"textDocument", {{"uri", uri}, {"languageId", languageId}, {"version", 1}, {"text", text}}}});
}

json at(const std::string& uri, int line, int character) {
  return {{"textDocument", {{"uri", uri}}}, {"position", {{"line", line}, {"character", character}}}};
}

json lastDiagnostics(Client& client, const std::string& uri) {
  std::vector<json> published = client.published(uri);
  REQUIRE(!published.empty());
  return published.back()["params"];
}

json change(const std::string& uri, int version, int line, int from, int to, const std::string& text) {
  return {{"textDocument", {{"uri", uri}, {"version", version}}},
          {"contentChanges",
           {{{"range", {{"start", {{"line", line}, {"character", from}}}, {"end", {{"line", line}, {"character", to}}}}},
             {"text", text}}}}};
}

}  // namespace

TEST_CASE("A CUDA document gets its inline PTX's diagnostics at the characters, updated by edits", "[server][cuda]") {
  Client client;
  client.initialize();
  openCuda(client, kUri, kStage);
  json published = lastDiagnostics(client, kUri);
  CHECK(published["version"] == 1);
  REQUIRE(published["diagnostics"].size() == 1);
  json diagnostic = published["diagnostics"][0];
  CHECK(diagnostic["code"] == "ISA004");
  CHECK(diagnostic["source"] == "ptxls");
  CHECK(diagnostic["range"]["start"] == json({{"line", 3}, {"character", 34}}));
  CHECK(diagnostic["range"]["end"] == json({{"line", 3}, {"character", 40}}));

  // Fix the typo inside the asm string: the diagnostics of version 2 are empty.
  client.notify("textDocument/didChange", change(kUri, 2, 3, 37, 37, "o"));
  published = lastDiagnostics(client, kUri);
  CHECK(published["version"] == 2);
  CHECK(published["diagnostics"].empty());

  // Misspell the second statement's state space: the modifier is unknown on line 8, and the
  // 32-bit operand is now a generic address.
  client.notify("textDocument/didChange", change(kUri, 3, 8, 40, 47, ".shard"));
  published = lastDiagnostics(client, kUri);
  CHECK(published["version"] == 3);
  REQUIRE(published["diagnostics"].size() == 2);
  CHECK(published["diagnostics"][0]["code"] == "ISA004");
  CHECK(published["diagnostics"][0]["range"]["start"] == json({{"line", 8}, {"character", 40}}));
  CHECK(published["diagnostics"][1]["code"] == "ASM005");

  // A quick fix comes with the diagnostic where one is known.
  client.request(4, "textDocument/codeAction",
                 {{"textDocument", {{"uri", kUri}}},
                  {"range", published["diagnostics"][0]["range"]},
                  {"context", {{"diagnostics", json::array()}}}});
  CHECK(client.reply(4)["result"].is_array());
}

TEST_CASE("CUDA hover, definition, completion and tokens answer inside asm strings only", "[server][cuda]") {
  Client client;
  client.initialize();
  openCuda(client, kUri, kStage);
  client.takeAll([](const json&) { return true; });

  client.request(2, "textDocument/hover", at(kUri, 8, 20));  // mbarrier
  json hover = client.reply(2)["result"];
  REQUIRE(hover.is_object());
  CHECK(hover["contents"]["value"].get<std::string>().find("**mbarrier**") != std::string::npos);
  CHECK(hover["range"]["start"] == json({{"line", 8}, {"character", 16}}));

  client.request(3, "textDocument/hover", at(kUri, 3, 43));  // %0 of the cp.async
  hover = client.reply(3)["result"];
  REQUIRE(hover.is_object());
  std::string operand = hover["contents"]["value"].get<std::string>();
  CHECK(operand.find("input operand 0 of 2") != std::string::npos);
  CHECK(operand.find("\"r\"(smem)") != std::string::npos);

  // The label WAIT_%= used by bra is declared on line 7.
  client.request(4, "textDocument/definition", at(kUri, 9, 32));
  json definition = client.reply(4)["result"];
  REQUIRE(definition.is_object());
  CHECK(definition["uri"] == kUri);
  CHECK(definition["range"]["start"] == json({{"line", 7}, {"character", 16}}));

  client.request(5, "textDocument/completion", at(kUri, 3, 43));  // after the '%' of [%0]
  json items = client.reply(5)["result"]["items"];
  bool operandOffered = false;
  for (const json& item : items) {
    if (item["label"] == "%1") {
      operandOffered = true;
      CHECK(item["detail"] == "\"l\"(gmem_ptr): input, .b64");
      CHECK(item["textEdit"]["range"]["start"] == json({{"line", 3}, {"character", 42}}));
    }
  }
  CHECK(operandOffered);

  // Semantic tokens: every one inside the template literals of lines 3 and 6 to 9.
  client.request(6, "textDocument/semanticTokens/full", {{"textDocument", {{"uri", kUri}}}});
  json data = client.reply(6)["result"]["data"];
  REQUIRE(data.size() >= 5 * 10);
  int line = 0, character = 0;
  for (std::size_t k = 0; k + 4 < data.size(); k += 5) {
    int deltaLine = data[k].get<int>();
    line += deltaLine;
    character = deltaLine == 0 ? character + data[k + 1].get<int>() : data[k + 1].get<int>();
    CHECK((line == 3 || (line >= 6 && line <= 9)));
    CHECK(character >= 16);
  }

  // Outside every template: null, or nothing. C++ is clangd's.
  client.request(7, "textDocument/hover", at(kUri, 2, 10));
  CHECK(client.reply(7)["result"].is_null());
  client.request(8, "textDocument/definition", at(kUri, 5, 34));
  CHECK(client.reply(8)["result"].is_null());
  client.request(9, "textDocument/completion", at(kUri, 4, 1));
  CHECK(client.reply(9)["result"]["items"].empty());
  client.request(10, "textDocument/documentSymbol", {{"textDocument", {{"uri", kUri}}}});
  CHECK(client.reply(10)["result"] == json::array());
  client.request(11, "textDocument/formatting", {{"textDocument", {{"uri", kUri}}}, {"options", {{"tabSize", 2}}}});
  CHECK(client.reply(11)["result"].is_null());
  client.request(12, "textDocument/foldingRange", {{"textDocument", {{"uri", kUri}}}});
  CHECK(client.reply(12)["result"] == json::array());
  client.request(13, "textDocument/codeLens", {{"textDocument", {{"uri", kUri}}}});
  CHECK(client.reply(13)["result"] == json::array());
}

TEST_CASE("CUDA documents are told from PTX by languageId, then by extension", "[server][cuda]") {
  CHECK(lsp::isCudaDocument("cuda-cpp", "file:///a/k.txt"));
  CHECK(lsp::isCudaDocument("cuda", "untitled:1"));
  CHECK(lsp::isCudaDocument("cpp", "file:///a/k.hpp"));
  CHECK_FALSE(lsp::isCudaDocument("ptx", "file:///a/k.cu"));
  CHECK(lsp::isCudaDocument("", "file:///a/k.cuh"));
  CHECK(lsp::isCudaDocument("plaintext", "file:///a/k.cu?x=1"));
  CHECK_FALSE(lsp::isCudaDocument("plaintext", "file:///a/k.ptx"));

  // A .ptx opened as PTX still gets the PTX features beside a CUDA document.
  Client client;
  client.initialize();
  openCuda(client, kUri, kStage);
  client.notify("textDocument/didOpen",
                {{"textDocument",
                  {{"uri", "file:///work/k.ptx"}, {"languageId", "ptx"}, {"version", 1},
                   {"text", ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n"}}}});
  client.request(2, "textDocument/documentSymbol", {{"textDocument", {{"uri", "file:///work/k.ptx"}}}});
  CHECK(client.reply(2)["result"].size() == 1);
}

TEST_CASE("CUDA passes come from the cuda.arch setting, then compile_commands.json", "[server][cuda]") {
  const std::string wgmma =
      "__global__ void k() { asm volatile(\"wgmma.fence.sync.aligned;\\n\" ::: \"memory\"); }\n";
  auto messageOf = [](Client& client, const std::string& uri) {
    json params = lastDiagnostics(client, uri);
    REQUIRE(params["diagnostics"].size() == 1);
    return params["diagnostics"][0]["message"].get<std::string>();
  };
  SECTION("the setting") {
    Client client;
    client.initialize(json::object(), {{"cuda", {{"arch", {"sm_90a"}}}}});
    openCuda(client, "file:///nowhere/k.cu", wgmma);
    CHECK(messageOf(client, "file:///nowhere/k.cu").find("compute_90 from cuda.arch sm_90a") != std::string::npos);
  }
  SECTION("the compilation database, read once and again when it changes") {
    auto folder = std::filesystem::temp_directory_path() / ("ptxls-cuda-" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder);
    auto writeDatabase = [&](const std::string& arch) {
      std::ofstream(folder / "compile_commands.json")
          << json::array({{{"directory", folder.string()},
                           {"file", (folder / "k.cu").string()},
                           {"arguments", {"nvcc", "-arch=" + arch, "-c", "k.cu"}}}})
                 .dump();
    };
    writeDatabase("sm_90a");
    std::string uri = "file://" + (folder / "k.cu").string();
    Client client;
    client.initialize();
    openCuda(client, uri, wgmma);
    CHECK(messageOf(client, uri).find("compute_90 from -arch=sm_90a") != std::string::npos);
    // Rewritten (and dated later, whatever the file system's clock resolution): read again.
    auto written = std::filesystem::last_write_time(folder / "compile_commands.json");
    writeDatabase("sm_80");
    std::filesystem::last_write_time(folder / "compile_commands.json", written + std::chrono::hours(1));
    client.notify("workspace/didChangeConfiguration", {{"settings", json::object()}});
    CHECK(messageOf(client, uri).find("compute_80 from -arch=sm_80") != std::string::npos);
    std::filesystem::remove_all(folder);
  }
}

TEST_CASE("CUDA bad input gets a clear result, never a crash or a hang", "[server][cuda][robustness]") {
  Client client;
  client.initialize();
  // The diagnostics published for the text, and the hover at a position.
  auto openAndHover = [&](const std::string& uri, const std::string& text, int line, int character) {
    openCuda(client, uri, text);
    client.request(99, "textDocument/hover", at(uri, line, character));
    json hover = client.reply(99)["result"];
    return std::make_pair(lastDiagnostics(client, uri)["diagnostics"], hover);
  };
  SECTION("a binary file: one diagnostic") {
    std::string binary("\x7f" "ELF\0\0\0asm(\"", 12);
    auto [diagnostics, hover] = openAndHover("file:///b/binary.cu", binary, 0, 3);
    REQUIRE(diagnostics.size() == 1);
    CHECK(diagnostics[0]["code"] == "SYN006");
    CHECK(hover.is_null());
  }
  SECTION("unterminated strings and raw strings, unbalanced parentheses") {
    auto [unterminated, inside] = openAndHover("file:///b/unterminated.cu", "__device__ void f() { asm(\"add.u32 %0, 1;\n}\n", 0, 30);
    REQUIRE(unterminated.size() == 1);
    CHECK(unterminated[0]["code"] == "ASM012");  // Not checked, and the note says why.
    CHECK(inside.is_null());
    for (const char* text : {"__device__ void f() { asm(R\"(add.u32 %0, 1;\n}\n",
                             "__device__ void f() { asm(\"trap;\" ::: (((\"memory\"); }\n((((\n",
                             "))))) asm(\"trap;\")) }}} asm(\n"}) {
      auto [diagnostics, hover] = openAndHover("file:///b/broken.cu", text, 0, 28);
      CHECK(diagnostics.empty());
      CHECK(hover.is_null());
    }
  }
  SECTION("10,000 asm statements in one file") {
    std::string text = "__device__ void f(unsigned* p) {\n";
    for (int k = 0; k < 10000; ++k)
      text += "  asm volatile(\"st.global.u32 [%0], %1;\" :: \"l\"(p), \"r\"(" + std::to_string(k) + ") : \"memory\");\n";
    text += "}\n";
    auto start = std::chrono::steady_clock::now();
    auto [diagnostics, hover] = openAndHover("file:///b/many.cu", text, 5000, 18);
    CHECK(diagnostics.empty());
    REQUIRE(hover.is_object());
    CHECK(hover["range"]["start"] == json({{"line", 5000}, {"character", 18}}));  // .global
    client.request(100, "textDocument/semanticTokens/full", {{"textDocument", {{"uri", "file:///b/many.cu"}}}});
    CHECK(client.reply(100)["result"]["data"].size() >= 10000 * 5);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(60));
  }
  SECTION("a 2 MB template") {
    std::string text = "__device__ void f() {\n  asm volatile(\"{ .reg .b32 r1;\\n\\t\"\n";
    while (text.size() < (std::size_t{2} << 20)) text += "      \"add.u32 r1, r1, 1;\\n\\t\"\n";
    text += "      \"}\" :::\"memory\");\n}\n";
    auto [diagnostics, hover] = openAndHover("file:///b/huge.cu", text, 1000, 8);
    CHECK(diagnostics.empty());
    REQUIRE(hover.is_object());
    CHECK(hover["contents"]["value"].get<std::string>().find("**add**") != std::string::npos);
  }
}
