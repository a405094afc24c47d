// SyntaxTree implementation: a per-thread TSParser, BOM masking and the empty-tree fallback.
#include "syntax/SyntaxTree.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <thread>

#include "isa/InstructionFacts.h"
#include "syntax/FunctionBodies.h"
#include "tree-sitter-ptx.h"
#include "support/ParallelFor.h"

// Joining piece trees uses four functions of tree-sitter's own library that its public header
// does not declare (they are exported by libtree-sitter 0.20.x, the version this project
// builds against). A subtree is an 8-byte union passed by value; an array of them is
// {contents, size, capacity}. The joined tree is checked against the pieces before use.
extern "C" {
union PtxTsSubtree {
  std::uint64_t inlineData;
  const void* heapData;
};
struct PtxTsSubtreeArray {
  PtxTsSubtree* contents;
  std::uint32_t size;
  std::uint32_t capacity;
};
PtxTsSubtree ts_subtree_new_node(TSSymbol symbol, PtxTsSubtreeArray* children, unsigned productionId,
                                 const TSLanguage* language);
void ts_subtree_retain(PtxTsSubtree subtree);
// A pool of free nodes: two arrays {contents, size, capacity}; a zeroed one frees directly.
struct PtxTsSubtreePool {
  void* freeTrees;
  std::uint32_t freeTreesSize, freeTreesCapacity;
  void* treeStack;
  std::uint32_t treeStackSize, treeStackCapacity;
};
void ts_subtree_release(PtxTsSubtreePool* pool, PtxTsSubtree subtree);
void ts_subtree_pool_delete(PtxTsSubtreePool* pool);
void ts_subtree_set_symbol(PtxTsSubtree* subtree, TSSymbol symbol, const TSLanguage* language);
TSTree* ts_tree_new(PtxTsSubtree root, const TSLanguage* language, const TSRange* includedRanges,
                    unsigned includedRangeCount);
extern void* (*ts_current_malloc)(std::size_t);
}

static_assert(TREE_SITTER_LANGUAGE_VERSION == 14 && TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION == 13,
              "parseSyntaxChunked joins trees with tree-sitter 0.20 internals; check them for this version");
static_assert(sizeof(PtxTsSubtree) == 8 && sizeof(PtxTsSubtreePool) == 32);

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
  bool chunks = tree_sitter_ptx_set_chunk_boundaries(options.chunkBoundaries);
  TSTree* tree = ts_parser_parse(parser, old, input);
  tree_sitter_ptx_set_chunk_boundaries(chunks);
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

// ── Chunked parsing ─────────────────────────────────────────────────────────────────────

// A line whose first token is one of these starts a module item (a function or a module
// variable); none of them can start a statement inside a body.
bool startsModuleItem(std::string_view rest) {
  static constexpr Modifier kKeywords[] = {Modifier::Visible, Modifier::Extern, Modifier::Weak,  Modifier::Entry,
                                           Modifier::Func,    Modifier::Global, Modifier::Const, Modifier::Common};
  for (Modifier word : kKeywords) {
    std::string_view keyword = spellingOf(word);
    if (rest.size() > keyword.size() && rest.starts_with(keyword) &&
        (rest[keyword.size()] == ' ' || rest[keyword.size()] == '\t')) {
      return true;
    }
  }
  return false;
}

struct Cut {
  std::uint32_t offset = 0;
  TSPoint point{0, 0};
};

