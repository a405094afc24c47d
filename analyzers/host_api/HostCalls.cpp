// HostCalls: finds the tensor-map encode calls of a CUDA source's host code, evaluates their
// arguments and runs the host-API rules (see HostCalls.h).
#include "host_api/HostCalls.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "cuda/Preprocessor.h"
#include "host_api/ArgumentEvaluator.h"
#include "host_api/HostCallContext.h"

namespace ptx {
namespace {

using host::ArgumentEvaluator;
using host::HostTokens;
using host::kNone;

constexpr std::string_view kTiled = "cuTensorMapEncodeTiled";
constexpr std::string_view kIm2col = "cuTensorMapEncodeIm2col";
// Parameter counts (cuda.h, CUDA 13.0).
constexpr std::size_t kTiledArguments = 12;
constexpr std::size_t kIm2colArguments = 15;

// The encoder a `PFN_...` typedef name stands for (`PFN_cuTensorMapEncodeTiled_v12000`,
// cudaTypedefs.h), if it is one of the two.
std::optional<TensorMapEncoder> encoderOfTypedef(std::string_view name) {
  for (auto [function, encoder] :
       {std::pair{kTiled, TensorMapEncoder::Tiled}, std::pair{kIm2col, TensorMapEncoder::Im2col}}) {
    std::string prefix = concat({"PFN_", function});
    if (name == prefix || (name.starts_with(prefix) && name.substr(prefix.size()).starts_with("_v"))) return encoder;
  }
  return std::nullopt;
}

struct Alias {
  std::string name;
  TensorMapEncoder encoder;
};

// Function pointers to the encoders, which the CUDA guide recommends getting through
// cudaGetDriverEntryPointByVersion: `PFN_cuTensorMapEncodeTiled_v12000 encode = ...;` or
// `auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);`.
std::vector<Alias> functionPointers(const HostTokens& tokens) {
  std::vector<Alias> aliases;
  for (std::uint32_t p = 0; p < tokens.size(); ++p) {
    if (!tokens.isIdentifier(p)) continue;
    std::optional<TensorMapEncoder> encoder = encoderOfTypedef(tokens.spelling(p));
    if (!encoder) continue;
    if (tokens.isIdentifier(p + 1)) {
      aliases.push_back({std::string(tokens.spelling(p + 1)), *encoder});
      continue;
    }
    // A cast: the name assigned is the one before the statement's `=`.
    for (std::uint32_t q = p; q > 1; --q) {
      if (tokens.is(q, ";") || tokens.is(q, "{") || tokens.is(q, "}")) break;
      if (tokens.is(q, "=") && tokens.isIdentifier(q - 1)) {
        aliases.push_back({std::string(tokens.spelling(q - 1)), *encoder});
        break;
      }
    }
  }
  return aliases;
}

struct FoundCall {
  TensorMapEncoder encoder;
  std::uint32_t callee;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> arguments;  // Positions [begin, end).
};

// The encode calls: the function's name (or a pointer's) followed by its argument list, not a
// declaration (`CUresult CUDAAPI cuTensorMapEncodeTiled(...)`) and not a member of something else.
std::vector<FoundCall> findCalls(const HostTokens& tokens, const std::vector<Alias>& aliases) {
  std::vector<FoundCall> calls;
  for (std::uint32_t p = 0; p + 1 < tokens.size(); ++p) {
    if (!tokens.isIdentifier(p) || !tokens.is(p + 1, "(")) continue;
    std::string_view name = tokens.spelling(p);
    std::optional<TensorMapEncoder> encoder;
    if (name == kTiled) encoder = TensorMapEncoder::Tiled;
    if (name == kIm2col) encoder = TensorMapEncoder::Im2col;
    for (const Alias& alias : aliases)
      if (alias.name == name) encoder = alias.encoder;
    if (!encoder) continue;
    if (p > 0) {
      std::string_view before = tokens.spelling(p - 1);
      if (before == "." || before == "->" || before == "*" || before == "&") continue;
      if (tokens.isIdentifier(p - 1) && before != "return" && before != "co_return") continue;
      // `::cuTensorMapEncodeTiled` is the global one; `ns::cuTensorMapEncodeTiled` may be anything.
      if (before == "::" && p > 1 && (tokens.isIdentifier(p - 2) || tokens.is(p - 2, ">"))) continue;
    }
    std::uint32_t close = tokens.partner(p + 1);
    if (close == kNone) continue;
    FoundCall call{*encoder, p, {}};
    std::uint32_t begin = p + 2;
    for (std::uint32_t q = p + 2; q <= close; ++q) {
      if (q < close && (tokens.is(q, "(") || tokens.is(q, "[") || tokens.is(q, "{"))) {
        if (tokens.partner(q) == kNone || tokens.partner(q) > close) break;
        q = tokens.partner(q);
        continue;
      }
      if (q == close || tokens.is(q, ",")) {
        call.arguments.emplace_back(begin, q);
        begin = q + 1;
      }
    }
    std::size_t expected = *encoder == TensorMapEncoder::Tiled ? kTiledArguments : kIm2colArguments;
    if (call.arguments.size() != expected) continue;
    bool empty =
        std::any_of(call.arguments.begin(), call.arguments.end(), [](const auto& a) { return a.second <= a.first; });
    if (!empty) calls.push_back(std::move(call));
  }
  return calls;
}

// The array parameters' argument indices.
std::vector<std::size_t> arrayParameters(TensorMapEncoder encoder) {
  if (encoder == TensorMapEncoder::Tiled) return {4, 5, 6, 7};
  return {4, 5, 6, 7, 10};
}

enum class ElementType : std::uint8_t { U64, U32, Int };

ArgumentValue scalarArgument(const ArgumentEvaluator& evaluator, const HostTokens& tokens,
                             std::pair<std::uint32_t, std::uint32_t> argument, std::optional<host::IntegerType> type) {
  ArgumentValue value{evaluator.valueOf(argument.first, argument.second),
                      tokens.range(argument.first, argument.second)};
  if (value.value && type) value.value = host::convertTo(*value.value, *type);
  return value;
}

ArrayArgument arrayArgument(const ArgumentEvaluator& evaluator, const HostTokens& tokens,
                            std::pair<std::uint32_t, std::uint32_t> argument, ElementType type) {
  ArrayArgument array;
  array.range = tokens.range(argument.first, argument.second);
  std::optional<host::ConstantArray> constant = evaluator.arrayOf(argument.first, argument.second);
  if (!constant) return array;
  array.known = true;
  for (const host::ConstantValue& element : constant->elements) {
    ArgumentValue value{element.value, element.range};
    // A value outside the parameter's element type would not compile in a braced initializer;
    // it is dropped rather than guessed at.
    if (value.value) {
      std::int64_t v = *value.value;
      bool fits = type == ElementType::U64   ? v >= 0
                  : type == ElementType::U32 ? v >= 0 && v <= 0xFFFFFFFFll
                                             : v >= INT32_MIN && v <= INT32_MAX;
      if (!fits) value.value.reset();
    }
    array.elements.push_back(value);
  }
  return array;
}

TensorMapCall evaluateCall(const FoundCall& found, const ArgumentEvaluator& evaluator, const HostTokens& tokens) {
  constexpr host::IntegerType kU32{32, false};
  TensorMapCall call;
  call.encoder = found.encoder;
  call.function = tokens.spelling(found.callee);
  const auto& a = found.arguments;
  auto scalar = [&](std::size_t i, std::optional<host::IntegerType> type = std::nullopt) {
    return scalarArgument(evaluator, tokens, a[i], type);
  };
  auto array = [&](std::size_t i, ElementType type) { return arrayArgument(evaluator, tokens, a[i], type); };
  call.dataType = scalar(1);
  call.rank = scalar(2, kU32);
  call.globalAddress = scalar(3);
  call.globalDim = array(4, ElementType::U64);
  call.globalStrides = array(5, ElementType::U64);
  if (found.encoder == TensorMapEncoder::Tiled) {
    call.boxDim = array(6, ElementType::U32);
    call.elementStrides = array(7, ElementType::U32);
    call.interleave = scalar(8);
    call.swizzle = scalar(9);
    call.oobFill = scalar(11);
  } else {
    call.pixelBoxLowerCorner = array(6, ElementType::Int);
    call.pixelBoxUpperCorner = array(7, ElementType::Int);
    call.channelsPerPixel = scalar(8, kU32);
    call.pixelsPerColumn = scalar(9, kU32);
    call.elementStrides = array(10, ElementType::U32);
    call.interleave = scalar(11);
    call.swizzle = scalar(12);
    call.oobFill = scalar(14);
  }
  return call;
}

// The host-API rules, expanded from Rules.def.
struct HostRuleEntry {
  void (*check)(const HostCallContext&);
  std::string_view code;
  bool optIn;
};
#define PTX_SOURCE_CHECK_InlineAsm(code, check, when)
#define PTX_SOURCE_CHECK_HostCalls(code, check, when) {check, #code, std::string_view(#when) == "OptIn"},
#define PTX_RULE(code, name, category, severity, check, reads, when, summary)
#define PTX_SOURCE_RULE(code, name, category, severity, check, reads, when, summary) \
  PTX_SOURCE_CHECK_##reads(code, check, when)
constexpr HostRuleEntry kHostRules[] = {
#include "Rules.def"
};
#undef PTX_SOURCE_CHECK_InlineAsm
#undef PTX_SOURCE_CHECK_HostCalls

bool hostRuleRuns(const HostRuleEntry& rule, const LintOptions& options) {
  auto it = options.rules.find(rule.code);
  if (rule.optIn) return it != options.rules.end() && it->second.enabled;
  return it == options.rules.end() || it->second.enabled;
}

bool namesAnEncoder(const cuda::LexedSource& source) {
  std::string scratch;
  for (const cuda::Token& token : source.tokens()) {
    if (token.kind != cuda::TokenKind::Identifier) continue;
    std::string_view s = source.spellingView(token, scratch);
    if (s.starts_with("cuTensorMapEncode") || s.starts_with("PFN_cuTensorMapEncode")) return true;
  }
  return false;
}

}  // namespace

std::optional<std::int64_t> TensorMapCall::elementBytes() const {
  static constexpr std::int64_t kBytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  if (!dataType.value || *dataType.value < 0 || *dataType.value >= static_cast<std::int64_t>(std::size(kBytes)))
    return std::nullopt;
  return kBytes[*dataType.value];
}

std::optional<std::uint32_t> TensorMapCall::validRank() const {
  if (!rank.value) return std::nullopt;
  std::int64_t lowest = encoder == TensorMapEncoder::Tiled ? 1 : 3;
  if (*rank.value < lowest || *rank.value > 5) return std::nullopt;
  return static_cast<std::uint32_t>(*rank.value);
}

namespace tensor_map {

namespace {
std::string nameIn(std::span<const std::string_view> names, std::string_view prefix, std::int64_t value) {
  if (value >= 0 && static_cast<std::size_t>(value) < names.size())
    return concat({prefix, names[static_cast<std::size_t>(value)]});
  return std::to_string(value);
}
}  // namespace

std::string swizzleName(std::int64_t value) {
  static constexpr std::string_view kNames[] = {
      "NONE", "32B", "64B", "128B", "128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B", "128B_ATOM_64B"};
  return nameIn(kNames, "CU_TENSOR_MAP_SWIZZLE_", value);
}

std::string interleaveName(std::int64_t value) {
  static constexpr std::string_view kNames[] = {"NONE", "16B", "32B"};
  return nameIn(kNames, "CU_TENSOR_MAP_INTERLEAVE_", value);
}

std::string dataTypeName(std::int64_t value) {
  static constexpr std::string_view kNames[] = {"UINT8",        "UINT16",       "UINT32",        "INT32",
                                                "UINT64",       "INT64",        "FLOAT16",       "FLOAT32",
                                                "FLOAT64",      "BFLOAT16",     "FLOAT32_FTZ",   "TFLOAT32",
                                                "TFLOAT32_FTZ", "16U4_ALIGN8B", "16U4_ALIGN16B", "16U6_ALIGN16B"};
  return nameIn(kNames, "CU_TENSOR_MAP_DATA_TYPE_", value);
}

}  // namespace tensor_map

void HostCallContext::report(RuleCode rule, const TensorMapCall& call, ByteRange range, std::string what,
                             DriverVerdict verdict, std::vector<RelatedInformation> related) const {
  const RuleMeta& meta = rule.meta();
  Diagnostic diagnostic;
  diagnostic.rule = std::string(meta.code);
  diagnostic.severity = meta.defaultSeverity;
  diagnostic.category = meta.category;
  diagnostic.range = range;
  switch (verdict) {
    case DriverVerdict::Fails:
      diagnostic.message = concat({what, ": ", call.apiName(), " returns CUDA_ERROR_INVALID_VALUE"});
      break;
    case DriverVerdict::Documented:
      diagnostic.message = concat({what, ": the CUDA driver API documentation forbids it, so ", call.apiName(),
                                   " may return CUDA_ERROR_INVALID_VALUE"});
      break;
    case DriverVerdict::Accepted:
      diagnostic.message = std::move(what);
      break;
  }
  if (verdict != DriverVerdict::Fails && diagnostic.severity == Severity::Error)
    diagnostic.severity = Severity::Warning;
  diagnostic.related = std::move(related);
  out.push_back(std::move(diagnostic));
}

RelatedInformation passedAs(const ArrayArgument& argument, std::string_view parameter, const TensorMapCall& call) {
  return {argument.range, concat({"passed as ", parameter, " to ", call.function, " here"})};
}

void checkHostCalls(std::string_view text, const cuda::LexedSource& source,
                    std::span<const std::pair<std::string, std::string>> hostEnvironment,
                    const CudaLintOptions& options, std::vector<Diagnostic>& out) {
  if (!namesAnEncoder(source)) return;
  std::vector<std::pair<std::string, std::string>> macros(hostEnvironment.begin(), hostEnvironment.end());
  macros.insert(macros.end(), options.defines.begin(), options.defines.end());
  cuda::PassView view = cuda::evaluatePass(source, macros);
  HostTokens tokens(source, view);
  std::vector<FoundCall> found = findCalls(tokens, functionPointers(tokens));
  if (found.empty()) return;

  std::vector<std::uint32_t> arrayUses;
  for (const FoundCall& call : found) {
    for (std::size_t i : arrayParameters(call.encoder)) {
      std::uint32_t name = ArgumentEvaluator::arrayNameOf(tokens, call.arguments[i].first, call.arguments[i].second);
      if (name != kNone) arrayUses.push_back(name);
    }
  }
  ArgumentEvaluator evaluator(tokens, std::move(arrayUses));
  std::vector<TensorMapCall> calls;
  calls.reserve(found.size());
  for (const FoundCall& call : found) calls.push_back(evaluateCall(call, evaluator, tokens));

  std::vector<Diagnostic> findings;
  HostCallContext context{text, calls, findings};
  for (const HostRuleEntry& rule : kHostRules) {
    if (hostRuleRuns(rule, options.lint)) rule.check(context);
  }
  // An array passed to several calls is reported once, where its element is written.
  std::set<std::tuple<std::uint32_t, std::uint32_t, std::string, std::string>> seen;
  for (Diagnostic& finding : findings) {
    if (seen.insert({finding.range.begin, finding.range.end, finding.rule, finding.message}).second)
      out.push_back(std::move(finding));
  }
}

}  // namespace ptx
