// FormatWalker: the formatter's one tree walk. It lists the tokens with a layout rule for the
// gap before each; the rule is decided by the outermost node that starts at the token after the
// gap (an operand after `,`, a statement at a line start), or by the token itself (`,`, `;`,
// `]`), or by the token before it (`[`, the opcode).
#include <cstring>

#include "format/FormatTokens.h"
#include "isa/InstructionFacts.h"
#include "tree-sitter-ptx.h"

namespace ptx::format {
namespace {

// The node shapes the layout rules distinguish; everything else is Other.
enum class Kind : std::uint8_t {
  Other,
  SourceFile,
  Block,
  FunctionDefinition,
  FunctionDeclaration,
  ParameterList,
  Parameter,
  HeaderDirective,
  Instruction,
  CallInstruction,
  Guard,
  Address,
  VectorOperand,
  Label,
  VariableDeclaration,
  Declarator,
  RegisterCount,
  ArrayDimension,
  InitializerList,
  FieldInitializer,
  BinaryExpression,
  UnaryExpression,
  ConditionalExpression,
  GenericExpression,
  MaskExpression,
  ComponentExpression,
  IndexExpression,
  Attribute,
  AttributeClause,
  CallprototypeDirective,
  TargetsDirective,  // .calltargets, .branchtargets: like .callprototype, named by a label.
  WordDirective,     // Keywords and values separated by spaces: .version, .pragma, .align ...
  PragmaDirective,
  KeptDirective,  // .loc, .file and debug sections: content kept byte for byte.
  LineToken,      // @@DWARF lines: a token that runs to the end of its line.
  Comment,
  Preprocessor,
  Modifier,
  Component,
  Opcode,
};

struct Frame {
  Kind kind = Kind::Other;
  std::uint16_t statementDepth = 0;  // Level of the statement the node belongs to.
  std::uint16_t contentDepth = 0;    // Level of statements and own-line comments inside.
  bool isContainer = false;          // Its children are statements (the module, a block).
  bool inAddress = false;
  bool isOperand = false;       // A direct operand of an instruction.
  bool isFunctionBody = false;  // The outermost block of a function.
  bool atFunctionTop = false;   // A statement directly in a function's body.
  bool multiline = false;       // A function's parameter list: one parameter per line.
  bool sawParameter = false;
  std::uint32_t unitBegin = 0;
  std::uint32_t unitEnd = 0;
};

struct Grammar {
  std::vector<Kind> kindOfSymbol;
  TSFieldId body = 0, parameters = 0;

