// The language server's protocol edge: framing, positions, lifecycle and error codes,
// document synchronization, diagnostics and hover — driven through Server::handle with the
// replies captured, so every test sees exactly what a client would.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <mutex>
#include <string>
#include <vector>

#include "Document.h"
#include "Server.h"
#include "TestClient.h"
#include "protocol/MessageReader.h"
#include "protocol/Positions.h"

using nlohmann::json;
using namespace ptx;
using namespace ptx::lsp;

namespace {

using Client = ptx::test::TestClient;

const std::string kText =
    ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
    "\t.reg .b32 %r<3>;\n\tadd.s32 %r1, %r2, %rd1;\n\tret;\n}\n";

json openParams(const std::string& text, int version = 1) {
  return {{"textDocument", {{"uri", "file:///a.ptx"}, {"languageId", "ptx"}, {"version", version}, {"text", text}}}};
}

}  // namespace

TEST_CASE("MessageReader splits framed messages fed in arbitrary pieces", "[server]") {
  std::string stream = frameMessage(R"({"a":1})") + frameMessage(R"({"b":2})");
  MessageReader reader;
  std::vector<std::string> bodies;
  for (char c : stream) {  // One byte at a time: the worst case for a reader.
    reader.feed(std::string_view(&c, 1));
    while (auto message = reader.next()) bodies.push_back(message->body);
  }
  REQUIRE(bodies.size() == 2);
  CHECK(bodies[0] == R"({"a":1})");
  CHECK(bodies[1] == R"({"b":2})");
}

TEST_CASE("MessageReader reports bad headers and recovers", "[server]") {
  MessageReader reader(1024);
  reader.feed("Content-Type: x\r\n\r\n");
  auto bad = reader.next();
  REQUIRE(bad);
  CHECK(bad->kind == MessageReader::Result::Kind::BadHeader);
  reader.feed("Content-Length: 99999\r\n\r\n");
  auto tooBig = reader.next();
  REQUIRE(tooBig);
  CHECK(tooBig->kind == MessageReader::Result::Kind::BadHeader);
  reader.feed(std::string(99999, 'x'));
  reader.feed(frameMessage("{}"));
  auto good = reader.next();
  REQUIRE(good);
  CHECK(good->kind == MessageReader::Result::Kind::Message);
  CHECK(good->body == "{}");
}

TEST_CASE("MessageReader gives back the buffer a large message grew", "[server]") {
  MessageReader reader;
  const std::string large(std::size_t{8} << 20, 'x');
  reader.feed(frameMessage(large));
  auto message = reader.next();
  REQUIRE(message);
  CHECK(message->body.size() == large.size());
  CHECK_FALSE(reader.next());
  // The 8 MiB it held for the body is released once the body is handed out.
  CHECK(reader.bufferCapacity() <= (std::size_t{1} << 20));
  reader.feed(frameMessage("{}"));
  auto next = reader.next();
  REQUIRE(next);
  CHECK(next->body == "{}");
}

TEST_CASE("A document shares its text with a snapshot and copies it only when edited", "[server]") {
  Document document("file:///a.ptx", "line one\nline two\n", 1);
  Snapshot first = document.takeSnapshot();
  CHECK(first.text.get() == &document.text());  // Shared, not copied.

  // An edit while the snapshot reads the text goes to a new buffer; the snapshot's is untouched.
  document.applyChange(Range{{0, 5}, {0, 8}}, "1", PositionEncoding::Utf16);
  CHECK(*first.text == "line one\nline two\n");
  CHECK(document.text() == "line 1\nline two\n");
  CHECK(document.lines().lineText(1) == "line two");

  // With no snapshot left holding it, the next edit changes the buffer in place.
  Snapshot second = document.takeSnapshot();
  CHECK(*second.text == "line 1\nline two\n");
  // The edit handed over for the incremental reparse is the one the texts describe (its start
  // point comes from the line index rather than a count of the lines before it).
  REQUIRE(second.edits.size() == 1);
  SyntaxEdit expected = describeEdit(*first.text, 5, 8, "1");
  CHECK(second.edits[0].startByte == expected.startByte);
  CHECK(second.edits[0].oldEndByte == expected.oldEndByte);
  CHECK(second.edits[0].newEndByte == expected.newEndByte);
  CHECK(second.edits[0].start.row == expected.start.row);
  CHECK(second.edits[0].start.column == expected.start.column);
  CHECK(second.edits[0].oldEnd.column == expected.oldEnd.column);
  CHECK(second.edits[0].newEnd.column == expected.newEnd.column);
  first = {};
  second = {};
  const std::string* buffer = &document.text();
  document.applyChange(Range{{1, 5}, {1, 8}}, "2", PositionEncoding::Utf16);
  CHECK(&document.text() == buffer);
  CHECK(document.text() == "line 1\nline 2\n");
  CHECK(document.lines().lineText(1) == "line 2");
}

