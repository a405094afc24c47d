// Corpus smoke tests: every PTX file ptxas accepts parses with zero ERROR/MISSING nodes and
// zero diagnostics, except the findings tests/corpus/known-defects.json lists as real defects
// (exactly those, no more and no fewer); every other file is linted without a crash.
//
// Sources: ../shared/corpus (external; skipped with a message when absent) and the
// project's own corpus/ (nvcc output of our CUDA sources, always present).
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <nlohmann/json.hpp>

#include "Lint.h"
#include "TestSupport.h"
#include "text/LineIndex.h"

using namespace ptx;
namespace fs = std::filesystem;

namespace {

// (rule, line) pairs: the findings a file is known to deserve, or has.
using Findings = std::multiset<std::pair<std::string, std::uint32_t>>;

// The known findings of one file: `findings` maps a rule to the 1-based lines it reports on.
Findings knownFindings(const nlohmann::json& known, const char* section, const std::string& key,
                       std::set<std::string>& used) {
  Findings expected;
  if (!known[section].contains(key)) return expected;
  used.insert(key);
  for (auto& [code, lines] : known[section][key]["findings"].items()) {
    for (auto& line : lines) expected.insert({code, line.get<std::uint32_t>()});
  }
  return expected;
}

// Checks one accepted file: a clean parse, and exactly the expected errors and warnings
// (information and hint notes are not findings). Returns false, with the diagnostics
// logged, when it fails.
bool parsesClean(const fs::path& path, const Findings& expected = {}) {
  std::string text = test::readMaybeCompressed(path);
  LintResult result = lintText(text);
  LineIndex lines(text);
  Findings found;
  for (const Diagnostic& diagnostic : result.diagnostics) {
    if (diagnostic.severity == Severity::Error || diagnostic.severity == Severity::Warning) {
      found.insert({diagnostic.rule, lines.lineOf(diagnostic.range.begin) + 1});
    }
  }
  bool clean = result.tree.isComplete() && !ts_node_has_error(result.tree.root()) && found == expected;
  if (!clean) {
    UNSCOPED_INFO(path.string() << "\n" << test::describe(text, result.diagnostics));
  }
  return clean;
}

nlohmann::json knownDefects() {
  return nlohmann::json::parse(test::readFile(test::sourceDir() / "tests/corpus/known-defects.json"));
}

// Every listed entry of `section` whose key starts with `prefix` must have been used: an
// entry that matches no checked file (renamed, rejected by ptxas, gone) hides nothing.
void checkEveryEntryUsed(const nlohmann::json& known, const char* section, const std::string& prefix,
                         const std::set<std::string>& used) {
  for (auto& [key, entry] : known[section].items()) {
    (void)entry;
    if (!key.starts_with(prefix)) continue;
    INFO("known-defects.json lists " << key << ", which no checked file matches");
    CHECK(used.contains(key));
  }
}

}  // namespace

TEST_CASE("Every ptxas-accepted file of the shared corpus parses cleanly", "[corpus][shared]") {
  auto shared = test::sharedDir();
  if (!shared) {
    WARN("skipped: ../shared/corpus is absent (set PTXLS_SHARED_DIR to point at it)");
    return;
  }
  auto corpus = *shared / "corpus";
  REQUIRE(fs::exists(corpus / "ptxas-verdicts.json"));
  auto verdicts = nlohmann::json::parse(test::readFile(corpus / "ptxas-verdicts.json"));
  auto known = knownDefects();
  std::set<std::string> used;
  std::size_t accepted = 0;
  std::size_t failed = 0;
  for (auto& [relative, verdict] : verdicts["files"].items()) {
    fs::path path = corpus / relative;
    INFO(path.string());
    REQUIRE(fs::exists(path));
    if (!verdict["accepted"].get<bool>()) {
      // Rejected files: no crash, and nothing more is promised.
      (void)lintText(test::readFile(path));
      continue;
    }
    ++accepted;
    if (!parsesClean(path, knownFindings(known, "files", relative, used))) ++failed;
  }
  CHECK(accepted >= 371);
  CHECK(failed == 0);
  for (auto& [key, entry] : known["files"].items()) {
    (void)entry;
    if (key.starts_with("nvcc/ptx/")) continue;  // The next test's.
    INFO("known-defects.json lists " << key << ", which no ptxas-accepted file of the shared corpus matches");
    CHECK(used.contains(key));
  }
}

TEST_CASE("Every file of the shared nvcc set parses cleanly", "[corpus][shared]") {
  auto shared = test::sharedDir();
  if (!shared) {
    WARN("skipped: ../shared/corpus is absent (set PTXLS_SHARED_DIR to point at it)");
    return;
  }
  REQUIRE(fs::is_directory(*shared / "corpus/nvcc/ptx"));
  auto known = knownDefects();
  std::set<std::string> used;
  std::size_t checked = 0;
  std::size_t failed = 0;
  for (const auto& entry : fs::directory_iterator(*shared / "corpus/nvcc/ptx")) {
    ++checked;
    std::string relative = "nvcc/ptx/" + entry.path().filename().string();
    if (!parsesClean(entry.path(), knownFindings(known, "files", relative, used))) ++failed;
  }
  CHECK(checked >= 17);
  CHECK(failed == 0);
  checkEveryEntryUsed(known, "files", "nvcc/ptx/", used);
}

// Our own corpora: folders of PTX with a manifest.json of ptxas verdicts (corpus/README.md).
TEST_CASE("Every file of the project's own corpora parses cleanly", "[corpus]") {
  auto known = knownDefects();
  std::set<std::string> used;
  std::size_t checked = 0;
  std::size_t failed = 0;
  for (const char* folder : {"corpus/nvcc", "corpus/cudalib/ptx", "corpus/triton/ptx"}) {
    auto manifestPath = test::sourceDir() / folder / "manifest.json";
    INFO(manifestPath.string());
    REQUIRE(fs::exists(manifestPath));
    auto manifest = nlohmann::json::parse(test::readFile(manifestPath));
    for (auto& [name, entry] : manifest["files"].items()) {
      INFO(name);
      fs::path path = test::sourceDir() / folder / name;
      REQUIRE(fs::exists(path));
      if (!entry["ptxas_accepted"].get<bool>()) continue;  // Recorded as rejected: a ptxas bug's witness.
      ++checked;
      std::string relative = std::string(folder) + "/" + name;
      if (!parsesClean(path, knownFindings(known, "ownFiles", relative, used))) ++failed;
    }
  }
  CHECK(checked >= 20);
  CHECK(failed == 0);
  checkEveryEntryUsed(known, "ownFiles", "", used);
}
