// DocumentRequests: the JSON shape of every document feature — each handler reads its
// parameters, calls a feature (server/features/: pure functions of a text, its analysis and
// byte offsets) and writes the result as LSP JSON, positions converted against the analysis
// answering.
#include <functional>

#include "LspJson.h"
#include "Server.h"
#include "features/CodeActions.h"
#include "features/CodeLenses.h"
#include "features/Completion.h"
#include "features/DocumentSymbols.h"
#include "features/Folding.h"
#include "features/Hover.h"
#include "features/InlayHints.h"
#include "features/LiveRegisterHints.h"
#include "features/Navigation.h"
#include "features/RegisterReport.h"
#include "features/Rename.h"
#include "features/SelectionRanges.h"
#include "features/SemanticTokens.h"
#include "features/SignatureHelp.h"
#include "features/WorkspaceSymbols.h"
#include "format/Formatter.h"
#include "registers/RegisterReport.h"

namespace ptx::lsp {
namespace {

using json = nlohmann::json;

int severityCode(Severity severity) {
  switch (severity) {
    case Severity::Error: return 1;
    case Severity::Warning: return 2;
    case Severity::Information: return 3;
    case Severity::Hint: return 4;
  }
  return 1;
}


int completionKindNumber(CompletionKind kind) {
  // LSP CompletionItemKind.
  switch (kind) {
    case CompletionKind::Opcode: return 14;           // Keyword
    case CompletionKind::Modifier: return 20;         // EnumMember
    case CompletionKind::Type: return 25;             // TypeParameter
    case CompletionKind::Register: return 6;          // Variable
    case CompletionKind::SpecialRegister: return 21;  // Constant
    case CompletionKind::Label: return 18;            // Reference
    case CompletionKind::Variable: return 6;          // Variable
    case CompletionKind::Function: return 3;          // Function
    case CompletionKind::Parameter: return 5;         // Field
    case CompletionKind::Directive: return 14;        // Keyword
    case CompletionKind::Keyword: return 14;          // Keyword
  }
  return 1;
}

json textEditsJson(const Analysis& analysis, const std::vector<FixEdit>& edits, PositionEncoding encoding) {
  json result = json::array();
  for (const FixEdit& edit : edits) {
    result.push_back({{"range", rangeJson(analysis, edit.range, encoding)}, {"newText", edit.newText}});
  }
  return result;
}

}  // namespace

json Server::diagnosticsJson(const std::string& uri, const Analysis& analysis) {
  json diagnostics = json::array();
  std::shared_ptr<const oracle::ExactReport> exact = analysis.cuda ? exactReportFor(uri, analysis) : nullptr;
  auto add = [&](const Diagnostic& diagnostic) {
    std::string link = ruleDocsHref(diagnostic.rule);
    json item = {{"range", rangeJson(analysis, diagnostic.range, encoding_)},
                 {"severity", severityCode(diagnostic.severity)},
                 {"code", diagnostic.rule},
                 {"codeDescription", {{"href", link}}},
                 {"source", "ptxls"},
                 {"message", diagnostic.message}};
    if (!diagnostic.related.empty()) {
      json related = json::array();
      for (const RelatedInformation& info : diagnostic.related) {
        related.push_back({{"location", {{"uri", uri}, {"range", rangeJson(analysis, info.range, encoding_)}}},
                           {"message", info.message}});
      }
      item["relatedInformation"] = std::move(related);
    }
    diagnostics.push_back(std::move(item));
  };
  for (const Diagnostic& diagnostic : analysis.result.diagnostics) add(diagnostic);
  if (exact) {
    for (const Diagnostic& diagnostic : exact->diagnostics) add(diagnostic);
  }
  return diagnostics;
}

json Server::pullDiagnostics(const Analysis& analysis, const json& params) {
  // The same version under other settings is another result: the id names both.
  // An exact-mode run that finished for this version is another result too.
  std::string uri = documentUri(params);
  bool exact = analysis.cuda && exactReportFor(uri, analysis) != nullptr;
  std::string resultId = std::to_string(analysis.version) + "." + std::to_string(analysis.settingsSerial) +
                         (analysis.isFull() ? "f" : "i") + (exact ? "x" : "");
  if (params.contains("previousResultId") && params["previousResultId"] == resultId) {
    return {{"kind", "unchanged"}, {"resultId", resultId}};
  }
  json items = diagnosticsJson(uri, analysis);
  return {{"kind", "full"}, {"resultId", resultId}, {"items", std::move(items)}};
}

json Server::hover(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  auto result = hoverAt(*analysis.text, analysis.result, offset, &analysis.lines);
  if (!result) return nullptr;
  return {{"contents", {{"kind", "markdown"}, {"value", result->markdown}}},
          {"range", rangeJson(analysis, result->range, encoding_)}};
}

json Server::definition(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  auto target = definitionAt(analysis.result.module, offset);
  if (!target) return nullptr;
  return {{"uri", documentUri(params)}, {"range", rangeJson(analysis, *target, encoding_)}};
}

json Server::references(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  bool includeDeclaration = isTrue(params, {"context", "includeDeclaration"});
  std::string uri = documentUri(params);
  json result = json::array();
  for (ByteRange range : referencesAt(*analysis.text, analysis.result.module, offset, includeDeclaration)) {
    result.push_back({{"uri", uri}, {"range", rangeJson(analysis, range, encoding_)}});
  }
  return result;
}

json Server::highlights(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  json result = json::array();
  for (ByteRange range : referencesAt(*analysis.text, analysis.result.module, offset, /*includeDeclaration=*/true)) {
    result.push_back({{"range", rangeJson(analysis, range, encoding_)}, {"kind", 1}});
  }
  return result;
}

json Server::documentSymbols(const Analysis& analysis, const json&) {
  // LSP SymbolKind numbers.
  auto kindNumber = [](OutlineKind kind) {
    switch (kind) {
      case OutlineKind::Kernel: return 12;     // Function
      case OutlineKind::Function: return 12;   // Function
      case OutlineKind::Parameter: return 13;  // Variable
      case OutlineKind::Register: return 13;   // Variable
      case OutlineKind::Variable: return 13;   // Variable
      case OutlineKind::Label: return 20;      // Key
    }
    return 13;
  };
  std::function<json(const OutlineItem&)> convert = [&](const OutlineItem& item) {
    json symbol = {{"name", item.name.empty() ? std::string("(unnamed)") : item.name},
                   {"kind", kindNumber(item.kind)},
                   {"range", rangeJson(analysis, item.range, encoding_)},
                   {"selectionRange", rangeJson(analysis, item.selectionRange, encoding_)}};
    if (!item.detail.empty()) symbol["detail"] = item.detail;
    if (!item.children.empty()) {
      json children = json::array();
      for (const OutlineItem& child : item.children) children.push_back(convert(child));
      symbol["children"] = std::move(children);
    }
    return symbol;
  };
  json result = json::array();
  for (const OutlineItem& item : documentOutline(analysis.result.module)) result.push_back(convert(item));
  return result;
}

json Server::foldingRanges(const Analysis& analysis, const json&) {
  json result = json::array();
  for (const FoldingRegion& region : foldingRegions(analysis.result.tree, analysis.lines)) {
    json range = {{"startLine", region.startLine}, {"endLine", region.endLine}};
    if (region.isComment) range["kind"] = "comment";
    result.push_back(std::move(range));
  }
  return result;
}

json Server::selectionRanges(const Analysis& analysis, const json& params) {
  const json& positions = member(params, "positions");
  if (!positions.is_array()) throw InvalidParams("'positions' must be an array");
  json result = json::array();
  for (const json& position : positions) {
    std::uint32_t offset = offsetIn(analysis, positionOf(position), encoding_);
    std::vector<ByteRange> chain = selectionChain(analysis.result.tree, offset);
    // Nested from the outside in: each range's parent is the next wider one.
    json selection = nullptr;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      json inner = {{"range", rangeJson(analysis, *it, encoding_)}};
      if (!selection.is_null()) inner["parent"] = std::move(selection);
      selection = std::move(inner);
    }
    result.push_back(std::move(selection));
  }
  return result;
}

