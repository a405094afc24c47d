// SyntaxKinds: grammar symbols and field ids looked up once by name.
//
// Comparing numeric symbols is cheaper than comparing type strings on every node, and a
// renamed grammar rule fails loudly here (a test checks every id resolves) instead of
// silently matching nothing.
#pragma once

#include <tree_sitter/api.h>

namespace ptx {

struct SyntaxKinds {
  TSSymbol error = static_cast<TSSymbol>(-1);
  TSSymbol sourceFile = 0;
  TSSymbol functionDefinition = 0;
  TSSymbol block = 0;
  TSSymbol instruction = 0;
  TSSymbol unknownDirective = 0;
  TSSymbol variableDeclaration = 0;
  TSSymbol preprocessorLine = 0;

  TSFieldId opcodeField = 0;
  TSFieldId guardField = 0;
  TSFieldId predicateField = 0;

  // Nodes whose children are statements: the walk always visits them.
  bool containsStatements(TSSymbol symbol) const {
    return symbol == sourceFile || symbol == functionDefinition || symbol == block;
  }

  // True when every symbol and field resolved against the grammar.
  bool complete() const;
};

const SyntaxKinds& syntaxKinds();

}  // namespace ptx
