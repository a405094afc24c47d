// ptxlint end to end: arguments, exit codes, the text format and the JSON contract.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "TestSupport.h"

using namespace ptx;
namespace fs = std::filesystem;

namespace {

struct Run {
  int status;
  std::string output;
};

Run ptxlint(const std::string& arguments) {
  Run run;
  run.status = test::runCommand(std::string(PTXLINT_PATH) + " " + arguments + " 2>&1", run.output);
  return run;
}

// A scratch directory with one clean and one broken file, removed at scope exit.
struct Scratch {
  fs::path root;
  Scratch() {
    root = fs::temp_directory_path() / ("ptxlint-test-" + std::to_string(::getpid()));
    fs::create_directories(root / "sub");
    fs::create_directories(root / ".hidden");
    std::ofstream(root / "clean.ptx") << test::kernel("  ret;");
    std::ofstream(root / "sub/broken.ptx") << test::kernel("  mov.u32 %r1, %r2\n  ret;");
    std::ofstream(root / ".hidden/ignored.ptx") << "garbage";
    std::ofstream(root / "notes.txt") << "not ptx";
  }
  ~Scratch() { fs::remove_all(root); }
};

}  // namespace

TEST_CASE("ptxlint --help and --version exit 0", "[cli]") {
  Run help = ptxlint("--help");
  CHECK(help.status == 0);
  CHECK(help.output.find("Usage: ptxlint") != std::string::npos);
  Run version = ptxlint("--version");
  CHECK(version.status == 0);
  CHECK(version.output.starts_with("ptxlint "));
}

TEST_CASE("ptxlint --list-rules prints every registered rule", "[cli]") {
  Run rules = ptxlint("--list-rules");
  CHECK(rules.status == 0);
  CHECK(rules.output.find("SYN001  unexpected-token  [syntax, error]") != std::string::npos);
  CHECK(rules.output.find("SYN008  expected-opcode") != std::string::npos);
}

TEST_CASE("Usage errors exit 2", "[cli]") {
  CHECK(ptxlint("").status == 2);
  CHECK(ptxlint("--format xml x.ptx").status == 2);
  CHECK(ptxlint("--bogus x.ptx").status == 2);
  CHECK(ptxlint("--jobs 0 x.ptx").status == 2);
}

TEST_CASE("Exit status tells clean, findings and I/O errors apart", "[cli]") {
  Scratch scratch;
  CHECK(ptxlint((scratch.root / "clean.ptx").string()).status == 0);
  Run broken = ptxlint((scratch.root / "sub/broken.ptx").string());
  CHECK(broken.status == 1);
  CHECK(broken.output.find("broken.ptx:7:19: error: expected ';' after instruction [SYN002]") !=
        std::string::npos);
  CHECK(broken.output.find("   | " + std::string(18, ' ') + "^\n") != std::string::npos);
  CHECK(ptxlint((scratch.root / "missing.ptx").string()).status == 2);
}

TEST_CASE("Directories are searched for *.ptx, skipping hidden folders", "[cli]") {
  Scratch scratch;
  Run run = ptxlint("--format json --jobs 2 " + scratch.root.string());
  CHECK(run.status == 1);
  auto document = nlohmann::json::parse(run.output);
  REQUIRE(document["files"].size() == 2);
  CHECK(document["files"][0]["path"].get<std::string>().ends_with("clean.ptx"));
  CHECK(document["files"][1]["path"].get<std::string>().ends_with("sub/broken.ptx"));
  CHECK(document["summary"]["files_checked"] == 2);
}

