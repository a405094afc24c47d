// CudaDocument: CUDA documents' passes, and their analyses, full or one edited statement at a time.
#include "CudaDocument.h"

#include <algorithm>
#include <tuple>

#include "Settings.h"
#include "cuda/CppLexer.h"
#include "inline_asm/CudaLint.h"

namespace ptx::lsp {
namespace {

namespace fs = std::filesystem;

cuda::CudaParseOptions parseOptionsFor(const LintOptions& lint) {
  cuda::CudaParseOptions options;
  options.parse = lint.parse;
  if (lint.maxTextBytes != 0) options.maxTextBytes = lint.maxTextBytes;
  return options;
}

CudaLintOptions lintOptionsFor(const LintOptions& lint, const CudaSetup& setup, const cuda::CudaSyntaxTree& tree) {
  CudaLintOptions options;
  options.passes = setup.passes;
  options.defines = setup.defines;
  options.lint = lint;
  options.lint.threads = 1;  // The server's workers analyze documents side by side.
  options.tree = &tree;
  return options;
}

std::shared_ptr<Analysis> makeAnalysis(const std::shared_ptr<const std::string>& text, std::int64_t version,
                                       const LineIndex& lines, LintResult result, CudaAnalysis cuda) {
  auto analysis = std::make_shared<Analysis>(text, version, std::move(result), lines);
  analysis->cuda = std::make_shared<const CudaAnalysis>(std::move(cuda));
  return analysis;
}

std::pair<LintResult, CudaAnalysis> analyzeFully(std::string_view text, cuda::CudaSyntaxTree tree, const LintOptions& lint,
                                                 const CudaSetup& setup) {
  CudaLintResult linted = lintCudaText(text, lintOptionsFor(lint, setup, tree));
  LintResult result;
  result.diagnostics = std::move(linted.diagnostics);
  CudaAnalysis cuda{std::move(tree), std::move(linted.firstPassStatements), std::move(linted.passes)};
  return {std::move(result), std::move(cuda)};
}

// Offsets of the old text in the new one: bytes after the change move by its growth.
struct Shift {
  ChangedSpan change;
  std::uint32_t operator()(std::uint32_t offset) const {
    return offset >= change.oldEnd ? offset - change.oldEnd + change.newEnd : offset;
  }
  ByteRange operator()(ByteRange range) const { return {(*this)(range.begin), (*this)(range.end)}; }
};

void shiftStatement(cuda::AsmStatement& statement, const Shift& shift) {
  statement.range = shift(statement.range);
  statement.keyword = shift(statement.keyword);
  statement.templateRange = shift(statement.templateRange);
  statement.opaqueRange = shift(statement.opaqueRange);
  for (std::uint32_t& offset : statement.templateSource) offset = shift(offset);
  for (cuda::AsmOperand& operand : statement.operands) {
    operand.constraint = shift(operand.constraint);
    operand.letterOffset = shift(operand.letterOffset);
    operand.expression = shift(operand.expression);
  }
  for (cuda::AsmClobber& clobber : statement.clobbers) clobber.range = shift(clobber.range);
}

void shiftDiagnostic(Diagnostic& diagnostic, const Shift& shift) {
  diagnostic.range = shift(diagnostic.range);
  for (RelatedInformation& related : diagnostic.related) related.range = shift(related.range);
  for (Fix& fix : diagnostic.fixes)
    for (FixEdit& edit : fix.edits) edit.range = shift(edit.range);
}

// Whether two lexings of one statement differ only inside string literals: the same tokens,
// of the same kinds, with the same spelling except for the strings' contents. Blanks and
// comments may differ. Tokens are compared by spelling, so nothing else can have moved.
bool differOnlyInStrings(std::string_view before, std::string_view after) {
  cuda::LexedSource old(before);
  cuda::LexedSource now(after);
  const auto& a = old.tokens();
  const auto& b = now.tokens();
  if (a.size() != b.size() || old.directives().size() != now.directives().size()) return false;
  std::string scratchA, scratchB;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k].kind != b[k].kind || a[k].raw != b[k].raw || a[k].unterminated || b[k].unterminated ||
        (a[k].directive == cuda::kNoDirective) != (b[k].directive == cuda::kNoDirective))
      return false;
    if (a[k].kind == cuda::TokenKind::String && a[k].directive == cuda::kNoDirective) continue;
    if (old.spellingView(a[k], scratchA) != now.spellingView(b[k], scratchB)) return false;
  }
  return true;
}

