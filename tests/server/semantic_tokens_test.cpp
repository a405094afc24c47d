// Semantic tokens: what each word is coloured as (from the model, or from the tree alone),
// the LSP encoding in UTF-16 and UTF-8, range requests, and delta edits.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "Annotated.h"
#include "Lint.h"
#include "TestSupport.h"
#include "features/SemanticTokens.h"
#include "protocol/Positions.h"
#include "text/LineIndex.h"

using namespace ptx;
using namespace ptx::lsp;
using ptx::test::Annotated;

namespace {

constexpr std::uint32_t type(SemanticTokenType t) { return static_cast<std::uint32_t>(t); }

struct Expected {
  SemanticTokenType type;
  std::uint32_t modifiers;
};

// The token covering exactly `range`, if any.
std::optional<SemanticToken> tokenAt(const std::vector<SemanticToken>& tokens, ByteRange range) {
  for (const SemanticToken& token : tokens) {
    if (token.begin == range.begin && token.end == range.end) return token;
  }
  return std::nullopt;
}

bool overlapsAny(const std::vector<SemanticToken>& tokens, ByteRange range) {
  return std::any_of(tokens.begin(), tokens.end(),
                     [&](const SemanticToken& t) { return t.begin < range.end && t.end > range.begin; });
}

// Sorted, non-empty, non-overlapping, each on one line.
void checkWellFormed(std::string_view text, const std::vector<SemanticToken>& tokens) {
  std::uint32_t previousEnd = 0;
  for (const SemanticToken& token : tokens) {
    INFO("token at " << token.begin << ".." << token.end);
    REQUIRE(token.begin < token.end);
    REQUIRE(token.begin >= previousEnd);
    REQUIRE(token.end <= text.size());
    REQUIRE(text.substr(token.begin, token.end - token.begin).find('\n') == std::string_view::npos);
    REQUIRE(token.type < semanticTokenTypes().size());
    REQUIRE(token.modifiers < (1u << semanticTokenModifiers().size()));
    previousEnd = token.end;
  }
}

// Turns the encoded array back into byte-range tokens through Positions' offsetAt, so a
// round trip checks the encoding against the server's own position conversion.
std::vector<SemanticToken> decode(std::string_view text, const LineIndex& lines, const std::vector<std::uint32_t>& data,
                                  PositionEncoding encoding) {
  REQUIRE(data.size() % 5 == 0);
  std::vector<SemanticToken> tokens;
  std::uint32_t line = 0, start = 0;
  for (std::size_t i = 0; i < data.size(); i += 5) {
    start = data[i] == 0 ? start + data[i + 1] : data[i + 1];
    line += data[i];
    std::uint32_t begin = offsetAt(text, lines, {line, start}, encoding);
    std::uint32_t end = offsetAt(text, lines, {line, start + data[i + 2]}, encoding);
    tokens.push_back({begin, end, data[i + 3], data[i + 4]});
  }
  return tokens;
}

std::vector<std::uint32_t> applyEdits(std::vector<std::uint32_t> data, const std::vector<SemanticTokensEdit>& edits) {
  // LSP edits all refer to the original array; apply from the back so offsets stay valid.
  std::vector<SemanticTokensEdit> ordered = edits;
  std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.start > b.start; });
  for (const SemanticTokensEdit& edit : ordered) {
    REQUIRE(edit.start + edit.deleteCount <= data.size());
    data.erase(data.begin() + edit.start, data.begin() + edit.start + edit.deleteCount);
    data.insert(data.begin() + edit.start, edit.data.begin(), edit.data.end());
  }
  return data;
}

const char* const kModule = R"(.version 8.0
.target [[$arch:sm_80]]
.address_size 64

.func (.reg .b32 [[$ret:r]]) [[$add:add]](.reg .b32 [[$a:a]], .reg .b32 b)
{
	[[$opcode:add]][[$s32:.s32]] r, [[$aUse:a]], b;
	ret;
}

.const .align 4 .b32 [[$table:table]][2] = {1, 2};