  Kind kindOf(TSSymbol symbol) const {
    return symbol < kindOfSymbol.size() ? kindOfSymbol[symbol] : Kind::Other;
  }
};

const Grammar& grammar() {
  static const Grammar g = [] {
    const TSLanguage* language = tree_sitter_ptx();
    Grammar result;
    result.kindOfSymbol.assign(ts_language_symbol_count(language), Kind::Other);
    auto set = [&](const char* name, Kind kind) {
      TSSymbol symbol = ts_language_symbol_for_name(
          language, name, static_cast<std::uint32_t>(std::strlen(name)), true);
      if (symbol != 0 && symbol < result.kindOfSymbol.size()) result.kindOfSymbol[symbol] = kind;
    };
    set("source_file", Kind::SourceFile);
    set("block", Kind::Block);
    set("function_definition", Kind::FunctionDefinition);
    set("function_declaration", Kind::FunctionDeclaration);
    set("parameter_list", Kind::ParameterList);
    set("parameter", Kind::Parameter);
    set("function_header_directive", Kind::HeaderDirective);
    set("instruction", Kind::Instruction);
    set("call_instruction", Kind::CallInstruction);
    set("guard", Kind::Guard);
    set("address", Kind::Address);
    set("vector_operand", Kind::VectorOperand);
    set("label", Kind::Label);
    set("variable_declaration", Kind::VariableDeclaration);
    set("declarator", Kind::Declarator);
    set("register_count", Kind::RegisterCount);
    set("array_dimension", Kind::ArrayDimension);
    set("initializer_list", Kind::InitializerList);
    set("field_initializer", Kind::FieldInitializer);
    set("binary_expression", Kind::BinaryExpression);
    set("unary_expression", Kind::UnaryExpression);
    set("conditional_expression", Kind::ConditionalExpression);
    set("generic_expression", Kind::GenericExpression);
    set("mask_expression", Kind::MaskExpression);
    set("component_expression", Kind::ComponentExpression);
    set("index_expression", Kind::IndexExpression);
    set("attribute", Kind::Attribute);
    set("attribute_clause", Kind::AttributeClause);
    set("callprototype_directive", Kind::CallprototypeDirective);
    set("calltargets_directive", Kind::TargetsDirective);
    set("branchtargets_directive", Kind::TargetsDirective);
    for (const char* name :
         {"version_directive", "target_directive", "address_size_directive", "alias_directive",
          "unknown_directive", "align_clause", "ptr_clause"}) {
      set(name, Kind::WordDirective);
    }
    set("pragma_directive", Kind::PragmaDirective);
    set("loc_directive", Kind::KeptDirective);
    set("file_directive", Kind::KeptDirective);
    set("section_directive", Kind::KeptDirective);
    set("dwarf_line", Kind::LineToken);
    set("comment", Kind::Comment);
    set("preprocessor_line", Kind::Preprocessor);
    set("modifier", Kind::Modifier);
    set("component", Kind::Component);
    set("opcode", Kind::Opcode);
    auto field = [&](const char* name) {
      return ts_language_field_id_for_name(language, name,
                                           static_cast<std::uint32_t>(std::strlen(name)));
    };
    result.body = field("body");
    result.parameters = field("parameters");
    return result;
  }();
  return g;
}

// Kinds whose tokens are keywords and values separated by single spaces.
bool isWordContext(Kind kind) {
  switch (kind) {
    case Kind::VariableDeclaration:
    case Kind::Parameter:
    case Kind::FunctionDefinition:
    case Kind::FunctionDeclaration:
    case Kind::HeaderDirective:
    case Kind::CallprototypeDirective:
    case Kind::TargetsDirective:
    case Kind::WordDirective:
    case Kind::PragmaDirective:
      return true;
    default:
      return false;
  }
}

class Walker {
 public:
  explicit Walker(std::string_view text) : text_(text), grammar_(grammar()) {}

  std::vector<Token> run(TSNode root) {
    tokens_.reserve(text_.size() / 4);
    Frame module;
    module.kind = Kind::SourceFile;
    module.isContainer = true;
    frames_.push_back(module);
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    bool done = !ts_tree_cursor_goto_first_child(&cursor);
    while (!done) {
      TSNode node = ts_tree_cursor_current_node(&cursor);
      bool pushed = visit(node, cursor);
      if (pushed && ts_tree_cursor_goto_first_child(&cursor)) continue;
      if (pushed) frames_.pop_back();
      while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
        if (frames_.size() == 1 || !ts_tree_cursor_goto_parent(&cursor)) {
          done = true;
          break;
        }
        frames_.pop_back();
      }
    }
    ts_tree_cursor_delete(&cursor);
    return std::move(tokens_);
  }

 private:
  std::string_view text_;
  const Grammar& grammar_;
  std::vector<Token> tokens_;
  std::vector<Frame> frames_;
  // The gap rule chosen by the outermost node that starts at the next token.
  std::optional<Gap> pendingGap_;
  std::uint16_t pendingDepth_ = 0;
  // The first token of the label statement just emitted, if the last token ended it.
  std::optional<std::size_t> labelStart_;
  std::size_t labelStartCandidate_ = 0;
  // The role of the last token that is not a comment.
  Role previousRole_ = Role::Plain;

