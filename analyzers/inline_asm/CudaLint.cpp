// CudaLint: per device pass, extract → substitute → lint as PTX → map back → ASM rules.
#include "inline_asm/CudaLint.h"

#include <algorithm>
#include <future>
#include <memory>
#include <cctype>
#include <set>
#include <thread>
#include <tuple>
#include <unordered_set>

#include "cuda/AsmExtractor.h"
#include "cuda/AsmFragment.h"
#include "cuda/CppLexer.h"
#include "cuda/Preprocessor.h"
#include "host_api/HostCalls.h"
#include "inline_asm/AsmRuleContext.h"
#include "inline_asm/StatementPlacement.h"

namespace ptx {
namespace {

using cuda::Truth;

// nvcc 13.0 writes `.version 9.0` for every target.
constexpr std::string_view kPtxVersion = "9.0";

// What the host compiler predefines in nvcc's device passes too, for the build this linter
// assumes: 64-bit Linux on x86-64 with GCC 12 and nvcc's default C++17 (read off nvcc 13.0 with
// g++ 12 here: each is defined under __CUDA_ARCH__). Headers choose `"l"` or `"r"` address
// constraints on __LP64__.
const std::pair<std::string, std::string> kHostEnvironment[] = {
    {"__LP64__", "1"}, {"_LP64", "1"},           {"__x86_64__", "1"},      {"__linux__", "1"},
    {"__unix__", "1"}, {"__GNUC__", "12"},       {"__GNUC_MINOR__", "2"},  {"__cplusplus", "201703L"},
};

// The PTX rules that mean the same on a template as in a whole module, and so report on asm
// with their own codes. Left out: rules about a whole function or kernel (ABI, call sequences,
// races, synchronization, register estimates), which a fragment does not show, and SEM001
// (a template may name registers of the surrounding nvcc output).
bool reportsOnFragments(std::string_view code) {
  static constexpr std::string_view kCodes[] = {"SYN001", "SYN002", "SYN003", "SYN004", "SYN005", "SYN008",
                                                "SEM002", "SEM003", "ISA001", "ISA002", "ISA003", "ISA004",
                                                "ISA005", "ISA006", "ISA007", "ISA008", "ISA009", "ISA010",
                                                "ALN001", "ALN002", "ALN003", "ALN005", "ALN006", "ALN009",
                                                "SWZ001", "SWZ002"};
  return std::find(std::begin(kCodes), std::end(kCodes), code) != std::end(kCodes);
}

// Rules whose findings rest on values: a stand-in for an unknown `n` immediate must not feed them.
bool readsValues(std::string_view code) { return code.starts_with("ALN") || code.starts_with("SWZ"); }

LintOptions fragmentLintOptions(const LintOptions& user) {
  LintOptions options;
  options.parse = user.parse;
  options.parse.chunkBoundaries = false;  // The fragment module is built afresh, never reparsed.
  options.maxTextBytes = 0;
  options.threads = 1;
  // Every rule off but those that report on fragments (SkipWhenOff rules then do no work).
  for (const RuleMeta& meta : allRules()) {
    if (!reportsOnFragments(meta.code)) options.rules[std::string(meta.code)].enabled = false;
  }
  return options;
}

// A missing ';' found at the next line's instruction (`cp.async.commit_group` then
// `cp.async.wait_group 0;`: the parser reads `cp` as an operand and stops at `.async`) is
// placed where the ';' belongs: right after the last character of the previous line.
ByteRange missingSemicolonAt(const Diagnostic& finding, std::string_view text, std::uint32_t bodyBegin) {
  if (finding.rule != "SYN002" || finding.message.find("';'") == std::string::npos) return finding.range;
  std::uint32_t at = finding.range.begin;
  while (at > bodyBegin && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_' || text[at - 1] == '.' ||
                            text[at - 1] == ' ' || text[at - 1] == '\t'))
    --at;
  if (at <= bodyBegin || text[at - 1] != '\n') return finding.range;
  while (at > bodyBegin && std::isspace(static_cast<unsigned char>(text[at - 1]))) --at;
  return {at, at};
}

// A PTX finding of the synthesized module as a finding in the source, or nullopt when it lies
// outside every template (the wrapper the pipeline wrote cannot be wrong).
std::optional<Diagnostic> mapToSource(const Diagnostic& finding, const cuda::FragmentModule& fragments,
                                      const std::vector<CheckedStatement>& checked,
                                      const std::vector<std::uint32_t>& checkedOfStatement) {
  const cuda::FragmentModule::Entry* entry = fragments.entryAt(finding.range.begin);
  if (!entry) return std::nullopt;
  if (checkedOfStatement[entry->statement] == UINT32_MAX) return std::nullopt;  // Host code.
  const CheckedStatement& statement = checked[checkedOfStatement[entry->statement]];
  if (statement.substituted.pastedUnknownImmediate && readsValues(finding.rule)) return std::nullopt;
  auto toSource = [&](ByteRange range) {
    // A missing token (`;`) belongs after the previous one, not at the next line's start.
    if (range.begin == range.end) {
      while (range.begin > entry->bodyBegin && std::isspace(static_cast<unsigned char>(fragments.text[range.begin - 1])))
        --range.begin;
      range.end = range.begin;
    }
    std::uint32_t begin = std::clamp(range.begin, entry->bodyBegin, entry->bodyEnd) - entry->bodyBegin;
    std::uint32_t end = std::clamp(range.end, entry->bodyBegin, entry->bodyEnd) - entry->bodyBegin;
    auto [tb, te] = entry->substituted.templateRangeOf(begin, end);
    if (statement.statement->templateText.empty()) return statement.statement->templateRange;
    ByteRange source = statement.statement->sourceOfTemplate(tb, te);
    if (te == tb) source.end = source.begin;
    return source;
  };
  Diagnostic mapped = finding;
  mapped.range = toSource(missingSemicolonAt(finding, fragments.text, entry->bodyBegin));
  mapped.related.clear();
  for (const RelatedInformation& related : finding.related) {
    if (fragments.entryAt(related.range.begin) == entry) mapped.related.push_back({toSource(related.range), related.message});
  }
  // A fix carries over only where its bytes map one to one onto plain template characters.
  mapped.fixes.clear();
  for (const Fix& fix : finding.fixes) {
    Fix carried{fix.title, {}, fix.isPreferred};
    bool exact = true;
    for (const FixEdit& edit : fix.edits) {
      if (edit.range.begin < entry->bodyBegin || edit.range.end > entry->bodyEnd) {
        exact = false;
        break;
      }
      ByteRange source = toSource(edit.range);
      bool plain = source.end - source.begin == edit.range.end - edit.range.begin;
      for (char c : edit.newText) plain = plain && c != '"' && c != '\\' && c != '\n';
      if (!plain) {
        exact = false;
        break;
      }
      carried.edits.push_back({source, edit.newText});
    }
    if (exact) mapped.fixes.push_back(std::move(carried));
  }
  return mapped;
}

// The inline-asm rules, expanded from Rules.def.
struct AsmRuleEntry {
  void (*check)(const AsmRuleContext&);
  std::string_view code;
  bool optIn;
};
#define PTX_SOURCE_CHECK_InlineAsm(code, check, when) {check, #code, std::string_view(#when) == "OptIn"},
#define PTX_SOURCE_CHECK_HostCalls(code, check, when)
#define PTX_RULE(code, name, category, severity, check, reads, when, summary)
#define PTX_SOURCE_RULE(code, name, category, severity, check, reads, when, summary) \
  PTX_SOURCE_CHECK_##reads(code, check, when)
constexpr AsmRuleEntry kAsmRules[] = {
#include "Rules.def"
};
#undef PTX_SOURCE_CHECK_InlineAsm
#undef PTX_SOURCE_CHECK_HostCalls

bool asmRuleRuns(const AsmRuleEntry& rule, const LintOptions& options) {
  auto it = options.rules.find(rule.code);
  if (rule.optIn) return it != options.rules.end() && it->second.enabled;
  return it == options.rules.end() || it->second.enabled;
}

// Why ptxas may never see a statement (empty: it sees it whenever the file is compiled for the
// pass): an error there is reported as a warning, since the build need not fail.
// The names the pass compiles outside directives (where a macro is expanded), gathered once
// when a finding in a macro body first asks.
class ExpandedNames {
 public:
  ExpandedNames(const cuda::LexedSource& source, const cuda::PassView& view) : source_(source), view_(view) {}
  bool contains(const std::string& name) {
    if (!names_) {
      names_.emplace();
      const auto& tokens = source_.tokens();
      for (std::uint32_t i = 0; i < tokens.size(); ++i) {
        if (tokens[i].directive != cuda::kNoDirective || tokens[i].kind != cuda::TokenKind::Identifier) continue;
        if (view_.activity(i) != Truth::False) names_->insert(source_.spelling(tokens[i]));
      }
    }
    return names_->contains(name);
  }

