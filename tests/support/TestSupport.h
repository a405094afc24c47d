// TestSupport: paths, file reading and small helpers shared by the test files.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diag/Diagnostic.h"

namespace ptx::test {

std::filesystem::path sourceDir();
// The shared folder (external corpus, tools), or nullopt when it is absent.
std::optional<std::filesystem::path> sharedDir();

std::string readFile(const std::filesystem::path& path);
// Reads `path`, decompressing `.xz` files with the xz tool.
std::string readMaybeCompressed(const std::filesystem::path& path);

// Runs a shell command; returns its exit status and captures stdout.
int runCommand(const std::string& command, std::string& output);

// All diagnostics from linting `text` with default options.
std::vector<Diagnostic> lint(std::string_view text);

// "line:rule: message" lines (1-based line of each diagnostic's start) for readable failures.
std::string describe(std::string_view text, const std::vector<Diagnostic>& diagnostics);

// A minimal valid module around `body` (placed inside a kernel).
std::string kernel(std::string_view body);

// Every field of every diagnostic (rule, severity, category, range, message, related
// locations, fixes), one per line: for tests that require two lints to agree exactly.
std::string describeEveryField(const std::vector<Diagnostic>& diagnostics);
// "[begin,end)".
std::string rangeText(ByteRange range);

// The PTX files (.ptx, .ptx.xz) under the shared corpus, when present, and under each of
// `projectFolders` (relative to the source tree), sorted.
std::vector<std::filesystem::path> corpusPtxFiles(const std::vector<std::string>& projectFolders);

}  // namespace ptx::test
