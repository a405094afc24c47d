// Diagnostic: what every producer in the core and the analyzers reports.
//
// A diagnostic is plain data in editor-neutral terms: byte ranges into the analyzed text, a
// rule code, a category and a message. The edges (ptlint's emitters, the language server)
// convert byte ranges to lines and columns in their own conventions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptx {

enum class Severity : std::uint8_t { Error, Warning, Information, Hint };

// The categories are part of ptxlint's JSON contract (docs/json-format.md).
enum class Category : std::uint8_t {
  Syntax,
  Semantic,
  Isa,
  Abi,
  CallSequence,
  Alignment,
  Swizzle,
  Race,
  Sync,
  Performance,
  Lint,       // About the linter's own directives (suppression comments).
  InlineAsm,  // About an asm statement of CUDA C++ (its operands, constraints and template).
  HostApi,    // About CUDA host API calls checked from their constant arguments (tensor maps).
};

std::string_view toString(Severity severity);
std::string_view toString(Category category);

// A half-open byte range [begin, end) into the analyzed text.
struct ByteRange {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;

  friend bool operator==(const ByteRange&, const ByteRange&) = default;
};

struct RelatedInformation {
  ByteRange range;
  std::string message;
};

// One replacement of a machine-applicable fix: the bytes of `range` (in the analyzed text)
// become `newText`; an empty range inserts. The edits of one fix never overlap.
struct FixEdit {
  ByteRange range;
  std::string newText;

  friend bool operator==(const FixEdit&, const FixEdit&) = default;
};

// A fix that a rule knows will make its diagnostic go away ("Replace '.globl' with
// '.global'"). The editor offers it as a quick fix; ptxlint leaves it out of its output.
struct Fix {
  std::string title;
  std::vector<FixEdit> edits;
  // The one obvious fix, which an editor may apply without asking; at most one per diagnostic.
  bool isPreferred = false;
};

struct Diagnostic {
  std::string rule;  // Stable rule code such as "SYN001"; see analyzers/Rules.def.
  Severity severity = Severity::Error;
  Category category = Category::Syntax;
  ByteRange range;
  std::string message;
  std::vector<RelatedInformation> related;
  std::vector<Fix> fixes;  // Machine-applicable fixes, a preferred one first; often empty.
};

}  // namespace ptx
