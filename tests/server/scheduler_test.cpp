// The server's scheduling: debounced and incremental analysis, stale results, deferred
// requests and their cancellation, configuration sources, pull diagnostics.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "Scheduler.h"
#include "TestClient.h"
#include "TestSupport.h"

using nlohmann::json;
using namespace ptx;
using ptx::test::TestClient;

namespace {

json change(const std::string& uri, int version, int line, int from, int to, const std::string& text) {
  return {{"textDocument", {{"uri", uri}, {"version", version}}},
          {"contentChanges",
           {{{"range", {{"start", {{"line", line}, {"character", from}}}, {"end", {{"line", line}, {"character", to}}}}},
             {"text", text}}}}};
}

// A kernel of `count` copies of one instruction (the first on line 7): big enough that
// analyzing it takes a while.
std::string bigKernel(int count) {
  std::string body = "\t.reg .b32 %r<4>;\n";
  for (int i = 0; i < count; ++i) body += "\tadd.s32 %r1, %r2, 1;\n";
  return test::kernel(body);
}

}  // namespace

TEST_CASE("Edits inside a function are re-checked incrementally and published once per version", "[server][scheduler]") {
  TestClient client;
  client.initialize();
  // Line 5 is the `.reg` line of the first kernel, line 6 its first instruction.
  std::string text = test::kernel("\t.reg .b32 %r<4>;\n\tadd.s32 %r1, %r2, 1;\n\tret;\n");
  client.open("file:///k.ptx", text);
  auto first = client.published("file:///k.ptx");
  REQUIRE(first.size() == 1);
  CHECK(first[0]["params"]["diagnostics"].empty());
  // A typo, then its fix: each version is published with its own diagnostics.
  int line = -1;
  for (int l = 0, at = 0; at < static_cast<int>(text.size()); ++l) {
    if (text.compare(at, 9, "\tadd.s32 ") == 0) {
      line = l;
      break;
    }
    at = static_cast<int>(text.find('\n', at)) + 1;
  }
  REQUIRE(line >= 0);
  client.notify("textDocument/didChange", change("file:///k.ptx", 2, line, 1, 4, "adx"));
  auto broken = client.published("file:///k.ptx");
  REQUIRE(!broken.empty());
  CHECK(broken.back()["params"]["version"] == 2);
  REQUIRE(broken.back()["params"]["diagnostics"].size() == 1);
  CHECK(broken.back()["params"]["diagnostics"][0]["code"] == "ISA001");
  client.notify("textDocument/didChange", change("file:///k.ptx", 3, line, 1, 4, "add"));
  auto fixed = client.published("file:///k.ptx");
  REQUIRE(!fixed.empty());
  CHECK(fixed.back()["params"]["version"] == 3);
  CHECK(fixed.back()["params"]["diagnostics"].empty());
}

TEST_CASE("A burst of edits ends with the diagnostics of the final text", "[server][scheduler]") {
  TestClient client;
  client.initialize();
  std::string text = bigKernel(2000);
  client.open("file:///burst.ptx", text);
  client.published("file:///burst.ptx");
  // 200 edits without waiting: type and delete an `x` in an opcode, alternately.
  for (int version = 2; version < 202; ++version) {
    bool insert = version % 2 == 0;
    client.notify("textDocument/didChange", change("file:///burst.ptx", version, 7, 4, insert ? 4 : 5, insert ? "x" : ""));
  }
  client.notify("textDocument/didChange", change("file:///burst.ptx", 202, 7, 1, 4, "sub"));
  auto published = client.published("file:///burst.ptx");
  REQUIRE(!published.empty());
  CHECK(published.back()["params"]["version"] == 202);
  CHECK(published.back()["params"]["diagnostics"].empty());
  // Superseded versions were not all published.
  CHECK(published.size() < 100);
  // The server's text is exactly what the client has: hover on the edited opcode says sub.
  client.request(9, "textDocument/hover",
                 {{"textDocument", {{"uri", "file:///burst.ptx"}}}, {"position", {{"line", 7}, {"character", 2}}}});
  CHECK(client.reply(9)["result"]["contents"]["value"].get<std::string>().find("**sub**") != std::string::npos);
}

TEST_CASE("An edit after a quiet moment is analyzed without waiting for the debounce", "[server][scheduler]") {
  TestClient client;
  client.initialize(json::object(), {{"diagnostics", {{"debounceMs", 5000}}}});
  std::string text = test::kernel("\t.reg .b32 %r<4>;\n\tadd.s32 %r1, %r2, 1;\n\tret;\n");
  client.open("file:///q.ptx", text);
  client.published("file:///q.ptx");
  auto start = std::chrono::steady_clock::now();
  client.notify("textDocument/didChange", change("file:///q.ptx", 2, 0, 0, 0, "// note\n"));
  auto published = client.published("file:///q.ptx");
  auto waited = std::chrono::steady_clock::now() - start;
  REQUIRE(!published.empty());
  CHECK(published.back()["params"]["version"] == 2);
  // A trailing debounce would have held the analysis for the whole 5 s.
  CHECK(waited < std::chrono::milliseconds(4000));
}