// The source bytes of a statement's template that lie outside its parentheses (macro bodies),
// merged into ranges.
std::vector<ByteRange> templateBytesOutside(const cuda::AsmStatement& statement) {
  std::vector<ByteRange> out;
  for (std::size_t k = 0; k < statement.templateSource.size(); ++k) {
    std::uint32_t at = statement.templateSource[k];
    if (at >= statement.range.begin && at < statement.range.end) continue;
    ByteRange bytes{at, at + statement.templateSourceWidth[k]};
    if (!out.empty() && out.back().end == bytes.begin) {
      out.back().end = bytes.end;
    } else {
      out.push_back(bytes);
    }
  }
  return out;
}

bool startsIn(const Diagnostic& diagnostic, const std::vector<ByteRange>& ranges) {
  return std::any_of(ranges.begin(), ranges.end(), [&](ByteRange range) {
    return range.begin <= diagnostic.range.begin && diagnostic.range.begin < range.end;
  });
}

}  // namespace

bool isCudaDocument(std::string_view languageId, std::string_view uri) {
  if (languageId == "ptx") return false;
  if (languageId == "cuda" || languageId == "cuda-cpp" || languageId == "cpp" || languageId == "c") return true;
  std::string_view path = uri.substr(0, uri.find_first_of("?#"));
  return isCudaSourcePath(path);
}

std::shared_ptr<const config::CompilationDatabase> CudaSetupFinder::load(const fs::path& path) {
  std::error_code error;
  fs::file_time_type modified = fs::last_write_time(path, error);
  std::lock_guard lock(mutex_);
  auto it = databases_.find(path);
  if (it != databases_.end() && !error && it->second.modified == modified) return it->second.database;
  auto database = std::make_shared<const config::CompilationDatabase>(config::loadCompilationDatabase(path));
  databases_[path] = {modified, database};
  return database;
}

CudaSetup CudaSetupFinder::setupFor(std::string_view uri, const std::vector<std::string>& cudaArch) {
  std::optional<config::ArchChoice> chosen;
  if (!cudaArch.empty())
    chosen = config::ArchChoice{cuda::passesForArchNames(cudaArch, "cuda.arch "), "cuda.arch", "the cuda.arch setting"};
  std::optional<config::CudaTargets> targets;
  if (std::optional<fs::path> path = config::pathOfUri(uri)) {
    if (std::optional<fs::path> found = config::findCompilationDatabase(*path))
      targets = config::cudaTargetsFor(*path, *load(*found));
  }
  return config::resolveCudaSetup(chosen, targets ? &*targets : nullptr);
}

std::string CudaAnalysis::ptxTarget() const { return passes.empty() ? std::string("sm_80") : passes.front().ptxTarget(); }