TEST_CASE("The JSON output follows the documented contract", "[cli]") {
  Scratch scratch;
  Run run = ptxlint("--format=json " + (scratch.root / "sub/broken.ptx").string() + " " +
                    (scratch.root / "clean.ptx").string());
  auto document = nlohmann::json::parse(run.output);
  CHECK(document["tool"]["name"] == "ptxlint");
  CHECK(document["tool"]["version"].is_string());
  const auto& diagnostic = document["files"][0]["diagnostics"][0];
  CHECK(diagnostic["rule"] == "SYN002");
  CHECK(diagnostic["category"] == "syntax");
  CHECK(diagnostic["severity"] == "error");
  CHECK(diagnostic["message"] == "expected ';' after instruction");
  CHECK(diagnostic["line"] == 7);
  CHECK(diagnostic["column"] == 19);
  CHECK(diagnostic["end_line"] == 8);
  CHECK(diagnostic["end_column"] == 6);
  CHECK(diagnostic["related"].is_array());
  CHECK(document["files"][1]["diagnostics"].empty());
  const auto& summary = document["summary"];
  CHECK(summary["diagnostics"] == 1);
  CHECK(summary["errors"] == 1);
  CHECK(summary["warnings"] == 0);
  CHECK(summary["files_with_diagnostics"] == 1);
  CHECK(summary["io_errors"] == 0);
}

TEST_CASE("Unreadable paths are reported in the JSON and exit 2", "[cli]") {
  Run run;
  run.status = test::runCommand(std::string(PTXLINT_PATH) + " --format json /nonexistent/file.ptx 2>/dev/null",
                                run.output);
  CHECK(run.status == 2);
  auto document = nlohmann::json::parse(run.output);
  CHECK(document["files"][0]["io_error"] == "no such file or directory");
  CHECK(document["summary"]["io_errors"] == 1);
}

TEST_CASE("Standard input is linted with '-'", "[cli]") {
  std::string output;
  int status = test::runCommand("printf '.version 8.0\\n.target sm_80\\n.entry k() { ret }\\n' | " +
                                    std::string(PTXLINT_PATH) + " -",
                                output);
  CHECK(status == 1);
  CHECK(output.find("<stdin>:3:") != std::string::npos);
}

TEST_CASE("ptxlint --explain prints a rule's own documentation", "[cli]") {
  Run byName = ptxlint("--explain unknown-modifier");
  CHECK(byName.status == 0);
  CHECK(byName.output.starts_with("ISA004 unknown-modifier [isa, error]"));
  CHECK(byName.output.find("Use instead:") != std::string::npos);
  CHECK(byName.output.find("ld.global.u32 %r1, [%rd1];") != std::string::npos);
  Run unknown = ptxlint("--explain XYZ999");
  CHECK(unknown.status == 2);
  CHECK(unknown.output.find("no rule named 'XYZ999'") != std::string::npos);
}

TEST_CASE("ptxlint --disable and --severity configure rules", "[cli]") {
  Scratch scratch;
  fs::path file = scratch.root / "v.ptx";
  std::ofstream(file) << test::kernel("\t.reg .b32 %r<3>;\n\tld.global.u32.v2 {%r1, %r2}, [%rd1];\n\tret;\n");
  Run plain = ptxlint(file.string());
  CHECK(plain.output.find("[SEM001]") != std::string::npos);
  CHECK(plain.output.find("warning: '.v2'") != std::string::npos);
  Run configured = ptxlint("--disable undeclared-symbol --severity ISA010=error " + file.string());
  CHECK(configured.output.find("[SEM001]") == std::string::npos);
  CHECK(configured.output.find("error: '.v2'") != std::string::npos);
  CHECK(ptxlint("--severity ISA010=loud " + file.string()).status == 2);
  CHECK(ptxlint("--disable NOPE " + file.string()).status == 2);
  Run byCategory = ptxlint("--disable semantic,isa " + file.string());
  CHECK(byCategory.status == 0);
  Run categorySeverity = ptxlint("--severity isa=hint " + file.string());
  CHECK(categorySeverity.output.find("hint: '.v2'") != std::string::npos);
  CHECK(categorySeverity.output.find("[SEM001]") != std::string::npos);
  CHECK(ptxlint("--severity nosuchcategory=hint " + file.string()).status == 2);
}