json Server::workspaceSymbols(const json& params) {
  std::string query = params.is_object() && params.contains("query") && params["query"].is_string()
                          ? params["query"].get<std::string>()
                          : std::string();
  // Every open document's newest model: module-level names are in incremental ones too.
  std::vector<std::shared_ptr<const Analysis>> analyses;
  std::vector<WorkspaceDocument> documents;
  for (const std::string& uri : scheduler_->openDocuments()) {
    Scheduler::View view = scheduler_->view(uri);
    std::shared_ptr<const Analysis> analysis = view.full ? view.full : view.latest;
    if (!analysis) continue;
    analyses.push_back(analysis);
    documents.push_back({uri, &analysis->result.module});
  }
  json result = json::array();
  for (const WorkspaceSymbolMatch& match : ptx::lsp::workspaceSymbols(documents, query, 1000)) {
    const Analysis* analysis = nullptr;
    for (std::size_t i = 0; i < documents.size(); ++i) {
      if (documents[i].uri == match.uri) analysis = analyses[i].get();
    }
    if (analysis == nullptr) continue;
    json symbol = {{"name", match.name},
                   {"kind", match.kind == OutlineKind::Variable ? 13 : 12},
                   {"location", {{"uri", match.uri}, {"range", rangeJson(*analysis, match.selectionRange, encoding_)}}}};
    if (!match.detail.empty()) symbol["containerName"] = match.detail;
    result.push_back(std::move(symbol));
  }
  return result;
}

