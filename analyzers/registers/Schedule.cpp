// Schedule: a latency-driven list scheduler per basic block (see Schedule.h).
#include "registers/Schedule.h"

#include <algorithm>
#include <span>

#include "registers/Constants.h"
#include "registers/InstructionClasses.h"

namespace ptx::registers {
namespace {

// Where an instruction's memory access goes. Accesses to different spaces never alias;
// Generic may be any of the writable ones.
enum class Space : std::uint8_t { None, Global, Shared, Local, Generic, ReadOnly };
constexpr std::size_t kSpaceCount = 6;

// The latency classes (kAluLatency, kSlowAluLatency, kSharedLatency, kMemoryLatency) are in
// Constants.h; the family of each instruction's class in InstructionClasses.cpp.

struct InstructionClass {
  std::uint32_t latency = kAluLatency;
  Space space = Space::None;
  bool reads = false;       // Reads memory.
  bool writes = false;      // Writes memory.
  bool fence = false;       // Orders every memory access around it (barriers, fences, calls).
  bool terminator = false;  // Branch, return, exit: stays after everything of its block.
  bool texture = false;     // A texture fetch, issued in batches (see scheduleBlock).
};

// The state space an access goes to (its first one: a copy's destination).
Space spaceOf(const InstructionFacts& facts) {
  switch (facts.space) {
    case StateSpace::Global:
      return Space::Global;
    case StateSpace::Shared:
    case StateSpace::SharedCluster:
      return Space::Shared;
    case StateSpace::Local:
      return Space::Local;
    case StateSpace::Const:
    case StateSpace::Param:
      return Space::ReadOnly;
    default:
      return Space::Generic;
  }
}

// A load whose address is a constant (a parameter, a variable plus an offset) from a read-only
// bank: ptxas folds it into the using instruction, so it costs no latency.
bool hasRegisterAddress(const Module& module, const flow::FunctionFlow& flow, const InstructionSite& site) {
  for (std::uint32_t o = site.firstOperand; o < site.firstOperand + site.operandCount; ++o) {
    const InstructionOperand& operand = module.operands[o];
    if (operand.shape == OperandShape::Address) return flow.baseRegisterOf(operand).has_value();
  }
  return false;
}

InstructionClass classify(const Module& module, const flow::FunctionFlow& flow, const InstructionSite& site) {
  const InstructionFacts& facts = module.factsOf(site);
  InstructionClass c;
  if (site.isCall) {
    c.terminator = true;
    c.fence = true;
    return c;
  }
  switch (classOf(facts).schedule) {
    case ScheduleKind::Terminator:
      c.terminator = true;
      c.fence = true;
      return c;
    case ScheduleKind::Load:
      c.reads = true;
      c.space = spaceOf(facts);
      if (c.space == Space::ReadOnly) {
        c.latency = hasRegisterAddress(module, flow, site) ? kSharedLatency : 0;
      } else if (c.space == Space::Shared) {
        c.latency = kSharedLatency;
      } else {
        c.latency = kMemoryLatency;
      }
      // A strong load keeps its place among the memory accesses.
      c.fence = facts.hasAny({Modifier::Volatile, Modifier::Acquire, Modifier::Relaxed});
      return c;
    case ScheduleKind::Store:
      c.writes = true;
      c.space = spaceOf(facts);
      c.fence = facts.hasAny({Modifier::Volatile, Modifier::Release, Modifier::Relaxed});
      return c;
    case ScheduleKind::TextureRead:
      c.texture = classOf(facts).has(kTextureFetch);
      c.reads = true;
      c.space = Space::Global;  // Surfaces may be written by sust in the same kernel.
      c.latency = kMemoryLatency;
      return c;
    case ScheduleKind::SurfaceWrite:
      c.writes = true;
      c.space = Space::Global;
      return c;
    case ScheduleKind::Atomic:
      // Atomics are ordered with respect to everything else that touches memory.
      c.fence = true;
      c.reads = c.writes = true;
      c.space = spaceOf(facts);
      c.latency = c.space == Space::Shared ? kSharedLatency : kMemoryLatency;
      return c;
    case ScheduleKind::Free:
      return c;
    case ScheduleKind::Alu:
      c.latency = facts.has(Modifier::F64) ? kSlowAluLatency : kAluLatency;
      return c;
    case ScheduleKind::SlowAlu:
      c.latency = kSlowAluLatency;
      return c;
    case ScheduleKind::Ordered:
      break;
  }
  // Everything else — barriers, fences, mbarrier and asynchronous copies, matrix instructions,
  // warp-level synchronization — keeps its place relative to memory accesses.
  c.fence = true;
  c.reads = c.writes = true;
  c.space = Space::Generic;
  c.latency = kSharedLatency;
  return c;
}

bool mayAlias(Space a, Space b) {
  if (a == Space::None || b == Space::None) return false;
  if (a == Space::ReadOnly || b == Space::ReadOnly) return false;  // Nothing writes the constant banks.
  return a == b || a == Space::Generic || b == Space::Generic;
}

struct Node {
  std::uint32_t firstEdge = 0;     // Its successors: edges[firstEdge, nextNode.firstEdge).
  std::uint32_t waitingFor = 0;    // Unscheduled predecessors.
  std::uint64_t criticalPath = 0;  // Longest latency path to the block's end.
};

struct Edge {
  std::uint32_t from = 0, to = 0, latency = 0;
  bool data = false;  // A true dependence: `to` reads what `from` wrote.
};

// Per-value state of the block being scheduled, in dense arrays reused across the function's
// blocks: an entry is valid only while its stamp equals the current block's.
struct ValueScratch {
  explicit ValueScratch(std::size_t values)
      : stamp(values, 0),
        lastDefinition(values, -1),
        readers(values),
        remainingReads(values, 0),
        liveOut(values, false),
        definedHere(values, 0) {}
  std::uint32_t epoch = 0;
  std::vector<std::uint32_t> stamp;
  std::vector<std::int64_t> lastDefinition;         // Block-local node, -1 for none.
  std::vector<std::vector<std::uint32_t>> readers;  // Nodes reading it since its last definition.
  std::vector<std::uint32_t> remainingReads;        // Unscheduled instructions reading it.
  std::vector<bool> liveOut;                        // Whether it leaves the block live.
  // `epoch` when an instruction of the block already scheduled defined it: the value is live
  // from there, so a guarded redefinition (`@%p ld`, which leaves it as it was when %p is
  // false) adds nothing.
  std::vector<std::uint32_t> definedHere;
};

void scheduleBlock(const Module& module, const flow::FunctionFlow& flow,
                   const LoweredFunction& lowered, std::uint32_t functionFirst, const flow::BasicBlock& block,
                   const std::function<BlockLiveness(std::uint32_t)>& livenessOf, std::uint32_t blockIndex,
                   ValueScratch& scratch, std::uint32_t* out) {
  std::uint32_t size = block.end - block.first;
  std::vector<InstructionClass> classes(size);
  bool anyLongLatency = false;
  for (std::uint32_t n = 0; n < size; ++n) {
    const InstructionSite& site = module.instructions[block.first + n];
    if (lowered.instructions[block.first + n - functionFirst].predicatedAway) {
      classes[n] = InstructionClass{.latency = 0};  // A branch turned into predication.
    } else if (site.inDamagedCode) {
      classes[n] = InstructionClass{.fence = true, .terminator = true};
    } else {
      classes[n] = classify(module, flow, site);
    }
    anyLongLatency = anyLongLatency || classes[n].latency >= kSharedLatency;
  }
  // Without long-latency instructions there is nothing to hide: the source order stands.
  if (!anyLongLatency) return;
  BlockLiveness liveness = livenessOf(blockIndex);
  ++scratch.epoch;
  auto touch = [&](std::uint32_t v) {
    if (scratch.stamp[v] == scratch.epoch) return;
    scratch.stamp[v] = scratch.epoch;
    scratch.lastDefinition[v] = -1;
    scratch.readers[v].clear();
    scratch.remainingReads[v] = 0;
    scratch.liveOut[v] = liveness.liveOut(v);
  };
  std::vector<Node> nodes(size + 1);
  std::vector<Edge> edges;
  auto edge = [&](std::uint32_t from, std::uint32_t to, std::uint32_t latency, bool data = false) {
    if (from == to) return;
    edges.push_back({from, to, latency, data});
    ++nodes[to].waitingFor;
  };
  std::vector<std::vector<std::uint32_t>> loadsSinceStore(kSpaceCount);
  std::vector<std::int64_t> lastStore(kSpaceCount, -1);
  std::vector<std::uint32_t> memorySinceFence;
  std::int64_t lastFence = -1;
  auto instructionAt = [&](std::uint32_t n) -> const LoweredInstruction& {
    return lowered.instructions[block.first + n - functionFirst];
  };
  // Each distinct register an instruction reads, once.
  auto forEachDistinctUse = [](const LoweredInstruction& instruction, auto&& f) {
    for (std::size_t k = 0; k < instruction.uses.size(); ++k) {
      auto begin = instruction.uses.begin();
      if (std::find(begin, begin + static_cast<std::ptrdiff_t>(k), instruction.uses[k]) ==
          begin + static_cast<std::ptrdiff_t>(k)) {
        f(instruction.uses[k]);
      }
    }
  };
  for (std::uint32_t n = 0; n < size; ++n) {
    const LoweredInstruction& loweredInstruction = instructionAt(n);
    const InstructionClass& c = classes[n];
    // Registers: true dependences carry the producer's latency.
    auto readValue = [&](std::uint32_t v) {
      touch(v);
      if (scratch.lastDefinition[v] >= 0) {
        auto producer = static_cast<std::uint32_t>(scratch.lastDefinition[v]);
        edge(producer, n, classes[producer].latency, true);
      }
      scratch.readers[v].push_back(n);
    };
    for (std::uint32_t v : loweredInstruction.uses) readValue(v);
    if (loweredInstruction.guardedDefs) {
      for (std::uint32_t v : loweredInstruction.defs) readValue(v);
    }
    for (std::uint32_t v : loweredInstruction.defs) {
      touch(v);
      if (scratch.lastDefinition[v] >= 0) edge(static_cast<std::uint32_t>(scratch.lastDefinition[v]), n, 1);  // Output.
      for (std::uint32_t reader : scratch.readers[v]) edge(reader, n, 0);                                     // Anti.
      scratch.readers[v].clear();
      scratch.lastDefinition[v] = n;
    }
    forEachDistinctUse(loweredInstruction, [&](std::uint32_t v) { ++scratch.remainingReads[v]; });
    // Memory.
    bool touchesMemory = c.reads || c.writes || c.fence;
    if (c.fence) {
      for (std::uint32_t m : memorySinceFence) edge(m, n, 0);
      if (lastFence >= 0) edge(static_cast<std::uint32_t>(lastFence), n, 0);
      memorySinceFence.clear();
      for (auto& loads : loadsSinceStore) loads.clear();
      std::fill(lastStore.begin(), lastStore.end(), -1);
      lastFence = n;
    } else if (touchesMemory) {
      if (lastFence >= 0) edge(static_cast<std::uint32_t>(lastFence), n, 0);
      memorySinceFence.push_back(n);
      auto space = static_cast<std::size_t>(c.space);
      for (std::size_t s = 0; s < kSpaceCount; ++s) {
        if (!mayAlias(c.space, static_cast<Space>(s))) continue;
        if (lastStore[s] >= 0) edge(static_cast<std::uint32_t>(lastStore[s]), n, 0);
        if (c.writes) {
          for (std::uint32_t load : loadsSinceStore[s]) edge(load, n, 0);
        }
      }
      if (c.writes) {
        loadsSinceStore[space].clear();
        lastStore[space] = n;
      }
      if (c.reads) loadsSinceStore[space].push_back(n);
    }
  }
  // The block's last instruction, when it transfers control, issues last.
  if (classes[size - 1].terminator) {
    for (std::uint32_t n = 0; n + 1 < size; ++n) edge(n, size - 1, 0);
  }
  // Successor lists, grouped by source node (a counting sort of the edges).
  {
    std::vector<std::uint32_t> count(size + 1, 0);
    for (const Edge& e : edges) ++count[e.from + 1];
    for (std::uint32_t n = 0; n < size; ++n) count[n + 1] += count[n];
    for (std::uint32_t n = 0; n <= size; ++n) nodes[n].firstEdge = count[n];
    std::vector<Edge> sorted(edges.size());
    for (const Edge& e : edges) sorted[count[e.from]++] = e;
    edges = std::move(sorted);
  }
  auto successorsOf = [&](std::uint32_t n) {
    return std::span<const Edge>(edges.data() + nodes[n].firstEdge, nodes[n + 1].firstEdge - nodes[n].firstEdge);
  };
  for (std::uint32_t n = size; n-- > 0;) {
    std::uint64_t longest = 0;
    for (const Edge& e : successorsOf(n)) longest = std::max(longest, nodes[e.to].criticalPath + e.latency);
    nodes[n].criticalPath = std::max<std::uint64_t>(longest, classes[n].latency);
  }
  // ptxas batches a block's independent texture fetches: it computes the coordinates of every
  // fetch of the batch first and then issues the fetches back to back (SASS: sixteen TEX in a
  // row after all their coordinates, then DEPBAR.LE SB5 waits as the results are consumed).
  // So an instruction whose result some texture fetch needs goes before any fetch.
  std::vector<bool> feedsTexture(size, false);
  bool anyTexture = false;
  for (std::uint32_t n = size; n-- > 0;) {
    anyTexture = anyTexture || classes[n].texture;
    for (const Edge& e : successorsOf(n)) {
      if (e.data && (classes[e.to].texture || feedsTexture[e.to])) feedsTexture[n] = true;
    }
  }
  // Register pressure as the schedule proceeds: what an instruction adds (results read later
  // or leaving the block) less what it frees (operands it reads last).
  auto occupies = [&](std::uint32_t v) { return !lowered.values[v].predicate && !lowered.values[v].rematerializable; };
  auto pressureDelta = [&](std::uint32_t n) {
    const LoweredInstruction& instruction = instructionAt(n);
    std::int64_t delta = 0;
    forEachDistinctUse(instruction, [&](std::uint32_t v) {
      if (occupies(v) && !scratch.liveOut[v] && scratch.remainingReads[v] == 1) delta -= lowered.values[v].units;
    });
    for (std::uint32_t d : instruction.defs) {
      if (!occupies(d)) continue;
      bool readLater = scratch.remainingReads[d] > 0 || scratch.liveOut[d];
      bool alreadyLive = std::find(instruction.uses.begin(), instruction.uses.end(), d) != instruction.uses.end() ||
                         (instruction.guardedDefs && scratch.definedHere[d] == scratch.epoch);
      if (readLater && !alreadyLive) delta += lowered.values[d].units;
    }
    return delta;
  };
  // Greedy list scheduling: the ready instruction with the longest critical path first, the
  // earlier one in the source at a tie — unless issuing it would take the pressure past the
  // point where ptxas trades latency for registers; then the ready instruction that adds the
  // fewest registers. The ready list is a heap on the first order.
  auto later = [&](std::uint32_t a, std::uint32_t b) {
    if (nodes[a].criticalPath != nodes[b].criticalPath) return nodes[a].criticalPath < nodes[b].criticalPath;
    return a > b;
  };
  std::int64_t pressure = liveness.liveInUnits;
  std::vector<std::uint32_t> ready;
  for (std::uint32_t n = 0; n < size; ++n) {
    if (nodes[n].waitingFor == 0) ready.push_back(n);
  }
  std::make_heap(ready.begin(), ready.end(), later);
  std::uint32_t issued = 0;
  while (!ready.empty()) {
    std::size_t pick = 0;  // The heap's top.
    if (anyTexture && classes[ready[0]].texture) {
      for (std::size_t r = 1; r < ready.size(); ++r) {
        if (feedsTexture[ready[r]] && !classes[ready[r]].texture && (pick == 0 || later(ready[pick], ready[r])))
          pick = r;
      }
    }
    std::int64_t delta = pressureDelta(ready[pick]);
    if (delta > 0 && pressure + delta > liveness.pressureTarget) {
      // Over the target: what frees registers first; else, among what adds, what lets a
      // waiting consumer issue (the last operand it waits for), so that a load is issued
      // for the instruction that reads it next rather than ahead of everything.
      auto completesConsumer = [&](std::uint32_t n) {
        for (const Edge& e : successorsOf(n)) {
          if (e.data && nodes[e.to].waitingFor == 1) return true;
        }
        return false;
      };
      bool pickCompletes = completesConsumer(ready[pick]);
      for (std::size_t r = 0; r < ready.size(); ++r) {
        std::int64_t d = pressureDelta(ready[r]);
        bool better;
        if (d <= 0 || delta <= 0) {
          better = d < delta || (d == delta && later(ready[pick], ready[r]));
        } else {
          bool completes = completesConsumer(ready[r]);
          better = d != delta ? d < delta
                              : completes != pickCompletes ? completes : later(ready[pick], ready[r]);
          if (better) pickCompletes = completes;
        }
        if (better) {
          pick = r;
          delta = d;
        }
      }
    }
    std::uint32_t n = ready[pick];
    if (pick == 0) {
      std::pop_heap(ready.begin(), ready.end(), later);
      ready.pop_back();
    } else {
      ready[pick] = ready.back();
      ready.pop_back();
      std::make_heap(ready.begin(), ready.end(), later);
    }
    pressure += delta;
    forEachDistinctUse(instructionAt(n), [&](std::uint32_t v) { --scratch.remainingReads[v]; });
    for (std::uint32_t d : instructionAt(n).defs) scratch.definedHere[d] = scratch.epoch;
    out[issued++] = block.first - functionFirst + n;
    for (const Edge& e : successorsOf(n)) {
      if (--nodes[e.to].waitingFor == 0) {
        ready.push_back(e.to);
        std::push_heap(ready.begin(), ready.end(), later);
      }
    }
  }
}

}  // namespace

std::vector<std::uint32_t> scheduleBlocks(const Module& module, const flow::FunctionFlow& flow,
                                          const std::vector<flow::BasicBlock>& blocks, const LoweredFunction& lowered,
                                          const std::function<BlockLiveness(std::uint32_t)>& livenessOf) {
  const FunctionInfo& function = module.functions[flow.functionIndex()];
  std::vector<std::uint32_t> order(function.instructionCount);
  for (std::uint32_t i = 0; i < function.instructionCount; ++i) order[i] = i;
  ValueScratch scratch(lowered.values.size());
  for (std::uint32_t b = 0; b < blocks.size(); ++b) {
    std::uint32_t size = blocks[b].end - blocks[b].first;
    if (size <= 2 || size > kLargestScheduledBlock) continue;
    scheduleBlock(module, flow, lowered, function.firstInstruction, blocks[b], livenessOf, b, scratch,
                  order.data() + (blocks[b].first - function.firstInstruction));
  }
  return order;
}

}  // namespace ptx::registers