TEST_CASE("ptxlint reads the nearest .ptxls.json, command-line options win, --no-config ignores it", "[cli]") {
  Scratch scratch;
  fs::create_directories(scratch.root / "proj" / "deep");
  std::ofstream(scratch.root / "proj" / ".ptxls.json") << R"({"rules": {"SEM001": "off", "ISA010": "error"}})";
  fs::path file = scratch.root / "proj" / "deep" / "v.ptx";
  std::ofstream(file) << test::kernel("\t.reg .b32 %r<3>;\n\tld.global.u32.v2 {%r1, %r2}, [%rd1];\n\tret;\n");
  Run configured = ptxlint(file.string());
  CHECK(configured.output.find("[SEM001]") == std::string::npos);
  CHECK(configured.output.find("error: '.v2'") != std::string::npos);
  Run overridden = ptxlint("--severity ISA010=warning " + file.string());
  CHECK(overridden.output.find("warning: '.v2'") != std::string::npos);
  Run ignored = ptxlint("--no-config " + file.string());
  CHECK(ignored.output.find("[SEM001]") != std::string::npos);
}

namespace {

// Standard output only (stderr discarded).
Run ptxlintStdout(const std::string& arguments) {
  Run run;
  run.status = test::runCommand(std::string(PTXLINT_PATH) + " " + arguments + " 2>/dev/null", run.output);
  return run;
}

// A file with an ISA010 warning, SEM001 and ISA007 errors and (for sm_80) an ISA003 error.
fs::path writeMixed(const fs::path& file) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << test::kernel(
      "\t.reg .b32 %r<3>;\n\tld.global.u32.v2 {%r1, %r2}, [%rd1];\n\telect.sync %r1|%p1, 0xffffffff;\n\tret;\n");
  return file;
}

bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("ptxlint --select keeps only the listed rules, --ignore removes rules", "[cli]") {
  Scratch scratch;
  std::string file = writeMixed(scratch.root / "m.ptx").string();
  Run selected = ptxlint("--select ISA010 " + file);
  CHECK(selected.status == 1);
  CHECK(has(selected.output, "[ISA010]"));
  CHECK(!has(selected.output, "[SEM001]"));
  CHECK(!has(selected.output, "[ISA003]"));
  Run category = ptxlint("--select isa --ignore vector-type-order " + file);
  CHECK(has(category.output, "[ISA003]"));
  CHECK(!has(category.output, "[ISA010]"));
  CHECK(!has(category.output, "[SEM001]"));
  Run ignored = ptxlint("--ignore semantic,isa " + file);
  CHECK(ignored.status == 0);
  CHECK(ptxlint("--select NOPE " + file).status == 2);
  CHECK(ptxlint("--ignore NOPE " + file).status == 2);
}

TEST_CASE("ptxlint --werror and the --severity threshold", "[cli]") {
  Scratch scratch;
  std::string file = writeMixed(scratch.root / "m.ptx").string();
  // Only the warning is selected: exit 1 either way, but --werror shows it as an error.
  Run warning = ptxlint("--select ISA010 " + file);
  CHECK(has(warning.output, "warning: '.v2'"));
  Run werror = ptxlint("--werror --select ISA010 --format json " + file);
  CHECK(werror.status == 1);
  auto document = nlohmann::json::parse(werror.output);
  CHECK(document["files"][0]["diagnostics"][0]["severity"] == "error");
  CHECK(document["summary"]["warnings"] == 0);
  CHECK(document["summary"]["errors"] == 1);
  // A hint below the threshold is not reported and does not fail the run.
  Run hinted = ptxlint("--select ISA010 --severity ISA010=hint --severity warning " + file);
  CHECK(hinted.status == 0);
  CHECK(!has(hinted.output, "[ISA010]"));
  Run errorsOnly = ptxlint("--severity error " + file);
  CHECK(errorsOnly.status == 1);
  CHECK(has(errorsOnly.output, "[SEM001]"));
  CHECK(!has(errorsOnly.output, "[ISA010]"));
  Run both = ptxlint("--severity=error --werror " + file);
  CHECK(has(both.output, "error: '.v2'"));
  CHECK(ptxlint("--severity loud " + file).status == 2);
}

