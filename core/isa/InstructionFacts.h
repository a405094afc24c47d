// InstructionFacts: what an instruction is and does, resolved once from its spelling, so that
// no consumer outside core/isa compares opcode or modifier text.
//
// Families and modifiers are enumerations generated from the instruction table
// (Families.def, Modifiers.def; scripts/gen-spellings.py). What an instruction does — the
// memory it reads and writes, whether it is atomic, how an asynchronous copy completes, which
// barrier it is, how it moves control — is data in Effects.def, matched on the family and its
// modifiers. The model resolves each distinct spelling once (Module::factsOf); rules, flow, the
// thread model, the register estimate and the server read these facts.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ptx {

enum class Family : std::uint8_t {
#define PTX_FAMILY(id, name) id,
#include "isa/Families.def"
#undef PTX_FAMILY
  Unknown,  // Not one of the reserved instruction names.
};

enum class Modifier : std::uint16_t {
  Unknown,  // A spelling no table knows (the ISA rules report it).
#define PTX_MODIFIER(id, spelling) id,
#include "isa/Modifiers.def"
#undef PTX_MODIFIER
};

Family familyNamed(std::string_view name);       // Family::Unknown when not reserved.
std::string_view nameOf(Family family);           // "" for Unknown.
Modifier modifierNamed(std::string_view spelling);  // Modifier::Unknown when not in the tables.
std::string_view spellingOf(Modifier modifier);   // "" for Unknown.

// State spaces as addresses see them. `.shared` and `.shared::cta` are one window;
// `.param::entry` and `.param::func` are kinds of `.param`.
enum class StateSpace : std::uint8_t { None, Reg, Sreg, Const, Global, Local, Param, Shared, SharedCluster, Tex, Surf };
enum class MemoryScope : std::uint8_t { None, Cta, Cluster, Gpu, Sys };
// Memory-ordering semantics spelled on an instruction; None is a weak (plain) access.
enum class Semantics : std::uint8_t { None, Relaxed, Acquire, Release, AcqRel, Volatile, Mmio, Sc };
enum class TypeClass : std::uint8_t { None, Bits, Unsigned, Signed, Float, Predicate };

// What a modifier means on its own.
struct ModifierInfo {
  std::string_view spelling;
  TypeClass typeClass = TypeClass::None;  // A type (.u32, .f16x2, .e4m3 ...).
  std::uint8_t typeBytes = 0;             // Its size in bytes (0 for .pred and non-types).
  StateSpace space = StateSpace::None;    // A state space (.global, .shared::cluster ...).
  MemoryScope scope = MemoryScope::None;              // A scope (.cta ... .sys).
  Semantics semantics = Semantics::None;  // .relaxed, .acquire, .volatile ...
  std::uint8_t vectorWidth = 0;           // .v2 .v4 .v8.
};
const ModifierInfo& infoOf(Modifier modifier);

// Effects of an instruction (a bit set), from Effects.def.
enum Effect : std::uint32_t {
  kReadsMemory = 1u << 0,          // Loads from an address operand.
  kWritesMemory = 1u << 1,         // Stores to an address operand.
  kAtomic = 1u << 2,               // A read-modify-write performed as one atomic operation.
  kAsyncProxy = 1u << 3,           // Its memory accesses go through the async proxy.
  kCompletesOnMbarrier = 1u << 4,  // An async copy that signals completion on an mbarrier (complete_tx).
  kCompletesInBulkGroup = 1u << 5,   // A bulk copy tracked by cp.async.bulk.commit/wait_group.
  kCompletesInAsyncGroup = 1u << 6,  // A cp.async copy tracked by cp.async.commit/wait_group.
  kCommitsGroup = 1u << 7,         // Closes the current group of async copies (or wgmma ops).
  kWaitsForGroup = 1u << 8,        // Waits until at most N groups are pending.
  kCtaBarrier = 1u << 9,           // A CTA barrier that waits (bar.sync, barrier.sync, bar.red ...).
  kBarrierArrive = 1u << 10,       // Arrives at a CTA barrier without waiting (bar.arrive).
  kClusterBarrier = 1u << 11,      // barrier.cluster.arrive / wait.
  kWarpBarrier = 1u << 12,         // bar.warp.sync.
  kFence = 1u << 13,               // membar / fence (any kind).
  kProxyFence = 1u << 14,          // fence.proxy.* (orders between proxies).
  kBranch = 1u << 15,              // bra.
  kIndirectBranch = 1u << 16,      // brx.idx.
  kCall = 1u << 17,
  kReturn = 1u << 18,
  kExit = 1u << 19,
  kTrap = 1u << 20,
  kNoDestination = 1u << 21,       // Its first operand is read, never written.
  kWarpCollective = 1u << 22,      // Executed together by the lanes of a warp (.sync/.aligned forms).
  kMbarrierOperation = 1u << 23,   // An mbarrier.* instruction.
  kPrefetch = 1u << 24,            // A hint that moves no data into registers.
  kTextureAccess = 1u << 25,       // tex, tld4, suld, sust, sured.
  kWarpgroupMma = 1u << 26,        // wgmma.mma_async.
  kCompletesInWgmmaGroup = 1u << 27,  // Tracked by wgmma.commit_group / wait_group.
  kMbarrierArrive = 1u << 28,      // Arrives on an mbarrier (arrive, arrive_drop, cp.async.mbarrier.arrive).
  kMbarrierExpectTx = 1u << 29,    // Raises an mbarrier's expected transaction count (expect_tx).
  kMbarrierWait = 1u << 30,        // Tests or waits for an mbarrier phase to complete (test_wait, try_wait).
};
using Effects = std::uint32_t;

struct OpcodeInfo;  // isa/IsaReference.h

struct InstructionFacts {
  Family family = Family::Unknown;
  // The opcode's entry in the ISA reference (findOpcode); null for an unknown opcode.
  const OpcodeInfo* opcode = nullptr;
  std::vector<Modifier> modifiers;   // In source order; Unknown where a spelling is not in the tables.
  Effects effects = 0;
  StateSpace space = StateSpace::None;        // The first state-space modifier (None: generic).
  StateSpace secondSpace = StateSpace::None;  // The second one (a copy's source).
  MemoryScope scope = MemoryScope::None;                  // The first scope modifier.
  Semantics semantics = Semantics::None;      // The first semantics modifier.
  std::uint8_t vectorWidth = 1;               // .v2/.v4/.v8, else 1.
  Modifier type = Modifier::Unknown;          // The last sized type modifier (not .pred).

  bool is(Family f) const { return family == f; }
  bool has(Modifier m) const;
  bool hasAny(std::initializer_list<Modifier> ms) const;
  bool does(Effects e) const { return (effects & e) != 0; }  // Any of the given effects.
  // The last type's size in bytes (nullopt when there is none, or for .pred).
  std::optional<std::uint32_t> typeBytes() const;
  // Bytes one access moves: vector width times the last type's size.
  std::optional<std::uint64_t> accessBytes() const;
  bool isSignedType() const { return infoOf(type).typeClass == TypeClass::Signed; }
  bool isFloatType() const { return infoOf(type).typeClass == TypeClass::Float; }
};

// Resolves the facts of one spelling: `opcode` ("ld") and its modifiers (".global", ".v4",
// ".u32"), each with its leading dot.
InstructionFacts resolveFacts(std::string_view opcode, std::span<const std::string_view> modifiers);

// Effects.def errors found when the table was parsed (empty; a unit test keeps it so).
const std::vector<std::string>& effectsTableErrors();

}  // namespace ptx
