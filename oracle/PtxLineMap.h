// PtxLineMap: maps a line of the PTX that nvcc wrote with -lineinfo back to the CUDA C++ source,
// and a line inside an inline-asm block to the source line of that template line.
//
// ptxas reports its errors against the PTX file (a line number and nothing else). With
// -lineinfo, nvcc precedes code with `.loc FILE LINE COLUMN` (plus `inlined_at` for code inlined
// from a helper) and wraps each asm statement's template in `// begin inline asm` /
// `// end inline asm`, the template's lines appearing one for one. So a PTX line maps to the
// last `.loc` before it and, inside a block, to a line offset in the template. The `.loc` of an
// asm block often names an operand expression rather than the `asm` keyword, so the exact line
// comes from the source: `AsmSourceIndex` finds the asm statement spanning the `.loc` and walks
// its string literals to the template line (../shared/docs/inline-ptx.md §3).
//
// Pure text processing, no I/O: the caller reads the files the `.file` table names.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptx::oracle {

// A position a `.loc` names: the `.file` index, a 1-based line and column (0: no column).
struct PtxSourcePosition {
  std::uint32_t fileIndex = 0;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  bool operator==(const PtxSourcePosition&) const = default;
};

// What a PTX line maps to.
struct PtxLineLocation {
  bool hasLoc = false;  // A `.loc` of the same function precedes the line.
  // The innermost position: for code inlined from a helper, the helper's own line (for an asm
  // statement inside an inlined helper, a line of that statement), not the call site.
  PtxSourcePosition loc;
  std::optional<PtxSourcePosition> inlinedAt;  // The call site `loc` was inlined at, if any.
  std::string file;                            // The `.file` entry of loc.fileIndex ("" if absent).
  bool insideInlineAsm = false;                // Between `// begin inline asm` and `// end inline asm`.
  std::uint32_t lineOffsetInBlock = 0;         // Inside a block: 0 for the template's first line.
  std::uint32_t blockLineCount = 0;            // Inside a block: how many template lines it has.
  std::uint32_t blockFirstLine = 0;            // Inside a block: the PTX line of template line 0.
  // Inside a block: its lines as the PTX has them (operands substituted, the first line
  // tab-indented); views into the PtxLineMap, valid while it lives.
  std::vector<std::string_view> blockLines;
};

class PtxLineMap {
 public:
  explicit PtxLineMap(std::string_view ptx);

  // `ptxLine` is 1-based, as ptxas counts; a line past the end maps to nothing.
  PtxLineLocation mapPtxLine(std::uint32_t ptxLine) const;

  // The `.file` table: index → path as nvcc wrote it.
  const std::map<std::uint32_t, std::string>& files() const { return files_; }

 private:
  struct Loc {
    PtxSourcePosition position;
    std::optional<PtxSourcePosition> inlinedAt;
  };
  struct Block {
    std::uint32_t firstLine = 0;  // 1-based PTX line of template line 0.
    std::vector<std::string> lines;
  };
  struct Line {
    std::int32_t loc = -1;    // Index into locs_, -1 for none.
    std::int32_t block = -1;  // Index into blocks_, -1 outside inline asm.
  };
  std::vector<Loc> locs_;
  std::vector<Block> blocks_;
  std::vector<Line> lines_;  // lines_[n - 1] for PTX line n.
  std::map<std::uint32_t, std::string> files_;
};

// A template line located in the C++ source.
struct AsmTemplateLine {
  std::uint32_t asmLine = 0;    // The asm keyword's line and column (1-based, bytes).
  std::uint32_t asmColumn = 0;
  // Exact: the template line's first non-blank character (or where the line begins when it is
  // blank). Not exact: the asm keyword's position.
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::uint32_t offset = 0;  // Byte offset of line:column in the source.
  bool exact = false;
};

// An inline-asm block to find in the source: its `.loc`, the template line wanted and, when
// known, the block's lines as the PTX has them.
struct AsmBlockQuery {
  std::uint32_t locLine = 0;
  std::uint32_t locColumn = 0;  // 0: unknown.
  std::uint32_t lineOffset = 0;
  std::optional<std::vector<std::string_view>> blockLines;
};

// The asm statements of a C++ source text, found by scanning its tokens (comments, string and
// character literals, raw strings and `\`-newline splices understood; no preprocessing): where
// each starts and ends, the bytes of its template with the source offset of each (through
// object-like macros the file defines as string literals), and the parenthesized groups (macro
// invocations) around it. asm in the file's own `#define`s is indexed too, with the lines that
// invoke those macros.
class AsmSourceIndex {
 public:
  explicit AsmSourceIndex(std::string_view source);