// The cuts (see moduleItemCuts) with their points. One pass over the text, tracking brace
// depth and the last significant byte outside comments, strings and preprocessor lines;
// anything it does not understand (an unterminated comment, a '}' too many) ends the search.
std::vector<Cut> findCuts(std::string_view text, std::size_t pieceBytes) {
  std::vector<Cut> cuts;
  if (text.size() <= pieceBytes) return cuts;
  // Bytes that change the state; everything else only updates `last` when it is not blank.
  static constexpr auto kSpecial = [] {
    std::array<bool, 256> special{};
    for (unsigned char c : std::string_view("\n/\"{}")) special[c] = true;
    return special;
  }();
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; };
  const std::size_t size = text.size();
  std::size_t lastCut = 0;
  std::uint32_t row = 0;
  std::size_t lineStart = 0;
  long depth = 0;
  char last = 0;
  std::size_t i = 0;
  while (i < size) {
    // A run of ordinary bytes: remember its last non-blank one.
    std::size_t j = i;
    while (j < size && !kSpecial[static_cast<unsigned char>(text[j])]) ++j;
    for (std::size_t k = j; k > i; --k) {
      if (!blank(text[k - 1])) {
        last = text[k - 1];
        break;
      }
    }
    if (j >= size) break;
    char c = text[j];
    i = j + 1;
    if (c == '\n') {
      ++row;
      lineStart = i;
      std::size_t first = i;
      while (first < size && blank(text[first])) ++first;
      if (first < size && text[first] == '#') {
        // A preprocessor line or line marker: an extra, like a comment.
        std::size_t newline = text.find('\n', first);
        i = newline == std::string_view::npos ? size : newline;
        continue;
      }
      if (depth == 0 && (last == '}' || last == ';') && first < size && text[first] == '.' &&
          first - lastCut >= pieceBytes && size - first >= pieceBytes / 4 && startsModuleItem(text.substr(first))) {
        cuts.push_back({static_cast<std::uint32_t>(first), {row, static_cast<std::uint32_t>(first - lineStart)}});
        lastCut = first;
      }
      i = first;
    } else if (c == '/') {
      if (i < size && text[i] == '/') {
        std::size_t newline = text.find('\n', i);
        i = newline == std::string_view::npos ? size : newline;
      } else if (i < size && text[i] == '*') {
        std::size_t close = text.find("*/", i + 1);
        if (close == std::string_view::npos) break;
        for (std::size_t k = i; k < close; ++k) {
          if (text[k] == '\n') {
            ++row;
            lineStart = k + 1;
          }
        }
        i = close + 2;
      } else {
        last = c;
      }
    } else if (c == '"') {
      while (i < size && text[i] != '"' && text[i] != '\n') ++i;
      if (i >= size || text[i] == '\n') break;  // Unterminated: the parse reports it.
      ++i;
      last = c;
    } else {
      depth += c == '{' ? 1 : -1;
      if (depth < 0) break;
      last = c;
    }
  }
  return cuts;
}

// The hidden symbol that stands in for each piece's root in the joined tree: the repetition
// helper of `source_file`, which full parses use the same way.
TSSymbol pieceSymbol(const TSLanguage* language) {
  static const TSSymbol symbol = [language] {
    for (TSSymbol s = 0; s < ts_language_symbol_count(language); ++s) {
      if (ts_language_symbol_type(language, s) == TSSymbolTypeAuxiliary &&
          std::string_view(ts_language_symbol_name(language, s)) == "source_file_repeat1") {
        return s;
      }
    }
    return TSSymbol{0};
  }();
  return symbol;
}

bool samePoint(TSPoint a, TSPoint b) { return a.row == b.row && a.column == b.column; }

// Releases the pieces' roots of a joined tree on several threads: most of the time to free a
// big tree, which ts_tree_delete would spend on one.
void releasePieces(const std::vector<PtxTsSubtree>& pieces, unsigned threads) {
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    PtxTsSubtreePool pool{};
    for (std::size_t k = next++; k < pieces.size(); k = next++) ts_subtree_release(&pool, pieces[k]);
    ts_subtree_pool_delete(&pool);
  };
  runOnThreads(pieces.size(), threads, work);
}

// Deletes a joined tree: the root first (the pieces keep the reference `pieces` holds), then
// the pieces side by side.
struct JoinedTreeDeleter {
  std::vector<PtxTsSubtree> pieces;
  unsigned threads = 1;
  void operator()(TSTree* tree) const {
    ts_tree_delete(tree);
    releasePieces(pieces, threads);
  }
};