json Server::completion(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  return completionList(analysis, completeAt(*analysis.text, analysis.result, offset));
}

json Server::completionList(const Analysis& analysis, const std::vector<CompletionItem>& items) const {
  json list = json::array();
  for (const CompletionItem& item : items) {
    json entry = {{"label", item.label},
                  {"kind", completionKindNumber(item.kind)},
                  {"textEdit", {{"range", rangeJson(analysis, item.replace, encoding_)},
                                {"newText", item.insertText.empty() ? item.label : item.insertText}}}};
    if (!item.detail.empty()) entry["detail"] = item.detail;
    if (!item.documentation.empty()) entry["documentation"] = {{"kind", "markdown"}, {"value", item.documentation}};
    if (!item.sortText.empty()) entry["sortText"] = item.sortText;
    list.push_back(std::move(entry));
  }
  return {{"isIncomplete", false}, {"items", std::move(list)}};
}

json Server::signatureHelp(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  auto help = signatureHelpAt(*analysis.text, analysis.result, offset);
  if (!help || help->signatures.empty()) return nullptr;
  json signatures = json::array();
  for (const SignatureInfo& signature : help->signatures) {
    json parameters = json::array();
    for (ByteRange parameter : signature.parameters) parameters.push_back({{"label", {parameter.begin, parameter.end}}});
    json entry = {{"label", signature.label}, {"parameters", std::move(parameters)}};
    if (!signature.documentation.empty()) entry["documentation"] = {{"kind", "markdown"}, {"value", signature.documentation}};
    signatures.push_back(std::move(entry));
  }
  return {{"signatures", std::move(signatures)},
          {"activeSignature", help->activeSignature},
          {"activeParameter", help->activeParameter}};
}

json Server::rememberTokens(const std::string& uri, std::vector<std::uint32_t> data) {
  std::lock_guard lock(sessionsMutex_);
  std::string resultId = std::to_string(nextTokensId_++);
  json result = {{"resultId", resultId}, {"data", data}};
  if (auto session = sessions_.find(uri); session != sessions_.end()) {
    session->second.tokensResultId = resultId;
    session->second.tokens = std::move(data);
  }
  return result;
}

