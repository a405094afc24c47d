// RaceSearch: the two-thread search the race rules share (RAC001-RAC003).
//
// For each load, store or atomic of one state space in a function, the accesses' addresses
// and whether they execute are evaluated for a set of concrete threads under two seeds for
// the uniform inputs (flow/ThreadModel.h); a pair of accesses that may run concurrently
// races when two distinct threads of the set touch overlapping bytes under both seeds, at
// least one writes, and the two are not both atomic or strong (morally strong, PTX ISA
// §8.7.1). Two plain stores of the same bytes race only when the values stored are shown to
// differ (ThreadModel::valueTerm): replicated data stored by several threads is no defect.
// An access the model cannot evaluate for every thread of the set is left out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "RuleContext.h"
#include "flow/ThreadModel.h"

namespace ptx::races {

// Cluster: shared memory as the CTAs of a cluster see it — each CTA's own accesses
// (`.shared`) and the accesses it makes to another CTA's shared memory through an address
// from `mapa`.
enum class Space : std::uint8_t { Shared, Global, Cluster };

struct Access {
  std::uint32_t instruction = 0;
  std::uint32_t addressOperand = 0;         // Index into Module::operands.
  std::uint32_t valueOperand = UINT32_MAX;  // A store's data, when it is one register or constant.
  std::uint32_t dataOperand = UINT32_MAX;   // A plain store's data, a vector included.
  std::uint64_t size = 0;
  bool writes = false;
  bool reads = false;
  bool atomic = false;    // atom, red.
  bool strong = false;    // .volatile, .relaxed, .acquire, .release: morally strong with another strong one.
  bool ctaScope = false;  // A strong access or atomic whose scope is only the CTA (.cta).
  // Space::Cluster, an access to another CTA's shared memory: the `mapa` its address comes
  // from (the rank operand says which CTA); UINT32_MAX for the CTA's own shared memory.
  std::uint32_t mapa = UINT32_MAX;
};

// Which pairs of accesses findRaces looks at.
enum class Pairs : std::uint8_t {
  DataRaces,      // Not both atomic or strong: data races (RAC001-RAC003).
  NarrowScope,    // Both atomic or strong, at least one only of CTA scope (SNC011).
  Synchronizing,  // Both atomic or strong, any scope: the flags and counters CTAs share.
};

struct Witness {
  const Access* first = nullptr;
  const Access* second = nullptr;
  flow::ThreadCoordinates firstThread;
  flow::ThreadCoordinates secondThread;
  std::uint64_t firstAddress = 0;
  std::uint64_t secondAddress = 0;
  bool partial = false;  // The bytes overlap but the accesses differ in size or start.
  // Only counted barriers lie between the accesses, and one of them has more threads of the
  // declared block taking part than its count: it orders no pair of them for certain.
  bool countTooSmall = false;
  // The two accesses are in successive iterations of a loop with no barrier (one thread's in
  // iteration k, the other's in k + 1).
  bool acrossIterations = false;
};

// The accesses to `space` of the function, in source order.
std::vector<Access> accessesOf(const RuleContext& context, std::size_t function, Space space);

// Races among `accesses` of one function: for shared memory between threads of one CTA in
// one barrier interval; for global memory between threads of two different CTAs; for
// cluster shared memory between threads of two CTAs of one cluster, at least one of them
// reaching into the other's shared memory, with no cluster barrier between.
std::vector<Witness> findRaces(const RuleContext& context, std::size_t function, const std::vector<Access>& accesses,
                               Space space, Pairs pairs = Pairs::DataRaces);

// The `mapa` instruction an access's address is computed from (through additions, moves and
// conversions), if any.
std::optional<std::uint32_t> mapaFeeding(const RuleContext& context, flow::FunctionFlow& flow,
                                         std::uint32_t instruction, const InstructionOperand& address);

// The shared-memory accesses of a function and their data races (findRaces with
// Space::Shared), computed once per function for the rules that read them (RAC001, RAC003).
struct SharedMemoryRaces {
  std::vector<Access> accesses;
  std::vector<Witness> witnesses;  // Pointing into `accesses`.
  SharedMemoryRaces() = default;
  SharedMemoryRaces(const SharedMemoryRaces&) = delete;
  SharedMemoryRaces& operator=(const SharedMemoryRaces&) = delete;
};
const SharedMemoryRaces& sharedMemoryRaces(const RuleContext& context, std::size_t function);

// The block shape a finding between two threads of one CTA assumed, for its message: empty
// when the kernel declares it (.reqntid, .maxntid), else " (assuming a block of 64 x 1 x 1
// threads; the kernel declares no .reqntid)". The pair found exists in every block at least
// that large.
std::string assumedBlockShape(const flow::LaunchShape& launch);

// "thread (3, 0, 0)" or "thread 3"; with the CTA when `withCta`.
std::string describeThread(const flow::ThreadCoordinates& thread, bool withCta);

}  // namespace ptx::races