// Joins the piece trees (each parsed over [cuts[k-1], cuts[k]) of the text) under one
// `source_file` root. Each piece's positions are made relative to the end of the piece
// before it (an edit deleting the bytes before its start, which only touches the padding of
// its first token), its root becomes a hidden node, and the new root sums them up.
// Takes ownership of the trees; returns null (having freed them) when a check fails. On
// success `pieces` holds one more reference to each piece's root, for JoinedTreeDeleter.
TSTree* joinPieces(std::vector<TSTree*>& trees, const std::vector<Cut>& cuts, std::string_view text,
                   std::vector<PtxTsSubtree>& pieces) {
  const TSLanguage* language = tree_sitter_ptx();
  TSSymbol hidden = pieceSymbol(language);
  TSSymbol sourceFile = ts_node_symbol(ts_tree_root_node(trees.front()));
  std::uint32_t visibleChildren = 0;
  bool ok = hidden != 0;
  for (std::size_t k = 0; k < trees.size() && ok; ++k) {
    TSNode root = ts_tree_root_node(trees[k]);
    visibleChildren += ts_node_child_count(root);
    // Every piece but the last ends exactly at the next cut (its end-of-input padding).
    if (k + 1 < trees.size()) {
      ok = ts_node_end_byte(root) == cuts[k].offset && samePoint(ts_node_end_point(root), cuts[k].point);
    } else {
      ok = ts_node_end_byte(root) == text.size();
    }
    ok = ok && ts_node_symbol(root) == sourceFile;
  }
  if (!ok) {
    for (TSTree* tree : trees) ts_tree_delete(tree);
    return nullptr;
  }
  auto count = static_cast<std::uint32_t>(trees.size());
  PtxTsSubtreeArray children{static_cast<PtxTsSubtree*>(ts_current_malloc(sizeof(PtxTsSubtree) * count)), 0, count};
  for (std::size_t k = 0; k < trees.size(); ++k) {
    if (k > 0) {
      const Cut& start = cuts[k - 1];
      TSInputEdit dropPrefix{0, start.offset, 0, {0, 0}, start.point, {0, 0}};
      ts_tree_edit(trees[k], &dropPrefix);
    }
    PtxTsSubtree root = *static_cast<const PtxTsSubtree*>(ts_tree_root_node(trees[k]).id);
    ts_subtree_retain(root);
    ts_tree_delete(trees[k]);  // The reference just taken is now the only one: `children`'s.
    ts_subtree_set_symbol(&root, hidden, language);
    children.contents[children.size++] = root;
    ts_subtree_retain(root);  // `pieces`'s.
    pieces.push_back(root);
  }
  trees.clear();
  PtxTsSubtree joinedRoot = ts_subtree_new_node(sourceFile, &children, 0, language);
  const TSRange everything{{0, 0}, {UINT32_MAX, UINT32_MAX}, 0, UINT32_MAX};
  TSTree* joined = ts_tree_new(joinedRoot, language, &everything, 1);
  TSNode root = ts_tree_root_node(joined);
  if (ts_node_end_byte(root) != text.size() || ts_node_child_count(root) != visibleChildren || ts_node_has_error(root)) {
    ts_tree_delete(joined);
    releasePieces(pieces, 1);
    pieces.clear();
    return nullptr;
  }
  return joined;
}

}  // namespace

std::vector<std::uint32_t> moduleItemCuts(std::string_view text, std::size_t pieceBytes) {
  std::vector<std::uint32_t> offsets;
  for (const Cut& cut : findCuts(text, std::max<std::size_t>(pieceBytes, 1))) offsets.push_back(cut.offset);
  return offsets;
}

SyntaxTree parseSyntaxChunked(std::string_view text, const ParseOptions& options, unsigned threads,
                              std::size_t pieceBytes) {
  if (threads <= 1 || text.size() >= UINT32_MAX) return parseSyntax(text, options);
  if (longestExtrasRun(text) > kMaxExtrasInARow) return SyntaxTree::refusedForExtras();
  std::vector<Cut> cuts = findCuts(text, std::max<std::size_t>(pieceBytes, 1));
  if (cuts.empty()) return parseSyntax(text, options);
  std::size_t pieces = cuts.size() + 1;
  std::vector<TSTree*> trees(pieces, nullptr);
  auto startOf = [&](std::size_t k) { return k == 0 ? 0 : cuts[k - 1].offset; };
  auto endOf = [&](std::size_t k) { return k + 1 < pieces ? cuts[k].offset : static_cast<std::uint32_t>(text.size()); };
  // Biggest pieces first, so that no big one is left for the end while other threads idle.
  std::vector<std::size_t> order(pieces);
  for (std::size_t k = 0; k < pieces; ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return endOf(a) - startOf(a) > endOf(b) - startOf(b); });
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    TSParser* parser = threadParser();
    for (std::size_t taken = next++; taken < pieces; taken = next++) {
      std::size_t k = order[taken];
      TSRange range{{0, 0}, {UINT32_MAX, UINT32_MAX}, 0, UINT32_MAX};
      if (k > 0) {
        range.start_byte = cuts[k - 1].offset;
        range.start_point = cuts[k - 1].point;
      }
      if (k + 1 < pieces) {
        range.end_byte = cuts[k].offset;
        range.end_point = cuts[k].point;
      }
      ts_parser_set_included_ranges(parser, &range, 1);
      trees[k] = runParser(nullptr, text, options);
    }
    ts_parser_set_included_ranges(parser, nullptr, 0);
  };
  runOnThreads(pieces, threads, work);

  // A piece with an error may have recovered differently than the whole text would (recovery
  // can reach back across the cut); a stopped piece means the whole parse would stop too.
  bool usable = std::all_of(trees.begin(), trees.end(),
                            [](TSTree* tree) { return tree != nullptr && !ts_node_has_error(ts_tree_root_node(tree)); });
  TSTree* joined = nullptr;
  std::vector<PtxTsSubtree> pieceRoots;
  if (usable) {
    joined = joinPieces(trees, cuts, text, pieceRoots);
  } else {
    for (TSTree* tree : trees) {
      if (tree != nullptr) ts_tree_delete(tree);
    }
  }
  if (joined == nullptr) return parseSyntax(text, options);
  SyntaxTree result;
  result.tree_.reset(joined, JoinedTreeDeleter{std::move(pieceRoots), threads});
  result.pieces_ = pieces;
  return result;
}

