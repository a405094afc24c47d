// SyntaxKinds: resolves names against the generated grammar once per process.
#include "syntax/SyntaxKinds.h"

#include <cstdint>
#include <cstring>
#include <initializer_list>

#include "tree-sitter-ptx.h"

namespace ptx {
namespace {

TSSymbol symbolNamed(const TSLanguage* language, const char* name) {
  return ts_language_symbol_for_name(language, name, static_cast<std::uint32_t>(std::strlen(name)),
                                     true);
}

TSFieldId fieldNamed(const TSLanguage* language, const char* name) {
  return ts_language_field_id_for_name(language, name, static_cast<std::uint32_t>(std::strlen(name)));
}

}  // namespace

bool SyntaxKinds::complete() const {
  for (TSSymbol symbol :
       {sourceFile, identifier, label, block, instruction, callInstruction, variableDeclaration,
        functionDefinition, functionDeclaration, parameter, fieldInitializer, versionDirective,
        targetDirective, addressSizeDirective, callprototypeDirective, calltargetsDirective,
        branchtargetsDirective, unknownDirective, preprocessorLine, address, vectorOperand, sink,
        integerLiteral, floatLiteral, hexFloatLiteral, binaryExpression, unaryExpression,
        componentExpression, modifier}) {
    if (symbol == 0) return false;
  }
  const SyntaxFields& f = fields;
  for (TSFieldId field :
       {f.align, f.body, f.callee, f.count, f.declarator, f.dimension, f.directive, f.field,
        f.guard, f.initializer, f.kind, f.linkage, f.modifier, f.name, f.opcode, f.parameters,
        f.predicate, f.ptr, f.returns, f.size, f.space, f.target, f.targets, f.type, f.value,
        f.vector, f.version, f.operand, f.element, f.base, f.left, f.right, f.operatorToken,
        f.offset, f.negated, f.arguments, f.argument}) {
    if (field == 0) return false;
  }
  return true;
}

const SyntaxKinds& syntaxKinds() {
  static const SyntaxKinds kinds = [] {
    const TSLanguage* language = tree_sitter_ptx();
    auto symbol = [&](const char* name) { return symbolNamed(language, name); };
    auto field = [&](const char* name) { return fieldNamed(language, name); };
    SyntaxKinds k;
    k.sourceFile = symbol("source_file");
    k.identifier = symbol("identifier");
    k.label = symbol("label");
    k.block = symbol("block");
    k.instruction = symbol("instruction");
    k.callInstruction = symbol("call_instruction");
    k.variableDeclaration = symbol("variable_declaration");
    k.functionDefinition = symbol("function_definition");
    k.functionDeclaration = symbol("function_declaration");
    k.parameter = symbol("parameter");
    k.fieldInitializer = symbol("field_initializer");
    k.versionDirective = symbol("version_directive");
    k.targetDirective = symbol("target_directive");
    k.addressSizeDirective = symbol("address_size_directive");
    k.callprototypeDirective = symbol("callprototype_directive");
    k.calltargetsDirective = symbol("calltargets_directive");
    k.branchtargetsDirective = symbol("branchtargets_directive");
    k.unknownDirective = symbol("unknown_directive");
    k.preprocessorLine = symbol("preprocessor_line");
    k.address = symbol("address");
    k.vectorOperand = symbol("vector_operand");
    k.sink = symbol("sink");
    k.integerLiteral = symbol("integer_literal");
    k.floatLiteral = symbol("float_literal");
    k.hexFloatLiteral = symbol("hex_float_literal");
    k.binaryExpression = symbol("binary_expression");
    k.unaryExpression = symbol("unary_expression");
    k.componentExpression = symbol("component_expression");
    k.modifier = symbol("modifier");
    SyntaxFields& f = k.fields;
    f.align = field("align");
    f.body = field("body");
    f.callee = field("callee");
    f.count = field("count");
    f.declarator = field("declarator");
    f.dimension = field("dimension");
    f.directive = field("directive");
    f.field = field("field");
    f.guard = field("guard");
    f.initializer = field("initializer");
    f.kind = field("kind");
    f.linkage = field("linkage");
    f.modifier = field("modifier");
    f.name = field("name");
    f.opcode = field("opcode");
    f.parameters = field("parameters");
    f.predicate = field("predicate");
    f.ptr = field("ptr");
    f.returns = field("returns");
    f.size = field("size");
    f.space = field("space");
    f.target = field("target");
    f.targets = field("targets");
    f.type = field("type");
    f.value = field("value");
    f.vector = field("vector");
    f.version = field("version");
    f.operand = field("operand");
    f.element = field("element");
    f.base = field("base");
    f.left = field("left");
    f.right = field("right");
    f.operatorToken = field("operator");
    f.offset = field("offset");
    f.negated = field("negated");
    f.arguments = field("arguments");
    f.argument = field("argument");
    return k;
  }();
  return kinds;
}

}  // namespace ptx
