// ptxlint's result cache: the hash, entries that round-trip and are never trusted when damaged,
// keys that change with everything the findings depend on, and end to end: a warm run prints
// exactly what a cold one prints, in every format.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "LintCache.h"
#include "TestSupport.h"

using namespace ptx;
using namespace ptx::cli;
namespace fs = std::filesystem;

namespace {

struct ScratchFolder {
  fs::path root;
  explicit ScratchFolder(std::string_view name) {
    root = fs::temp_directory_path() / (std::string(name) + "-" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~ScratchFolder() {
    std::error_code ignored;
    fs::permissions(root, fs::perms::owner_all, fs::perm_options::add, ignored);
    fs::remove_all(root, ignored);
  }
};

std::vector<fs::path> entriesUnder(const fs::path& cache) {
  std::vector<fs::path> entries;
  if (!fs::exists(cache)) return entries;
  for (const auto& entry : fs::recursive_directory_iterator(cache)) {
    if (entry.is_regular_file() && entry.path().parent_path() != cache) entries.push_back(entry.path());
  }
  return entries;
}

std::string ptxlintOutput(const std::string& arguments, int* status = nullptr) {
  std::string output;
  int code = test::runCommand(std::string(PTXLINT_PATH) + " " + arguments + " 2>&1", output);
  if (status != nullptr) *status = code;
  return output;
}

// A file with findings that carry related locations and fixes (SARIF shows both).
const std::string kFindings = test::kernel(
    "\t.reg .b32 %r<3>;\n\tld.global.u32.v2 {%r1, %r2}, [%rd1];\n\telect.sync %r1|%p1, 0xffffffff;\n\tret;\n");

}  // namespace

TEST_CASE("hash64 is XXH64", "[cli][cache]") {
  // Published XXH64 values (seed 0 unless given).
  CHECK(hash64("") == 0xEF46DB3751D8E999ULL);
  CHECK(hash64("a") == 0xD24EC4F1A98C6E5BULL);
  CHECK(hash64("abc") == 0x44BC2CF5AD770999ULL);
  CHECK(hash64("Nobody inspects the spammish repetition") == 0xFBCEA83C8A378BF1ULL);
  CHECK(hash64("xxhash", 20141025) == 0xB559B98D844E0635ULL);
  CHECK(hash64("abc", 1) != hash64("abc", 2));
}

TEST_CASE("LintCache stores and loads findings with their ranges, related locations and fixes", "[cli][cache]") {
  ScratchFolder scratch("ptxlint-cache-unit");
  std::string problem;
  auto cache = LintCache::open(scratch.root / "c", "test-build-1", problem);
  REQUIRE(cache != nullptr);
  CHECK(fs::exists(scratch.root / "c" / "CACHEDIR.TAG"));
  CHECK(test::readFile(scratch.root / "c" / ".gitignore").find("*\n") != std::string::npos);

  std::string text = "0123456789abcdef";
  Diagnostic diagnostic;
  diagnostic.rule = "ALN001";
  diagnostic.severity = Severity::Warning;
  diagnostic.category = Category::Alignment;
  diagnostic.range = {2, 5};
  diagnostic.message = "message with \"quotes\" and ünïcode";
  diagnostic.related.push_back({{7, 9}, "declared here"});
  diagnostic.fixes.push_back({"raise .align", {{{10, 10}, ".align 8 "}, {{11, 12}, ""}}, true});
  std::string key = cache->settingsKey(LintOptions{});
  CHECK_FALSE(cache->load(key, text).has_value());
  cache->store(key, text, {diagnostic});
  auto loaded = cache->load(key, text);
  REQUIRE(loaded.has_value());
  REQUIRE(loaded->size() == 1);
  const Diagnostic& back = loaded->front();
  CHECK(back.rule == "ALN001");
  CHECK(back.severity == Severity::Warning);
  CHECK(back.category == Category::Alignment);
  CHECK(back.range == ByteRange{2, 5});
  CHECK(back.message == diagnostic.message);
  REQUIRE(back.related.size() == 1);
  CHECK(back.related[0].range == ByteRange{7, 9});
  CHECK(back.related[0].message == "declared here");
  REQUIRE(back.fixes.size() == 1);
  CHECK(back.fixes[0].title == "raise .align");
  CHECK(back.fixes[0].isPreferred);
  CHECK(back.fixes[0].edits == diagnostic.fixes[0].edits);
  CHECK(cache->hits() == 1);
  CHECK(cache->misses() == 1);

  // A different text, or the same text under other settings, misses.
  CHECK_FALSE(cache->load(key, text + " ").has_value());
  LintOptions otherTarget;
  otherTarget.targetOverride = "sm_80";
  CHECK(cache->settingsKey(otherTarget) != key);
  CHECK_FALSE(cache->load(cache->settingsKey(otherTarget), text).has_value());
  LintOptions disabled;
  disabled.rules["ALN001"].enabled = false;
  CHECK(cache->settingsKey(disabled) != key);
  LintOptions severity;
  severity.rules["ALN001"].severity = Severity::Error;
  CHECK(cache->settingsKey(severity) != cache->settingsKey(disabled));
  // Thread counts do not change findings (tests/analyzers/parallel_lint_test.cpp), so they share a key.
  LintOptions threaded;
  threaded.threads = 8;
  CHECK(cache->settingsKey(threaded) == key);

  // Another build never sees this build's entries, and its first store drops them.
  auto rebuilt = LintCache::open(scratch.root / "c", "test-build-2", problem);
  REQUIRE(rebuilt != nullptr);
  CHECK_FALSE(rebuilt->load(rebuilt->settingsKey(LintOptions{}), text).has_value());
  rebuilt->store(rebuilt->settingsKey(LintOptions{}), "other", {});
  CHECK_FALSE(cache->load(key, text).has_value());
}

TEST_CASE("LintCache never trusts a damaged entry", "[cli][cache]") {
  ScratchFolder scratch("ptxlint-cache-damage");
  std::string problem;
  auto cache = LintCache::open(scratch.root, "test-build", problem);
  REQUIRE(cache != nullptr);
  std::string text(100, 'x');
  Diagnostic diagnostic{"SYN001", Severity::Error, Category::Syntax, {10, 20}, "bad", {}, {}};
  std::string key = cache->settingsKey(LintOptions{});
  cache->store(key, text, {diagnostic});
  std::vector<fs::path> entries = entriesUnder(scratch.root);
  REQUIRE(entries.size() == 1);
  std::string intact = test::readFile(entries[0]);

  auto rewrite = [&](const std::string& contents) {
    std::ofstream(entries[0], std::ios::binary | std::ios::trunc) << contents;
  };
  // Truncated at every length, garbage, and an entry whose ranges exceed the text.
  for (std::size_t length = 0; length < intact.size(); ++length) {
    rewrite(intact.substr(0, length));
    CHECK_FALSE(cache->load(key, text).has_value());
  }
  rewrite(std::string(64, '\xff'));
  CHECK_FALSE(cache->load(key, text).has_value());
  cache->store(key, text, {{"SYN001", Severity::Error, Category::Syntax, {10, 200}, "out of range", {}, {}}});
  CHECK_FALSE(cache->load(key, text).has_value());
  // A flipped byte in the body is either rejected or decodes to a well-formed finding; it never
  // crashes the loader.
  cache->store(key, text, {diagnostic});
  for (std::size_t at = 0; at < intact.size(); ++at) {
    std::string flipped = intact;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x5a);
    rewrite(flipped);
    auto loaded = cache->load(key, text);
    if (loaded) {
      for (const Diagnostic& d : *loaded) CHECK(d.range.end <= text.size());
    }
  }
  rewrite(intact);
  CHECK(cache->load(key, text).has_value());
}

TEST_CASE("ptxlint prints the same report from its cache as from a fresh lint", "[cli][cache]") {
  ScratchFolder scratch("ptxlint-cache-e2e");
  fs::path file = scratch.root / "findings.ptx";
  std::ofstream(file) << kFindings;
  std::ofstream(scratch.root / "clean.ptx") << test::kernel("  ret;");
  fs::path cache = scratch.root / "cache";
  std::string paths = file.string() + " " + (scratch.root / "clean.ptx").string();
  for (std::string format : {"text", "json", "sarif"}) {
    INFO(format);
    int coldStatus = 0;
    int warmStatus = 0;
    std::string fresh = ptxlintOutput("--no-cache --format " + format + " " + paths, &coldStatus);
    std::string filling = ptxlintOutput("--cache-dir " + cache.string() + " --format " + format + " " + paths);
    std::string warm = ptxlintOutput("--cache-dir " + cache.string() + " --format " + format + " " + paths, &warmStatus);
    CHECK(coldStatus == 1);
    CHECK(warmStatus == 1);
    CHECK(filling == fresh);
    CHECK(warm == fresh);
  }
  CHECK(entriesUnder(cache).size() == 2);
  std::string stats = ptxlintOutput("--stats --cache-dir " + cache.string() + " " + paths);
  CHECK(stats.find("cache: 2 of 2 files from " + cache.string()) != std::string::npos);

  // Editing a file, or changing the options, lints again.
  std::ofstream(file, std::ios::app) << "\n// edited\n";
  stats = ptxlintOutput("--stats --cache-dir " + cache.string() + " " + paths);
  CHECK(stats.find("cache: 1 of 2 files") != std::string::npos);
  std::string selected = ptxlintOutput("--stats --select ISA010 --cache-dir " + cache.string() + " " + paths);
  CHECK(selected.find("cache: 0 of 2 files") != std::string::npos);
  CHECK(selected.find("[SEM001]") == std::string::npos);
  CHECK(selected.find("[ISA010]") != std::string::npos);
}

TEST_CASE("ptxlint runs without a cache where it cannot keep one", "[cli][cache]") {
  ScratchFolder scratch("ptxlint-cache-off");
  fs::path file = scratch.root / "findings.ptx";
  std::ofstream(file) << kFindings;
  std::string expected = ptxlintOutput("--no-cache " + file.string());

  // --no-cache writes nothing, in the working directory or in $PTXLINT_CACHE_DIR.
  std::string output;
  test::runCommand("cd " + scratch.root.string() + " && PTXLINT_CACHE_DIR= " + PTXLINT_PATH + " --no-cache " +
                       file.string() + " >/dev/null 2>&1",
                   output);
  CHECK_FALSE(fs::exists(scratch.root / ".ptxlint_cache"));
  // By default the cache is .ptxlint_cache in the working directory; $PTXLINT_CACHE_DIR moves it.
  test::runCommand("cd " + scratch.root.string() + " && PTXLINT_CACHE_DIR= " + PTXLINT_PATH + " " + file.string() +
                       " >/dev/null 2>&1",
                   output);
  CHECK(fs::exists(scratch.root / ".ptxlint_cache" / "CACHEDIR.TAG"));
  test::runCommand("cd " + scratch.root.string() + " && PTXLINT_CACHE_DIR=" + (scratch.root / "env").string() + " " +
                       PTXLINT_PATH + " " + file.string() + " >/dev/null 2>&1",
                   output);
  CHECK(entriesUnder(scratch.root / "env").size() == 1);

  // A cache folder that cannot be created: the report is unchanged, with one note on stderr.
  fs::path blocker = scratch.root / "not-a-folder";
  std::ofstream(blocker) << "x";
  int status = 0;
  std::string blocked = ptxlintOutput("--cache-dir " + (blocker / "cache").string() + " " + file.string(), &status);
  CHECK(status == 1);
  CHECK(blocked.find("--cache-dir " + (blocker / "cache").string() + ": cannot create the cache folder") !=
        std::string::npos);
  CHECK(blocked.find(expected) != std::string::npos);

  // A read-only cache folder is read but not written; the report is unchanged.
  if (::geteuid() != 0) {  // root writes anyway.
    fs::path readOnly = scratch.root / "ro";
    ptxlintOutput("--cache-dir " + readOnly.string() + " " + file.string());
    std::ofstream(file, std::ios::app) << "\n// edited\n";
    std::string edited = ptxlintOutput("--no-cache " + file.string());
    fs::permissions(readOnly, fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                    fs::perm_options::remove);
    CHECK(ptxlintOutput("--cache-dir " + readOnly.string() + " " + file.string()) == edited);
    fs::permissions(readOnly, fs::perms::owner_all, fs::perm_options::add);
  }
}