SyntaxEdit describeEdit(std::string_view oldText, std::uint32_t begin, std::uint32_t oldEnd,
                        std::string_view inserted, std::optional<TSPoint> start) {
  auto size = static_cast<std::uint32_t>(oldText.size());
  if (begin > size) start.reset();  // Describes a byte the text does not have.
  begin = std::min(begin, size);
  oldEnd = std::clamp(oldEnd, begin, size);
  SyntaxEdit edit;
  edit.startByte = begin;
  edit.oldEndByte = oldEnd;
  edit.newEndByte = begin + static_cast<std::uint32_t>(inserted.size());
  edit.start = start ? *start : pointAt(oldText, begin);
  edit.oldEnd = pointAfter(edit.start, oldText.substr(begin, oldEnd - begin));
  edit.newEnd = pointAfter(edit.start, inserted);
  return edit;
}

namespace {

// How a line starts, as far as runs of extras go: nothing but blanks, a line comment or a
// preprocessor line (extras), a block comment's opening, or anything else.
enum class LineStart { Blank, Extra, BlockComment, Code };

LineStart lineStartOf(std::string_view line) {
  std::size_t first = 0;
  while (first < line.size() && (line[first] == ' ' || line[first] == '\t' || line[first] == '\r')) ++first;
  if (first == line.size()) return LineStart::Blank;
  char c = line[first];
  char next = first + 1 < line.size() ? line[first + 1] : '\0';
  if (c == '#' || (c == '/' && next == '/')) return LineStart::Extra;
  return c == '/' && next == '*' ? LineStart::BlockComment : LineStart::Code;
}

}  // namespace

std::size_t longestExtrasRun(std::string_view text) {
  // One look at each line's first characters (and, inside a block comment, for its end):
  // this runs before every parse, so it must cost little beside one.
  std::size_t longest = 0;
  std::size_t run = 0;
  bool inBlockComment = false;
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) {
    const char* newline = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* lineEnd = newline != nullptr ? newline : end;
    std::string_view line(p, static_cast<std::size_t>(lineEnd - p));
    p = lineEnd + 1;
    if (inBlockComment) {
      inBlockComment = line.find("*/") == std::string_view::npos;
      continue;
    }
    switch (lineStartOf(line)) {
      case LineStart::Blank:
        break;  // Part of the run around it.
      case LineStart::Extra:
        longest = std::max(longest, ++run);
        break;
      case LineStart::BlockComment:
        longest = std::max(longest, ++run);
        inBlockComment = line.find("*/", line.find("/*") + 2) == std::string_view::npos;
        break;
      case LineStart::Code:
        run = 0;
        break;
    }
  }
  return longest;
}

