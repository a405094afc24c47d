// FunctionBodies: where the bodies of a text's function definitions lie, read from the text
// alone, so that a big module can be parsed a few bodies at a time (the others left out of
// the parse with ts_parser_set_included_ranges) instead of holding one tree of all of it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

namespace ptx {

// The bytes strictly between a function body's braces, with their points.
struct BodyInterior {
  std::uint32_t begin = 0;  // Just after the '{'.
  std::uint32_t end = 0;    // The '}'.
  TSPoint beginPoint{0, 0};
  TSPoint endPoint{0, 0};
};

// The interiors of the bodies of the function definitions, in order: a '{' at brace depth 0
// in an item (since the last ';' or '}' at depth 0) that names `.entry` or `.func` and has no
// '=' (an initializer), up to its matching '}'. Comments, strings and preprocessor lines are
// skipped as findCuts skips them. Empty when the text does not read cleanly (an unterminated
// comment or string, unbalanced braces): callers then parse the text whole. A reading of the
// text, not a parse: callers check it against the tree they get (functionBodiesMatch).
std::vector<BodyInterior> functionBodyInteriors(std::string_view text);

// The same reading, for both kinds of braced module items: function bodies and the contents
// of `.section` directives (a -G file's debug data, a third to a half of its bytes), in order.
struct BracedInteriors {
  std::vector<BodyInterior> bodies;
  std::vector<BodyInterior> sections;
};
BracedInteriors bracedInteriors(std::string_view text);

class SyntaxTree;

// Whether `bodies` are exactly the interiors of the bodies of `tree`'s function definitions
// (module items), in order, and the tree has no syntax error: what makes a parse that leaves
// some of them out describe the rest of the text as the whole parse would.
bool functionBodiesMatch(const SyntaxTree& tree, std::span<const BodyInterior> bodies);

}  // namespace ptx
