// TestClient: drives a Server in-process the way an editor would, for the server tests.
//
// Replies and notifications may come from worker threads; `take` first waits until the
// server is idle (analyses finished, deferred requests answered).
#pragma once

#include <catch2/catch.hpp>

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "Server.h"

namespace ptx::test {

struct TestClient {
  // Without ptxas (whatever the machine has), unless a test gives its own lookup
  // (oracle::findPtxas after pointing PTXAS at a stand-in).
  TestClient() : TestClient([] { return std::optional<std::string>(); }) {}
  explicit TestClient(const lsp::Server::PtxasLookup& findPtxas)
      : server([this](const std::string& body) {
                 std::lock_guard lock(mutex);
                 received.push_back(nlohmann::json::parse(body));
               },
               lsp::SchedulerOptions{std::chrono::milliseconds(0), std::chrono::milliseconds(0), 2}, findPtxas) {}

  std::mutex mutex;
  std::vector<nlohmann::json> received;
  lsp::Server server;

  void send(const nlohmann::json& message) { server.handle(message.dump()); }
  void request(int id, const std::string& method, nlohmann::json params = nlohmann::json::object()) {
    send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
  }
  void notify(const std::string& method, nlohmann::json params) {
    send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
  }
  nlohmann::json take() {
    server.waitIdle();
    std::lock_guard lock(mutex);
    REQUIRE(!received.empty());
    nlohmann::json first = received.front();
    received.erase(received.begin());
    return first;
  }
  // Waits until idle, then removes and returns every message matching `wanted`.
  std::vector<nlohmann::json> takeAll(const std::function<bool(const nlohmann::json&)>& wanted) {
    server.waitIdle();
    std::lock_guard lock(mutex);
    std::vector<nlohmann::json> matching;
    std::erase_if(received, [&](const nlohmann::json& message) {
      if (!wanted(message)) return false;
      matching.push_back(message);
      return true;
    });
    return matching;
  }
  // The reply to request `id` (waiting for it).
  nlohmann::json reply(int id) {
    auto replies = takeAll([&](const nlohmann::json& m) { return m.contains("id") && m["id"] == id && !m.contains("method"); });
    REQUIRE(replies.size() == 1);
    return replies.front();
  }
  std::vector<nlohmann::json> published(const std::string& uri) {
    return takeAll([&](const nlohmann::json& m) {
      return m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri;
    });
  }
  void initialize(nlohmann::json capabilities = nlohmann::json::object(),
                  nlohmann::json options = nlohmann::json()) {
    nlohmann::json params = {{"capabilities", std::move(capabilities)}};
    if (!options.is_null()) params["initializationOptions"] = std::move(options);
    request(1, "initialize", std::move(params));
    reply(1);
    notify("initialized", nlohmann::json::object());
  }
  void open(const std::string& uri, const std::string& text, int version = 1) {
    notify("textDocument/didOpen",
           {{"textDocument", {{"uri", uri}, {"languageId", "ptx"}, {"version", version}, {"text", text}}}});
  }
};

}  // namespace ptx::test
