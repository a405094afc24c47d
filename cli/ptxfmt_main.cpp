// ptxfmt: format PTX files from the command line (core/format/Formatter.h).
//
// Usage: ptxfmt [--check | -i] [--spaces N] [--operand-space] [--max-blank-lines N] FILE...
// Without -i or --check it prints the formatted text of each FILE ('-' is standard input).
// Exit status: 0 on success (with --check: every file is already formatted), 1 when --check
// found a file that formatting would change, 2 for usage or I/O errors.
#include <charconv>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "format/Formatter.h"
#include "syntax/SyntaxTree.h"

using namespace ptx;

namespace {

constexpr std::string_view kUsage = R"(ptxfmt: a formatter for NVIDIA PTX

Usage: ptxfmt [OPTIONS] FILE...

Prints each FILE formatted ('-' reads standard input). docs/formatting.md describes the style.

Options:
  -i                     Rewrite the files in place instead of printing them.
  --check                Print nothing; exit 1 when some file is not formatted.
  --spaces N             Indent with N spaces per level instead of a tab.
  --operand-space        One space between opcode and operands instead of nvcc's " \t".
  --no-space-after-comma Write "a,b" instead of "a, b".
  --max-blank-lines N    Shorten longer runs of blank lines (default 2).
  -h, --help             Show this help.
)";

bool parseCount(std::string_view text, unsigned& value) {
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

bool readInput(const std::string& path, std::string& text) {
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  text = std::move(buffer).str();
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  FormatOptions options;
  bool inPlace = false;
  bool check = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto needsValue = [&](unsigned& value) {
      if (i + 1 >= argc || !parseCount(argv[i + 1], value)) {
        std::cerr << "ptxfmt: " << arg << " needs a number\n";
        return false;
      }
      ++i;
      return true;
    };
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (arg == "-i") {
      inPlace = true;
    } else if (arg == "--check") {
      check = true;
    } else if (arg == "--spaces") {
      if (!needsValue(options.indentWidth)) return 2;
      options.useTabs = false;
    } else if (arg == "--operand-space") {
      options.operandSeparator = OperandSeparator::Space;
    } else if (arg == "--no-space-after-comma") {
      options.spaceAfterComma = false;
    } else if (arg == "--max-blank-lines") {
      if (!needsValue(options.maxBlankLines)) return 2;
    } else if (arg.size() > 1 && arg.front() == '-') {
      std::cerr << "ptxfmt: unknown option " << arg << "\n" << kUsage;
      return 2;
    } else {
      files.emplace_back(arg);
    }
  }
  if (files.empty() || (inPlace && check)) {
    std::cerr << kUsage;
    return 2;
  }

  int status = 0;
  for (const std::string& path : files) {
    std::string text;
    if (!readInput(path, text)) {
      std::cerr << "ptxfmt: cannot read " << path << "\n";
      status = 2;
      continue;
    }
    SyntaxTree tree = parseSyntax(text);
    std::string formatted = formatText(text, tree, options);
    if (check) {
      if (formatted != text) {
        std::cout << path << "\n";
        if (status == 0) status = 1;
      }
    } else if (inPlace && path != "-") {
      if (formatted == text) continue;
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out << formatted;
      if (!out) {
        std::cerr << "ptxfmt: cannot write " << path << "\n";
        status = 2;
      }
    } else {
      std::cout << formatted;
    }
  }
  return status;
}