.visible .entry [[$kernel:kernel]](.param .u64 [[$ptr:ptr]])
{
	.reg .b32 %r<4>;
	.reg .b64 %rd1;
	mov.u32 %r1, [[$tid:%tid]][[$x:.x]];
	call ([[$r2:%r2]]), [[$callee:add]], (%r1, %r3);
	ld[[$const:.const]].u32 %r3, [ [[$tableUse:table]] ];
	ld.param.u64 %rd1, [ [[$ptrUse:ptr]] ];
	bra [[$target:DONE]];
[[$label:DONE]]:
	add.s32 %r1, [[$typo:%q9]], [[$one:1]];
	ret;
}
)";

}  // namespace

TEST_CASE("The legend lists LSP's standard type names in SemanticTokenType's order", "[semantic-tokens]") {
  const auto& types = semanticTokenTypes();
  REQUIRE(types.size() == type(SemanticTokenType::Operator) + 1);
  CHECK(types[type(SemanticTokenType::Keyword)] == "keyword");
  CHECK(types[type(SemanticTokenType::Function)] == "function");
  CHECK(types[type(SemanticTokenType::Label)] == "label");
  CHECK(types[type(SemanticTokenType::Operator)] == "operator");
  CHECK(semanticTokenModifiers() ==
        std::vector<std::string>{"declaration", "definition", "readonly", "defaultLibrary"});
}

TEST_CASE("Names are coloured by what the model resolves them to", "[semantic-tokens]") {
  Annotated source(kModule);
  LintResult analysis = lintText(source.text());
  auto tokens = semanticTokens(source.text(), analysis);
  checkWellFormed(source.text(), tokens);

  auto check = [&](std::string_view name, SemanticTokenType expectedType, std::uint32_t expectedModifiers) {
    INFO("$" << name);
    auto token = tokenAt(tokens, source.range(name));
    REQUIRE(token);
    CHECK(token->type == type(expectedType));
    CHECK(token->modifiers == expectedModifiers);
  };
  check("add", SemanticTokenType::Function, kDeclarationModifier | kDefinitionModifier);
  check("callee", SemanticTokenType::Function, 0);
  check("kernel", SemanticTokenType::Function, kDeclarationModifier | kDefinitionModifier);
  check("ret", SemanticTokenType::Parameter, kDeclarationModifier);
  check("a", SemanticTokenType::Parameter, kDeclarationModifier);
  check("aUse", SemanticTokenType::Parameter, 0);
  // A kernel cannot store to its parameters.
  check("ptr", SemanticTokenType::Parameter, kDeclarationModifier | kReadonlyModifier);
  check("ptrUse", SemanticTokenType::Parameter, kReadonlyModifier);
  check("table", SemanticTokenType::Variable, kDeclarationModifier | kReadonlyModifier);
  check("tableUse", SemanticTokenType::Variable, kReadonlyModifier);
  check("r2", SemanticTokenType::Variable, 0);
  check("tid", SemanticTokenType::Variable, kReadonlyModifier | kDefaultLibraryModifier);
  check("x", SemanticTokenType::Property, 0);
  check("label", SemanticTokenType::Label, kDeclarationModifier);
  check("target", SemanticTokenType::Label, 0);
  check("opcode", SemanticTokenType::Function, kDefaultLibraryModifier);
  check("s32", SemanticTokenType::Type, 0);
  check("const", SemanticTokenType::Modifier, 0);
  check("arch", SemanticTokenType::EnumMember, 0);
  check("one", SemanticTokenType::Number, 0);
  // An undeclared name gets no colour, so the typo stands out.
  CHECK_FALSE(overlapsAny(tokens, source.range("typo")));
}