TEST_CASE("Positions convert UTF-16 and UTF-8 columns and clamp out-of-range ones", "[server]") {
  std::string text = "a\xC3\xA9\xF0\x9F\x98\x80z\nsecond\n";  // a é 😀 z
  LineIndex lines(text);
  // 'z' is at UTF-16 column 4 (😀 takes two units) and byte column 7.
  CHECK(offsetAt(text, lines, {0, 4}, PositionEncoding::Utf16) == 7);
  CHECK(offsetAt(text, lines, {0, 7}, PositionEncoding::Utf8) == 7);
  CHECK(positionAt(text, lines, 7, PositionEncoding::Utf16).character == 4);
  CHECK(positionAt(text, lines, 7, PositionEncoding::Utf8).character == 7);
  // Past the end of a line: the line end; past the last line: the end of the text.
  CHECK(offsetAt(text, lines, {1, 500}, PositionEncoding::Utf16) == 15);
  CHECK(offsetAt(text, lines, {900, 0}, PositionEncoding::Utf16) == text.size());
}

TEST_CASE("Lifecycle: initialize, shutdown, exit and the errors around them", "[server]") {
  Client client;
  client.request(7, "textDocument/hover", json::object());
  CHECK(client.take()["error"]["code"] == kServerNotInitialized);
  client.request(1, "initialize", {{"capabilities", json::object()}});
  json init = client.take();
  CHECK(init["id"] == 1);
  CHECK(init["result"]["capabilities"]["textDocumentSync"]["change"] == 2);
  CHECK(init["result"]["capabilities"]["positionEncoding"] == "utf-16");
  client.request(2, "initialize", {{"capabilities", json::object()}});
  CHECK(client.take()["error"]["code"] == kInvalidRequest);
  client.request(3, "no/such/method");
  CHECK(client.take()["error"]["code"] == kMethodNotFound);
  client.request(4, "shutdown");
  CHECK(client.take()["result"].is_null());
  client.request(5, "textDocument/hover", json::object());
  CHECK(client.take()["error"]["code"] == kInvalidRequest);
  CHECK_FALSE(client.server.exitRequested());
  client.notify("exit", json::object());
  CHECK(client.server.exitRequested());
  CHECK(client.server.exitCode() == 0);
}

TEST_CASE("Malformed JSON-RPC gets the right error codes and the server keeps serving", "[server]") {
  Client client;
  client.server.handle("{not json");
  CHECK(client.take()["error"]["code"] == kParseError);
  client.server.handle("[1, 2]");
  CHECK(client.take()["error"]["code"] == kInvalidRequest);
  client.server.handle(R"({"jsonrpc":"2.0","id":{"x":1},"method":"initialize"})");
  CHECK(client.take()["error"]["code"] == kInvalidRequest);
  client.initialize();
  client.request(9, "textDocument/hover", {{"textDocument", {{"uri", 5}}}});
  CHECK(client.take()["error"]["code"] == kInvalidParams);
  client.request(10, "textDocument/hover",
                 {{"textDocument", {{"uri", "file:///a.ptx"}}}, {"position", {{"line", -1}, {"character", 0}}}});
  CHECK(client.take()["error"]["code"] == kInvalidParams);
  client.request(11, "shutdown");
  CHECK(client.take()["id"] == 11);
}