  // The source line of template line `lineOffset` of the asm statement a block comes from.
  // The statement: one spanning `locLine` (the one holding the column first, then the nearest);
  // when none does, nvcc's `.loc` is a macro invocation's line (for code in a macro's arguments,
  // such as CCCL's NV_IF_TARGET, or in its definition), so one inside a parenthesized group
  // opened on `locLine` or in the definition of a macro invoked there. With the block's lines, a
  // statement must have a template that can have as many lines (that tells apart statements on
  // one line and rejects a wrongly rebuilt template); the one whose known lines read as the
  // block's (operands standing for anything) wins, and for the macro cases only one whose lines
  // all do.
  // A template line is exact when the literals determine where it starts: counted from the
  // template's start up to the first macro in it and, with the block's lines, from its end back
  // to the last (a line that a macro's bytes begin is placed at its first known character, else
  // at the macro's name); all of them when the macros add no lines. Otherwise the asm keyword's
  // line; nullopt when no statement qualifies (asm from a macro of another file: the `.loc` is
  // already the line that expands it).
  std::optional<AsmTemplateLine> locate(const AsmBlockQuery& query) const;

  // Statements outside `#define`s.
  std::size_t statementCount() const { return statements_.size(); }

 private:
  struct Hole {
    std::size_t index = 0;      // Unknown bytes (a macro's) come before text[index].
    std::uint32_t offset = 0;   // Physical offset of the macro name.
  };
  struct Statement {
    std::uint32_t begin = 0;  // Physical offsets of the keyword and one past the closing ')'.
    std::uint32_t end = 0;
    std::string text;                    // The template's bytes as decoded from its literals.
    std::vector<std::uint32_t> offsets;  // Physical source offset of each byte of `text`.
    std::vector<Hole> holes;             // Where macros put bytes not known here, in order.
    std::uint32_t textEnd = 0;           // Physical offset just past the template's last literal.
    std::vector<std::uint32_t> groupLines;  // Lines of the enclosing groups' openers, outermost first.
  };
  // A macro whose definition holds asm, directly or through the macros its body names.
  struct Macro {
    std::vector<std::size_t> statements;  // Into macroStatements_.
    std::vector<std::size_t> uses;        // Into macros_: the macros with asm its body names.
  };
  struct Builder;
  std::uint32_t lineOf(std::uint32_t offset) const;
  std::uint32_t columnOf(std::uint32_t offset) const;
  struct LineStart {
    std::size_t index = 0;    // Into the statement's text.
    bool afterMacro = false;  // The line begins inside a macro's bytes; its known part starts at index.
  };
  std::vector<std::optional<LineStart>> lineStarts(const Statement& statement, std::optional<std::size_t> lineCount) const;
  AsmTemplateLine templateLine(const Statement& statement, LineStart start) const;
  AsmTemplateLine keywordLine(const Statement& statement) const;

  std::vector<std::uint32_t> lineStarts_;  // Physical offset of each line's first byte.
  std::vector<Statement> statements_;      // In source order, outside directives.
  std::vector<Statement> macroStatements_;  // In `#define` bodies.
  std::vector<Macro> macros_;
  std::map<std::uint32_t, std::vector<std::size_t>> invocations_;  // Line → macros_ invoked on it or in a group it opens.
};

// Where a mapped PTX line lands in the C++ source.
struct SourceLocation {
  std::string file;
  std::uint32_t line = 0;    // 1-based; 0 when the PTX line has no `.loc`.
  std::uint32_t column = 0;  // 1-based; 0 when unknown.
  bool insideInlineAsm = false;
  bool asmFound = false;       // The asm statement was found in the source (asmLine is set).
  bool exact = false;          // line/column are the template line's own.
  std::uint32_t asmLine = 0;   // The asm keyword's line.
  std::uint32_t locLine = 0;   // The `.loc` line (innermost).
  std::uint32_t lineOffsetInBlock = 0;
};

// Combines a PTX line's mapping with the source it names (`source` null when that file could not
// be read): the template line when exact, else the asm keyword's line, else the `.loc`.
SourceLocation locateInSource(const PtxLineLocation& at, const AsmSourceIndex* source);

}  // namespace ptx::oracle
