// IsaReference: reference data about PTX — instruction families, directives, special
// registers, types and state spaces — for hover docs, completion and version checks.
//
// The data lives in X-macro files beside this header (Opcodes.def, Directives.def,
// SpecialRegisters.def, Types.def, StateSpaces.def): one readable entry per item, with the
// description written in our own words and the facts (syntax, minimum PTX ISA version and
// target) taken from the PTX ISA.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace ptx {

// A PTX ISA version such as 7.8.
struct PtxVersion {
  std::uint32_t major = 0;
  std::uint32_t minor = 0;

  friend auto operator<=>(const PtxVersion&, const PtxVersion&) = default;
};

struct OpcodeInfo {
  std::string_view name;
  std::string_view summary;
  std::string_view syntax;
  std::string_view operands;
  PtxVersion minPtx;
  std::string_view minTarget;  // "sm_10", "sm_90a", ...
  std::string_view flags;      // Space-separated: memory sync async branch tensor texture warp cluster.
};

struct DirectiveInfo {
  std::string_view name;
  std::string_view summary;
  std::string_view syntax;
  PtxVersion minPtx;
  std::string_view minTarget;
};

struct SpecialRegisterInfo {
  std::string_view name;  // "%tid", or a family such as "%envreg0..%envreg31".
  std::string_view summary;
  std::string_view type;
  PtxVersion minPtx;
  std::string_view minTarget;
};

struct TypeInfo {
  std::string_view name;
  std::string_view summary;
  std::uint32_t sizeBits;
  PtxVersion minPtx;
  std::string_view minTarget;
};

struct StateSpaceInfo {
  std::string_view name;
  std::string_view summary;
  std::string_view addressable;
  std::string_view access;
};

std::span<const OpcodeInfo> allOpcodes();
std::span<const DirectiveInfo> allDirectives();
std::span<const SpecialRegisterInfo> allSpecialRegisters();
std::span<const TypeInfo> allTypes();
std::span<const StateSpaceInfo> allStateSpaces();

// Lookups by exact spelling; null when unknown. findSpecialRegister also understands the
// numbered families (%envreg7 → "%envreg0..%envreg31").
const OpcodeInfo* findOpcode(std::string_view name);
const DirectiveInfo* findDirective(std::string_view name);
const SpecialRegisterInfo* findSpecialRegister(std::string_view name);
const TypeInfo* findType(std::string_view name);
const StateSpaceInfo* findStateSpace(std::string_view name);

// A `.target` architecture such as sm_90a, split for comparisons.
struct TargetArch {
  std::uint32_t number = 0;  // 90 for sm_90a.
  char suffix = 0;           // 'a', 'f' or 0.
};

// Parses "sm_90a"; false for other spellings (debug, texmode_*, compute_XX).
bool parseTargetArch(std::string_view spelled, TargetArch& arch);

}  // namespace ptx
