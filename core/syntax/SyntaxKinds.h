// SyntaxKinds: grammar symbols and field ids looked up once by name.
//
// Comparing numeric symbols is cheaper than comparing type strings on every node, and a
// renamed grammar rule fails loudly here (a test checks every id resolves) instead of
// silently matching nothing. Every layer that reads the tree takes its ids from here.
#pragma once

#include <tree_sitter/api.h>

namespace ptx {

struct SyntaxFields {
  TSFieldId align = 0, body = 0, callee = 0, count = 0, declarator = 0, dimension = 0,
            directive = 0, field = 0, guard = 0, initializer = 0, kind = 0, linkage = 0,
            modifier = 0, name = 0, opcode = 0, parameters = 0, predicate = 0, ptr = 0,
            returns = 0, size = 0, space = 0, target = 0, targets = 0, type = 0, value = 0,
            vector = 0, version = 0, operand = 0, element = 0, base = 0, left = 0,
            right = 0, operatorToken = 0, offset = 0, negated = 0, arguments = 0, argument = 0;
};

struct SyntaxKinds {
  TSSymbol error = static_cast<TSSymbol>(-1);
  TSSymbol sourceFile = 0;
  TSSymbol identifier = 0;
  TSSymbol label = 0;
  TSSymbol block = 0;
  TSSymbol instruction = 0;
  TSSymbol callInstruction = 0;
  TSSymbol variableDeclaration = 0;
  TSSymbol functionDefinition = 0;
  TSSymbol functionDeclaration = 0;
  TSSymbol parameter = 0;
  TSSymbol fieldInitializer = 0;
  TSSymbol versionDirective = 0;
  TSSymbol targetDirective = 0;
  TSSymbol addressSizeDirective = 0;
  TSSymbol callprototypeDirective = 0;
  TSSymbol calltargetsDirective = 0;
  TSSymbol branchtargetsDirective = 0;
  TSSymbol unknownDirective = 0;
  TSSymbol preprocessorLine = 0;
  // Operand shapes.
  TSSymbol address = 0;
  TSSymbol vectorOperand = 0;
  TSSymbol sink = 0;
  TSSymbol integerLiteral = 0;
  TSSymbol floatLiteral = 0;
  TSSymbol hexFloatLiteral = 0;
  TSSymbol binaryExpression = 0;
  TSSymbol unaryExpression = 0;
  TSSymbol componentExpression = 0;
  TSSymbol modifier = 0;

  SyntaxFields fields;

  // Nodes whose children are statements: the diagnostics walk always visits them.
  bool containsStatements(TSSymbol symbol) const {
    return symbol == sourceFile || symbol == functionDefinition || symbol == block;
  }

  // True when every symbol and field resolved against the grammar.
  bool complete() const;
};

const SyntaxKinds& syntaxKinds();

}  // namespace ptx
