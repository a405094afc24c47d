// LintCache: ptxlint's results kept on disk, so that a file whose bytes have not changed since
// the last run is not parsed and analyzed again (ruff's .ruff_cache, for PTX).
//
// Entries are content-addressed: the key of a file's findings is a 128-bit hash of its bytes
// under a "settings key" that covers everything else the findings depend on — this ptxlint
// build (version, and the executable's size and modification time, so that a rebuilt linter
// never reads an older build's findings), the rules' enablement and severities, the target
// override and the limits. Lint results depend on nothing but the text and those options (no
// includes, no other files), so a renamed or copied file hits the cache too.
//
// Layout of the cache folder (default .ptxlint_cache in the working directory):
//   CACHEDIR.TAG, .gitignore ("*")         so that backups and git leave it alone
//   <build key>/<settings key>/<content>   one small file per linted text
// Folders of other builds are removed when a build first writes. Every failure (a read-only
// folder, a corrupt or truncated entry, a concurrent writer) degrades to linting the file; a
// corrupt entry is never trusted (sizes, ranges and enums are checked on load) and entries are
// written to a temporary name and renamed into place, so readers never see half an entry.
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "Lint.h"
#include "diag/Diagnostic.h"

namespace ptx::cli {

// A fast 64-bit hash of `data` (XXH64's construction); different seeds give independent hashes.
std::uint64_t hash64(std::string_view data, std::uint64_t seed = 0);

class LintCache {
 public:
  // Opens `directory` (creating it and its tag files); nullptr with `problem` set when it cannot
  // be created. `toolIdentity` names this build (see above); a different one starts afresh.
  static std::unique_ptr<LintCache> open(const std::filesystem::path& directory, std::string_view toolIdentity,
                                         std::string& problem);

  // The key of `options` for this build, to pass to load and store.
  std::string settingsKey(const LintOptions& options) const;

  // The findings stored for `text` under `settingsKey`; nullopt on a miss or an unusable entry.
  std::optional<std::vector<Diagnostic>> load(std::string_view settingsKey, std::string_view text);

  // Stores the findings of `text`; failures are ignored (the next run lints the file again).
  void store(std::string_view settingsKey, std::string_view text, const std::vector<Diagnostic>& diagnostics);

  const std::filesystem::path& directory() const { return root_; }
  std::size_t hits() const { return hits_; }
  std::size_t misses() const { return misses_; }

  // Whether results for `options` may be cached at all (not when parsing can be cut short).
  static bool cacheable(const LintOptions& options);

 private:
  LintCache(std::filesystem::path root, std::string buildKey) : root_(std::move(root)), buildKey_(std::move(buildKey)) {}
  std::filesystem::path entryPath(std::string_view settingsKey, std::string_view text) const;
  void removeOtherBuilds();

  std::filesystem::path root_;
  std::string buildKey_;
  std::atomic<bool> prunedOtherBuilds_{false};
  std::atomic<std::size_t> hits_{0};
  std::atomic<std::size_t> misses_{0};
};

// The identity of the running ptxlint: its version plus the size and modification time of
// /proc/self/exe (just the version where that cannot be read).
std::string currentToolIdentity(std::string_view version);

}  // namespace ptx::cli