json Server::semanticTokensFull(const Analysis& analysis, const json& params) {
  std::vector<SemanticToken> tokens = semanticTokens(*analysis.text, analysis.result);
  return rememberTokens(documentUri(params), encodeSemanticTokens(*analysis.text, analysis.lines, tokens, encoding_));
}

json Server::semanticTokensDelta(const Analysis& analysis, const json& params) {
  std::vector<SemanticToken> tokens = semanticTokens(*analysis.text, analysis.result);
  return semanticTokensEdits(documentUri(params), encodeSemanticTokens(*analysis.text, analysis.lines, tokens, encoding_),
                             params);
}

json Server::semanticTokensEdits(const std::string& uri, std::vector<std::uint32_t> data, const json& params) {
  std::optional<std::vector<std::uint32_t>> previous;
  {
    std::lock_guard lock(sessionsMutex_);
    auto session = sessions_.find(uri);
    if (session != sessions_.end() && !session->second.tokensResultId.empty() && params.contains("previousResultId") &&
        params["previousResultId"] == session->second.tokensResultId) {
      previous = session->second.tokens;
    }
  }
  // Without the previous result the client gets the whole set (LSP allows either answer).
  if (!previous) return rememberTokens(uri, std::move(data));
  json edits = json::array();
  for (const SemanticTokensEdit& edit : diffSemanticTokens(*previous, data)) {
    edits.push_back({{"start", edit.start}, {"deleteCount", edit.deleteCount}, {"data", edit.data}});
  }
  json remembered = rememberTokens(uri, std::move(data));
  return {{"resultId", remembered["resultId"]}, {"edits", std::move(edits)}};
}

json Server::semanticTokensRange(const Analysis& analysis, const json& params) {
  Range range = rangeOf(member(params, "range"));
  ByteRange bytes{offsetIn(analysis, range.start, encoding_), offsetIn(analysis, range.end, encoding_)};
  std::vector<SemanticToken> tokens = semanticTokens(*analysis.text, analysis.result, bytes);
  return {{"data", encodeSemanticTokens(*analysis.text, analysis.lines, tokens, encoding_)}};
}

json Server::codeLenses(const Analysis& analysis, const json& params) {
  std::string uri = documentUri(params);
  // The verify lenses read the document's last ptxas run when it was for this analysis's text
  // and target (any other is stale: an edit, or a new target setting, came after it).
  std::optional<std::string> targetOverride;
  std::optional<PtxasVerification> verification;
  {
    std::lock_guard lock(sessionsMutex_);
    if (auto session = sessions_.find(uri); session != sessions_.end()) {
      targetOverride = session->second.settings.target;
      if (const auto& last = session->second.verification;
          last && last->version == analysis.version &&
          last->target == registers::reportTarget(analysis.result.module, targetOverride)) {
        verification = PtxasVerification{last->version, last->target, last->done, last->result, {}};
      }
    } else {
      targetOverride = clientSettings_.target;
    }
  }
  PtxasLensState ptxas{ptxas_.has_value(), verification && !verification->done,
                       verification && verification->done ? &verification->result : nullptr};
  json result = json::array();
  for (const CodeLens& lens : ptx::lsp::codeLenses(*analysis.text, analysis.result, analysis.registerEstimates(),
                                                   targetOverride, ptxas)) {
    result.push_back({{"range", rangeJson(analysis, lens.range, encoding_)},
                      {"command", {{"title", lens.title}, {"command", lens.command}, {"arguments", {uri, lens.functionName}}}}});
  }
  return result;
}

