// SyntaxTree implementation: a per-thread TSParser, BOM masking and the empty-tree fallback.
#include "syntax/SyntaxTree.h"

#include <algorithm>
#include <cstring>

#include "tree-sitter-ptx.h"

namespace ptx {
namespace {

struct ParserDeleter {
  void operator()(TSParser* parser) const { ts_parser_delete(parser); }
};

TSParser* threadParser() {
  thread_local std::unique_ptr<TSParser, ParserDeleter> parser = [] {
    std::unique_ptr<TSParser, ParserDeleter> created(ts_parser_new());
    ts_parser_set_language(created.get(), tree_sitter_ptx());
    return created;
  }();
  return parser.get();
}

// The grammar does not know the UTF-8 byte-order mark; the input callback shows it to the
// parser as three spaces so that byte offsets stay identical to the text's.
struct MaskedInput {
  std::string_view text;
  bool hasBom = false;
};

const char* readMasked(void* payload, std::uint32_t byteIndex, TSPoint, std::uint32_t* bytesRead) {
  const auto* input = static_cast<const MaskedInput*>(payload);
  static constexpr char kSpaces[] = "   ";
  if (byteIndex >= input->text.size()) {
    *bytesRead = 0;
    return "";
  }
  if (input->hasBom && byteIndex < 3) {
    *bytesRead = 3 - byteIndex;
    return kSpaces + byteIndex;
  }
  *bytesRead = static_cast<std::uint32_t>(input->text.size() - byteIndex);
  return input->text.data() + byteIndex;
}

TSTree* runParser(const TSTree* old, std::string_view text, const ParseOptions& options) {
  TSParser* parser = threadParser();
  ts_parser_set_timeout_micros(parser, options.timeoutMicros);
  // tree-sitter reads the flag with an atomic load through a plain pointer.
  static_assert(sizeof(std::atomic<std::size_t>) == sizeof(std::size_t));
  ts_parser_set_cancellation_flag(parser,
                                  reinterpret_cast<const std::size_t*>(options.cancellation));
  MaskedInput masked{text, text.substr(0, 3) == "\xEF\xBB\xBF"};
  TSInput input{&masked, readMasked, TSInputEncodingUTF8};
  TSTree* tree = ts_parser_parse(parser, old, input);
  ts_parser_set_cancellation_flag(parser, nullptr);
  ts_parser_set_timeout_micros(parser, 0);
  if (tree == nullptr) ts_parser_reset(parser);
  return tree;
}

TSTree* emptyTree() {
  TSParser* parser = threadParser();
  return ts_parser_parse_string(parser, nullptr, "", 0);
}

TSPoint pointAfter(TSPoint start, std::string_view text) {
  TSPoint point = start;
  for (char c : text) {
    if (c == '\n') {
      ++point.row;
      point.column = 0;
    } else {
      ++point.column;
    }
  }
  return point;
}

TSPoint pointAt(std::string_view text, std::uint32_t offset) {
  std::string_view prefix = text.substr(0, offset);
  auto lastNewline = prefix.rfind('\n');
  auto row = static_cast<std::uint32_t>(std::count(prefix.begin(), prefix.end(), '\n'));
  auto column = lastNewline == std::string_view::npos
                    ? offset
                    : static_cast<std::uint32_t>(offset - lastNewline - 1);
  return {row, column};
}

}  // namespace

SyntaxEdit describeEdit(std::string_view oldText, std::uint32_t begin, std::uint32_t oldEnd,
                        std::string_view inserted) {
  auto size = static_cast<std::uint32_t>(oldText.size());
  begin = std::min(begin, size);
  oldEnd = std::clamp(oldEnd, begin, size);
  SyntaxEdit edit;
  edit.startByte = begin;
  edit.oldEndByte = oldEnd;
  edit.newEndByte = begin + static_cast<std::uint32_t>(inserted.size());
  edit.start = pointAt(oldText, begin);
  edit.oldEnd = pointAfter(edit.start, oldText.substr(begin, oldEnd - begin));
  edit.newEnd = pointAfter(edit.start, inserted);
  return edit;
}

SyntaxTree parseSyntax(std::string_view text, const ParseOptions& options) {
  SyntaxTree result;
  TSTree* tree = runParser(nullptr, text, options);
  result.complete_ = tree != nullptr;
  if (tree == nullptr) tree = emptyTree();
  result.tree_.reset(tree, SyntaxTree::Deleter{});
  return result;
}

SyntaxTree reparseSyntax(const SyntaxTree& old, std::string_view newText, const SyntaxEdit& edit,
                         const ParseOptions& options) {
  return reparseSyntax(old, newText, std::span<const SyntaxEdit>(&edit, 1), options);
}

SyntaxTree reparseSyntax(const SyntaxTree& old, std::string_view newText, std::span<const SyntaxEdit> edits,
                         const ParseOptions& options) {
  if (!old.tree_ || !old.complete_) return parseSyntax(newText, options);
  // ts_tree_edit mutates, and `old` may be shared with readers: edit a cheap copy.
  TSTree* edited = ts_tree_copy(old.tree_.get());
  for (const SyntaxEdit& edit : edits) {
    TSInputEdit input{edit.startByte, edit.oldEndByte, edit.newEndByte,
                      edit.start,     edit.oldEnd,     edit.newEnd};
    ts_tree_edit(edited, &input);
  }
  TSTree* tree = runParser(edited, newText, options);
  ts_tree_delete(edited);
  SyntaxTree result;
  result.complete_ = tree != nullptr;
  if (tree == nullptr) tree = emptyTree();
  result.tree_.reset(tree, SyntaxTree::Deleter{});
  return result;
}

}  // namespace ptx
