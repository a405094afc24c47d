// SyntaxKinds: resolves names against the generated grammar once per process.
#include "syntax/SyntaxKinds.h"

#include <cstdint>
#include <cstring>

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
  return sourceFile != 0 && functionDefinition != 0 && block != 0 && instruction != 0 &&
         unknownDirective != 0 && preprocessorLine != 0 && opcodeField != 0 && guardField != 0 &&
         predicateField != 0;
}

const SyntaxKinds& syntaxKinds() {
  static const SyntaxKinds kinds = [] {
    const TSLanguage* language = tree_sitter_ptx();
    SyntaxKinds k;
    k.sourceFile = symbolNamed(language, "source_file");
    k.functionDefinition = symbolNamed(language, "function_definition");
    k.block = symbolNamed(language, "block");
    k.instruction = symbolNamed(language, "instruction");
    k.unknownDirective = symbolNamed(language, "unknown_directive");
    k.variableDeclaration = symbolNamed(language, "variable_declaration");
    k.preprocessorLine = symbolNamed(language, "preprocessor_line");
    k.opcodeField = fieldNamed(language, "opcode");
    k.guardField = fieldNamed(language, "guard");
    k.predicateField = fieldNamed(language, "predicate");
    return k;
  }();
  return kinds;
}

}  // namespace ptx
