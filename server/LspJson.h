// LspJson: reading LSP request parameters and writing LSP values, shared by the protocol edge's
// files (Server.cpp: dispatch and documents; DocumentRequests.cpp: the features' JSON).
//
// Malformed parameters throw InvalidParams, which the dispatcher answers with -32602.
#pragma once

#include <cstdint>
#include <exception>
#include <initializer_list>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "Document.h"
#include "protocol/Positions.h"

namespace ptx::lsp {

// Thrown by handlers for malformed params; becomes an InvalidParams error.
struct InvalidParams : std::exception {
  explicit InvalidParams(std::string why) : message(std::move(why)) {}
  const char* what() const noexcept override { return message.c_str(); }
  std::string message;
};

// Thrown by handlers that understood the request but cannot do it (a refused rename).
struct RequestFailed : std::exception {
  explicit RequestFailed(std::string why) : message(std::move(why)) {}
  const char* what() const noexcept override { return message.c_str(); }
  std::string message;
};

// `object[key]`; InvalidParams when `object` is no object or lacks it.
const nlohmann::json& member(const nlohmann::json& object, const char* key);
std::string stringMember(const nlohmann::json& object, const char* key);
// params.textDocument.uri.
std::string documentUri(const nlohmann::json& params);
Position positionOf(const nlohmann::json& value);
Range rangeOf(const nlohmann::json& value);
nlohmann::json toJson(Position position);

// Whether `object` has the member at `path` (each key inside the previous one), and whether
// that member is `true`.
bool hasMember(const nlohmann::json& object, std::initializer_list<const char*> path);
bool isTrue(const nlohmann::json& object, std::initializer_list<const char*> path);

// Positions against one analysis's own text (each analysis answers about its version).
std::uint32_t offsetIn(const Analysis& analysis, Position position, PositionEncoding encoding);
nlohmann::json rangeJson(const Analysis& analysis, ByteRange range, PositionEncoding encoding);

// The documentation page of a rule, for diagnostics' codeDescription and "explain rule".
std::string ruleDocsHref(std::string_view code);

}  // namespace ptx::lsp
