// HostCallContext: what a host-API rule (TMA0xx) sees of a CUDA source: each call of
// cuTensorMapEncodeTiled or cuTensorMapEncodeIm2col in host code, with the arguments whose
// values the file shows (ArgumentEvaluator), and how the rule reports.
//
// Every argument keeps its source bytes; an array argument's elements keep the bytes of their
// initializer, where a fix is written. A value the file does not show is absent, and the rules
// say nothing about it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "Registry.h"
#include "RuleContext.h"
#include "diag/Diagnostic.h"

namespace ptx {

enum class TensorMapEncoder : std::uint8_t { Tiled, Im2col };

struct ArgumentValue {
  std::optional<std::int64_t> value;
  ByteRange range;  // The argument, or the array element's initializer.
};

struct ArrayArgument {
  ByteRange range;                      // The argument in the call.
  bool known = false;                   // An array the file initializes and leaves unchanged.
  std::vector<ArgumentValue> elements;  // Its elements in order (those the initializer shows).

  // Element `index`'s value, or null when the file does not show it.
  const ArgumentValue* at(std::size_t index) const {
    return known && index < elements.size() && elements[index].value ? &elements[index] : nullptr;
  }
};

// One encode call. Enum arguments hold the enumerator's value (cuda.h's numbering).
struct TensorMapCall {
  TensorMapEncoder encoder = TensorMapEncoder::Tiled;
  std::string_view function;  // "cuTensorMapEncodeTiled", or the function pointer's name.

  ArgumentValue dataType, rank, globalAddress, interleave, swizzle, oobFill;
  ArrayArgument globalDim, globalStrides, elementStrides;
  ArrayArgument boxDim;                                    // Tiled only.
  ArrayArgument pixelBoxLowerCorner, pixelBoxUpperCorner;  // Im2col only.
  ArgumentValue channelsPerPixel, pixelsPerColumn;         // Im2col only.

  // The encoder as the driver API names it, whatever the call spells.
  std::string_view apiName() const {
    return encoder == TensorMapEncoder::Tiled ? "cuTensorMapEncodeTiled" : "cuTensorMapEncodeIm2col";
  }
  // Bytes per element of the data type; nullopt for the packed 4- and 6-bit types or an unknown type.
  std::optional<std::int64_t> elementBytes() const;
  // The rank when it is known and valid for the encoder (1..5, Im2col 3..5).
  std::optional<std::uint32_t> validRank() const;
  // How many entries of globalDim, boxDim and elementStrides the driver reads: the rank, or
  // the one entry every valid rank reads when the rank is unknown.
  std::size_t dimensionsRead() const { return validRank().value_or(1); }
  // How many globalStrides entries it reads (rank - 1; none when the rank is unknown).
  std::size_t stridesRead() const { return validRank() ? *validRank() - 1 : 0; }
  // How many entries of each pixel-box corner it reads (rank - 2; none when unknown).
  std::size_t cornersRead() const { return validRank() ? *validRank() - 2 : 0; }
};

// cuda.h's enumerator values the rules compare with.
namespace tensor_map {
inline constexpr std::int64_t kInterleaveNone = 0, kInterleave32B = 2;
inline constexpr std::int64_t kSwizzleNone = 0, kSwizzle32B = 1, kSwizzle64B = 2, kSwizzle128B = 3;
inline constexpr std::int64_t kSwizzle128BAtom64B = 6;
inline constexpr std::int64_t kDataTypeUint8 = 0, kDataTypeInt64 = 5;
inline constexpr std::int64_t kDataType16U4Align8B = 13, kDataType16U4Align16B = 14, kDataType16U6Align16B = 15;
inline constexpr std::int64_t kOobFillNanRequestZeroFma = 1;
// The enumerator's name for a message ("CU_TENSOR_MAP_SWIZZLE_64B"), or the number.
std::string swizzleName(std::int64_t value);
std::string interleaveName(std::int64_t value);
std::string dataTypeName(std::int64_t value);
}  // namespace tensor_map

// What is known about a finding's failure.
enum class DriverVerdict : std::uint8_t {
  // A driver run returned CUDA_ERROR_INVALID_VALUE for this case (tests/cuda/tensor_maps/driver-verdicts.txt).
  Fails,
  // Only the driver API documentation forbids it: reported at most as a warning.
  Documented,
  // A driver run accepted it although the documentation forbids it: `what` says so itself.
  Accepted,
};

struct HostCallContext {
  std::string_view text;
  std::span<const TensorMapCall> calls;
  std::vector<Diagnostic>& out;

  std::string_view textOf(ByteRange range) const { return text.substr(range.begin, range.end - range.begin); }

  // Reports with the rule's category and default severity; a finding the driver was not seen to
  // reject becomes a warning. `what` says what is wrong; the consequence is appended (Fails,
  // Documented).
  void report(RuleCode rule, const TensorMapCall& call, ByteRange range, std::string what, DriverVerdict verdict,
              std::vector<RelatedInformation> related = {}) const;
};

// Related information pointing at an array argument of the call ("passed as boxDim here").
RelatedInformation passedAs(const ArrayArgument& argument, std::string_view parameter, const TensorMapCall& call);

// Every host-API rule's check, declared from Rules.def.
#define PTX_SOURCE_CHECK_InlineAsm(check)
#define PTX_SOURCE_CHECK_HostCalls(check) void check(const HostCallContext& context);
#define PTX_RULE(code, name, category, severity, check, reads, when, summary)
#define PTX_SOURCE_RULE(code, name, category, severity, check, reads, when, summary) PTX_SOURCE_CHECK_##reads(check)
#include "Rules.def"
#undef PTX_SOURCE_CHECK_InlineAsm
#undef PTX_SOURCE_CHECK_HostCalls

}  // namespace ptx
