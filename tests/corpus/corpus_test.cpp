// Corpus smoke tests: every PTX file ptxas accepts parses with zero ERROR/MISSING nodes and
// zero diagnostics, except the findings tests/corpus/known-defects.json lists as real defects
// (exactly those, no more and no fewer); every other file is linted without a crash.
//
// Sources: ../shared/corpus (external; skipped with a message when absent) and the
// project's own corpus/ (nvcc output of our CUDA sources, always present).
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "Lint.h"
#include "TestSupport.h"

using namespace ptx;
namespace fs = std::filesystem;

namespace {

// Checks one accepted file; returns false (with the diagnostics logged) when it fails.
// `expected`: the findings (rule code -> count) the file is known to deserve.
bool parsesClean(const fs::path& path, const std::map<std::string, int>& expected = {}) {
  std::string text = test::readMaybeCompressed(path);
  LintResult result = lintText(text);
  std::map<std::string, int> found;
  for (const Diagnostic& diagnostic : result.diagnostics) ++found[diagnostic.rule];
  bool clean = result.tree.isComplete() && !ts_node_has_error(result.tree.root()) && found == expected;
  if (!clean) {
    UNSCOPED_INFO(path.string() << "\n" << test::describe(text, result.diagnostics));
  }
  return clean;
}

}  // namespace

TEST_CASE("Every ptxas-accepted file of the shared corpus parses cleanly", "[corpus][shared]") {
  auto shared = test::sharedDir();
  if (!shared) {
    WARN("skipped: ../shared/corpus is absent (set PTXLS_SHARED_DIR to point at it)");
    return;
  }
  auto corpus = *shared / "corpus";
  auto verdicts = nlohmann::json::parse(test::readFile(corpus / "ptxas-verdicts.json"));
  auto known = nlohmann::json::parse(test::readFile(test::sourceDir() / "tests/corpus/known-defects.json"));
  std::size_t accepted = 0;
  std::size_t failed = 0;
  for (auto& [relative, verdict] : verdicts["files"].items()) {
    fs::path path = corpus / relative;
    if (!verdict["accepted"].get<bool>()) {
      // Rejected files: no crash, and nothing more is promised.
      (void)lintText(test::readFile(path));
      continue;
    }
    ++accepted;
    std::map<std::string, int> expected;
    if (known["files"].contains(relative)) {
      for (auto& [code, count] : known["files"][relative]["findings"].items()) expected[code] = count.get<int>();
    }
    if (!parsesClean(path, expected)) ++failed;
  }
  CHECK(accepted >= 371);
  CHECK(failed == 0);
}

TEST_CASE("Every file of the shared nvcc set parses cleanly", "[corpus][shared]") {
  auto shared = test::sharedDir();
  if (!shared) {
    WARN("skipped: ../shared/corpus is absent");
    return;
  }
  auto truth = nlohmann::json::parse(test::readFile(*shared / "corpus/nvcc/ground-truth.json"));
  auto known = nlohmann::json::parse(test::readFile(test::sourceDir() / "tests/corpus/known-defects.json"));
  std::size_t checked = 0;
  std::size_t failed = 0;
  for (const auto& entry : fs::directory_iterator(*shared / "corpus/nvcc/ptx")) {
    ++checked;
    std::string relative = "nvcc/ptx/" + entry.path().filename().string();
    std::map<std::string, int> expected;
    if (known["files"].contains(relative)) {
      for (auto& [code, count] : known["files"][relative]["findings"].items()) expected[code] = count.get<int>();
    }
    if (!parsesClean(entry.path(), expected)) ++failed;
  }
  CHECK(checked >= 17);
  CHECK(failed == 0);
}

TEST_CASE("Every file of the project's own corpus parses cleanly", "[corpus]") {
  auto manifestPath = test::sourceDir() / "corpus/nvcc/manifest.json";
  REQUIRE(fs::exists(manifestPath));
  auto manifest = nlohmann::json::parse(test::readFile(manifestPath));
  auto known = nlohmann::json::parse(test::readFile(test::sourceDir() / "tests/corpus/known-defects.json"));
  std::size_t checked = 0;
  std::size_t failed = 0;
  for (auto& [name, entry] : manifest["files"].items()) {
    INFO(name);
    CHECK(entry["ptxas_accepted"].get<bool>());
    ++checked;
    std::string relative = "corpus/nvcc/" + name;
    std::map<std::string, int> expected;
    if (known["ownFiles"].contains(relative)) {
      for (auto& [code, count] : known["ownFiles"][relative]["findings"].items()) expected[code] = count.get<int>();
    }
    if (!parsesClean(test::sourceDir() / "corpus/nvcc" / name, expected)) ++failed;
  }
  CHECK(checked >= 20);
  CHECK(failed == 0);
}