TEST_CASE("A request waiting for analysis can be cancelled", "[server][scheduler]") {
  TestClient client;
  // A long debounce keeps the second edit of a burst unanalyzed while the request waits (the
  // first, after a quiet moment, is analyzed at once).
  client.initialize(json::object(), {{"diagnostics", {{"debounceMs", 5000}}}});
  client.open("file:///c.ptx", bigKernel(20000));
  client.published("file:///c.ptx");
  client.notify("textDocument/didChange", change("file:///c.ptx", 2, 7, 1, 4, "mul"));
  client.notify("textDocument/didChange", change("file:///c.ptx", 3, 7, 1, 4, "sub"));
  // References need the whole model: this one waits for the analysis of version 2.
  client.request(7, "textDocument/references",
                 {{"textDocument", {{"uri", "file:///c.ptx"}}},
                  {"position", {{"line", 7}, {"character", 10}}},
                  {"context", {{"includeDeclaration", true}}}});
  client.notify("$/cancelRequest", {{"id", 7}});
  json cancelled = client.reply(7);
  CHECK(cancelled["error"]["code"] == lsp::kRequestCancelled);
  // A request that is not cancelled is answered once the analysis is done.
  client.request(8, "textDocument/hover",
                 {{"textDocument", {{"uri", "file:///c.ptx"}}}, {"position", {{"line", 7}, {"character", 2}}}});
  json answered = client.reply(8);
  CHECK(answered["result"]["contents"]["value"].get<std::string>().find("**sub**") != std::string::npos);
}

TEST_CASE("Rules are configured by initializationOptions, didChangeConfiguration and .ptxls.json", "[server][settings]") {
  std::string text = test::kernel("\t.reg .b32 %r<4>;\n\tadd.s32 %r1, %r2, %r9;\n\tret;\n");
  auto codes = [](const json& notification) {
    std::vector<std::string> result;
    for (const json& d : notification["params"]["diagnostics"]) result.push_back(d["code"].get<std::string>() + ":" + std::to_string(d["severity"].get<int>()));
    return result;
  };
  SECTION("initializationOptions turn a rule into a warning, then didChangeConfiguration turns it off") {
    TestClient client;
    client.initialize(json::object(), {{"rules", {{"undeclared-symbol", "warning"}}}});
    client.open("file:///s.ptx", text);
    CHECK(codes(client.published("file:///s.ptx").back()) == std::vector<std::string>{"SEM001:2"});
    client.notify("workspace/didChangeConfiguration", {{"settings", {{"ptxls", {{"rules", {{"SEM001", "off"}}}}}}}});
    CHECK(client.published("file:///s.ptx").back()["params"]["diagnostics"].empty());
  }
  SECTION("a project file found upward from the document wins") {
    auto folder = std::filesystem::temp_directory_path() / ("ptxls-settings-" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder / "src" / "deep");
    std::ofstream(folder / ".ptxls.json") << R"({"rules": {"SEM001": {"severity": "hint"}}})";
    TestClient client;
    client.initialize(json::object(), {{"rules", {{"SEM001", "warning"}}}});
    std::string uri = "file://";
    uri += (folder / "src" / "deep" / "k.ptx").string();
    client.open(uri, text);
    CHECK(codes(client.published(uri).back()) == std::vector<std::string>{"SEM001:4"});
    std::filesystem::remove_all(folder);
  }
  SECTION("a category sets all its rules; a single rule refines it") {
    TestClient client;
    client.initialize(json::object(), {{"rules", {{"SEM001", "error"}, {"semantic", "hint"}}}});
    client.open("file:///s.ptx", text);
    CHECK(codes(client.published("file:///s.ptx").back()) == std::vector<std::string>{"SEM001:1"});
    client.notify("workspace/didChangeConfiguration", {{"settings", {{"rules", {{"semantic", "off"}}}}}});
    CHECK(client.published("file:///s.ptx").back()["params"]["diagnostics"].empty());
  }
  SECTION("bad settings are reported, not fatal") {
    TestClient client;
    client.initialize(json::object(), {{"rules", {{"no-such-rule", "off"}}}, {"bogus", 1}});
    auto logs = client.takeAll([](const json& m) { return m.value("method", "") == "window/logMessage"; });
    CHECK(logs.size() == 2);
    client.open("file:///s.ptx", text);
    CHECK(codes(client.published("file:///s.ptx").back()) == std::vector<std::string>{"SEM001:1"});
  }
}