 private:
  const cuda::LexedSource& source_;
  const cuda::PassView& view_;
  std::optional<std::unordered_set<std::string>> names_;
};

std::string_view whyMaybeNotEmitted(const CheckedStatement& checked, ExpandedNames& expanded) {
  const cuda::AsmStatement& statement = *checked.statement;
  if (statement.activity != Truth::True) return "when the #if conditions around it hold";
  if (statement.macroName) return expanded.contains(*statement.macroName) ? std::string_view() : "when the macro is expanded";
  if (checked.placement.deviceUnknown) return "when its function is device code (its qualifiers come from a macro of another header)";
  if (checked.placement.reachedByKernel == Truth::False) return "when a kernel calls its function";
  if (checked.placement.isTemplate && checked.placement.reachedByKernel != Truth::True)
    return "when the template is instantiated";
  return {};
}

void downgradeWhereNotEmitted(std::vector<Diagnostic>& out, const std::vector<CheckedStatement>& checked,
                              const cuda::LexedSource& source, const cuda::PassView& view) {
  // The statement a finding belongs to: the one whose text holds it (statements are in source
  // order and disjoint), else one whose template has bytes from a macro's #define there.
  std::vector<ByteRange> macroBytes(checked.size(), ByteRange{UINT32_MAX, 0});
  for (std::size_t s = 0; s < checked.size(); ++s) {
    const cuda::AsmStatement& statement = *checked[s].statement;
    for (std::uint32_t byte : statement.templateSource) {
      if (byte >= statement.range.begin && byte < statement.range.end) continue;
      macroBytes[s].begin = std::min(macroBytes[s].begin, byte);
      macroBytes[s].end = std::max(macroBytes[s].end, byte + 1);
    }
  }
  auto owner = [&](std::uint32_t offset) -> const CheckedStatement* {
    auto after = std::upper_bound(checked.begin(), checked.end(), offset,
                                  [](std::uint32_t o, const CheckedStatement& c) { return o < c.statement->range.begin; });
    if (after != checked.begin() && offset < std::prev(after)->statement->range.end) return &*std::prev(after);
    for (std::size_t s = 0; s < checked.size(); ++s)
      if (macroBytes[s].begin <= offset && offset < macroBytes[s].end) return &checked[s];
    return nullptr;
  };
  ExpandedNames expanded(source, view);
  for (Diagnostic& diagnostic : out) {
    if (diagnostic.severity != Severity::Error) continue;
    const CheckedStatement* statement = owner(diagnostic.range.begin);
    if (!statement) continue;
    std::string_view why = whyMaybeNotEmitted(*statement, expanded);
    if (!why.empty()) {
      diagnostic.severity = Severity::Warning;
      diagnostic.message = concat({diagnostic.message, " (a warning: ptxas sees this statement only ", why, ")"});
    }
  }
}

// One pass's work that needs no C++ structure: its preprocessing, its statements and the lint
// of their templates. It runs while the CUDA grammar parses the text.
struct PassWork {
  const cuda::DevicePass* pass = nullptr;
  cuda::PassView view;
  std::vector<cuda::AsmStatement> statements;
  cuda::FragmentModule fragments;
  LintResult fragmentLint;
};

PassWork preparePass(const cuda::LexedSource& source, const cuda::DevicePass& pass, std::span<const cuda::DevicePass> passes,
                     const CudaLintOptions& cudaOptions) {
  PassWork work;
  work.pass = &pass;
  work.view = cuda::evaluatePass(source, macrosForPass(pass, passes, cudaOptions.defines));
  for (cuda::AsmStatement& statement : cuda::extractAsmStatements(source, work.view)) {
    if (const auto& only = cudaOptions.onlyStatementsIn;
        only && (statement.keyword.begin < only->begin || statement.keyword.begin >= only->end))
      continue;
    // A macro body under conditions we cannot decide may be another target's asm (x86, ARM).
    if (statement.macroName && statement.activity != Truth::True) continue;
    work.statements.push_back(std::move(statement));
  }
  work.fragments = cuda::buildFragmentModule(work.statements, pass.ptxTarget(), kPtxVersion);
  work.fragmentLint = lintText(work.fragments.text, fragmentLintOptions(cudaOptions.lint));
  return work;
}

// The pass's diagnostics, once the outline says where each statement sits. `statementsOut`
// receives the statements that are device code.
std::vector<Diagnostic> checkPass(std::string_view text, const cuda::LexedSource& source, PassWork& work,
                                  SourceOutline& outline, const LintOptions& options,
                                  std::vector<cuda::AsmStatement>& statementsOut) {
  outline.setPass(work.view);
  const cuda::FragmentModule& fragments = work.fragments;
  const LintResult& fragmentLint = work.fragmentLint;

  // Statements whose template does not read as PTX: an unknown opcode or a syntax error in its
  // fragment, or a constraint nvcc rejects in device code (x86's "a", "m", "i" ...).
  std::vector<bool> readsAsPtx(work.statements.size(), true);
  for (const Diagnostic& finding : fragmentLint.diagnostics) {
    if (finding.rule != "ISA001" && !finding.rule.starts_with("SYN")) continue;
    if (const cuda::FragmentModule::Entry* entry = fragments.entryAt(finding.range.begin)) readsAsPtx[entry->statement] = false;
  }
  for (std::uint32_t s = 0; s < work.statements.size(); ++s)
    for (const cuda::AsmOperand& operand : work.statements[s].operands)
      if (operand.kind == cuda::ConstraintKind::Unsupported) readsAsPtx[s] = false;

  // Statements in functions the device never compiles (host-only) are not PTX; nor are those
  // of functions that may be host code (qualifiers from another header's macro) and do not
  // read as PTX.
  std::vector<CheckedStatement> checked;
  std::vector<std::uint32_t> checkedOfStatement(work.statements.size(), UINT32_MAX);
  for (std::uint32_t s = 0; s < work.statements.size(); ++s) {
    StatementPlacement placement = outline.placementOf(work.statements[s]);
    if (placement.isHostOnly || (placement.deviceUnknown && !readsAsPtx[s])) continue;
    checkedOfStatement[s] = static_cast<std::uint32_t>(checked.size());
    CheckedStatement& c = checked.emplace_back();
    c.statement = &work.statements[s];
    c.placement = std::move(placement);
  }
  for (const cuda::FragmentModule::Entry& entry : fragments.entries) {
    if (checkedOfStatement[entry.statement] == UINT32_MAX) continue;
    CheckedStatement& c = checked[checkedOfStatement[entry.statement]];
    c.entry = &entry;
    c.substituted = entry.substituted;
  }
  for (CheckedStatement& c : checked) {
    if (!c.entry && !c.statement->opaqueReason) c.substituted = cuda::substituteOperands(*c.statement);
  }
  // The fragment module's functions, in order, are the entries' functions.
  {
    std::size_t next = 0;
    const Module& module = fragmentLint.module;
    for (std::uint32_t f = 0; f < module.functions.size() && next < fragments.entries.size(); ++f) {
      const FunctionInfo& function = module.functions[f];
      if (function.bodyScope == kNoScope) continue;
      ByteRange scope = module.scopes[function.bodyScope].range;
      while (next < fragments.entries.size() && fragments.entries[next].bodyEnd < scope.begin) ++next;
      if (next < fragments.entries.size() && scope.begin <= fragments.entries[next].bodyBegin &&
          fragments.entries[next].bodyEnd <= scope.end) {
        std::uint32_t index = checkedOfStatement[fragments.entries[next].statement];
        if (index != UINT32_MAX) checked[index].fragmentFunction = f;
        ++next;
      }
    }
  }

  std::vector<Diagnostic> out;
  for (const Diagnostic& finding : fragmentLint.diagnostics) {
    if (finding.rule == "ISA003") continue;  // ASM013 says it with the pass and only where the pass reaches.
    if (!reportsOnFragments(finding.rule)) continue;
    if (auto mapped = mapToSource(finding, fragments, checked, checkedOfStatement)) out.push_back(std::move(*mapped));
  }

  AsmRuleContext context{text, source, *work.pass, checked, checkedOfStatement, fragments, fragmentLint, out};
  for (const AsmRuleEntry& rule : kAsmRules) {
    if (asmRuleRuns(rule, options)) rule.check(context);
  }
  downgradeWhereNotEmitted(out, checked, source, work.view);
  for (std::uint32_t s = 0; s < work.statements.size(); ++s)
    if (checkedOfStatement[s] != UINT32_MAX) statementsOut.push_back(work.statements[s]);
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> macrosForPass(const cuda::DevicePass& pass,
                                                               std::span<const cuda::DevicePass> compilation,
                                                               const std::vector<std::pair<std::string, std::string>>& defines) {
  std::vector<std::pair<std::string, std::string>> macros = pass.macros(compilation);
  macros.insert(macros.end(), std::begin(kHostEnvironment), std::end(kHostEnvironment));
  macros.insert(macros.end(), defines.begin(), defines.end());
  return macros;
}

bool isCudaSourcePath(std::string_view path) {
  static constexpr std::string_view kExtensions[] = {".cu", ".cuh", ".h", ".hpp", ".hh", ".hxx", ".inl", ".inc", ".cuinl"};
  for (std::string_view extension : kExtensions)
    if (path.ends_with(extension)) return true;
  return false;
}

CudaLintResult lintCudaText(std::string_view text, const CudaLintOptions& options) {
  CudaLintResult result;
  if (looksBinary(text)) {
    Diagnostic binary;
    binary.rule = "SYN006";
    binary.severity = Severity::Error;
    binary.category = Category::Syntax;
    binary.range = {0, 0};
    binary.message = "This file holds NUL bytes: it is not a CUDA source text, so its inline PTX was not checked.";
    result.diagnostics.push_back(std::move(binary));
    applyRuleSettings(result.diagnostics, options.lint);
    return result;
  }
  if (options.lint.maxTextBytes != 0 && text.size() > options.lint.maxTextBytes) {
    Diagnostic large;
    large.rule = "SYN007";
    large.severity = Severity::Information;  // The size is no defect of the file.
    large.category = Category::Syntax;
    large.range = {0, 0};
    large.message = "This file is larger than the size limit; its inline PTX was not checked.";
    result.diagnostics.push_back(std::move(large));
    applyRuleSettings(result.diagnostics, options.lint);
    return result;
  }

  cuda::LexedSource source(text);
  result.passes = options.passes.empty() ? cuda::defaultPasses(cuda::guardArchitectures(source)) : options.passes;
  // The CUDA grammar's parse (the outline) is the larger half of the work and the passes need it
  // only to place their statements: with threads to spare, it runs beside them, a long text
  // parsed in pieces at once.
  const unsigned threads = options.lint.threads == 0 ? std::max(1u, std::thread::hardware_concurrency()) : options.lint.threads;
  auto makeOutline = [&] {
    return std::make_unique<SourceOutline>(text, source, result.passes, options.tree, threads);
  };
  std::future<std::unique_ptr<SourceOutline>> outlineFuture;
  std::unique_ptr<SourceOutline> outline;
  if (options.lint.threads != 1 && options.tree == nullptr) outlineFuture = std::async(std::launch::async, makeOutline);
  else outline = makeOutline();
  std::vector<PassWork> work;
  work.reserve(result.passes.size());
  for (const cuda::DevicePass& pass : result.passes) work.push_back(preparePass(source, pass, result.passes, options));
  if (outlineFuture.valid()) outline = outlineFuture.get();

  std::set<std::tuple<std::uint32_t, std::uint32_t, std::string, std::string>> seen;
  std::set<std::uint32_t> statementsSeen;
  for (PassWork& pass : work) {
    std::vector<cuda::AsmStatement> statements;
    for (Diagnostic& diagnostic : checkPass(text, source, pass, *outline, options.lint, statements)) {
      if (seen.insert({diagnostic.range.begin, diagnostic.range.end, diagnostic.rule, diagnostic.message}).second)
        result.diagnostics.push_back(std::move(diagnostic));
    }
    for (cuda::AsmStatement& statement : statements) {
      if (statementsSeen.insert(statement.keyword.begin).second) result.firstPassStatements.push_back(std::move(statement));
    }
  }
  std::sort(result.firstPassStatements.begin(), result.firstPassStatements.end(),
            [](const cuda::AsmStatement& a, const cuda::AsmStatement& b) { return a.keyword.begin < b.keyword.begin; });
  result.statements = statementsSeen.size();
  checkHostCalls(text, source, kHostEnvironment, options, result.diagnostics);  // Once per file: host code has no passes.
  applyRuleSettings(result.diagnostics, options.lint);
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.range.begin, a.range.end, a.rule) < std::tie(b.range.begin, b.range.end, b.rule);
  });
  return result;
}

}  // namespace ptx
