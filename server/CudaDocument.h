// CudaDocument: how the server analyzes a CUDA source (.cu, .cuh, C/C++ headers) — which open
// documents are CUDA, the device passes each is checked for, and the analysis of a snapshot.
//
// Only the inline PTX of a CUDA document is ours (the rest is clangd's): its analysis is the
// inline-asm lint (lintCudaText), whose diagnostics go in the Analysis's LintResult as a PTX
// document's do, and a CudaAnalysis beside it with the asm statements the editor features read.
//
// A snapshot is analyzed over a CUDA syntax tree reparsed incrementally from the previous one.
// When every edit since the previous analysis stayed inside one asm statement and changed only
// its string literals (the template being typed), only that statement is checked again and every
// other finding is reused, shifted; the result is marked incremental (LintResult::focus is the
// statement) so that a full analysis follows once the document is quiet, as for PTX.
//
// Passes come from the most explicit place that gives them, as for ptxlint (cli/CudaFiles.h):
// the settings' `cuda.arch` (the client's, overlaid with `.ptxls.json`), then the document's
// compile_commands.json, then the file's own `#if` guards.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "CompileCommands.h"
#include "CudaSetup.h"
#include "Document.h"
#include "cuda/AsmStatement.h"
#include "cuda/CudaSyntax.h"
#include "cuda/DevicePasses.h"

namespace ptx::lsp {

// Whether an opened document is CUDA C++ rather than PTX: by the client's languageId ("cuda",
// "cuda-cpp", "cpp", "c"; "ptx" is PTX), else by the extension of the URI's path.
bool isCudaDocument(std::string_view languageId, std::string_view uri);

// The device passes and build macros one CUDA document is checked with (config/CudaSetup.h).
using CudaSetup = config::CudaSetup;

// Finds each CUDA document's setup. Loaded compile_commands.json files are kept and read again
// only when they change on disk (a project has one for hundreds of files). Thread-safe.
class CudaSetupFinder {
 public:
  CudaSetup setupFor(std::string_view uri, const std::vector<std::string>& cudaArch);

 private:
  struct Loaded {
    std::filesystem::file_time_type modified;
    std::shared_ptr<const config::CompilationDatabase> database;
  };
  std::shared_ptr<const config::CompilationDatabase> load(const std::filesystem::path& path);

  std::mutex mutex_;
  std::map<std::filesystem::path, Loaded> databases_;
};

// What a CUDA document's analysis holds beside its diagnostics.
struct CudaAnalysis {
  cuda::CudaSyntaxTree tree;  // Of the analysis's text: the base of the next reparse.
  // Every asm statement the device compiles, in source order, as the first pass that compiles
  // it sees it (CudaLintResult::firstPassStatements).
  std::vector<cuda::AsmStatement> statements;
  std::vector<cuda::DevicePass> passes;  // The passes checked.

  // The `.target` the editor features read templates for: the first pass's.
  std::string ptxTarget() const;
};

// The analysis of `snapshot`: incremental where the edits allow it (see the file comment),
// else full. `base` is the document's previous analysis (null: none); `relint` asks for a full
// check even when nothing changed (new settings).
std::shared_ptr<Analysis> analyzeCudaSnapshot(const Snapshot& snapshot, const std::shared_ptr<const Analysis>& base,
                                              const LintOptions& lint, const CudaSetup& setup, bool relint);

// A full analysis of the text `base` analyzed, reusing its tree (the full analysis that follows
// an incremental one).
std::shared_ptr<Analysis> analyzeCudaFully(const Analysis& base, const LintOptions& lint, const CudaSetup& setup);

// The re-check of one edited asm statement: when every change in `change` (from `previous`'s
// text to `newText`) lies inside the parentheses of one statement of `previous` and changed
// nothing there but the contents of string literals (and blanks or comments), the analysis of
// `newText` made from that statement's new findings and every other finding of `previous`,
// shifted; nullopt otherwise (also for a statement inside a #define, and for one whose template
// takes bytes from a macro's body while a finding lies there: it may be this statement's). `newTree` is the reparse of `newText`. The diagnostics equal those
// of a full analysis (tests/server/cuda_incremental_test.cpp checks it over the CUDA cases).
std::optional<std::pair<LintResult, CudaAnalysis>> relintCudaStatement(std::string_view newText,
                                                                       cuda::CudaSyntaxTree newTree,
                                                                       const Analysis& previous, ChangedSpan change,
                                                                       const LintOptions& lint, const CudaSetup& setup);

}  // namespace ptx::lsp