TEST_CASE("Opening and editing a document publishes versioned diagnostics", "[server]") {
  Client client;
  client.initialize();
  client.notify("textDocument/didOpen", openParams(kText));
  json published = client.take();
  CHECK(published["method"] == "textDocument/publishDiagnostics");
  CHECK(published["params"]["version"] == 1);
  REQUIRE(published["params"]["diagnostics"].size() == 1);
  json diagnostic = published["params"]["diagnostics"][0];
  CHECK(diagnostic["code"] == "SEM001");
  CHECK(diagnostic["range"]["start"] == json({{"line", 6}, {"character", 19}}));
  // Replace `%rd1` with `%r0` by an incremental edit.
  client.notify("textDocument/didChange",
                {{"textDocument", {{"uri", "file:///a.ptx"}, {"version", 2}}},
                 {"contentChanges",
                  {{{"range", {{"start", {{"line", 6}, {"character", 19}}}, {"end", {{"line", 6}, {"character", 23}}}}},
                    {"text", "%r0"}}}}});
  published = client.take();
  CHECK(published["params"]["version"] == 2);
  CHECK(published["params"]["diagnostics"].empty());
  // A batch with one malformed change is refused whole: the text is not half-edited.
  client.notify("textDocument/didChange",
                {{"textDocument", {{"uri", "file:///a.ptx"}, {"version", 3}}},
                 {"contentChanges", {{{"text", "garbage"}}, {{"range", {{"start", 1}}}, {"text", "x"}}}}});
  json logged = client.take();
  CHECK(logged["method"] == "window/logMessage");
  client.request(5, "textDocument/hover",
                 {{"textDocument", {{"uri", "file:///a.ptx"}}}, {"position", {{"line", 6}, {"character", 2}}}});
  json hover = client.take();
  CHECK(hover["result"]["contents"]["value"].get<std::string>().find("**add**") != std::string::npos);
  client.notify("textDocument/didClose", {{"textDocument", {{"uri", "file:///a.ptx"}}}});
  CHECK(client.take()["params"]["diagnostics"].empty());
}

TEST_CASE("Hover documents registers, special registers and types", "[server]") {
  Client client;
  client.initialize({{"general", {{"positionEncodings", {"utf-8", "utf-16"}}}}});
  std::string text = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
                     "\t.reg .b32 %r<3>;\n\tmov.u32 %r1, %tid.x;\n\tadd.s32 %r2, %r1, 1;\n\tret;\n}\n";
  client.notify("textDocument/didOpen", openParams(text));
  client.take();
  auto hoverAt = [&](int line, int character) {
    client.request(3, "textDocument/hover",
                   {{"textDocument", {{"uri", "file:///a.ptx"}}}, {"position", {{"line", line}, {"character", character}}}});
    return client.take()["result"];
  };
  json reg = hoverAt(7, 15);  // %r1 in the add
  REQUIRE(reg.is_object());
  std::string value = reg["contents"]["value"].get<std::string>();
  CHECK(value.find(".reg .b32 %r<3>") != std::string::npos);
  CHECK(value.find("used 2 times") != std::string::npos);
  json special = hoverAt(6, 16);  // %tid
  REQUIRE(special.is_object());
  CHECK(special["contents"]["value"].get<std::string>().find("%tid") != std::string::npos);
  json type = hoverAt(6, 6);  // .u32
  REQUIRE(type.is_object());
  CHECK(type["contents"]["value"].get<std::string>().find("32 bits") != std::string::npos);
  CHECK(hoverAt(0, 0).is_object());  // .version
  CHECK(hoverAt(4, 0).is_null());    // '{'
}

TEST_CASE("Definition, references and highlights follow the model's resolution", "[server]") {
  Client client;
  client.initialize();
  std::string text = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
                     "\t.reg .b32 %r<3>;\n\t.reg .pred %p;\n\tmov.u32 %r1, 0;\n$L_loop:\n"
                     "\tadd.s32 %r1, %r1, 1;\n\tsetp.lt.s32 %p, %r1, 10;\n\t@%p bra $L_loop;\n\tret;\n}\n";
  client.notify("textDocument/didOpen", openParams(text));
  client.take();
  auto at = [](int line, int character) {
    return json{{"textDocument", {{"uri", "file:///a.ptx"}}}, {"position", {{"line", line}, {"character", character}}}};
  };
  // The label used by bra (line 11) is defined on line 8.
  client.request(2, "textDocument/definition", at(11, 11));
  json definition = client.take()["result"];
  REQUIRE(definition.is_object());
  CHECK(definition["range"]["start"] == json({{"line", 8}, {"character", 0}}));
  // %r1: three uses in the add/setp lines plus the mov; not %r2's.
  json params = at(9, 10);
  params["context"] = {{"includeDeclaration", false}};
  client.request(3, "textDocument/references", params);
  json references = client.take()["result"];
  CHECK(references.size() == 4);
  client.request(4, "textDocument/documentHighlight", at(10, 14));  // %p in setp
  json highlights = client.take()["result"];
  CHECK(highlights.size() == 3);  // declaration, setp, guard
  client.request(5, "textDocument/definition", at(4, 0));  // '{'
  CHECK(client.take()["result"].is_null());
}

