#include "races/RaceSearch.h"

#include <algorithm>
#include <array>
#include <tuple>
#include <unordered_map>

#include "alignment/AddressAlignment.h"

namespace ptx::races {
namespace {

constexpr const auto& kSeeds = flow::kProofSeeds;

bool inSpace(const InstructionFacts& facts, Space space) {
  return facts.space == (space == Space::Shared ? StateSpace::Shared : StateSpace::Global);
}

// The threads compared: within the CTA shape the model assumes (flow::LaunchShape), at most
// 64 along x (two warps) and 2 along y and z; for global memory, these threads in CTA
// (0, 0, 0) and in the CTA one further along every dimension the kernel reads (a kernel that
// reads only %ctaid.y may run with one CTA along x, so CTAs are never assumed to differ in a
// dimension it does not read).
std::vector<flow::ThreadCoordinates> threadsOf(const flow::LaunchShape& launch, Space space,
                                               std::uint8_t ctaDimensions) {
  std::vector<flow::ThreadCoordinates> threads;
  std::uint32_t xs = std::min<std::uint32_t>(launch.ntid[0], 64);
  std::uint32_t ys = std::min<std::uint32_t>(launch.ntid[1], 2);
  std::uint32_t zs = std::min<std::uint32_t>(launch.ntid[2], 2);
  std::uint32_t ctas = space == Space::Shared ? 1 : 2;
  for (std::uint32_t cta = 0; cta < ctas; ++cta) {
    for (std::uint32_t z = 0; z < zs; ++z) {
      for (std::uint32_t y = 0; y < ys; ++y) {
        for (std::uint32_t x = 0; x < xs; ++x) {
          flow::ThreadCoordinates t;
          t.tid = {x, y, z};
          t.ctaid = {cta & ctaDimensions & 1u, cta & (ctaDimensions >> 1) & 1u, cta & (ctaDimensions >> 2) & 1u};
          if (space == Space::Cluster) {
            // Two CTAs of the first cluster, along its first dimension of two or more.
            std::size_t d = launch.cluster[0] >= 2 ? 0 : launch.cluster[1] >= 2 ? 1 : 2;
            t.ctaid = {0, 0, 0};
            t.ctaid[d] = cta;
          }
          threads.push_back(t);
        }
      }
    }
  }
  return threads;
}

struct Table {
  bool known = true;
  std::size_t filled = 0;  // The seeds whose row is filled (rows are filled in order).
  // Per seed, per thread: the address when the thread executes the access.
  std::vector<std::vector<std::optional<std::uint64_t>>> address;
};

// The rank of a thread's CTA in its cluster (%cluster_ctarank).
std::uint64_t clusterRank(const flow::LaunchShape& launch, const flow::ThreadCoordinates& t) {
  const auto& c = launch.cluster;
  return t.ctaid[0] % c[0] + c[0] * (t.ctaid[1] % c[1] + c[1] * (t.ctaid[2] % c[2]));
}

// Whether two sorted lists of barrier intervals have one in common.
bool shareInterval(const std::vector<std::uint32_t>& x, const std::vector<std::uint32_t>& y) {
  std::size_t i = 0, j = 0;
  while (i < x.size() && j < y.size()) {
    if (x[i] == y[j]) return true;
    (x[i] < y[j] ? i : j)++;
  }
  return false;
}

// The value stand-ins (ThreadModel::valueTerm) of the plain stores of one search, computed
// once per store, thread and seed: a replicated layout has many colliding pairs, all storing
// alike, and each thread's value would otherwise be rebuilt for every pair.
class StoredValues {
 public:
  StoredValues(flow::ThreadModel& model, const Module& module, const std::vector<Access>& accesses,
               std::size_t threads)
      : model_(model), module_(module), accesses_(accesses), threads_(threads) {}

  // Whether stores `a` and `b` (indices into the accesses) by threads `p` and `q` (indices
  // into the searched threads) write values shown to differ under every seed.
  bool differ(std::size_t a, std::uint32_t p, const flow::ThreadCoordinates& pThread, std::size_t b,
              std::uint32_t q, const flow::ThreadCoordinates& qThread) {
    for (std::size_t s = 0; s < std::size(kSeeds); ++s) {
      auto x = term(a, p, pThread, s);
      auto y = term(b, q, qThread, s);
      if (!x || !y || *x == *y) return false;
    }
    return true;
  }

 private:
  std::optional<std::uint64_t> term(std::size_t access, std::uint32_t thread, const flow::ThreadCoordinates& coordinates,
                                    std::size_t seed) {
    std::uint64_t key = (access * threads_ + thread) * std::size(kSeeds) + seed;
    auto it = memo_.find(key);
    if (it != memo_.end()) return it->second;
    const Access& store = accesses_[access];
    auto value = model_.valueTerm(store.instruction, module_.operands[store.dataOperand], coordinates, kSeeds[seed]);
    memo_.emplace(key, value);
    return value;
  }

