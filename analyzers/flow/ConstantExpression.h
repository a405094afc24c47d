// ConstantExpression: the value of a PTX integer constant expression (PTX ISA §4.5.4–§4.5.6)
// as written in an operand or an address offset: literals in every base, unary - ~ !,
// * / % + - << >> & ^ | and parentheses, evaluated in 64 bits.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ptx::flow {

// nullopt when the text is not a constant integer expression (a name, a float, garbage) or
// divides by zero.
std::optional<std::int64_t> evaluateConstant(std::string_view text);

}  // namespace ptx::flow