TEST_CASE("Directives, types, literals, comments and operators are coloured too", "[semantic-tokens]") {
  Annotated source(
      "[[$version:.version]] 8.0 [[$comment:// header]]\n"
      ".target sm_80\n.address_size 64\n"
      "[[$global:.global]] [[$align:.align]] 8 [[$b8:.b8]] buf[ [[$size:4]] [[$times:*]] 2];\n"
      "[[$entry:.entry]] k() { [[$reg:.reg]] [[$v2:.v2]] .b32 %v<[[$count:2]]>; ret; }\n");
  LintResult analysis = lintText(source.text());
  auto tokens = semanticTokens(source.text(), analysis);
  checkWellFormed(source.text(), tokens);
  auto typeAt = [&](std::string_view name) {
    auto token = tokenAt(tokens, source.range(name));
    REQUIRE(token);
    return token->type;
  };
  CHECK(typeAt("version") == type(SemanticTokenType::Keyword));
  CHECK(typeAt("comment") == type(SemanticTokenType::Comment));
  CHECK(typeAt("global") == type(SemanticTokenType::Keyword));
  CHECK(typeAt("align") == type(SemanticTokenType::Keyword));
  CHECK(typeAt("b8") == type(SemanticTokenType::Type));
  CHECK(typeAt("size") == type(SemanticTokenType::Number));
  CHECK(typeAt("times") == type(SemanticTokenType::Operator));
  CHECK(typeAt("entry") == type(SemanticTokenType::Keyword));
  CHECK(typeAt("reg") == type(SemanticTokenType::Keyword));
  CHECK(typeAt("v2") == type(SemanticTokenType::Type));
  CHECK(typeAt("count") == type(SemanticTokenType::Number));
  // The angle brackets of a register count are punctuation, not comparisons.
  std::uint32_t open = source.range("count").begin - 1;
  CHECK_FALSE(overlapsAny(tokens, {open, open + 1}));
}

TEST_CASE("A block comment over several lines becomes one token per line", "[semantic-tokens]") {
  std::string text = ".version 8.0\r\n/* one\r\n\r\n   three */ .target sm_80\n";
  LintResult analysis = lintText(text);
  auto tokens = semanticTokens(text, analysis);
  checkWellFormed(text, tokens);
  std::vector<std::string_view> comments;
  for (const SemanticToken& token : tokens) {
    if (token.type == type(SemanticTokenType::Comment)) comments.push_back(std::string_view(text).substr(token.begin, token.end - token.begin));
  }
  // The empty middle line has no piece, and no piece keeps its `\r`.
  CHECK(comments == std::vector<std::string_view>{"/* one", "   three */"});
  // A range starting inside the comment gets the pieces it overlaps.
  auto third = static_cast<std::uint32_t>(text.find("   three"));
  auto ranged = semanticTokens(text, analysis, ByteRange{third + 1, static_cast<std::uint32_t>(text.size())});
  REQUIRE_FALSE(ranged.empty());
  CHECK(std::string_view(text).substr(ranged[0].begin, ranged[0].end - ranged[0].begin) == "   three */");
}

TEST_CASE("Without a model, names are classified from the tree alone", "[semantic-tokens]") {
  Annotated source(
      ".version 8.0\n.target sm_80\n.address_size 64\n"
      ".visible .entry [[$kernel:k]](.param .u64 [[$p:p]])\n{\n"
      "\t.reg .b32 [[$reg:%r]]<3>;\n"
      "\tmov.u32 [[$r1:%r1]], [[$tid:%tid]].x;\n"
      "\tbra [[$target:L]];\n"
      "[[$label:L]]:\n\tret;\n}\n");
  // A parse stopped by its time limit leaves the module empty; the server may still ask.
  LintResult analysis;
  analysis.tree = parseSyntax(source.text());
  REQUIRE(analysis.module.scopes.empty());
  auto tokens = semanticTokens(source.text(), analysis);
  checkWellFormed(source.text(), tokens);
  auto check = [&](std::string_view name, SemanticTokenType expectedType, std::uint32_t expectedModifiers) {
    INFO("$" << name);
    auto token = tokenAt(tokens, source.range(name));
    REQUIRE(token);
    CHECK(token->type == type(expectedType));
    CHECK(token->modifiers == expectedModifiers);
  };
  check("kernel", SemanticTokenType::Function, kDeclarationModifier | kDefinitionModifier);
  check("p", SemanticTokenType::Parameter, kDeclarationModifier);
  check("reg", SemanticTokenType::Variable, kDeclarationModifier);
  check("r1", SemanticTokenType::Variable, 0);
  check("tid", SemanticTokenType::Variable, kReadonlyModifier | kDefaultLibraryModifier);
  check("target", SemanticTokenType::Label, 0);
  check("label", SemanticTokenType::Label, kDeclarationModifier);
}

