// Preprocessor: which tokens of a CUDA source one device pass compiles, and which object-like
// macros are defined where.
//
// The evaluation is three-valued. A source sees macros from headers we do not read, so a
// condition on a name that is neither defined in the file nor one of the compiler's own is
// Unknown, and so is everything under it; rules that need to know a pass reaches a statement
// (an instruction the pass cannot run) require True, while checks that hold whatever compiles
// the statement (an unknown opcode) also run on Unknown code. Names of the compiler's own
// families (`__CUDA_ARCH__`, `__CUDACC_*`, `__NVCC__`, `__clang__` ...) are decided by the pass's
// macro list: absent there means not defined.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cuda/CppLexer.h"

namespace ptx::cuda {

enum class Truth : std::uint8_t { False, True, Unknown };

Truth operator&&(Truth a, Truth b);

// One `#define` as the evaluation met it.
struct MacroDefinition {
  std::string name;
  std::uint32_t directive = 0;     // Index into LexedSource::directives().
  std::uint32_t bodyBegin = 0;     // Token range of the replacement list.
  std::uint32_t bodyEnd = 0;
  bool functionLike = false;
  std::vector<std::string> parameters;
  Truth defined = Truth::True;     // Unknown when the #define sits in code of unknown activity.
  std::uint32_t nameToken = 0;
};

class PassView {
 public:
  // Whether the pass compiles token `index` (for a directive's tokens: whether the directive
  // itself is processed).
  Truth activity(std::uint32_t index) const { return activity_[index]; }

  // The object- or function-like macro named `name` in effect at token `index`, or null when
  // the file does not define it there (it may still come from a header we do not read).
  const MacroDefinition* macroAt(std::string_view name, std::uint32_t index) const;

  // The value of a predefined macro of the pass (its replacement text), or nullopt.
  std::optional<std::string_view> predefined(std::string_view name) const;

 private:
  friend PassView evaluatePass(const LexedSource&, const std::vector<std::pair<std::string, std::string>>&);
  friend class ConditionEvaluator;
  std::vector<Truth> activity_;
  std::vector<MacroDefinition> definitions_;
  // For each name, (token index where the definition starts to hold, index into definitions_
  // or -1 for an #undef), ascending by token.
  std::unordered_map<std::string, std::vector<std::pair<std::uint32_t, std::int32_t>>> events_;
  std::unordered_map<std::string, std::string> predefined_;
};

// Runs the directives of `source` in order for one device pass whose predefined macros are
// `predefined` (name, replacement text).
PassView evaluatePass(const LexedSource& source, const std::vector<std::pair<std::string, std::string>>& predefined);

// The architecture numbers the file's `#if`/`#elif` conditions compare `__CUDA_ARCH__` with
// (`__CUDA_ARCH__ >= 900` → 900), for the default passes when no target is configured.
std::vector<unsigned> guardArchitectures(const LexedSource& source);

// True for names whose definition only the compiler gives (so absence from a pass's list means
// undefined, not unknown).
bool isCompilerMacroName(std::string_view name);

}  // namespace ptx::cuda