  std::string_view textOf(std::uint32_t begin, std::uint32_t end) const {
    end = std::min<std::uint32_t>(end, static_cast<std::uint32_t>(text_.size()));
    begin = std::min(begin, end);
    return text_.substr(begin, end - begin);
  }

  // Returns true when it pushed a frame for `node`'s children.
  bool visit(TSNode node, const TSTreeCursor& cursor) {
    const Frame& parent = frames_.back();
    Kind kind = grammar_.kindOf(ts_node_symbol(node));
    // Field lookups cost a scan of the parent's field map; only parameter lists need one
    // (a function's own parameters versus its return parameters).
    TSFieldId field = kind == Kind::ParameterList ? ts_tree_cursor_current_field_id(&cursor) : 0;
    std::uint32_t begin = ts_node_start_byte(node);
    std::uint32_t end = ts_node_end_byte(node);

    if (kind == Kind::Comment || kind == Kind::Preprocessor) {
      emitExtra(kind, begin, end);
      return false;
    }
    // A container's children are statements, except the braces of a block.
    if (parent.isContainer && ts_node_is_named(node)) {
      return visitStatement(node, kind, begin, end);
    }

    Frame frame = makeChildFrame(parent, kind, field);
    if (!pendingGap_) {
      pendingGap_ = gapBefore(kind, field, node, frames_.back());
      pendingDepth_ = frame.statementDepth;
      if (*pendingGap_ == Gap::LineStart) pendingDepth_ = lineDepthFor(kind, frames_.back());
    }
    if (ts_node_child_count(node) == 0) {
      emitLeaf(begin, end, roleOf(kind, ts_node_is_named(node), frames_.back(), begin, end), 0);
      return false;
    }
    frames_.push_back(frame);
    return true;
  }

  bool visitStatement(TSNode node, Kind kind, std::uint32_t begin, std::uint32_t end) {
    Frame& parent = frames_.back();
    std::uint16_t depth = parent.contentDepth;
    bool broken =
        ts_node_is_missing(node) || (ts_node_has_error(node) && !isSoundContainer(node, kind));
    if (broken) {
      pendingGap_.reset();
      emitWhole(begin, end, depth, kVerbatim);
      return false;
    }
    if (kind == Kind::KeptDirective || kind == Kind::LineToken) {
      pendingGap_ = Gap::LineStart;
      pendingDepth_ = depth;
      emitWhole(begin, end, depth, kEndsLine);
      return false;
    }

    Frame frame;
    frame.kind = kind;
    frame.statementDepth = depth;
    frame.contentDepth = static_cast<std::uint16_t>(depth + 1);
    frame.unitBegin = begin;
    frame.unitEnd = end;
    frame.atFunctionTop = parent.isFunctionBody;
    if (kind == Kind::Block) {
      frame.isContainer = true;
    } else if (kind == Kind::FunctionDefinition) {
      // The signature is one statement; the body's statements are their own.
      frame.contentDepth = depth;
      TSNode body = ts_node_child_by_field_id(node, grammar_.body);
      if (!ts_node_is_null(body)) frame.unitEnd = ts_node_start_byte(body);
    }

    pendingGap_ = Gap::LineStart;
    pendingDepth_ = depth;
    if (kind == Kind::Label) {
      // Labels sit one level left of the statements they mark (column 0 in a function body).
      pendingDepth_ = depth == 0 ? 0 : static_cast<std::uint16_t>(depth - 1);
    } else if ((kind == Kind::CallprototypeDirective || kind == Kind::TargetsDirective) &&
               labelStart_) {
      // `proto: .callprototype ...`: the label is part of the directive and stays on its line.
      tokens_[*labelStart_].depth = depth;
      pendingGap_ = Gap::Space;
    }
    labelStart_.reset();

    if (ts_node_child_count(node) == 0) {
      emitLeaf(begin, end, Role::Plain, 0);
      return false;
    }
    frames_.push_back(frame);
    if (kind == Kind::Label) labelStartCandidate_ = tokens_.size();
    return true;
  }