std::optional<std::pair<LintResult, CudaAnalysis>> relintCudaStatement(std::string_view newText,
                                                                       cuda::CudaSyntaxTree newTree,
                                                                       const Analysis& previous, ChangedSpan change,
                                                                       const LintOptions& lint, const CudaSetup& setup) {
  if (!previous.cuda || !newTree.isComplete()) return std::nullopt;
  const std::vector<cuda::AsmStatement>& statements = previous.cuda->statements;
  // The statement whose parentheses hold the change (statements do not nest).
  auto after = std::upper_bound(statements.begin(), statements.end(), change.begin,
                                [](std::uint32_t offset, const cuda::AsmStatement& s) { return offset < s.keyword.end; });
  if (after == statements.begin()) return std::nullopt;
  const cuda::AsmStatement& edited = *std::prev(after);
  if (change.begin < edited.keyword.end || change.oldEnd >= edited.range.end) return std::nullopt;
  // Its findings lie inside it or, for template bytes from a macro defined in the file, in the
  // #define (found once there for every statement that expands it). A statement in a #define is
  // every expansion's: not re-checked alone.
  if (edited.macroName) return std::nullopt;
  std::vector<ByteRange> elsewhere = templateBytesOutside(edited);
  for (const Diagnostic& diagnostic : previous.result.diagnostics)
    if (startsIn(diagnostic, elsewhere)) return std::nullopt;  // Perhaps the edited statement's.

  Shift shift{change};
  ByteRange newRange = shift(edited.range);
  std::string_view oldText = std::string_view(*previous.text).substr(edited.range.begin, edited.range.end - edited.range.begin);
  if (newRange.end > newText.size() ||
      !differOnlyInStrings(oldText, newText.substr(newRange.begin, newRange.end - newRange.begin)))
    return std::nullopt;

  CudaLintOptions options = lintOptionsFor(lint, setup, newTree);
  options.passes = previous.cuda->passes;  // The guards decide the same passes: no directive changed.
  options.onlyStatementsIn = edited.keyword;
  CudaLintResult linted = lintCudaText(newText, options);

  LintResult result;
  for (const Diagnostic& diagnostic : previous.result.diagnostics) {
    if (startsIn(diagnostic, {edited.range})) continue;
    result.diagnostics.push_back(diagnostic);
    shiftDiagnostic(result.diagnostics.back(), shift);
  }
  std::vector<ByteRange> shiftedElsewhere;
  for (ByteRange range : elsewhere) shiftedElsewhere.push_back(shift(range));
  std::size_t reused = result.diagnostics.size();
  for (Diagnostic& diagnostic : linted.diagnostics) {
    if (startsIn(diagnostic, {newRange})) {
      result.diagnostics.push_back(std::move(diagnostic));
    } else if (startsIn(diagnostic, shiftedElsewhere)) {
      // Reported once however many statements expand the macro (as lintCudaText does).
      auto same = [&](const Diagnostic& other) {
        return other.range == diagnostic.range && other.rule == diagnostic.rule && other.message == diagnostic.message;
      };
      if (std::none_of(result.diagnostics.begin(), result.diagnostics.begin() + static_cast<std::ptrdiff_t>(reused), same))
        result.diagnostics.push_back(std::move(diagnostic));
    }
  }
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.range.begin, a.range.end, a.rule) < std::tie(b.range.begin, b.range.end, b.rule);
  });
  result.focus = newRange;

  CudaAnalysis cuda;
  cuda.passes = previous.cuda->passes;
  cuda.statements.reserve(statements.size());
  for (const cuda::AsmStatement& statement : statements) {
    if (&statement == &edited) {
      for (cuda::AsmStatement& fresh : linted.firstPassStatements) cuda.statements.push_back(std::move(fresh));
      continue;
    }
    cuda.statements.push_back(statement);
    shiftStatement(cuda.statements.back(), shift);
  }
  cuda.tree = std::move(newTree);
  return std::make_pair(std::move(result), std::move(cuda));
}

std::shared_ptr<Analysis> analyzeCudaSnapshot(const Snapshot& snapshot, const std::shared_ptr<const Analysis>& base,
                                              const LintOptions& lint, const CudaSetup& setup, bool relint) {
  const std::string& text = *snapshot.text;
  cuda::CudaParseOptions parse = parseOptionsFor(lint);
  bool reusable = !snapshot.fresh && base && base->cuda && base->cuda->tree.isComplete();
  cuda::CudaSyntaxTree tree;
  if (!reusable) {
    tree = cuda::parseCudaSyntax(text, parse);
  } else if (snapshot.edits.empty()) {
    tree = base->cuda->tree;
  } else {
    tree = cuda::reparseCudaSyntax(base->cuda->tree, text, snapshot.edits, parse);
  }
  if (reusable && snapshot.changed && !relint) {
    if (auto quick = relintCudaStatement(text, tree, *base, *snapshot.changed, lint, setup)) {
      return makeAnalysis(snapshot.text, snapshot.version, *snapshot.lines, std::move(quick->first),
                          std::move(quick->second));
    }
  }
  auto [result, cuda] = analyzeFully(text, std::move(tree), lint, setup);
  return makeAnalysis(snapshot.text, snapshot.version, *snapshot.lines, std::move(result), std::move(cuda));
}

std::shared_ptr<Analysis> analyzeCudaFully(const Analysis& base, const LintOptions& lint, const CudaSetup& setup) {
  cuda::CudaSyntaxTree tree = base.cuda && base.cuda->tree.isComplete()
                                  ? base.cuda->tree
                                  : cuda::parseCudaSyntax(*base.text, parseOptionsFor(lint));
  auto [result, cuda] = analyzeFully(*base.text, std::move(tree), lint, setup);
  return makeAnalysis(base.text, base.version, base.lines, std::move(result), std::move(cuda));
}

}  // namespace ptx::lsp