TEST_CASE("ptxlint --output writes the report to a file, an unwritable one exits 2", "[cli]") {
  Scratch scratch;
  std::string file = writeMixed(scratch.root / "m.ptx").string();
  fs::path report = scratch.root / "report.json";
  Run run = ptxlint("--format json --output " + report.string() + " " + file);
  CHECK(run.status == 1);
  CHECK(run.output.empty());
  std::ifstream in(report);
  auto document = nlohmann::json::parse(in);
  CHECK(document["summary"]["files_checked"] == 1);
  Run bad = ptxlint("--output " + (scratch.root / "no/such/dir/out.txt").string() + " " + file);
  CHECK(bad.status == 2);
  CHECK(has(bad.output, "--output"));
  CHECK(has(bad.output, "no/such/dir/out.txt"));
}

TEST_CASE("ptxlint --stdin-filename names standard input and finds its .ptxls.json", "[cli]") {
  Scratch scratch;
  fs::path project = scratch.root / "proj";
  fs::create_directories(project);
  std::ofstream(project / ".ptxls.json") << R"({"rules": {"SEM001": "off"}})";
  fs::path file = writeMixed(scratch.root / "m.ptx");
  Run run = ptxlint("--stdin-filename " + (project / "in.ptx").string() + " - < " + file.string());
  CHECK(run.status == 1);
  CHECK(has(run.output, (project / "in.ptx").string() + ":8:"));
  CHECK(!has(run.output, "<stdin>"));
  CHECK(!has(run.output, "[SEM001]"));
}

TEST_CASE("ptxlint --target overrides the module's .target", "[cli]") {
  Scratch scratch;
  std::string file = writeMixed(scratch.root / "m.ptx").string();
  CHECK(has(ptxlint(file).output, "[ISA003]"));
  Run newer = ptxlint("--target sm_90 " + file);
  CHECK(!has(newer.output, "[ISA003]"));
  Run older = ptxlint("--target=sm_70 --select ISA003 " + file);
  CHECK(has(older.output, "sm_70"));
  CHECK(ptxlint("--target sm90 " + file).status == 2);
  CHECK(ptxlint("--target compute_90 " + file).status == 2);
}

TEST_CASE("ptxlint --config uses one project file, an invalid one exits 2", "[cli]") {
  Scratch scratch;
  std::string file = writeMixed(scratch.root / "m.ptx").string();
  fs::path config = scratch.root / "custom.json";
  std::ofstream(config) << R"({"rules": {"SEM001": "off"}, "target": "sm_90"})";
  Run run = ptxlint("--config " + config.string() + " " + file);
  CHECK(!has(run.output, "[SEM001]"));
  CHECK(!has(run.output, "[ISA003]"));
  CHECK(has(run.output, "[ISA010]"));
  fs::path broken = scratch.root / "broken.json";
  std::ofstream(broken) << "{ not json";
  Run invalid = ptxlint("--config " + broken.string() + " " + file);
  CHECK(invalid.status == 2);
  CHECK(has(invalid.output, broken.string()));
  Run missing = ptxlint("--config " + (scratch.root / "none.json").string() + " " + file);
  CHECK(missing.status == 2);
  CHECK(has(missing.output, "none.json"));
}

TEST_CASE("ptxlint --quiet drops the summary, --stats counts per rule", "[cli]") {
  Scratch scratch;
  std::string file = writeMixed(scratch.root / "m.ptx").string();
  Run quiet = ptxlint("--quiet " + file);
  CHECK(quiet.status == 1);
  CHECK(has(quiet.output, "[ISA010]"));
  CHECK(!has(quiet.output, "Found "));
  CHECK(ptxlint("-q " + (scratch.root / "clean.ptx").string()).output.empty());
  Run stats = ptxlint("--stats " + file);
  CHECK(has(stats.output, "Statistics (4 rules):"));
  CHECK(has(stats.output, "  2  SEM001  undeclared-symbol  [error]"));
  CHECK(has(stats.output, "  1  ISA010  vector-type-order  [warning]"));
  // With JSON, the table goes to stderr and standard output stays one JSON document.
  Run json = ptxlintStdout("--stats --format json " + file);
  CHECK(nlohmann::json::parse(json.output)["summary"]["diagnostics"] == 5);
}