TEST_CASE("A target override checks instructions against another target", "[server][settings]") {
  // add.bf16 needs sm_90; the module says sm_80.
  std::string text = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
                     "\t.reg .b16 %h<4>;\n\tadd.bf16 %h1, %h2, %h3;\n\tret;\n}\n";
  TestClient client;
  client.initialize(json::object(), {{"target", "sm_90"}});
  client.open("file:///t.ptx", text);
  CHECK(client.published("file:///t.ptx").back()["params"]["diagnostics"].empty());
  client.notify("workspace/didChangeConfiguration", {{"settings", {{"target", nullptr}}}});
  auto published = client.published("file:///t.ptx");
  REQUIRE(!published.empty());
  REQUIRE(published.back()["params"]["diagnostics"].size() == 1);
  CHECK(published.back()["params"]["diagnostics"][0]["code"] == "ISA003");
}

TEST_CASE("Pull diagnostics answer for the current version and report unchanged results", "[server][scheduler]") {
  TestClient client;
  client.initialize({{"textDocument", {{"diagnostic", json::object()}}}});
  client.open("file:///p.ptx", test::kernel("\tadd.s32 %r1, %r2, 1;\n\tret;\n"));
  client.request(3, "textDocument/diagnostic", {{"textDocument", {{"uri", "file:///p.ptx"}}}});
  json report = client.reply(3)["result"];
  CHECK(report["kind"] == "full");
  CHECK(report["items"].size() == 2);  // %r1 and %r2 are undeclared.
  // A client that pulls gets no pushed diagnostics (they would show twice).
  CHECK(client.published("file:///p.ptx").empty());
  client.request(4, "textDocument/diagnostic",
                 {{"textDocument", {{"uri", "file:///p.ptx"}}}, {"previousResultId", report["resultId"]}});
  CHECK(client.reply(4)["result"]["kind"] == "unchanged");
}

TEST_CASE("A 50 MB document over the size limit is syntax-checked and navigable, keeps its edits and leaves the server responsive", "[server][scheduler]") {
  TestClient client;
  client.initialize();
  // Over the default 32 MiB limit, under four times it: parsed and its names resolved, no rules.
  std::string huge = test::kernel("\tbra $L_end;\n$L_end:\n\tret;\n");
  huge.reserve(std::size_t{51} << 20);
  // Comments with a declaration every 10,000 lines (tree-sitter 0.20 cannot hold 65,535
  // comments in a row: SyntaxTree refuses such a text).
  for (int line = 0; huge.size() < (std::size_t{50} << 20); ++line) {
    huge += line % 10000 == 9999 ? ".global .b32 g" + std::to_string(line) + ";\n"
                                 : "// padding padding padding padding padding padding padding\n";
  }
  client.open("file:///huge.ptx", huge);
  auto published = client.published("file:///huge.ptx");
  REQUIRE(published.size() == 1);
  REQUIRE(published[0]["params"]["diagnostics"].size() == 1);
  const json& note = published[0]["params"]["diagnostics"][0];
  CHECK(note["code"] == "SYN007");
  CHECK(note["severity"] == 3);  // Information: the size is no defect of the file.
  CHECK(note["message"].get<std::string>().find("rules not run") != std::string::npos);
  // Navigation works: the label bra names (line 6) is defined on line 7.
  client.request(5, "textDocument/definition",
                 {{"textDocument", {{"uri", "file:///huge.ptx"}}}, {"position", {{"line", 6}, {"character", 6}}}});
  json definition = client.reply(5)["result"];
  REQUIRE(definition.is_object());
  CHECK(definition["range"]["start"]["line"] == 7);
  // A syntax error an edit makes is found: the edited text is reparsed and checked.
  client.notify("textDocument/didChange", change("file:///huge.ptx", 2, 8, 0, 0, "\tmov.u32 %r1, 2\n"));
  published = client.published("file:///huge.ptx");
  REQUIRE(!published.empty());
  bool syntaxError = false;
  for (const json& diagnostic : published.back()["params"]["diagnostics"]) {
    std::string code = diagnostic["code"];
    syntaxError = syntaxError || (code.starts_with("SYN") && code != "SYN007");
  }
  CHECK(syntaxError);
  // The formatter has a tree to work from too.
  client.request(6, "textDocument/formatting", {{"textDocument", {{"uri", "file:///huge.ptx"}}}, {"options", {{"tabSize", 4}, {"insertSpaces", false}}}});
  CHECK(client.reply(6)["result"].is_array());
}

