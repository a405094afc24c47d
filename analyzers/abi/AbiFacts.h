// AbiFacts: what the [abi] rules share — PTX type sizes and compatibility, parameter
// declarations read from the syntax tree (formals, returns, `.callprototype` parameters and
// `.param` variables), the signature a call is checked against, and signed literals.
//
// Everything here reads the text, the tree and the model only; nothing reports.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "RuleContext.h"

namespace ptx::abi {

enum class TypeKind : std::uint8_t { Bits, Unsigned, Signed, Float, Predicate, Other };

struct TypeInfo {
  TypeKind kind = TypeKind::Other;
  std::uint32_t bits = 0;  // 1 for .pred.
};

// Kind and width of a fundamental type; nullopt for opaque or unknown types.
std::optional<TypeInfo> typeInfo(Modifier type);

// PTX ISA §5.2.1/§6.1: same kind and size; signed and unsigned integers of one size mix; a
// bit-size type goes with any type of its size.
bool compatibleTypes(Modifier a, Modifier b);

// A register's type as declared, for messages: `.b32`, or `.v2 .b16` for a vector.
std::string declaredTypeOf(const Symbol& symbol);

inline bool isPowerOfTwo(std::uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

// One parameter or `.param` variable as declared.
struct ParamShape {
  std::string_view space;  // ".param", ".reg", as written (for messages).
  std::string_view type;
  Modifier spaceId = Modifier::Unknown;  // The spellings above as enumerators.
  Modifier typeId = Modifier::Unknown;
  std::uint32_t vectorWidth = 0;
  bool alignWritten = false;
  std::optional<std::uint64_t> alignment;  // The `.align` value when it is a literal.
  ByteRange alignValue;                    // Its range (empty when not written).
  bool isArray = false;
  bool unsized = false;                        // Some dimension is `[]`.
  bool hasZeroDimension = false;               // Some dimension is a literal 0.
  std::optional<std::uint64_t> elementCount;   // Product of the literal dimensions.
  std::string_view name;                       // "_" or empty for unnamed prototype parameters.
  ByteRange nameRange;
  ByteRange typeRange;
  ByteRange declaration;  // The parameter (or the whole variable declaration).
  // `.ptr` (kernel parameter attribute).
  bool isPointer = false;
  ByteRange ptrClause;
  std::string_view ptrSpace;
  Modifier ptrSpaceId = Modifier::Unknown;
  ByteRange ptrSpaceRange;
  bool ptrAlignWritten = false;
  std::optional<std::uint64_t> ptrAlignment;
  ByteRange ptrAlignValue;

  // Bytes of one element (vector width included); nullopt for .pred and opaque types.
  std::optional<std::uint64_t> elementBytes() const;
  // Bytes of the whole parameter; nullopt when unsized or not known.
  std::optional<std::uint64_t> byteSize() const;
  // The `.align` value, else the element size.
  std::optional<std::uint64_t> effectiveAlignment() const;
  // Width in bits of a scalar or vector (element bits times the vector width).
  std::optional<std::uint64_t> bitWidth() const;
};

struct Signature {
  std::vector<ParamShape> returns;
  std::vector<ParamShape> parameters;
  ByteRange name;         // The function's name, or the prototype's label.
  ByteRange declaration;  // Where "declared here" points.
};

// The declaration of `symbol` (a parameter or a variable with a declarator in the tree).
std::optional<ParamShape> shapeOfSymbol(const RuleContext& context, SymbolId symbol);

// The signature of a function (its declaration as the call resolved it); nullopt when the
// declaration cannot be read or has syntax errors.
std::optional<Signature> signatureOfFunction(const RuleContext& context, SymbolId function);

// The signature a call is checked against: the callee's for a direct call, the
// `.callprototype` named by an indirect call's last operand otherwise.
std::optional<Signature> calleeSignature(const RuleContext& context, const InstructionSite& site);

// An integer literal with an optional sign (`-1`, `+0x10`, `42U`): negative and magnitude.
struct SignedLiteral {
  bool negative = false;
  std::uint64_t magnitude = 0;
};
std::optional<SignedLiteral> signedLiteral(std::string_view spelled);

// Whether the module is compiled with the ABI (PTX ISA §7.1.1): PTX 2.0 or later, a target
// of sm_20 or higher, and (before PTX 3.0) no module-scoped .reg or .local variables.
bool abiInUse(const Module& module);

}  // namespace ptx::abi