TEST_CASE("ptxlint expands globs in PATH arguments", "[cli]") {
  Scratch scratch;
  writeMixed(scratch.root / "k" / "a" / "deep.ptx");
  writeMixed(scratch.root / "k" / "top.ptx");
  std::ofstream(scratch.root / "k" / "a" / "kernel.cu") << "__global__ void k() {}";
  std::string root = scratch.root.string();
  auto pathsOf = [](const Run& run) {
    std::vector<std::string> paths;
    auto document = nlohmann::json::parse(run.output);
    for (const auto& file : document["files"]) paths.push_back(file["path"].get<std::string>());
    return paths;
  };
  Run deep = ptxlintStdout("--format json '" + root + "/k/**/*.ptx'");
  CHECK(pathsOf(deep) == std::vector<std::string>{root + "/k/a/deep.ptx", root + "/k/top.ptx"});
  Run shallow = ptxlintStdout("--format json '" + root + "/k/*.ptx'");
  CHECK(pathsOf(shallow) == std::vector<std::string>{root + "/k/top.ptx"});
  Run sub = ptxlintStdout("--format json '" + root + "/*/a/d?ep.ptx'");
  CHECK(pathsOf(sub) == std::vector<std::string>{root + "/k/a/deep.ptx"});
  Run none = ptxlint("'" + root + "/k/**/*.txt'");
  CHECK(none.status == 2);
  CHECK(has(none.output, "no PTX or CUDA files match"));
}

TEST_CASE("ptxlint names each path it cannot check and still reports the others", "[cli]") {
  Scratch scratch;
  std::string file = writeMixed(scratch.root / "m.ptx").string();
  fs::create_directories(scratch.root / "empty");
  std::ofstream(scratch.root / "empty" / "a.txt") << "int x;";
  fs::path binary = scratch.root / "blob.ptx";
  std::ofstream(binary, std::ios::binary) << std::string("\x7f" "ELF\0\0\0", 7);
  Run run = ptxlint((scratch.root / "missing.ptx").string() + " " + (scratch.root / "empty").string() + " " +
                    binary.string() + " " + file);
  CHECK(run.status == 1);  // Some paths were checked: 1, not 2 (that is for "nothing checked").
  CHECK(has(run.output, "ptxlint: " + (scratch.root / "missing.ptx").string() + ": no such file or directory"));
  CHECK(has(run.output, "ptxlint: " + (scratch.root / "empty").string() + ": directory contains no PTX or CUDA files"));
  // A binary file is checked, and its finding says what it is (SYN006), not standard error.
  CHECK_FALSE(has(run.output, "ptxlint: " + binary.string()));
  CHECK(has(run.output, binary.string() + ":1:5: error: binary file"));
  CHECK(has(run.output, "[ISA010]"));
  CHECK(has(run.output, "2 files checked, 2 files unreadable"));
  // Colours only when asked for (standard output is not a terminal here).
  CHECK(!has(ptxlint(file).output, "\x1b["));
  CHECK(has(ptxlint("--color always " + file).output, "\x1b[1;33mwarning:"));
  CHECK(ptxlint("--color sometimes " + file).status == 2);
}

TEST_CASE("ptxlint --help documents every exit status", "[cli]") {
  Run help = ptxlint("--help");
  CHECK(has(help.output, "0  no findings"));
  CHECK(has(help.output, "1  findings reported"));
  CHECK(has(help.output, "2  usage or configuration error, an unwritable --output, or nothing could be checked"));
}

TEST_CASE("ptxlint shows no progress line when stderr is not a terminal", "[cli]") {
  Scratch scratch;
  fs::create_directories(scratch.root / "many");
  for (char c = 'a'; c < 'a' + 25; ++c) {
    std::ofstream(scratch.root / "many" / (std::string(1, c) + ".ptx")) << test::kernel("  ret;");
  }
  Run run = ptxlint("--quiet " + (scratch.root / "many").string());
  CHECK(run.status == 0);
  CHECK(run.output.empty());
  Run plain = ptxlint((scratch.root / "many").string());
  CHECK(plain.output == "All checks passed: 25 files checked.\n");
}