  // A function or block with errors only inside its statements is still laid out; its
  // broken statements are kept as they are.
  bool isSoundContainer(TSNode node, Kind kind) const {
    if (kind == Kind::Block) {
      std::uint32_t count = ts_node_child_count(node);
      if (count < 2) return false;
      TSNode open = ts_node_child(node, 0);
      TSNode close = ts_node_child(node, count - 1);
      auto isBrace = [&](TSNode brace, char c) {
        return !ts_node_is_missing(brace) && !ts_node_has_error(brace) &&
               ts_node_end_byte(brace) == ts_node_start_byte(brace) + 1 &&
               text_[ts_node_start_byte(brace)] == c;
      };
      return isBrace(open, '{') && isBrace(close, '}');
    }
    if (kind == Kind::FunctionDefinition) {
      TSTreeCursor cursor = ts_tree_cursor_new(node);
      bool sound = true;
      if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
          TSNode child = ts_tree_cursor_current_node(&cursor);
          if (ts_tree_cursor_current_field_id(&cursor) == grammar_.body) {
            sound = sound && isSoundContainer(child, Kind::Block);
          } else if (ts_node_has_error(child) || ts_node_is_missing(child)) {
            sound = false;
          }
        } while (sound && ts_tree_cursor_goto_next_sibling(&cursor));
      }
      ts_tree_cursor_delete(&cursor);
      return sound;
    }
    return false;
  }

  Frame makeChildFrame(const Frame& parent, Kind kind, TSFieldId field) const {
    Frame frame;
    frame.kind = kind;
    frame.statementDepth = parent.statementDepth;
    frame.contentDepth = static_cast<std::uint16_t>(parent.statementDepth + 1);
    frame.inAddress = parent.inAddress || kind == Kind::Address;
    frame.isOperand = parent.kind == Kind::Instruction;
    frame.atFunctionTop = parent.atFunctionTop;
    frame.unitBegin = parent.unitBegin;
    frame.unitEnd = parent.unitEnd;
    if (kind == Kind::Block) {
      // A function's body: its braces start lines at the function's level.
      frame.isContainer = true;
      frame.isFunctionBody = parent.kind == Kind::FunctionDefinition;
      frame.contentDepth = static_cast<std::uint16_t>(parent.statementDepth + 1);
    }
    if (kind == Kind::ParameterList && field == grammar_.parameters &&
        (parent.kind == Kind::FunctionDefinition || parent.kind == Kind::FunctionDeclaration)) {
      frame.multiline = true;
    }
    return frame;
  }

  std::uint16_t lineDepthFor(Kind kind, const Frame& parent) const {
    if (parent.kind == Kind::ParameterList && kind == Kind::Parameter) {
      return static_cast<std::uint16_t>(parent.statementDepth + 1);
    }
    return parent.statementDepth;
  }

  // The rule for the gap before the node that starts here, judged from the node's shape,
  // its parent and the token before it.
  Gap gapBefore(Kind kind, TSFieldId field, TSNode node, Frame& parent) {
    Role previous = previousRole_;
    bool isLeaf = ts_node_child_count(node) == 0;
    std::string_view leaf =
        isLeaf ? textOf(ts_node_start_byte(node), ts_node_end_byte(node)) : std::string_view{};

    // Line structure: braces of blocks, one parameter per line, header directives.
    if (parent.kind == Kind::Block && leaf == "}") return Gap::LineStart;
    if (parent.kind == Kind::ParameterList && parent.multiline) {
      if (kind == Kind::Parameter) {
        parent.sawParameter = true;
        return Gap::LineStart;
      }
      if (leaf == ")") return parent.sawParameter ? Gap::LineStart : Gap::None;
    }
    if ((parent.kind == Kind::FunctionDefinition || parent.kind == Kind::FunctionDeclaration) &&
        (kind == Kind::HeaderDirective || kind == Kind::PragmaDirective || kind == Kind::Block)) {
      return Gap::LineStart;
    }

    // Punctuation.
    if (leaf == "," || leaf == ";") return Gap::None;
    if (previous == Role::Comma) return Gap::Comma;
    Role role = isLeaf ? roleOf(kind, ts_node_is_named(node), parent, ts_node_start_byte(node),
                                ts_node_end_byte(node))
                       : Role::Plain;
    if (role == Role::Close) return Gap::None;
    if (previous == Role::Open || previous == Role::GuardPart || previous == Role::UnaryOp ||
        previous == Role::TightOp) {
      return Gap::None;
    }
    if (role == Role::TightOp) return Gap::None;
    if (role == Role::SpacedOp || previous == Role::SpacedOp) return Gap::Space;
    if (previous == Role::OpcodeHead) {
      return role == Role::OpcodeHead ? Gap::None : Gap::OperandSep;
    }
    if (previous == Role::GuardEnd) return Gap::Space;

    // Pieces written against their neighbour.
    if (kind == Kind::Component || kind == Kind::RegisterCount || kind == Kind::ArrayDimension) {
      return Gap::None;
    }
    if (parent.kind == Kind::Label && leaf == ":") return Gap::None;
    if (parent.kind == Kind::Address && kind == Kind::Modifier) return Gap::None;  // .unified
    if (leaf == "(" &&
        (parent.kind == Kind::GenericExpression || parent.kind == Kind::MaskExpression ||
         parent.kind == Kind::Attribute || parent.kind == Kind::AttributeClause)) {
      return Gap::None;
    }
    if (leaf == "[" && parent.kind == Kind::IndexExpression) return Gap::None;
    if (kind == Kind::ParameterList && field == grammar_.parameters &&
        (parent.kind == Kind::FunctionDefinition || parent.kind == Kind::FunctionDeclaration)) {
      return Gap::None;
    }

    // nvcc separates the name of a function's own registers and local depot like an
    // operand (`.reg .b32 \t%r<9>;`, `.local .align 8 .b8 \t__local_depot0[8];`), but not
    // those of nested blocks or other state spaces (`.shared .align 4 .b8 buf[16];`).
    if (kind == Kind::Declarator && parent.kind == Kind::VariableDeclaration) {
      std::string_view declaration = textOf(parent.unitBegin, parent.unitEnd);
      Modifier space = modifierNamed(declaration.substr(0, declaration.find_first_of(" \t\r\n.", 1)));
      bool isRegisterOrLocal = space == Modifier::Reg || space == Modifier::Local;
      return parent.atFunctionTop && isRegisterOrLocal ? Gap::OperandSep : Gap::Space;
    }
    if (isWordContext(parent.kind)) return Gap::Space;
    return Gap::Preserve;
  }

  Role roleOf(Kind kind, bool named, const Frame& parent, std::uint32_t begin,
              std::uint32_t end) const {
    std::string_view leaf = textOf(begin, end);
    bool isInstruction = parent.kind == Kind::Instruction || parent.kind == Kind::CallInstruction;
    if (isInstruction && (kind == Kind::Modifier || kind == Kind::Opcode)) {
      return Role::OpcodeHead;
    }
    if (leaf == ",") return Role::Comma;
    if (parent.kind == Kind::Guard) {
      return (leaf == "@" || leaf == "!") ? Role::GuardPart : Role::GuardEnd;
    }
    if (parent.kind == Kind::Block || parent.isContainer) return Role::Plain;
    if (leaf == "(" || leaf == "[" || leaf == "{") return Role::Open;
    if (leaf == ")" || leaf == "]" || leaf == "}") return Role::Close;
    if (parent.kind == Kind::RegisterCount) {
      if (leaf == "<") return Role::Open;
      if (leaf == ">") return Role::Close;
    }
    // An expression's only anonymous token is its operator.
    if (parent.kind == Kind::UnaryExpression && !named) {
      return Role::UnaryOp;
    }
    if (parent.kind == Kind::BinaryExpression && !named) {
      // `setp.lt.s32 %p|%q, a, b;` names two destination predicates.
      bool predicatePair = parent.isOperand && leaf == "|";
      return (parent.inAddress || predicatePair) ? Role::TightOp : Role::SpacedOp;
    }
    if (parent.kind == Kind::ConditionalExpression && (leaf == "?" || leaf == ":")) {
      return parent.inAddress ? Role::TightOp : Role::SpacedOp;
    }
    if ((parent.kind == Kind::Address && leaf == "+") ||
        (parent.kind == Kind::VectorOperand && leaf == "|")) {
      return Role::TightOp;
    }
    if ((parent.kind == Kind::Declarator || parent.kind == Kind::FieldInitializer) && leaf == "=") {
      return Role::SpacedOp;
    }
    return Role::Plain;
  }

  void emitLeaf(std::uint32_t begin, std::uint32_t end, Role role, std::uint8_t flags) {
    const Frame& parent = frames_.back();
    Token token;
    token.begin = begin;
    token.end = end;
    if (parent.isContainer) {
      token.unitBegin = begin;
      token.unitEnd = end;
    } else {
      token.unitBegin = parent.unitBegin;
      token.unitEnd = parent.unitEnd;
    }
    token.gap = pendingGap_.value_or(Gap::Preserve);
    token.depth = pendingDepth_;
    token.continuationDepth = static_cast<std::uint16_t>(parent.statementDepth + 1);
    token.role = role;
    token.flags = flags;
    pendingGap_.reset();
    previousRole_ = role;
    // A label's colon ends the label: remember where the label began.
    if (parent.kind == Kind::Label && textOf(begin, end) == ":") {
      labelStart_ = labelStartCandidate_;
    }
    tokens_.push_back(token);
  }

  // A statement emitted as one token: kept directives, @@DWARF lines, broken statements.
  void emitWhole(std::uint32_t begin, std::uint32_t end, std::uint16_t depth, std::uint8_t flags) {
    labelStart_.reset();
    previousRole_ = Role::Plain;
    Token token;
    token.begin = begin;
    token.end = end;
    token.unitBegin = begin;
    token.unitEnd = end;
    token.gap = pendingGap_.value_or(Gap::Preserve);
    token.depth = depth;
    token.continuationDepth = static_cast<std::uint16_t>(depth + 1);
    token.flags = flags;
    pendingGap_.reset();
    tokens_.push_back(token);
  }

  // Comments and preprocessor lines may appear between any two tokens; they leave the rule
  // pending for the next token alone.
  void emitExtra(Kind kind, std::uint32_t begin, std::uint32_t end) {
    const Frame& parent = frames_.back();
    std::string_view content = textOf(begin, end);
    labelStart_.reset();
    Token token;
    token.begin = begin;
    token.end = end;
    token.unitBegin = parent.isContainer ? begin : parent.unitBegin;
    token.unitEnd = parent.isContainer ? end : parent.unitEnd;
    token.gap = Gap::Comment;
    // Own-line comments take the level of the code around them; preprocessor lines column 0.
    token.depth = kind == Kind::Preprocessor ? 0 : parent.contentDepth;
    if (parent.kind == Kind::ParameterList && parent.multiline) {
      token.depth = static_cast<std::uint16_t>(parent.statementDepth + 1);
    }
    token.continuationDepth = static_cast<std::uint16_t>(parent.statementDepth + 1);
    bool isBlockComment = content.size() >= 2 && content[1] == '*';
    token.flags = isBlockComment ? kBlockComment : kEndsLine;
    tokens_.push_back(token);
  }
};

}  // namespace

std::vector<Token> walkTokens(std::string_view text, TSNode root) { return Walker(text).run(root); }

}  // namespace ptx::format