// ptxls/registerReport {textDocument, position?}: every function's register report with its
// plot; `at` is the index of the function holding `position` (null when none does).
json Server::registerReport(const Analysis& analysis, const json& params) {
  std::string uri = documentUri(params);
  std::optional<std::uint32_t> offset;
  if (params.contains("position") && !params["position"].is_null()) {
    offset = offsetIn(analysis, positionOf(params["position"]), encoding_);
  }
  RegisterReportView view = registerReportView(*analysis.text, analysis.lines, analysis.result,
                                               analysis.registerEstimates(), sessionSettings(uri).target, offset);
  json functions = json::array();
  for (const FunctionRegisterView& function : view.functions) {
    const registers::FunctionRegisterReport& report = function.report;
    json occupancy = nullptr;
    if (report.occupancy) {
      occupancy = {{"target", report.target},
                   {"threadsPerBlock", report.threadsPerBlock},
                   {"threadsAssumed", report.threadsAssumed},
                   {"sharedBytes", report.sharedBytes},
                   {"blocksPerSm", report.occupancy->blocksPerSm},
                   {"activeWarpsPerSm", report.occupancy->activeWarpsPerSm},
                   {"maxWarpsPerSm", report.occupancy->maxWarpsPerSm},
                   {"fraction", report.occupancy->fraction},
                   {"limitedBy", report.occupancy->limitedBy},
                   {"fewerRegistersForMoreBlocks", report.occupancy->fewerRegistersForMoreBlocks},
                   {"blocksWithFewerRegisters", report.occupancy->blocksWithFewerRegisters}};
    }
    functions.push_back({{"name", report.name},
                         {"kind", report.isEntry ? "entry" : "func"},
                         {"range", rangeJson(analysis, report.nameRange, encoding_)},
                         {"registers", report.estimate.registers},
                         {"registersRange", {report.range.low, report.range.high}},
                         {"registersAfterSetmaxnreg", report.estimate.afterSetmaxnreg
                                                          ? json(report.estimate.afterSetmaxnreg)
                                                          : json(nullptr)},
                         {"maxLive", report.estimate.maxLiveUnits},
                         {"spills", report.estimate.spilledUnits},
                         {"budget", report.estimate.budget},
                         {"budgetReason", report.estimate.budgetReason},
                         {"peak", {{"range", rangeJson(analysis, function.peak, encoding_)}, {"live", function.liveAtPeak}}},
                         {"occupancy", std::move(occupancy)},
                         {"confidence", report.confidence},
                         {"summary", function.summary},
                         {"svg", function.svg}});
  }
  json at = view.at ? json(*view.at) : json(nullptr);
  return {{"uri", uri}, {"target", view.target}, {"functions", std::move(functions)}, {"at", std::move(at)}};
}

json Server::inlayHints(const Analysis& analysis, const json& params) {
  Range range = rangeOf(member(params, "range"));
  ByteRange bytes{offsetIn(analysis, range.start, encoding_), offsetIn(analysis, range.end, encoding_)};
  json result = json::array();
  // The estimate costs a moment per function: only when the user asked for these hints, and
  // only from a full analysis (an incremental one has one function's body).
  if (sessionSettings(documentUri(params)).liveRegisterHints && analysis.isFull()) {
    for (const LiveRegisterHint& hint : liveRegisterHints(analysis.result, analysis.registerEstimates(), bytes)) {
      result.push_back({{"position", toJson(positionAt(*analysis.text, analysis.lines, hint.offset, encoding_))},
                        {"label", hint.label},
                        {"paddingLeft", true},
                        {"tooltip", std::string(kLiveRegisterTooltip)}});
    }
  }
  for (const InlayHint& hint : ptx::lsp::inlayHints(*analysis.text, analysis.result, bytes)) {
    result.push_back({{"position", toJson(positionAt(*analysis.text, analysis.lines, hint.offset, encoding_))},
                      {"label", hint.label},
                      {"kind", static_cast<int>(hint.kind)},
                      {"paddingLeft", hint.paddingLeft},
                      {"paddingRight", hint.paddingRight}});
  }
  return result;
}

json Server::prepareRename(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  auto range = ptx::lsp::prepareRename(*analysis.text, analysis.result.module, offset);
  if (!range) return nullptr;
  return {{"range", rangeJson(analysis, *range, encoding_)},
          {"placeholder", analysis.text->substr(range->begin, range->end - range->begin)}};
}