TEST_CASE("A document over four times the size limit gets one note and no parse, and keeps its edits", "[server][scheduler]") {
  TestClient client;
  client.initialize({}, {{"diagnostics", {{"maxFileMiB", 1}}}});
  std::string huge = test::kernel("\tret;\n");
  while (huge.size() < (std::size_t{5} << 20)) huge += "// padding padding padding padding padding padding padding\n";
  client.open("file:///huge.ptx", huge);
  auto published = client.published("file:///huge.ptx");
  REQUIRE(published.size() == 1);
  REQUIRE(published[0]["params"]["diagnostics"].size() == 1);
  CHECK(published[0]["params"]["diagnostics"][0]["code"] == "SYN007");
  CHECK(published[0]["params"]["diagnostics"][0]["message"].get<std::string>().find("not parsed") != std::string::npos);
  client.notify("textDocument/didChange", change("file:///huge.ptx", 2, 0, 0, 0, "// edited\n"));
  client.request(5, "textDocument/hover",
                 {{"textDocument", {{"uri", "file:///huge.ptx"}}}, {"position", {{"line", 7}, {"character", 2}}}});
  CHECK(client.reply(5)["result"].is_null());
}

TEST_CASE("A large document opened with several threads keeps being re-checked edit by edit", "[server][scheduler]") {
  // Over 1 MB, the opening analysis runs its stages on several threads; its tree is still
  // parsed whole, so that the edits after it are reparsed incrementally (a tree parsed in
  // pieces is no base for that: its reparse loses every piece after the first, and with it
  // the typo below, in the last kernel).
  TestClient client;
  client.initialize();
  std::string text = ".version 8.0\n.target sm_80\n.address_size 64\n";
  int lines = 3;
  for (int k = 0; text.size() < (std::size_t{3} << 19); ++k) {
    text += ".visible .entry k" + std::to_string(k) + "()\n{\n\t.reg .b32 %r<4>;\n";
    for (int i = 0; i < 200; ++i) text += "\tadd.s32 %r1, %r2, 1;\n";
    text += "\tret;\n}\n";
    lines += 205;
  }
  const int last = lines - 3;  // The last kernel's last add.s32.
  client.open("file:///large.ptx", text);
  auto opened = client.published("file:///large.ptx");
  REQUIRE(!opened.empty());
  CHECK(opened.back()["params"]["diagnostics"].empty());
  client.notify("textDocument/didChange", change("file:///large.ptx", 2, last, 1, 4, "adx"));
  auto broken = client.published("file:///large.ptx");
  REQUIRE(!broken.empty());
  CHECK(broken.back()["params"]["version"] == 2);
  REQUIRE(broken.back()["params"]["diagnostics"].size() == 1);
  CHECK(broken.back()["params"]["diagnostics"][0]["code"] == "ISA001");
  CHECK(broken.back()["params"]["diagnostics"][0]["range"]["start"]["line"] == last);
  client.notify("textDocument/didChange", change("file:///large.ptx", 3, last, 1, 4, "add"));
  auto fixed = client.published("file:///large.ptx");
  REQUIRE(!fixed.empty());
  CHECK(fixed.back()["params"]["version"] == 3);
  CHECK(fixed.back()["params"]["diagnostics"].empty());
}

TEST_CASE("An edit stops the full analysis of the version it replaces", "[server][scheduler]") {
  // Full analyses start at once here (fullDelay 0), once version 2's re-check is stored: the
  // one of version 2 is running 100 ms later, when version 3 arrives, because linting this
  // kernel takes far longer.
  std::mutex mutex;
  std::condition_variable published;
  std::vector<std::pair<std::int64_t, bool>> seen;  // (version, full) of each analysis published.
  lsp::Scheduler scheduler({std::chrono::milliseconds(0), std::chrono::milliseconds(0), 2},
                           [&](const std::string&, const std::shared_ptr<const lsp::Analysis>& analysis) {
                             std::lock_guard lock(mutex);
                             seen.emplace_back(analysis->version, analysis->isFull());
                             published.notify_all();
                           });
  const std::string uri = "file:///stopped.ptx";
  scheduler.open(uri, bigKernel(200000), 1, LintOptions{}, std::nullopt);
  scheduler.waitIdle();
  auto typeAt = [&](std::int64_t version) {
    scheduler.edit(uri, [&](lsp::Document& document) {
      document.applyChange(lsp::Range{{7, 1}, {7, 1}}, " ", lsp::PositionEncoding::Utf8);
      document.setVersion(version);
    });
  };
  typeAt(2);
  {
    std::unique_lock lock(mutex);
    REQUIRE(published.wait_for(lock, std::chrono::seconds(60), [&] {
      return std::find(seen.begin(), seen.end(), std::pair<std::int64_t, bool>{2, false}) != seen.end();
    }));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  typeAt(3);
  scheduler.waitIdle();
  std::lock_guard lock(mutex);
  CHECK(std::find(seen.begin(), seen.end(), std::pair<std::int64_t, bool>{2, true}) == seen.end());
  CHECK(std::find(seen.begin(), seen.end(), std::pair<std::int64_t, bool>{3, true}) != seen.end());
}
