// LspJson: parameter checks with messages that name what is wrong.
#include "LspJson.h"

#include <algorithm>

namespace ptx::lsp {

using json = nlohmann::json;

const json& member(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key)) throw InvalidParams(std::string("missing '") + key + "'");
  return object[key];
}

std::string stringMember(const json& object, const char* key) {
  const json& value = member(object, key);
  if (!value.is_string()) throw InvalidParams(std::string("'") + key + "' must be a string");
  return value.get<std::string>();
}

std::string documentUri(const json& params) { return stringMember(member(params, "textDocument"), "uri"); }

Position positionOf(const json& value) {
  const json& line = member(value, "line");
  const json& character = member(value, "character");
  if (!line.is_number_integer() || !character.is_number_integer() || line.get<long long>() < 0 ||
      character.get<long long>() < 0) {
    throw InvalidParams("a position needs non-negative integer 'line' and 'character'");
  }
  auto clamp = [](long long v) { return static_cast<std::uint32_t>(std::min<long long>(v, UINT32_MAX)); };
  return {clamp(line.get<long long>()), clamp(character.get<long long>())};
}

Range rangeOf(const json& value) { return {positionOf(member(value, "start")), positionOf(member(value, "end"))}; }

json toJson(Position position) { return {{"line", position.line}, {"character", position.character}}; }

bool hasMember(const json& object, std::initializer_list<const char*> path) {
  const json* at = &object;
  for (const char* key : path) {
    if (!at->is_object() || !at->contains(key)) return false;
    at = &(*at)[key];
  }
  return true;
}

bool isTrue(const json& object, std::initializer_list<const char*> path) {
  const json* at = &object;
  for (const char* key : path) {
    if (!at->is_object() || !at->contains(key)) return false;
    at = &(*at)[key];
  }
  return at->is_boolean() && at->get<bool>();
}

std::uint32_t offsetIn(const Analysis& analysis, Position position, PositionEncoding encoding) {
  return offsetAt(*analysis.text, analysis.lines, position, encoding);
}

json rangeJson(const Analysis& analysis, ByteRange range, PositionEncoding encoding) {
  return {{"start", toJson(positionAt(*analysis.text, analysis.lines, range.begin, encoding))},
          {"end", toJson(positionAt(*analysis.text, analysis.lines, range.end, encoding))}};
}

std::string ruleDocsHref(std::string_view code) {
  std::string href = "https://github.com/ptxls/ptxls/blob/main/docs/rules/";
  href += code;
  href += ".md";  // A file name's extension.
  return href;
}

}  // namespace ptx::lsp
