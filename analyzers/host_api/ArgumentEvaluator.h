// ArgumentEvaluator: the integer values that a CUDA source's host code shows for a call's
// arguments, from its tokens alone.
//
// The host-API rules (TMA0xx) judge calls whose arguments are constants written in the file:
// literals, CUDA's enumerators, object-like macros, `const`/`constexpr` variables, enumerators of
// unscoped enums, and arrays initialized with `{...}` (`cuuint64_t dims[2] = {M, K};`,
// `std::array<cuuint32_t, 2> box{64, 64};`). A name is looked up as C++ scopes it: backwards
// from the use, skipping blocks that have closed, so that a parameter or a local of the same
// name hides an outer constant. Anything else — a parameter, a non-const scalar, a function
// call, a template argument, an array that the code may write before or after the call — has
// no value, and the rules stay quiet about it: a wrong value would be a false alarm. The
// expressions themselves are ConstantExpression's to evaluate; this file says what their names
// and the arrays mean.
//
// Host code is what the host compilation sees: tokens outside directives whose `#if`
// conditions are not false for the host (no __CUDA_ARCH__), evaluated by the caller.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cuda/CppLexer.h"
#include "cuda/Preprocessor.h"
#include "diag/Diagnostic.h"
#include "host_api/ConstantExpression.h"

namespace ptx::host {

inline constexpr std::uint32_t kNone = UINT32_MAX;

// The host tokens, numbered by position (directives and inactive code left out), with their
// matching brackets.
class HostTokens {
 public:
  HostTokens(const cuda::LexedSource& source, const cuda::PassView& view);

  const cuda::LexedSource& source() const { return source_; }
  const cuda::PassView& view() const { return view_; }
  std::uint32_t size() const { return static_cast<std::uint32_t>(raw_.size()); }
  std::uint32_t rawIndex(std::uint32_t position) const { return raw_[position]; }
  std::string_view spelling(std::uint32_t position) const { return spellings_[position]; }
  bool is(std::uint32_t position, std::string_view spelling) const {
    return position < size() && spellings_[position] == spelling;
  }
  bool isIdentifier(std::uint32_t position) const;
  ByteRange range(std::uint32_t position) const;
  // From the first byte of `begin` to the last of `end - 1`; empty at `begin` when end <= begin.
  ByteRange range(std::uint32_t begin, std::uint32_t end) const;
  // The position of the bracket matching the one at `position` ((), [], {}), or kNone.
  std::uint32_t partner(std::uint32_t position) const { return partners_[position]; }

 private:
  const cuda::LexedSource& source_;
  const cuda::PassView& view_;
  std::vector<std::uint32_t> raw_;
  std::vector<std::string_view> spellings_;
  std::deque<std::string> splicedSpellings_;  // Owners of the spellings that held a splice.
  std::vector<std::uint32_t> partners_;
};

// One value and the source bytes it was read from.
struct ConstantValue {
  std::optional<std::int64_t> value;
  ByteRange range;
};

// The elements of an array argument, each with the bytes of its initializer (the `{...}` for
// elements the initializer leaves to zero).
struct ConstantArray {
  std::vector<ConstantValue> elements;
  ByteRange initializer;
};

class ArgumentEvaluator {
 public:
  // `arrayArgumentUses`: the positions of names passed whole as array arguments of the calls
  // being checked (`dims`, `dims.data()`, `&dims[0]`): the only uses that leave a non-const array
  // unchanged.
  ArgumentEvaluator(const HostTokens& tokens, std::vector<std::uint32_t> arrayArgumentUses);

  // The value of the expression at positions [begin, end).
  std::optional<std::int64_t> valueOf(std::uint32_t begin, std::uint32_t end) const;

  // The array that the argument at [begin, end) points to, when it is a name of an array the
  // file initializes and never changes; nullopt otherwise.
  std::optional<ConstantArray> arrayOf(std::uint32_t begin, std::uint32_t end) const;

  // The name an array argument at [begin, end) passes (`dims`, `dims.data()`, `&dims[0]`), or kNone.
  static std::uint32_t arrayNameOf(const HostTokens& tokens, std::uint32_t begin, std::uint32_t end);

 private:
  struct Declaration;
  class ScopeNames;

  std::optional<std::int64_t> valueOfPositions(std::uint32_t begin, std::uint32_t end, int depth) const;
  std::optional<std::int64_t> valueOfName(std::string_view name, std::uint32_t useSite, int depth) const;
  std::optional<ConstantArray> arrayFor(std::string_view name, std::uint32_t useSite, int depth) const;
  std::optional<Declaration> declarationOf(std::string_view name, std::uint32_t useSite) const;
  bool startsDeclarator(std::uint32_t position) const;
  bool isStructuredBinding(std::uint32_t position) const;
  bool mayHideMembers(std::uint32_t open, std::string_view name, std::uint32_t useSite) const;
  std::optional<Declaration> enumeratorIn(std::uint32_t open, std::string_view name) const;
  std::optional<Declaration> parseDeclaration(std::uint32_t namePosition, std::uint32_t useSite) const;
  bool inScopeOfList(std::uint32_t open, std::uint32_t useSite) const;
  std::uint32_t enclosingOpenBrace(std::uint32_t position) const;
  bool isInsideFunction(std::uint32_t position) const;
  bool changedAfter(const Declaration& declaration) const;
  bool changedAfterScan(const Declaration& declaration) const;

  const HostTokens& tokens_;
  std::vector<std::uint32_t> arrayArgumentUses_;  // Sorted.
  // changedAfter's answers by declared name's position: an array passed to many calls is
  // scanned for once.
  mutable std::unordered_map<std::uint32_t, bool> changed_;
};

}  // namespace ptx::host
