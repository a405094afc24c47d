// CudaRequests: the JSON of a CUDA document's features — each answers inside asm templates only
// (features/CudaAsmFeatures.h) and with null or nothing elsewhere, where clangd answers — and the
// device passes an open CUDA document is checked for.
#include "CudaDocument.h"
#include "LspJson.h"
#include "Server.h"
#include "features/CudaAsmFeatures.h"

namespace ptx::lsp {

using json = nlohmann::json;

std::optional<CudaSetup> Server::cudaSetupFor(const std::string& uri, const Settings& settings) {
  {
    std::lock_guard lock(sessionsMutex_);
    auto session = sessions_.find(uri);
    if (session == sessions_.end() || !session->second.cuda) return std::nullopt;
  }
  CudaSetup setup = cudaSetups_.setupFor(uri, settings.cudaArch);
  for (const std::string& problem : setup.problems) log(2, uri + ": " + problem);
  return setup;
}

json Server::nothing(const Analysis&, const json&) { return nullptr; }

json Server::noItems(const Analysis&, const json&) { return json::array(); }

json Server::cudaHover(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  auto result = asmHoverAt(analysis.cuda->statements, analysis.cuda->ptxTarget(), offset);
  if (!result) return nullptr;
  return {{"contents", {{"kind", "markdown"}, {"value", result->markdown}}},
          {"range", rangeJson(analysis, result->range, encoding_)}};
}

json Server::cudaDefinition(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  auto target = asmDefinitionAt(analysis.cuda->statements, analysis.cuda->ptxTarget(), offset);
  if (!target) return nullptr;
  return {{"uri", documentUri(params)}, {"range", rangeJson(analysis, *target, encoding_)}};
}

json Server::cudaReferences(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  bool includeDeclaration = isTrue(params, {"context", "includeDeclaration"});
  std::string uri = documentUri(params);
  json result = json::array();
  for (ByteRange range :
       asmReferencesAt(analysis.cuda->statements, analysis.cuda->ptxTarget(), offset, includeDeclaration)) {
    result.push_back({{"uri", uri}, {"range", rangeJson(analysis, range, encoding_)}});
  }
  return result;
}

json Server::cudaHighlights(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  json result = json::array();
  for (ByteRange range : asmReferencesAt(analysis.cuda->statements, analysis.cuda->ptxTarget(), offset,
                                         /*includeDeclaration=*/true)) {
    result.push_back({{"range", rangeJson(analysis, range, encoding_)}, {"kind", 1}});
  }
  return result;
}

json Server::cudaCompletion(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  return completionList(analysis, asmCompletionAt(analysis.cuda->statements, analysis.cuda->ptxTarget(), offset));
}

json Server::cudaSemanticTokensFull(const Analysis& analysis, const json& params) {
  std::vector<SemanticToken> tokens = asmSemanticTokens(*analysis.text, analysis.cuda->statements, analysis.cuda->ptxTarget());
  return rememberTokens(documentUri(params), encodeSemanticTokens(*analysis.text, analysis.lines, tokens, encoding_));
}

json Server::cudaSemanticTokensDelta(const Analysis& analysis, const json& params) {
  std::vector<SemanticToken> tokens = asmSemanticTokens(*analysis.text, analysis.cuda->statements, analysis.cuda->ptxTarget());
  return semanticTokensEdits(documentUri(params), encodeSemanticTokens(*analysis.text, analysis.lines, tokens, encoding_),
                             params);
}

json Server::cudaSemanticTokensRange(const Analysis& analysis, const json& params) {
  Range range = rangeOf(member(params, "range"));
  ByteRange bytes{offsetIn(analysis, range.start, encoding_), offsetIn(analysis, range.end, encoding_)};
  std::vector<SemanticToken> tokens =
      asmSemanticTokens(*analysis.text, analysis.cuda->statements, analysis.cuda->ptxTarget(), bytes);
  return {{"data", encodeSemanticTokens(*analysis.text, analysis.lines, tokens, encoding_)}};
}

}  // namespace ptx::lsp