json Server::rename(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  std::string newName = stringMember(params, "newName");
  RenameResult result = ptx::lsp::rename(*analysis.text, analysis.result.module, offset, newName);
  if (!result.ok()) throw RequestFailed(result.error);
  return {{"changes", {{documentUri(params), textEditsJson(analysis, result.edits, encoding_)}}}};
}

json Server::codeActions(const Analysis& analysis, const json& params) {
  std::string uri = documentUri(params);
  Range range = rangeOf(member(params, "range"));
  ByteRange bytes{offsetIn(analysis, range.start, encoding_), offsetIn(analysis, range.end, encoding_)};
  // Only quick fixes exist: a client asking for other kinds gets none.
  if (params.contains("context") && params["context"].contains("only") && params["context"]["only"].is_array()) {
    bool wantsQuickFix = false;
    for (const json& kind : params["context"]["only"]) {
      if (kind == "quickfix" || kind == "") wantsQuickFix = true;
    }
    if (!wantsQuickFix) return json::array();
  }
  const json* clientDiagnostics = nullptr;
  if (params.contains("context") && params["context"].contains("diagnostics") && params["context"]["diagnostics"].is_array()) {
    clientDiagnostics = &params["context"]["diagnostics"];
  }
  json result = json::array();
  for (const CodeAction& action : ptx::lsp::codeActions(*analysis.text, analysis.result, bytes)) {
    json diagnosticRange = rangeJson(analysis, action.diagnosticRange, encoding_);
    // Link the client's own copy of the diagnostic when it sent one (matched by code and range).
    json diagnostic;
    if (clientDiagnostics != nullptr) {
      for (const json& candidate : *clientDiagnostics) {
        if (candidate.value("code", json()) == action.rule && candidate.value("range", json()) == diagnosticRange) {
          diagnostic = candidate;
        }
      }
    }
    if (diagnostic.is_null()) {
      diagnostic = {{"range", diagnosticRange}, {"code", action.rule}, {"source", "ptxls"}, {"message", action.diagnosticMessage}};
    }
    json entry = {{"title", action.title},
                  {"kind", action.kind},
                  {"diagnostics", {diagnostic}},
                  {"edit", {{"changes", {{uri, textEditsJson(analysis, action.edits, encoding_)}}}}}};
    if (action.isPreferred) entry["isPreferred"] = true;
    result.push_back(std::move(entry));
  }
  return result;
}

json Server::formatting(const Analysis& analysis, const json& params) {
  std::string uri = documentUri(params);
  FormatOptions options;
  // The editor's indentation choice, unless the project fixed one (nvcc's PTX uses tabs).
  if (params.contains("options") && params["options"].is_object()) {
    const json& editor = params["options"];
    if (editor.contains("insertSpaces") && editor["insertSpaces"].is_boolean()) options.useTabs = !editor["insertSpaces"].get<bool>();
    if (editor.contains("tabSize") && editor["tabSize"].is_number_unsigned()) {
      options.indentWidth = std::min(16U, editor["tabSize"].get<unsigned>());
    }
  }
  const FormatSettings project = sessionSettings(uri).format;
  if (project.useTabs) options.useTabs = *project.useTabs;
  if (project.indentWidth) options.indentWidth = *project.indentWidth;
  if (project.maxBlankLines) options.maxBlankLines = *project.maxBlankLines;
  std::optional<ByteRange> bytes;
  if (params.contains("range")) {
    Range range = rangeOf(params["range"]);
    bytes = ByteRange{offsetIn(analysis, range.start, encoding_), offsetIn(analysis, range.end, encoding_)};
  }
  if (!analysis.result.tree.isComplete()) return json::array();  // Binary or oversized text.
  json result = json::array();
  for (const TextEdit& edit : formatEdits(*analysis.text, analysis.result.tree, options, bytes)) {
    result.push_back({{"range", rangeJson(analysis, edit.range, encoding_)}, {"newText", edit.newText}});
  }
  return result;
}

}  // namespace ptx::lsp
