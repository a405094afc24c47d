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
  Run run = ptxlint("--format json /nonexistent/file.ptx");
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

TEST_CASE("ptxlint reads the nearest .ptxls.json; command-line options win; --no-config ignores it", "[cli]") {
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