  flow::ThreadModel& model_;
  const Module& module_;
  const std::vector<Access>& accesses_;
  std::size_t threads_;
  std::unordered_map<std::uint64_t, std::optional<std::uint64_t>> memo_;
};

std::uint32_t warpOf(const flow::ThreadCoordinates& t, const flow::LaunchShape& launch) {
  return (t.tid[0] + launch.ntid[0] * (t.tid[1] + launch.ntid[1] * t.tid[2])) / 32;
}

using ThreadModelAccesses = std::vector<std::vector<flow::ThreadModel::IterationAccess>>;

// The numbers of counted barriers that more threads of the declared block take part in than
// their count (bits by number).
std::uint64_t overfullBarrierIds(const RuleContext& context, std::size_t function, flow::ThreadModel& model) {
  // Only a declared block shape says how many threads there are.
  const flow::LaunchShape& launch = model.launch();
  if (!launch.declared) return 0;
  std::uint64_t threadCount = std::uint64_t{launch.ntid[0]} * launch.ntid[1] * launch.ntid[2];
  if (threadCount == 0 || threadCount > 1024) return 0;
  const Module& module = context.module;
  const FunctionInfo& info = module.functions[function];
  flow::FunctionFlow& flow = context.flows.flowOfFunction(function);
  struct Id {
    std::uint64_t count = 0;  // The smallest count its instructions give; 0: unknown.
    bool known = true;
    std::vector<bool> takesPart;
  };
  std::unordered_map<std::uint32_t, Id> ids;
  for (std::uint32_t i = info.firstInstruction; i < info.firstInstruction + info.instructionCount; ++i) {
    auto id = model.countedBarrierId(i);
    if (!id || *id == flow::ThreadModel::kUnknownBarrierId) continue;
    Id& entry = ids[*id];
    if (!entry.known) continue;
    if (entry.takesPart.empty()) entry.takesPart.assign(threadCount, false);
    const InstructionSite& site = module.instructions[i];
    std::uint32_t countOperand = site.operandCount == 4 ? 2 : 1;
    auto count = flow.valueOf(i, module.operands[site.firstOperand + countOperand]).constantValue();
    if (!count || *count == 0) {
      entry.known = false;
      continue;
    }
    entry.count = entry.count == 0 ? *count : std::min<std::uint64_t>(entry.count, *count);
    for (std::uint64_t t = 0; t < threadCount && entry.known; ++t) {
      flow::ThreadCoordinates thread;
      thread.tid = {static_cast<std::uint32_t>(t % launch.ntid[0]),
                    static_cast<std::uint32_t>(t / launch.ntid[0] % launch.ntid[1]),
                    static_cast<std::uint32_t>(t / launch.ntid[0] / launch.ntid[1])};
      // Under both seeds: a thread takes part when it executes the barrier under either.
      for (std::uint64_t seed : kSeeds) {
        auto executes = model.executes(i, thread, seed, flow::kVariesInCta);
        if (!executes) {
          entry.known = false;
          break;
        }
        if (*executes) entry.takesPart[t] = true;
      }
    }
  }
  std::uint64_t overfull = 0;
  for (const auto& [id, entry] : ids) {
    if (!entry.known || entry.count == 0) continue;
    auto taking = static_cast<std::uint64_t>(std::count(entry.takesPart.begin(), entry.takesPart.end(), true));
    if (taking > entry.count) overfull |= 1ull << id;
  }
  return overfull;
}

// Races between two iterations of a loop with no barrier (nor fence, mbarrier operation or
// call) in its body, such as a tree reduction whose steps no barrier separates: a plain access
// of thread p in the loop's first iteration and one of thread q in its second touch the same
// bytes, at least one a store, under both seeds. The values the loop carries (the stride)
// are evaluated per iteration; only loops where some access's address depends on them
// (`unknown`: the accesses the iteration-blind search could not evaluate) are searched, and
// only when the loop's back edge is taken by every thread after its first iteration.
// `unknown(list)`: for each access of `list`, whether the iteration-blind search could not
// evaluate it (asked only about accesses in barrier-free loops: the answer costs evaluations).
template <typename Unknown>
void iterationRaces(const RuleContext& context, std::size_t function, flow::ThreadModel& model,
                    const std::vector<Access>& accesses, Unknown&& unknown,
                    const std::vector<flow::ThreadCoordinates>& threads, std::vector<Witness>& witnesses) {
  const Module& module = context.module;
  flow::FunctionFlow& flow = context.flows.flowOfFunction(function);
  const std::vector<flow::BasicBlock>& blocks = flow.blocks();
  for (const flow::NaturalLoop& loop : model.naturalLoops()) {
    std::vector<std::size_t> inside;
    bool anyStore = false;
    for (std::size_t a = 0; a < accesses.size(); ++a) {
      if (!loop.body[flow.blockOf(accesses[a].instruction)]) continue;
      if (accesses[a].strong || accesses[a].atomic) continue;
      inside.push_back(a);
      anyStore = anyStore || accesses[a].writes;
    }
    if (!anyStore) continue;
    bool barrierFree = true;
    for (std::uint32_t b = 0; b < blocks.size() && barrierFree; ++b) {
      if (!loop.body[b]) continue;
      for (std::uint32_t i = blocks[b].first; i < blocks[b].end && barrierFree; ++i) {
        if (model.barrierKindOf(i) != flow::BarrierKind::None || module.instructions[i].isCall) barrierFree = false;
      }
    }
    if (!barrierFree) continue;
    std::vector<bool> unknownInside = unknown(inside);
    if (std::find(unknownInside.begin(), unknownInside.end(), true) == unknownInside.end()) continue;
    // The back edge: a branch the same for all threads, taken back after the first iteration.
    const flow::BasicBlock& latch = blocks[loop.latch];
    if (latch.successors.size() != 2 || (model.branchDivergence(loop.latch) & flow::kVariesInCta) != 0) continue;
    std::uint32_t target =
        latch.successors[0] == loop.latch + 1 ? latch.successors[1] : latch.successors[0];
    // Iterations 0..last are searched, each pair of neighbours: those the back edge is shown
    // to lead to under both seeds, at most four.
    constexpr int kIterations = 4;
    int last = 0;
    for (; last + 1 < kIterations; ++last) {
      bool again = latch.successors[0] != latch.successors[1];
      for (std::uint64_t seed : kSeeds) {
        auto taken = model.branchTakenInIteration(loop, last, loop.latch, threads[0], seed);
        again = again && taken && (*taken == (target == loop.head));
      }
      if (!again) break;
    }
    if (last == 0) continue;
    std::vector<std::pair<std::uint32_t, const InstructionOperand*>> list;
    for (std::size_t a : inside) list.push_back({accesses[a].instruction, &module.operands[accesses[a].addressOperand]});
    // Per seed, per iteration, per thread: the accesses.
    std::vector<std::vector<ThreadModelAccesses>> table(std::size(kSeeds), std::vector<ThreadModelAccesses>(last + 1));
    for (std::size_t s = 0; s < std::size(kSeeds); ++s) {
      for (const flow::ThreadCoordinates& t : threads) {
        auto byIteration = model.accessesInIterations(loop, last, list, t, kSeeds[s], flow::kVariesInCta);
        for (int iteration = 0; iteration <= last; ++iteration) {
          table[s][iteration].push_back(std::move(byIteration[static_cast<std::size_t>(iteration)]));
        }
      }
    }
    // Per iteration and access, the threads executing it sorted by address under the first
    // seed: the partners of a thread are found by address, not by trying every thread.
    std::vector<std::vector<std::vector<std::pair<std::uint64_t, std::uint32_t>>>> sorted(
        static_cast<std::size_t>(last) + 1, std::vector<std::vector<std::pair<std::uint64_t, std::uint32_t>>>(inside.size()));
    std::vector<std::vector<bool>> sortedBuilt(static_cast<std::size_t>(last) + 1, std::vector<bool>(inside.size(), false));
    for (std::size_t x = 0; x < inside.size(); ++x) {
      for (std::size_t y = 0; y < inside.size(); ++y) {
        const Access& first = accesses[inside[x]];
        const Access& second = accesses[inside[y]];
        if ((!first.writes && !second.writes) || first.size != second.size) continue;
        bool found = false;
        for (int k = 0; k < last && !found; ++k) {
          auto& byAddress = sorted[static_cast<std::size_t>(k) + 1][y];
          if (!sortedBuilt[static_cast<std::size_t>(k) + 1][y]) {
            sortedBuilt[static_cast<std::size_t>(k) + 1][y] = true;
            for (std::uint32_t q = 0; q < threads.size(); ++q) {
              const auto& v = table[0][static_cast<std::size_t>(k) + 1][q][y];
              if (v.state == 1) byAddress.push_back({v.address, q});
            }
            std::sort(byAddress.begin(), byAddress.end());
          }
          for (std::size_t p = 0; p < threads.size() && !found; ++p) {
            const auto& u = table[0][static_cast<std::size_t>(k)][p][x];
            if (u.state != 1) continue;
            // Thread p's first partner (the lowest-numbered thread q whose access meets its own
            // under every seed), as trying q = 0, 1, ... finds it.
            std::uint64_t low = u.address >= second.size ? u.address - second.size + 1 : 0;
            auto it = std::lower_bound(byAddress.begin(), byAddress.end(), std::pair<std::uint64_t, std::uint32_t>{low, 0});
            std::uint32_t partner = UINT32_MAX;
            for (; it != byAddress.end() && it->first < u.address + first.size; ++it) {
              std::uint32_t q = it->second;
              if (q >= partner || q == p || threads[p].tid[1] != threads[q].tid[1] || threads[p].tid[2] != threads[q].tid[2])
                continue;
              bool meet = true;
              for (std::size_t s = 1; s < std::size(kSeeds) && meet; ++s) {
                const auto& u2 = table[s][static_cast<std::size_t>(k)][p][x];
                const auto& v2 = table[s][static_cast<std::size_t>(k) + 1][q][y];
                meet = u2.state == 1 && v2.state == 1 && u2.address < v2.address + second.size &&
                       v2.address < u2.address + first.size;
              }
              if (meet) partner = q;
            }
            if (partner == UINT32_MAX) continue;
            Witness w;
            w.first = &first;
            w.second = &second;
            w.firstThread = threads[p];
            w.secondThread = threads[partner];
            w.firstAddress = u.address;
            w.secondAddress = table[0][static_cast<std::size_t>(k) + 1][partner][y].address;
            w.partial = w.firstAddress != w.secondAddress;
            w.acrossIterations = true;
            witnesses.push_back(w);
            found = true;
          }
        }
      }
    }
  }
}

}  // namespace

std::optional<std::uint32_t> mapaFeeding(const RuleContext& context, flow::FunctionFlow& flow,
                                         std::uint32_t instruction, const InstructionOperand& address) {
  const Module& module = context.module;
  auto base = flow.baseRegisterOf(address);
  if (!base) return std::nullopt;
  std::uint32_t at = instruction;
  InstructionOperand current = *base;
  for (int depth = 0; depth < 8; ++depth) {
    auto reg = flow.registerOf(current);
    if (!reg) return std::nullopt;
    auto definitions = flow.reachingDefinitions(at, *reg);
    if (definitions.size() != 1) return std::nullopt;
    const flow::Definition& definition = flow.definitions()[definitions[0]];
    const InstructionSite& site = module.instructions[definition.instruction];
    const InstructionFacts& facts = module.factsOf(site);
    if (facts.is(Family::Mapa)) return definition.instruction;
    if (!facts.is(Family::Add) && !facts.is(Family::Sub) && !facts.is(Family::Mov) && !facts.is(Family::Cvt) &&
        !facts.is(Family::Cvta)) {
      return std::nullopt;
    }
    // Follow the first register source (an addition's other operand is the offset).
    std::optional<InstructionOperand> next;
    for (std::uint32_t o = site.firstOperand + 1; o < site.firstOperand + site.operandCount && !next; ++o) {
      if (module.operands[o].shape == OperandShape::Register) next = module.operands[o];
    }
    if (!next) return std::nullopt;
    at = definition.instruction;
    current = *next;
  }
  return std::nullopt;
}

std::vector<Access> accessesOf(const RuleContext& context, std::size_t function, Space space) {
  const Module& module = context.module;
  const FunctionInfo& info = module.functions[function];
  std::vector<Access> accesses;
  flow::FunctionFlow* flow = space == Space::Cluster ? &context.flows.flowOfFunction(function) : nullptr;
  for (std::uint32_t i = info.firstInstruction; i < info.firstInstruction + info.instructionCount; ++i) {
    const InstructionSite& site = module.instructions[i];
    auto access = memoryAccessOf(context, site);
    if (!access) continue;
    std::uint32_t mapa = UINT32_MAX;
    if (space == Space::Cluster) {
      // The CTA's own shared memory, or any space reached through a mapa'd address.
      const InstructionOperand& address = module.operands[site.firstOperand + access->addressIndex];
      if (auto feeding = mapaFeeding(context, *flow, i, address)) {
        mapa = *feeding;
      } else if (!inSpace(access->facts, Space::Shared)) {
        continue;
      }
    } else if (!inSpace(access->facts, space)) {
      continue;
    }
    const InstructionFacts& facts = access->facts;
    auto size = facts.accessBytes();
    if (!size) continue;
    Access a;
    a.instruction = i;
    a.addressOperand = site.firstOperand + access->addressIndex;
    a.size = *size;
    a.atomic = facts.does(kAtomic);
    a.reads = facts.does(kReadsMemory);
    a.writes = facts.does(kWritesMemory);
    bool plainStore = a.writes && !a.atomic;
    if (plainStore && site.operandCount == 2 &&
        module.operands[site.firstOperand + 1].shape != OperandShape::Vector) {
      a.valueOperand = site.firstOperand + 1;
    }
    if (plainStore && site.operandCount >= 2) a.dataOperand = site.firstOperand + 1;
    // .volatile, .relaxed, .acquire, .release, .mmio: the first semantics spelled.
    a.strong = facts.semantics == Semantics::Volatile || facts.semantics == Semantics::Relaxed ||
               facts.semantics == Semantics::Acquire || facts.semantics == Semantics::Release ||
               facts.semantics == Semantics::Mmio;
    a.ctaScope = (a.strong || a.atomic) && facts.scope == MemoryScope::Cta && facts.semantics != Semantics::Volatile;
    a.mapa = mapa;
    accesses.push_back(a);
  }
  return accesses;
}

std::vector<Witness> findRaces(const RuleContext& context, std::size_t function, const std::vector<Access>& accesses,
                               Space space, Pairs pairs) {
  std::vector<Witness> witnesses;
  if (accesses.empty()) return witnesses;
  flow::ThreadModel& model = context.flows.threadsOfFunction(function);
  // A kernel that never reads its thread coordinates is a one-thread test kernel for data
  // races; CTA-scoped synchronization between CTAs does not depend on them.
  if (!model.readsThreadCoordinates() && pairs == Pairs::DataRaces) return witnesses;
  const flow::LaunchShape& launch = model.launch();
  std::vector<flow::ThreadCoordinates> threads = threadsOf(launch, space, model.ctaDimensionsRead());
  std::uint8_t divergence = space == Space::Shared ? flow::kVariesInCta : flow::kVariesInCta | flow::kVariesAcrossCtas;
  // Every access's address for every thread, under the first seed; under the second only for
  // the accesses a collision under the first involves (the second seed confirms a collision,
  // and most pairs never collide), or that a later step asks about. An access is known when
  // every thread's address is known under both seeds; one unknown under the first is left out
  // at once. A kernel's accesses share most of their address arithmetic: the values computed
  // for one access (a column per definition, or one thread's memo) serve the next.
  std::vector<Table> tables(accesses.size());
  for (Table& table : tables) {
    table.address.assign(std::size(kSeeds), std::vector<std::optional<std::uint64_t>>(threads.size()));
  }
  const std::size_t perCta = space == Space::Shared ? threads.size() : threads.size() / 2;
  // Shared and global memory: every thread's answers at once, each value computed once for
  // all of them (ThreadModel::executesForThreads). Cluster accesses also name the CTA a mapa
  // reaches, asked per thread below.
  const bool byColumns = space != Space::Cluster;
  if (byColumns) model.useThreads(threads);
  // Evaluated thread by thread (cluster accesses), the threads go column by column: those that
  // share %tid.x one after the other, then the same thread of the other CTA next to each
  // other, so that the evaluator's memo of a value that reads only some coordinates serves the
  // threads that agree on them. The order decides nothing else: each address is a function of
  // its thread and seed.
  std::vector<std::uint32_t> evaluationOrder;
  if (!byColumns) {
    evaluationOrder.resize(threads.size());
    for (std::uint32_t t = 0; t < threads.size(); ++t) evaluationOrder[t] = t;
    std::stable_sort(evaluationOrder.begin(), evaluationOrder.end(), [&](std::uint32_t a, std::uint32_t b) {
      const flow::ThreadCoordinates& p = threads[a];
      const flow::ThreadCoordinates& q = threads[b];
      return std::tie(p.tid[0], p.tid[2], p.tid[1]) < std::tie(q.tid[0], q.tid[2], q.tid[1]);
    });
  }
  auto fill = [&](const std::vector<std::size_t>& which, std::size_t s) {
    if (byColumns) {
      for (std::size_t a : which) {
        Table& table = tables[a];
        if (!table.known) continue;
        std::vector<std::optional<bool>> runs = model.executesForThreads(accesses[a].instruction, kSeeds[s], divergence);
        std::vector<std::optional<std::uint64_t>> addresses;
        for (std::uint32_t t = 0; t < threads.size() && table.known; ++t) {
          if (!runs[t]) {
            table.known = false;
          } else if (*runs[t]) {
            if (addresses.empty()) {
              addresses = model.addressForThreads(accesses[a].instruction,
                                                  context.module.operands[accesses[a].addressOperand], kSeeds[s]);
            }
            if (!addresses[t]) table.known = false;
            table.address[s][t] = addresses[t];
          }
        }
      }
      for (std::size_t a : which) tables[a].filled = s + 1;
      return;
    }
    for (std::uint32_t t : evaluationOrder) {
      for (std::size_t a : which) {
        Table& table = tables[a];
        if (!table.known) continue;
        const InstructionOperand& address = context.module.operands[accesses[a].addressOperand];
        auto executes = model.executes(accesses[a].instruction, threads[t], kSeeds[s], divergence);
        if (!executes) {
          table.known = false;
          continue;
        }
        if (!*executes) continue;
        auto value = model.evaluateAddress(accesses[a].instruction, address, threads[t], kSeeds[s]);
        if (value && space == Space::Cluster) {
          // Which CTA's shared memory: the rank the mapa names, or the thread's own.
          std::optional<std::uint64_t> rank = clusterRank(launch, threads[t]);
          if (accesses[a].mapa != UINT32_MAX) {
            const InstructionSite& mapa = context.module.instructions[accesses[a].mapa];
            rank = mapa.operandCount == 3
                       ? model.evaluate(accesses[a].mapa, context.module.operands[mapa.firstOperand + 2], threads[t],
                                        kSeeds[s])
                       : std::nullopt;
          }
          value = rank ? std::optional((*rank << 40) ^ (*value & 0xFFFFFFFFFFull)) : std::nullopt;
        }
        if (!value) {
          table.known = false;
          continue;
        }
        table.address[s][t] = value;
      }
    }
    for (std::size_t a : which) tables[a].filled = s + 1;
  };
  {
    std::vector<std::size_t> all(accesses.size());
    for (std::size_t a = 0; a < accesses.size(); ++a) all[a] = a;
    fill(all, 0);
  }
  // Whether access `a` is known under every seed, its remaining rows filled first.
  auto known = [&](std::size_t a) {
    for (std::size_t s = tables[a].filled; s < std::size(kSeeds) && tables[a].known; ++s) fill({a}, s);
    return tables[a].known;
  };
  // The barrier intervals each access lies in, for CTA barriers and for any barrier.
  std::vector<std::vector<std::uint32_t>> ctaIntervals, warpIntervals, fullIntervals, clusterIntervals;
  if (space == Space::Cluster) {
    std::vector<std::uint32_t> instructions;
    for (const Access& access : accesses) instructions.push_back(access.instruction);
    clusterIntervals = model.barrierIntervals(instructions, flow::BarrierKind::Cluster);
  }
  std::vector<std::uint64_t> participation;  // Per thread, when the function has counted barriers.
  std::uint64_t overfull = 0;                // Counted barrier numbers whose count is too small.
  if (space == Space::Shared) {
    std::vector<std::uint32_t> instructions;
    for (const Access& access : accesses) instructions.push_back(access.instruction);
    ctaIntervals = model.barrierIntervals(instructions, flow::BarrierKind::Cta);
    warpIntervals = model.barrierIntervals(instructions, flow::BarrierKind::Warp);
    // Barriers with a thread count order only the threads that take part in a barrier of
    // that number: the intervals without them, and which numbers each thread takes part in
    // (bit 63: a number the model cannot read, which may be any).
    const FunctionInfo& info = context.module.functions[function];
    overfull = overfullBarrierIds(context, function, model);
    for (std::uint32_t i = info.firstInstruction; i < info.firstInstruction + info.instructionCount; ++i) {
      auto id = model.countedBarrierId(i);
      if (!id) continue;
      if (participation.empty()) participation.assign(threads.size(), 0);
      std::uint64_t bit = *id == flow::ThreadModel::kUnknownBarrierId ? 1ull << 63 : 1ull << *id;
      // A number more threads take part in than its count: its phases complete with some
      // of them only, so it orders no pair of them for certain.
      if ((overfull & bit) != 0) continue;
      for (std::size_t t = 0; t < threads.size(); ++t) {
        auto executes = model.executes(i, threads[t], kSeeds[0], flow::kVariesInCta);
        if (!executes || *executes) participation[t] |= bit;
      }
    }
    if (!participation.empty()) {
      fullIntervals = model.barrierIntervals(instructions, flow::BarrierKind::Cta, /*countedBarriersCut=*/false);
    }
  }
  // The bytes each access touches over all threads under the first seed: a pair whose spans
  // are disjoint has no colliding threads, whatever the pairing (most pairs of a large kernel:
  // two arrays, or two CTAs' slices of one).
  // Across CTAs (global memory), a thread of one CTA meets one of the other: the spans are
  // kept per CTA, and a pair needs one CTA's span of the first to meet the other's of the
  // second (a kernel whose CTAs work on tiles of their own has disjoint spans per CTA).
  using Span = std::pair<std::uint64_t, std::uint64_t>;
  std::vector<Span> spans(accesses.size(), {UINT64_MAX, 0});
  std::vector<std::array<Span, 2>> ctaSpans(space == Space::Global ? accesses.size() : 0,
                                            {Span{UINT64_MAX, 0}, Span{UINT64_MAX, 0}});
  for (std::size_t a = 0; a < accesses.size(); ++a) {
    for (std::size_t t = 0; t < threads.size(); ++t) {
      const auto& address = tables[a].address[0][t];
      if (!address) continue;
      spans[a].first = std::min(spans[a].first, *address);
      spans[a].second = std::max(spans[a].second, *address + accesses[a].size);
      if (space == Space::Global) {
        Span& span = ctaSpans[a][t < perCta ? 0 : 1];
        span.first = std::min(span.first, *address);
        span.second = std::max(span.second, *address + accesses[a].size);
      }
    }
  }
  auto meet = [](const Span& x, const Span& y) { return x.first < y.second && y.first < x.second; };
  // Two accesses that every thread makes at the same address as the other (a thread's own
  // slot, written and read back) collide only where the table of addresses they share lets
  // two threads meet: within one CTA, two threads' bytes overlapping; across CTAs, a thread's
  // bytes overlapping its twin's in the other CTA. Such accesses are numbered alike
  // (`sameTable`), and whether their threads stay apart is found once per table
  // (`threadsApart`): a kernel of many such accesses has as many pairs as accesses squared.
  std::vector<std::uint32_t> sameTable(accesses.size());
  std::vector<bool> threadsApart(accesses.size(), false);
  if (space == Space::Shared || space == Space::Global) {
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> byHash;
    std::vector<std::uint64_t> present;
    for (std::uint32_t a = 0; a < accesses.size(); ++a) {
      sameTable[a] = a;
      if (!tables[a].known) continue;
      const auto& row = tables[a].address[0];
      std::uint64_t hash = accesses[a].size;
      for (const auto& address : row) hash = (hash ^ (address ? *address + 1 : 0)) * 0x100000001b3ull;
      for (std::uint32_t other : byHash[hash]) {
        if (accesses[other].size == accesses[a].size && tables[other].address[0] == row) {
          sameTable[a] = other;
          break;
        }
      }
      if (sameTable[a] != a) {
        threadsApart[a] = threadsApart[sameTable[a]];
        continue;
      }
      byHash[hash].push_back(a);
      const std::uint64_t size = accesses[a].size;
      bool apart = true;
      if (space == Space::Shared) {
        present.clear();
        for (const auto& address : row) {
          if (address) present.push_back(*address);
        }
        std::sort(present.begin(), present.end());
        for (std::size_t i = 1; i < present.size() && apart; ++i) apart = present[i] - present[i - 1] >= size;
      } else {
        for (std::size_t t = 0; t < perCta && apart; ++t) {
          const auto& x = row[t];
          const auto& y = row[t + perCta];
          apart = !(x && y && *x < *y + size && *y < *x + size);
        }
      }
      threadsApart[a] = apart;
    }
  }
  StoredValues storedValues(model, context.module, accesses, threads.size());
  std::vector<std::vector<std::pair<std::uint64_t, std::uint32_t>>> sortedAddresses(accesses.size());
  std::vector<bool> sortedBuilt(accesses.size(), false);
  for (std::size_t a = 0; a < accesses.size(); ++a) {
    if (!tables[a].known) continue;
    for (std::size_t b = a; b < accesses.size() && tables[a].known; ++b) {
      if (!tables[b].known) continue;
      const Access& first = accesses[a];
      const Access& second = accesses[b];
      if (!first.writes && !second.writes) continue;
      if (!meet(spans[a], spans[b])) continue;
      if (space != Space::Cluster && sameTable[a] == sameTable[b] && threadsApart[a]) continue;
      if (space == Space::Global && !meet(ctaSpans[a][0], ctaSpans[b][1]) && !meet(ctaSpans[a][1], ctaSpans[b][0])) {
        continue;
      }
      bool synchronizing = (first.strong || first.atomic) && (second.strong || second.atomic);
      if (pairs == Pairs::NarrowScope) {
        if (!synchronizing || (!first.ctaScope && !second.ctaScope)) continue;
      } else if (pairs == Pairs::Synchronizing) {
        if (!synchronizing) continue;
      } else {
        // A pair is morally strong only when both sides are strong (or atomic): one strong
        // access beside a plain one is still a data race.
        if (synchronizing) continue;
      }
      // Whether threads may be at the two accesses at once: the same instruction always; two
      // instructions when one can follow the other with no barrier between. Threads of
      // different CTAs are never ordered by a CTA's barriers.
      bool differentWarpsOnly = false, countedOnly = false;
      if (space == Space::Cluster) {
        if (first.mapa == UINT32_MAX && second.mapa == UINT32_MAX) continue;  // Each CTA's own: RAC001.
        if (a != b && !shareInterval(clusterIntervals[a], clusterIntervals[b])) continue;
      }
      if (space == Space::Shared && a != b) {
        auto share = shareInterval;
        if (!share(ctaIntervals[a], ctaIntervals[b])) {
          // Only barriers with a thread count lie between them: a race for the threads that
          // take part in no common one.
          if (fullIntervals.empty() || !share(fullIntervals[a], fullIntervals[b])) continue;
          countedOnly = true;
        }
        differentWarpsOnly = !share(warpIntervals[a], warpIntervals[b]);
      }
      // Whether threads t1 and t2, at addresses x and y under the first seed, are a witness
      // (pushed when they are).
      auto consider = [&](std::uint32_t t1, std::uint32_t t2, std::uint64_t x, std::uint64_t y) {
        const flow::ThreadCoordinates& p = threads[t1];
        const flow::ThreadCoordinates& q = threads[t2];
        // Across CTAs, only the same thread of two CTAs: whatever the block shape, each CTA
        // has it, so the collision does not rest on the model's guess of the shape.
        if (space == Space::Global && (p.ctaid == q.ctaid || p.tid != q.tid)) return false;
        if (space == Space::Cluster && p.ctaid == q.ctaid) return false;  // Threads of one CTA: RAC001.
        if (differentWarpsOnly && warpOf(p, launch) == warpOf(q, launch)) return false;
        if (countedOnly &&
            ((participation[t1] & participation[t2]) != 0 || ((participation[t1] | participation[t2]) >> 63) != 0)) {
          return false;
        }
        // Threads of different rows meet through the row width the code assumes, which the
        // model does not know: only rows of at most 8 threads are taken as certain.
        if ((p.tid[1] != q.tid[1] || p.tid[2] != q.tid[2]) && std::max(p.tid[0], q.tid[0]) >= 8) return false;
        // The same pair must collide under the second seed too; an access unknown there is
        // left out, as if it had been unknown from the start (no witness has used it yet:
        // each would have filled its rows).
        if (!known(a)) return false;
        if (!known(b)) return false;
        auto x2 = tables[a].address[1][t1];
        auto y2 = tables[b].address[1][t2];
        if (!x2 || !y2) return false;
        if (!(*x2 < *y2 + second.size && *y2 < *x2 + first.size)) return false;
        // A store of the value every thread computed (divergence: the same for all).
        auto uniformStore = [&](const Access& access) {
          return access.valueOperand != UINT32_MAX &&
                 (model.divergenceOf(access.instruction, context.module.operands[access.valueOperand]) &
                  divergence) == 0;
        };
        if (x == y && first.size == second.size) {
          // Every thread storing the value they all computed (a shared flag or bound set by
          // the whole CTA, or grid) changes nothing whichever store lands last. Divergence
          // decides this, not the stand-ins below: those tell the words loaded by different
          // CTAs apart even where the divergence analysis knows them alike.
          if (uniformStore(first) && uniformStore(second) && &first == &second) return false;
          // Two plain stores of one slot: which lands last matters only when they store
          // different values. Replicated data (a layout conversion where several threads
          // hold the same element) and a vote's result stored by lanes of one warp are stored
          // alike, and values the model cannot follow are not taken as different.
          if (first.dataOperand != UINT32_MAX && second.dataOperand != UINT32_MAX &&
              !storedValues.differ(a, t1, p, b, t2, q)) {
            return false;
          }
          const Access* store = first.writes && !first.atomic && !second.writes    ? &first
                                : second.writes && !second.atomic && !first.writes ? &second
                                                                                   : nullptr;
          // A thread that stored such a value before loading it reads that value whichever
          // store it sees.
          if (store != nullptr && uniformStore(*store)) {
            const Access& load = store == &first ? second : first;
            std::size_t storeIndex = store == &first ? a : b;
            std::uint32_t reader = store == &first ? t2 : t1;
            if (tables[storeIndex].address[0][reader] &&
                model.reachableWithout(store->instruction, load.instruction, flow::BarrierKind::None)) {
              return false;
            }
          }
        }
        Witness w;
        w.first = &first;
        w.second = &second;
        w.firstThread = p;
        w.secondThread = q;
        w.firstAddress = x;
        w.secondAddress = y;
        w.partial = x != y || first.size != second.size;
        w.countTooSmall = countedOnly && overfull != 0;
        witnesses.push_back(w);
        return true;
      };
      bool found = false;
      if (space == Space::Global) {
        // Across CTAs, only the same thread of two CTAs pairs (below): threadsOf lists the two
        // CTAs one after the other, so t1's one partner is half the list away.
        for (std::uint32_t t1 = 0; t1 < threads.size() && !found && tables[a].known && tables[b].known; ++t1) {
          auto x = tables[a].address[0][t1];
          auto t2 = static_cast<std::uint32_t>(t1 < perCta ? t1 + perCta : t1 - perCta);
          auto y = tables[b].address[0][t2];
          if (x && y && *x < *y + second.size && *y < *x + first.size) found = consider(t1, t2, *x, *y);
        }
        continue;
      }
      // Sorted (address, thread) of the second access under the first seed, built once per
      // access.
      std::vector<std::pair<std::uint64_t, std::uint32_t>>& sorted = sortedAddresses[b];
      if (!sortedBuilt[b]) {
        sortedBuilt[b] = true;
        for (std::uint32_t t = 0; t < threads.size(); ++t) {
          if (tables[b].address[0][t]) sorted.push_back({*tables[b].address[0][t], t});
        }
        std::sort(sorted.begin(), sorted.end());
      }
      for (std::uint32_t t1 = 0; t1 < threads.size() && !found && tables[a].known && tables[b].known; ++t1) {
        if (!tables[a].address[0][t1]) continue;
        std::uint64_t x = *tables[a].address[0][t1];
        std::uint64_t low = x >= second.size ? x - second.size + 1 : 0;
        auto it = std::lower_bound(sorted.begin(), sorted.end(), std::pair<std::uint64_t, std::uint32_t>{low, 0});
        for (; it != sorted.end() && it->first < x + first.size && !found && tables[a].known && tables[b].known; ++it) {
          if (it->second == t1) continue;
          found = consider(t1, it->second, x, it->first);
        }
      }
    }
  }
  if (space == Space::Shared && pairs == Pairs::DataRaces) {
    // The accesses' remaining rows, filled together (thread by thread, as above).
    auto unknown = [&](const std::vector<std::size_t>& list) {
      for (std::size_t s = 1; s < std::size(kSeeds); ++s) {
        std::vector<std::size_t> rest;
        for (std::size_t a : list)
          if (tables[a].known && tables[a].filled == s) rest.push_back(a);
        fill(rest, s);
      }
      std::vector<bool> result;
      for (std::size_t a : list) result.push_back(!known(a));
      return result;
    };
    iterationRaces(context, function, model, accesses, unknown, threads, witnesses);
  }
  model.releaseThreads();
  return witnesses;
}

const SharedMemoryRaces& sharedMemoryRaces(const RuleContext& context, std::size_t function) {
  // Functions that touch no shared memory need no thread model.
  static const SharedMemoryRaces kNone;
  const FunctionInfo& info = context.module.functions[function];
  if (!anyInstructionOf(context.module, info, [&](const InstructionSite& site) {
        auto access = memoryAccessOf(context, site);
        return access && inSpace(access->facts, Space::Shared);
      })) {
    return kNone;
  }
  return context.flows.resultOf<SharedMemoryRaces>(function, [&](SharedMemoryRaces& races) {
    races.accesses = accessesOf(context, function, Space::Shared);
    races.witnesses = findRaces(context, function, races.accesses, Space::Shared);
  });
}

std::string assumedBlockShape(const flow::LaunchShape& launch) {
  if (launch.declared) return {};
  return concat({" (assuming a block of at least ", std::to_string(launch.ntid[0]), " x ",
                 std::to_string(launch.ntid[1]), " x ", std::to_string(launch.ntid[2]),
                 " threads; the kernel declares no .reqntid)"});
}

std::string describeThread(const flow::ThreadCoordinates& thread, bool withCta) {
  auto triple = [](const std::array<std::uint32_t, 3>& v) {
    return concat({"(", std::to_string(v[0]), ", ", std::to_string(v[1]), ", ", std::to_string(v[2]), ")"});
  };
  std::string text = thread.tid[1] == 0 && thread.tid[2] == 0 ? concat({"thread ", std::to_string(thread.tid[0])})
                                                              : concat({"thread ", triple(thread.tid)});
  if (withCta) text += concat({" of CTA ", triple(thread.ctaid)});
  return text;
}

}  // namespace ptx::races