namespace {

// The run of extra-only lines through the lines overlapping [begin, end] of `text`, walking out
// from them, capped a little past kMaxExtrasInARow; SIZE_MAX when a block comment's delimiter
// is on the way (its inner lines are one extra whatever they hold: only longestExtrasRun, from
// the start, can tell).
std::size_t extrasRunThrough(std::string_view text, std::size_t begin, std::size_t end) {
  constexpr std::size_t kCap = kMaxExtrasInARow + 1;
  constexpr std::size_t kUnsure = SIZE_MAX;
  // Counts one line: 1 to walk on, 0 to stop there, kUnsure to give up.
  auto count = [](std::string_view line, std::size_t& run, bool insideEdit) -> std::size_t {
    if (line.find("/*") != std::string_view::npos || line.find("*/") != std::string_view::npos) return kUnsure;
    switch (lineStartOf(line)) {
      case LineStart::Extra:
        ++run;
        return 1;
      case LineStart::Code:
        if (!insideEdit) return 0;
        run = 0;  // Code inside the edit: the run starts after it.
        return 1;
      default:
        return 1;
    }
  };
  std::size_t first = begin == 0 ? 0 : text.rfind('\n', begin - 1);
  first = first == std::string_view::npos || begin == 0 ? 0 : first + 1;
  std::size_t run = 0;
  // The edited lines and then the lines after them, until code.
  for (std::size_t line = first; line < text.size() && run < kCap;) {
    std::size_t stop = std::min(text.find('\n', line), text.size());
    std::size_t go = count(text.substr(line, stop - line), run, line <= end);
    if (go == kUnsure) return kUnsure;
    if (go == 0) break;
    line = stop + 1;
  }
  // The lines before them, until code: `first` starts the line after each newline met.
  while (first > 0 && run < kCap) {
    std::size_t newline = first - 1;  // Ends the line before.
    std::size_t start = newline == 0 ? 0 : text.rfind('\n', newline - 1);
    start = start == std::string_view::npos || newline == 0 ? 0 : start + 1;
    std::size_t go = count(text.substr(start, newline - start), run, false);
    if (go == kUnsure) return kUnsure;
    if (go == 0) break;
    first = start;
  }
  return run;
}

}  // namespace

SyntaxTree SyntaxTree::refusedForExtras() {
  SyntaxTree result;
  result.complete_ = false;
  result.refusedForExtrasRun_ = true;
  result.tree_.reset(emptyTree(), SyntaxTree::Deleter{});
  return result;
}

SyntaxTree parseSyntax(std::string_view text, const ParseOptions& options) {
  if (longestExtrasRun(text) > kMaxExtrasInARow) return SyntaxTree::refusedForExtras();
  SyntaxTree result;
  TSTree* tree = runParser(nullptr, text, options);
  result.complete_ = tree != nullptr;
  if (tree == nullptr) tree = emptyTree();
  result.tree_.reset(tree, SyntaxTree::Deleter{});
  return result;
}

SyntaxTree parseSyntaxExcluding(std::string_view text, std::span<const BodyInterior> excluded,
                                const ParseOptions& options) {
  if (excluded.empty()) return parseSyntax(text, options);
  if (longestExtrasRun(text) > kMaxExtrasInARow) return SyntaxTree::refusedForExtras();
  // The ranges between the left-out interiors (an empty interior leaves nothing out).
  std::vector<TSRange> included;
  TSRange range{{0, 0}, {0, 0}, 0, 0};
  for (const BodyInterior& body : excluded) {
    if (body.end <= body.begin) continue;
    range.end_byte = body.begin;
    range.end_point = body.beginPoint;
    included.push_back(range);
    range.start_byte = body.end;
    range.start_point = body.endPoint;
  }
  range.end_byte = UINT32_MAX;
  range.end_point = {UINT32_MAX, UINT32_MAX};
  included.push_back(range);
  TSParser* parser = threadParser();
  SyntaxTree result;
  TSTree* tree = nullptr;
  if (ts_parser_set_included_ranges(parser, included.data(), static_cast<std::uint32_t>(included.size()))) {
    tree = runParser(nullptr, text, options);
  }
  ts_parser_set_included_ranges(parser, nullptr, 0);
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
  // The old text had no run too long (its tree is complete): a new one passes through the
  // edit. For one edit, looking around it is enough, unless a block comment is near; several
  // edits' offsets shift one another, so those texts are scanned whole.
  bool mayBeTooLong = edits.size() != 1 ||
                      extrasRunThrough(newText, edits[0].startByte, edits[0].newEndByte) > kMaxExtrasInARow;
  if (mayBeTooLong && longestExtrasRun(newText) > kMaxExtrasInARow) return SyntaxTree::refusedForExtras();
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