TEST_CASE("Document symbols outline kernels, functions, parameters, registers and labels", "[server]") {
  Client client;
  client.initialize();
  std::string text = ".version 8.0\n.target sm_80\n.address_size 64\n.global .u32 counter;\n"
                     ".func (.reg .b32 r) twice(.reg .b32 x)\n{\n\tadd.s32 r, x, x;\n\tret;\n}\n"
                     ".visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<3>;\n$L_end:\n\tret;\n}\n";
  client.notify("textDocument/didOpen", openParams(text));
  client.take();
  client.request(2, "textDocument/documentSymbol", {{"textDocument", {{"uri", "file:///a.ptx"}}}});
  json outline = client.take()["result"];
  REQUIRE(outline.size() == 3);
  CHECK(outline[0]["name"] == "counter");
  CHECK(outline[1]["name"] == "twice");
  CHECK(outline[1]["detail"] == ".func");
  REQUIRE(outline[1]["children"].size() == 2);  // r, x
  CHECK(outline[2]["name"] == "k");
  CHECK(outline[2]["detail"] == ".entry");
  REQUIRE(outline[2]["children"].size() == 3);  // p, %r<3>, $L_end
  CHECK(outline[2]["children"][1]["name"] == "%r<3>");
  CHECK(outline[2]["children"][2]["kind"] == 20);
}

TEST_CASE("Folding ranges cover bodies, nested blocks, parameter lists and comment runs", "[server]") {
  Client client;
  client.initialize();
  std::string text = ".version 8.0\n.target sm_80\n.address_size 64\n"  // lines 0-2
                     "// one\n// two\n"                                  // 3-4
                     ".visible .entry k(\n\t.param .u64 a,\n\t.param .u64 b\n)\n"  // 5-8
                     "{\n\t{\n\t\tret;\n\t}\n\tret;\n}\n";                 // 9-14
  client.notify("textDocument/didOpen", openParams(text));
  client.take();
  client.request(2, "textDocument/foldingRange", {{"textDocument", {{"uri", "file:///a.ptx"}}}});
  json ranges = client.take()["result"];
  auto has = [&](int start, int end, bool comment) {
    for (const json& range : ranges) {
      if (range["startLine"] == start && range["endLine"] == end && range.contains("kind") == comment) return true;
    }
    return false;
  };
  INFO(ranges.dump());
  CHECK(has(3, 4, true));
  CHECK(has(5, 8, false));
  CHECK(has(9, 14, false));
  CHECK(has(10, 12, false));
  CHECK(ranges.size() == 4);
}

TEST_CASE("Selection ranges grow from the word to the statement, block and file", "[server]") {
  Client client;
  client.initialize();
  client.notify("textDocument/didOpen", openParams(kText));
  client.take();
  client.request(2, "textDocument/selectionRange",
                 {{"textDocument", {{"uri", "file:///a.ptx"}}}, {"positions", {{{"line", 6}, {"character", 15}}}}});
  json result = client.take()["result"];
  REQUIRE(result.size() == 1);
  // Innermost: %r2 on line 6; then the add statement; ...; outermost: the whole file.
  json level = result[0];
  CHECK(level["range"]["start"] == json({{"line", 6}, {"character", 14}}));
  CHECK(level["range"]["end"] == json({{"line", 6}, {"character", 17}}));
  CHECK(level["parent"]["range"]["start"] == json({{"line", 6}, {"character", 1}}));
  int depth = 1;
  while (level.contains("parent")) {
    level = level["parent"];
    ++depth;
  }
  CHECK(depth >= 4);
  CHECK(level["range"]["start"] == json({{"line", 0}, {"character", 0}}));
}

TEST_CASE("workspace/executeCommand runs exactly the commands initialize advertises", "[server]") {
  Client client;
  client.request(1, "initialize", {{"capabilities", json::object()}});
  json advertised = client.reply(1)["result"]["capabilities"]["executeCommandProvider"]["commands"];
  CHECK(advertised == json::array({"ptxls.server.explainRule", "ptxls.server.verifyRegisters"}));
  client.request(2, "workspace/executeCommand", {{"command", "ptxls.server.explainRule"}, {"arguments", {"ISA004"}}});
  json explained = client.reply(2)["result"];
  CHECK(explained["code"] == "ISA004");
  CHECK(explained["href"] == "https://github.com/ptxls/ptxls/blob/main/docs/rules/ISA004.md");
  client.request(3, "workspace/executeCommand", {{"command", "ptxls.server.explainRule"}});
  CHECK(client.reply(3)["error"]["code"] == kInvalidParams);
  client.request(4, "workspace/executeCommand", {{"command", "ptxls.showRegisterReport"}});
  json refused = client.reply(4)["error"];
  CHECK(refused["code"] == kInvalidParams);
  CHECK(refused["message"] == "unknown command 'ptxls.showRegisterReport'");
}