TEST_CASE("Text with syntax errors still gets well-formed tokens", "[semantic-tokens]") {
  std::string text = ".version 8.0\n.target sm_80\n.entry k( {\n\tadd.s32 %r1 %r2,, ;\n\t.reg .b32 %r<2>\n\t/* unclosed\n";
  LintResult analysis = lintText(text);
  auto tokens = semanticTokens(text, analysis);
  checkWellFormed(text, tokens);
  CHECK_FALSE(tokens.empty());
  CHECK(semanticTokens("", lintText("")).empty());
}

TEST_CASE("Encoding counts columns in UTF-16 or UTF-8 as the client asked", "[semantic-tokens]") {
  // `é` is 2 bytes and 1 UTF-16 unit; `😀` is 4 bytes and 2 units.
  Annotated source(".version 8.0\n.target sm_80\n.address_size 64\n/* é😀 */ [[$entry:.entry]] k() { ret; }\n");
  LintResult analysis = lintText(source.text());
  LineIndex lines(source.text());
  auto tokens = semanticTokens(source.text(), analysis);

  for (PositionEncoding encoding : {PositionEncoding::Utf16, PositionEncoding::Utf8}) {
    auto data = encodeSemanticTokens(source.text(), lines, tokens, encoding);
    CHECK(decode(source.text(), lines, data, encoding) == tokens);
  }
  auto columnOfEntry = [&](PositionEncoding encoding) {
    auto data = encodeSemanticTokens(source.text(), lines, tokens, encoding);
    std::uint32_t line = 0, start = 0;
    for (std::size_t i = 0; i < data.size(); i += 5) {
      start = data[i] == 0 ? start + data[i + 1] : data[i + 1];
      line += data[i];
      if (line == 3 && data[i + 3] == type(SemanticTokenType::Keyword)) return std::pair{start, data[i + 2]};
    }
    FAIL("no .entry token on line 3");
    return std::pair{0u, 0u};
  };
  // `.entry` follows 13 bytes, or 10 UTF-16 units: `/* ` 3, `é` 2 or 1, `😀` 4 or 2, ` */ ` 4.
  std::uint32_t bytesBefore = source.range("entry").begin - lines.lineStart(3);
  REQUIRE(bytesBefore == 13);
  CHECK(columnOfEntry(PositionEncoding::Utf8) == std::pair{13u, 6u});
  CHECK(columnOfEntry(PositionEncoding::Utf16) == std::pair{10u, 6u});
}

TEST_CASE("Encoded columns agree with positionAt on invalid and truncated UTF-8", "[semantic-tokens]") {
  std::string text = ".version 8.0 // \xff\xc3 \xe2\x82 x\n/* \xf0\x9f\x98\x80\xed */ .target sm_80\n";
  LintResult analysis = lintText(text);
  LineIndex lines(text);
  auto tokens = semanticTokens(text, analysis);
  checkWellFormed(text, tokens);
  auto data = encodeSemanticTokens(text, lines, tokens, PositionEncoding::Utf16);
  std::uint32_t line = 0, start = 0;
  for (std::size_t i = 0, k = 0; i < data.size(); i += 5, ++k) {
    start = data[i] == 0 ? start + data[i + 1] : data[i + 1];
    line += data[i];
    Position begin = positionAt(text, lines, tokens[k].begin, PositionEncoding::Utf16);
    CHECK(begin.line == line);
    CHECK(begin.character == start);
  }
}

TEST_CASE("Range tokens are the full tokens that overlap the range", "[semantic-tokens]") {
  std::string text = ptx::test::readFile(ptx::test::sourceDir() / "corpus/nvcc/coop_control.sm_75.G.ptx");
  REQUIRE(!text.empty());
  LintResult analysis = lintText(text);
  auto full = semanticTokens(text, analysis);
  std::mt19937 random(20240611);
  auto size = static_cast<std::uint32_t>(text.size());
  for (int round = 0; round < 60; ++round) {
    std::uint32_t a = std::uniform_int_distribution<std::uint32_t>(0, size)(random);
    std::uint32_t length = std::uniform_int_distribution<std::uint32_t>(1, round % 3 == 0 ? 40 : 20000)(random);
    ByteRange range{a, std::min(size, a + length)};
    std::vector<SemanticToken> expected;
    std::copy_if(full.begin(), full.end(), std::back_inserter(expected),
                 [&](const SemanticToken& t) { return t.begin < range.end && t.end > range.begin; });
    INFO("range " << range.begin << ".." << range.end);
    CHECK(semanticTokens(text, analysis, range) == expected);
  }
  CHECK(semanticTokens(text, analysis, ByteRange{0, size}) == full);
  CHECK(semanticTokens(text, analysis, ByteRange{size / 2, size / 2}).empty());
}

