// CudaExactMode: the server's opt-in exact mode (setting `cuda.exactMode`, client settings only)
// — nvcc and ptxas run on a saved CUDA document's file (oracle/ExactDiagnostics), on a thread of
// their own, and what they say is published with the document's inline-asm diagnostics, with
// ptxas -v's figures as code lenses on its kernels (features/CudaKernelLenses.h).
//
// A run is asked for on open and on save (Session::exactWanted) and queued once the document's
// newest version has a full analysis, for that version's text; nvcc compiles the file on disk,
// so the job first checks that the file still holds that text (an unsaved edit: no run). As
// with the verify lens, runs go one at a time, a newer request for a document replaces a queued
// older one (BackgroundQueue.h), every nvcc and ptxas step is an argument vector with a 60 s timeout, and results
// are kept by document version and text hash, so an edit makes them stale until the next save.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "ExactDiagnostics.h"

namespace ptx::lsp {

// The hash an exact-mode run and an analysis are matched by (with the version).
std::uint64_t exactTextHash(std::string_view text);

struct ExactModeJob {
  std::string uri;
  std::int64_t version = 0;
  std::shared_ptr<const std::string> text;  // The analyzed text, which must be the file's.
  oracle::ExactRequest request;
};

// Runs a job on the queue's thread: exact mode on the job's file when it still holds the job's
// text (nvcc would compile something else otherwise), with the PTX dropped from the report (the
// lenses need only the figures); nullopt when the file differs (nothing ran).
std::optional<oracle::ExactReport> runExactModeJob(const ExactModeJob& job);

}  // namespace ptx::lsp
