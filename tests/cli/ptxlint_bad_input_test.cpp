// ptxlint on bad input: a file removed while ptxlint runs, a 50 MB file, binary, empty and
// truncated files, unreadable files and project files that cannot be used. Each gets a
// message naming the path and the problem (a diagnostic, in every format, for a file ptxas
// rejects), the other files are still reported, and the exit status says whether anything
// could be checked.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "TestSupport.h"

using namespace ptx;
namespace fs = std::filesystem;

namespace {

struct Folder {
  fs::path root;
  explicit Folder(std::string_view name) {
    root = fs::temp_directory_path() / (std::string(name) + "-" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~Folder() {
    std::error_code ignored;
    fs::remove_all(root, ignored);
  }
};

bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

// Built by appending: GCC 12 warns (-Wrestrict, a false positive) on `"'" + path.string()`.
std::string quoted(const fs::path& path) {
  std::string out = "'";
  out += path.string();
  out += '\'';
  return out;
}

}  // namespace

TEST_CASE("ptxlint reports a file removed after it was listed and still checks the others", "[cli][bad-input]") {
  // Deterministic: the first input is a FIFO, so ptxlint (one worker, inputs in order) blocks
  // opening it after it has listed every input; the shell deletes the next file before it
  // writes the FIFO's text.
  Folder folder("ptxlint-removed");
  fs::path fifo = folder.root / "first.ptx";
  fs::path doomed = folder.root / "doomed.ptx";
  fs::path kept = folder.root / "kept.ptx";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::ofstream(doomed) << test::kernel("  ret;");
  std::ofstream(kept) << test::kernel("  mov.u32 %r1, %r2\n  ret;");
  std::ofstream(folder.root / "source.ptx") << test::kernel("  ret;");
  std::string script = "cd " + quoted(folder.root) + " && { " + PTXLINT_PATH +
                       " --no-cache --jobs 1 first.ptx doomed.ptx kept.ptx >out.txt 2>err.txt & " +
                       "exec 3>first.ptx; rm doomed.ptx; cat source.ptx >&3; exec 3>&-; wait $!; echo $?; }";
  std::string output;
  test::runCommand(script, output);
  CHECK(output == "1\n");
  std::string out = test::readFile(folder.root / "out.txt");
  std::string err = test::readFile(folder.root / "err.txt");
  CHECK(has(err, "ptxlint: doomed.ptx: no such file or directory (removed while ptxlint ran?)"));
  CHECK(has(out, "kept.ptx:7:"));
  CHECK(has(out, "2 files checked, 1 file unreadable"));
}

TEST_CASE("ptxlint checks a 50 MB file", "[cli][bad-input]") {
  // 50 MB of real instructions: one kernel body repeated in many functions.
  Folder folder("ptxlint-huge");
  fs::path file = folder.root / "huge.ptx";
  {
    std::ofstream out(file);
    out << ".version 8.0\n.target sm_90\n.address_size 64\n\n";
    std::size_t written = 0;
    for (int function = 0; written < (std::size_t{50} << 20); ++function) {
      std::ostringstream body;
      body << ".visible .entry k" << function << "(.param .u64 p)\n{\n"
           << "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n"
           << "\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n";
      for (int i = 0; i < 400; ++i) {
        body << "\tadd.s32 %r2, %r1, " << i << ";\n\tmul.wide.u32 %rd3, %r2, 4;\n"
             << "\tsetp.lt.u32 %p1, %r2, 1024;\n\t@%p1 st.global.u32 [%rd2+" << 4 * i << "], %r2;\n";
      }
      body << "\tret;\n}\n";
      std::string text = body.str();
      out << text;
      written += text.size();
    }
  }
  REQUIRE(fs::file_size(file) >= (std::size_t{50} << 20));
  std::string output;
  int status = test::runCommand(std::string(PTXLINT_PATH) + " --no-cache " + quoted(file) + " 2>&1", output);
  CHECK(status == 0);
  CHECK(output == "All checks passed: 1 file checked.\n");
}

TEST_CASE("ptxlint names binary, empty, unreadable and non-PTX inputs", "[cli][bad-input]") {
  Folder folder("ptxlint-odd");
  fs::path clean = folder.root / "clean.ptx";
  std::ofstream(clean) << test::kernel("  ret;");
  fs::path cubin = folder.root / "kernel.ptx";  // A binary under a .ptx name.
  std::ofstream(cubin, std::ios::binary) << std::string("\x7f" "ELF\x02\x01\x01\0\0\0\0", 12);
  fs::path empty = folder.root / "empty.ptx";
  std::ofstream(empty) << "";
  fs::path noPtx = folder.root / "sources";
  fs::create_directories(noPtx);
  std::ofstream(noPtx / "notes.txt") << "not a source\n";
  std::string output;
  int status = test::runCommand(std::string(PTXLINT_PATH) + " --no-cache " + quoted(cubin) + " " + quoted(empty) +
                                    " " + quoted(noPtx) + " " + quoted(clean) + " 2>&1",
                                output);
  CHECK(status == 1);
  // A binary file and an empty file are checked, and each gets a finding (ptxas rejects both);
  // neither is named on standard error as unreadable.
  CHECK_FALSE(has(output, "ptxlint: " + cubin.string()));
  CHECK(has(output, cubin.string() + ":1:8: error: binary file: it contains NUL bytes, so it is not PTX text "
                                     "(ptxas rejects it); not analyzed [SYN006]"));
  CHECK_FALSE(has(output, "ptxlint: " + empty.string()));
  CHECK(has(output, empty.string() + ":1:1: error: empty file: a PTX module must start with '.version'"));
  CHECK(has(output, "ptxlint: " + noPtx.string() + ": directory contains no PTX or CUDA files"));
  CHECK(has(output, "3 files checked, 1 file unreadable"));

  // Only unusable inputs: nothing could be checked, exit 2.
  status = test::runCommand(std::string(PTXLINT_PATH) + " --no-cache " + quoted(noPtx) + " 2>&1", output);
  CHECK(status == 2);

  if (::geteuid() != 0) {  // root reads any file.
    fs::path locked = folder.root / "locked.ptx";
    std::ofstream(locked) << test::kernel("  ret;");
    fs::permissions(locked, fs::perms::none);
    status = test::runCommand(std::string(PTXLINT_PATH) + " --no-cache " + quoted(locked) + " " + quoted(clean) +
                                  " 2>&1",
                              output);
    CHECK(status == 1);
    CHECK(has(output, "ptxlint: " + locked.string() + ": cannot open file: Permission denied"));
    fs::permissions(locked, fs::perms::owner_all);
  }
}

// ptxas 13.0 (sm_90a) rejects all four files below: "Missing .version directive at start of
// file" (empty and comment-only), "Unexpected EOF encountered" (binary) and "Parsing error near
// '': syntax error" at the end of the truncated one. A CI dashboard reads JSON or SARIF, so each
// finding must be there, not only on standard error.
TEST_CASE("ptxlint reports empty, binary and truncated files in JSON and SARIF", "[cli][bad-input]") {
  Folder folder("ptxlint-rejected");
  fs::path empty = folder.root / "empty.ptx";
  std::ofstream(empty) << "";
  fs::path comments = folder.root / "comments.ptx";
  std::ofstream(comments) << "// generated by a tool that failed\n\n";
  fs::path binary = folder.root / "binary.ptx";
  std::ofstream(binary, std::ios::binary) << std::string(".version 8.5\n\x7f" "ELF\0\0\0", 20);
  fs::path truncated = folder.root / "truncated.ptx";
  std::ofstream(truncated) << ".version 8.5\n.target sm_90\n.address_size 64\n\n.visible .entry k(\n"
                              "\t.param .u64 k_param_0\n)\n{\n\t.reg .b32 \t%r<4>;\n\tmov.u32 \t%r1, %tid.x;\n"
                              "\tadd.s32 \t%r2, %r1, 1;\n\tst.global.v4.u32 \t[%rd2], {%r1, ";
  std::string files = quoted(empty) + " " + quoted(comments) + " " + quoted(binary) + " " + quoted(truncated);

  std::string json;
  int status = test::runCommand(std::string(PTXLINT_PATH) + " --no-cache --format json " + files + " 2>/dev/null", json);
  CHECK(status == 1);
  auto report = nlohmann::json::parse(json);
  REQUIRE(report["files"].size() == 4);
  auto only = [&](std::size_t file) {
    const auto& diagnostics = report["files"][file]["diagnostics"];
    REQUIRE(diagnostics.size() == 1);
    CHECK_FALSE(report["files"][file].contains("io_error"));
    return diagnostics[0];
  };
  auto d = only(0);
  CHECK(d["rule"] == "SEM005");
  CHECK(d["line"] == 1);
  CHECK(d["message"].get<std::string>().starts_with("empty file: a PTX module must start with '.version'"));
  d = only(1);
  CHECK(d["rule"] == "SEM005");
  CHECK(d["message"].get<std::string>().starts_with("the file holds no PTX, only comments and blank lines"));
  d = only(2);
  CHECK(d["rule"] == "SYN006");
  CHECK(d["line"] == 2);
  CHECK(d["column"] == 5);
  d = only(3);
  CHECK(d["rule"] == "SYN002");
  CHECK(d["line"] == 12);
  CHECK(d["message"] ==
        "the file ends inside the body of function 'k' opened at line 8: expected '}' to close it (is the file "
        "truncated?)");
  CHECK(report["summary"]["errors"] == 4);
  CHECK(report["summary"]["io_errors"] == 0);

  std::string sarif;
  test::runCommand(std::string(PTXLINT_PATH) + " --no-cache --format sarif " + files + " 2>/dev/null", sarif);
  auto log = nlohmann::json::parse(sarif);
  std::vector<std::pair<std::string, std::string>> results;  // (file name, rule)
  for (const auto& result : log["runs"][0]["results"]) {
    std::string uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
    results.emplace_back(fs::path(uri).filename().string(), result["ruleId"].get<std::string>());
    CHECK(result["level"] == "error");
  }
  CHECK(results == std::vector<std::pair<std::string, std::string>>{{"empty.ptx", "SEM005"},
                                                                    {"comments.ptx", "SEM005"},
                                                                    {"binary.ptx", "SYN006"},
                                                                    {"truncated.ptx", "SYN002"}});

  // The finding follows the rule settings like any other.
  std::string text;
  status = test::runCommand(std::string(PTXLINT_PATH) + " --no-cache --disable SEM005 " + quoted(empty) + " 2>&1", text);
  CHECK(status == 0);
}

TEST_CASE("ptxlint names a project file it cannot use and lints with the defaults", "[cli][bad-input]") {
  Folder folder("ptxlint-badconfig");
  std::ofstream(folder.root / ".ptxls.json") << "{ \"rules\": { \"SEM001\": ";
  fs::path file = folder.root / "m.ptx";
  std::ofstream(file) << test::kernel("  mov.u32 %r1, %r2;\n  ret;");
  std::string output;
  int status = test::runCommand(std::string(PTXLINT_PATH) + " --no-cache " + quoted(file) + " 2>&1", output);
  CHECK(status == 1);
  CHECK(has(output, "ptxlint: " + (folder.root / ".ptxls.json").string() + ": not valid JSON; ignored"));
  CHECK(has(output, "[SEM001]"));
  std::ofstream(folder.root / ".ptxls.json", std::ios::trunc) << R"({"rules": {"SEM001": "loud"}})";
  test::runCommand(std::string(PTXLINT_PATH) + " --no-cache " + quoted(file) + " 2>&1", output);
  CHECK(has(output, (folder.root / ".ptxls.json").string() + ": "));
  CHECK(has(output, "SEM001"));
}

// Terminal behaviour, through a real pseudo-terminal (util-linux `script`, part of every Debian
// system): colours and the progress line appear on a terminal and nowhere else.
TEST_CASE("ptxlint colours its report and shows progress only on a terminal", "[cli][terminal]") {
  std::string probe;
  if (test::runCommand("script -qec true /dev/null >/dev/null 2>&1", probe) != 0) {
    WARN("skipped: util-linux 'script' cannot open a pseudo-terminal here");
    return;
  }
  Folder folder("ptxlint-terminal");
  fs::path broken = folder.root / "broken.ptx";
  std::ofstream(broken) << test::kernel("  mov.u32 %r1, %r2\n  ret;");
  fs::create_directories(folder.root / "many");
  for (char c = 'a'; c < 'a' + 25; ++c) {
    std::ofstream(folder.root / "many" / (std::string(1, c) + ".ptx")) << test::kernel("  ret;");
  }
  auto onTerminal = [&](const std::string& environment, const std::string& arguments) {
    std::string output;
    test::runCommand("env " + environment + " script -qec \"" + std::string(PTXLINT_PATH) + " --no-cache " +
                         arguments + "\" /dev/null",
                     output);
    return output;
  };
  std::string coloured = onTerminal("NO_COLOR= TERM=xterm", quoted(broken));
  CHECK(has(coloured, "\x1b[1;31merror:\x1b[0m expected ';' after instruction"));
  CHECK(has(coloured, "\x1b[1m" + broken.string() + ":7:19:\x1b[0m"));
  // NO_COLOR, TERM=dumb and --color never turn colours off; a pipe never gets them.
  CHECK_FALSE(has(onTerminal("NO_COLOR=1 TERM=xterm", quoted(broken)), "\x1b["));
  CHECK_FALSE(has(onTerminal("NO_COLOR= TERM=dumb", quoted(broken)), "\x1b["));
  CHECK_FALSE(has(onTerminal("NO_COLOR= TERM=xterm", "--color never " + quoted(broken)), "\x1b["));
  std::string piped;
  test::runCommand(std::string(PTXLINT_PATH) + " --no-cache " + quoted(broken) + " 2>&1 | cat", piped);
  CHECK_FALSE(has(piped, "\x1b["));

  // Over 20 files on a terminal: "[n/N] path" lines on stderr, erased at the end.
  std::string progress = onTerminal("NO_COLOR=1 TERM=xterm", quoted(folder.root / "many"));
  CHECK(has(progress, "\r\x1b[K[1/25] "));
  CHECK(has(progress, "\r\x1b[K[25/25] "));
  CHECK(has(progress, "\r\x1b[KAll checks passed: 25 files checked."));
  CHECK_FALSE(has(onTerminal("NO_COLOR=1 TERM=xterm", "--quiet " + quoted(folder.root / "many")), "[1/25]"));
  CHECK_FALSE(has(onTerminal("NO_COLOR=1 TERM=xterm", quoted(broken)), "[1/1]"));
  std::string redirected;
  test::runCommand(std::string(PTXLINT_PATH) + " --no-cache " + quoted(folder.root / "many") + " 2>&1 | cat",
                   redirected);
  CHECK_FALSE(has(redirected, "[1/25]"));
}