TEST_CASE("Tokens over a whole corpus file are ordered, disjoint and on one line each", "[semantic-tokens]") {
  for (const char* name : {"corpus/nvcc/coop_control.sm_75.G.ptx", "corpus/nvcc/half_math.sm_75.ptx"}) {
    INFO(name);
    std::string text = ptx::test::readFile(ptx::test::sourceDir() / name);
    REQUIRE(!text.empty());
    LintResult analysis = lintText(text);
    auto tokens = semanticTokens(text, analysis);
    checkWellFormed(text, tokens);
    LineIndex lines(text);
    auto data = encodeSemanticTokens(text, lines, tokens, PositionEncoding::Utf16);
    CHECK(decode(text, lines, data, PositionEncoding::Utf16) == tokens);
  }
}

TEST_CASE("Delta edits turn the previous array into the current one", "[semantic-tokens]") {
  using Data = std::vector<std::uint32_t>;
  SECTION("equal arrays need no edit") {
    CHECK(diffSemanticTokens({}, {}).empty());
    CHECK(diffSemanticTokens({1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}).empty());
  }
  SECTION("edge cases") {
    for (const auto& [previous, current] : std::vector<std::pair<Data, Data>>{
             {{}, {0, 1, 2, 3, 4}},
             {{0, 1, 2, 3, 4}, {}},
             {{0, 1, 2, 3, 4}, {0, 1, 2, 3, 4, 0, 5, 1, 0, 0}},
             {{0, 1, 2, 3, 4, 0, 5, 1, 0, 0}, {0, 5, 1, 0, 0}},
             {{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}},
             {{0, 0, 0, 0, 0}, {0, 0, 0, 0, 1}},
         }) {
      auto edits = diffSemanticTokens(previous, current);
      REQUIRE(edits.size() == 1);
      CHECK(edits[0].start % 5 == 0);
      CHECK(applyEdits(previous, edits) == current);
    }
  }
  SECTION("random arrays, including lengths that are not whole tokens") {
    std::mt19937 random(7);
    for (int round = 0; round < 2000; ++round) {
      auto randomData = [&] {
        Data data(std::uniform_int_distribution<int>(0, 30)(random));
        for (auto& value : data) value = std::uniform_int_distribution<std::uint32_t>(0, 2)(random);
        return data;
      };
      Data previous = randomData();
      // Often a small change of the previous array, as between two versions of a document.
      Data current = previous;
      if (round % 2 == 0) {
        current = randomData();
      } else if (!current.empty()) {
        std::size_t at = std::uniform_int_distribution<std::size_t>(0, current.size() - 1)(random);
        current.insert(current.begin() + static_cast<std::ptrdiff_t>(at), {9, 9, 9, 9, 9});
      }
      INFO("round " << round);
      CHECK(applyEdits(previous, diffSemanticTokens(previous, current)) == current);
    }
  }
  SECTION("an edit in a real file touches a few tokens") {
    std::string before = ptx::test::readFile(ptx::test::sourceDir() / "corpus/nvcc/half_math.sm_75.ptx");
    std::string after = before;
    after.insert(after.find("\tret;"), "\tmov.u32 %r1, 7; // added\n");
    auto encode = [](const std::string& text) {
      return encodeSemanticTokens(text, LineIndex(text), semanticTokens(text, lintText(text)), PositionEncoding::Utf16);
    };
    Data previous = encode(before);
    Data current = encode(after);
    auto edits = diffSemanticTokens(previous, current);
    REQUIRE(edits.size() == 1);
    CHECK(edits[0].data.size() <= 5 * 10);
    CHECK(applyEdits(previous, edits) == current);
  }
}
