// ThreadEvaluator (flow/ThreadEvaluation.h), continued: evaluation for every thread of a set at
// once. The race search asks, for each access, whether each of a few hundred threads executes
// it and at which address. Asked thread by thread, every value that depends on the thread is
// recomputed per thread through the whole chain of calls and memo checks, which dominated the
// race rules' cost on register-blocked kernels. Here each definition's value is computed once,
// as a column of one value per thread (or one value when all threads agree), from its
// sources' columns; the per-thread work is the arithmetic alone.
//
// The semantics are the thread-by-thread evaluation's, shared where they are not about
// threads (flow/ThreadValues.h): the same operations, guards, loads, special registers and
// uniform stand-ins, and the same depth limit counted from the access. Only the evaluation
// outside loops is done this way (no first-iteration or per-iteration mode).
#include <algorithm>

#include "flow/ThreadEvaluation.h"
#include "flow/ThreadValues.h"

namespace ptx::flow {

using thread_values::kMaxDepth;
using thread_values::uniformValue;

void ThreadEvaluator::useThreads(const std::vector<ThreadCoordinates>& threads) {
  bool same = threads.size() == columnThreads_.size() &&
              std::equal(threads.begin(), threads.end(), columnThreads_.begin(),
                         [](const ThreadCoordinates& a, const ThreadCoordinates& b) {
                           return a.tid == b.tid && a.ctaid == b.ctaid;
                         });
  if (same) return;
  columnThreads_ = threads;
  seedColumns_.clear();
}

void ThreadEvaluator::releaseThreads() {
  columnThreads_ = {};
  seedColumns_ = {};
}

ThreadEvaluator::SeedColumns& ThreadEvaluator::columnsFor(std::uint64_t seed) {
  for (SeedColumns& columns : seedColumns_) {
    if (columns.seed == seed) return columns;
  }
  SeedColumns& columns = seedColumns_.emplace_back();
  columns.seed = seed;
  columns.definitions.resize(flow_.definitions().size());
  return columns;
}

ThreadEvaluator::Column ThreadEvaluator::uniformColumn(std::optional<std::uint64_t> value) {
  Column column;
  column.value = value;
  return column;
}

void ThreadEvaluator::collapse(Column& column) const {
  if (column.uniform) return;
  if (column.lanes.empty() ||
      std::all_of(column.lanes.begin(), column.lanes.end(), [&](const auto& v) { return v == column.lanes[0]; })) {
    column.value = column.lanes.empty() ? std::nullopt : column.lanes[0];
    column.uniform = true;
    column.lanes = {};
  }
}

ThreadEvaluator::ColumnRef ThreadEvaluator::columnOfOperand(std::uint32_t instruction,
                                                            const InstructionOperand& operand, SeedColumns& seed,
                                                            int depth) {
  ColumnRef result;
  if (depth > kMaxDepth) return result;
  switch (operand.shape) {
    case OperandShape::Register: {
      OperandRead* read = operandRead(instruction, operand);
      if (read == nullptr) read = rebuiltRead(instruction, operand);
      if (read != nullptr) return columnOfRead(*read, seed, depth);
      if (auto key = flow_.registerOf(operand)) return columnOfReaching(*key, reachingAt(instruction, *key), seed, depth);
      return result;
    }
    case OperandShape::NegatedPredicate: {
      InstructionOperand reg = flow_.negatedRegisterOf(operand);
      ColumnRef inner = columnOfOperand(instruction, reg, seed, depth + 1);
      const Column& column = inner.get();
      auto negate = [](std::optional<std::uint64_t> v) {
        return v ? std::optional<std::uint64_t>((*v & 1) ^ 1) : std::nullopt;
      };
      if (column.uniform) {
        result.own.value = negate(column.value);
        return result;
      }
      result.own.uniform = false;
      result.own.lanes.resize(column.lanes.size());
      for (std::size_t lane = 0; lane < column.lanes.size(); ++lane) result.own.lanes[lane] = negate(column.lanes[lane]);
      return result;
    }
    case OperandShape::SpecialRegister: {
      std::string_view name = textOf(operand.range);
      result.own.uniform = false;
      result.own.lanes.resize(columnThreads_.size());
      for (std::size_t lane = 0; lane < columnThreads_.size(); ++lane) {
        result.own.lanes[lane] = evaluateSpecialRegister(name, columnThreads_[lane]);
      }
      collapse(result.own);
      return result;
    }
    case OperandShape::Symbol:
    case OperandShape::IntegerLiteral:
    case OperandShape::Expression:
      if (operand.shape == OperandShape::Symbol && operand.symbol != kNoSymbol) {
        result.own.value = uniformValue(0x5100000000ull + operand.symbol, seed.seed);
      } else {
        result.own.value = constantOf(instruction, operand, operand);
      }
      return result;
    default:
      return result;
  }
}

ThreadEvaluator::ColumnRef ThreadEvaluator::columnOfRead(const OperandRead& read, SeedColumns& seed, int depth) {
  if (depth > kMaxDepth || !read.reg) return {};
  return columnOfReaching(*read.reg, read.reaching, seed, depth);
}

ThreadEvaluator::ColumnRef ThreadEvaluator::columnOfReaching(RegisterKey reg, const std::vector<std::uint32_t>& reaching,
                                                             SeedColumns& seed, int depth) {
  if (reaching.size() == 1) return columnOfDefinition(reaching[0], seed, depth + 1);
  ColumnRef result;
  // Several definitions: unknown outside the loop modes. None: a .func parameter.
  if (reaching.empty()) result.own.value = uniformValue((std::uint64_t{reg.symbol} << 32) ^ reg.index, seed.seed);
  return result;
}

ThreadEvaluator::ColumnRef ThreadEvaluator::columnOfDefinition(std::uint32_t definition, SeedColumns& seed, int depth) {
  ColumnRef result;
  if (depth > kMaxDepth) return result;
  ColumnSlot& slot = seed.definitions[definition];
  if (slot.state == 2) {
    result.kept = &slot.column;
    return result;
  }
  if (slot.state == 1) return result;  // A cycle through this definition: unknown.
  slot.state = 1;
  Column column = computeDefinitionColumn(definition, seed, depth);
  collapse(column);
  slot.column = std::move(column);
  slot.state = 2;
  result.kept = &slot.column;
  return result;
}

ThreadEvaluator::Column ThreadEvaluator::computeDefinitionColumn(std::uint32_t definition, SeedColumns& seed,
                                                                 int depth) {
  using Operation = IntegerOperation;
  const Definition& def = flow_.definitions()[definition];
  const InstructionSite& site = module_.instructions[def.instruction];
  if (site.isCall || def.operand != site.firstOperand) return {};
  const IntegerOp& op = flow_.integerOpOf(def.instruction);
  if (!op.type.present() && op.operation != Operation::Mov) return {};
  if (op.type.isFloat()) return {};
  const std::size_t threads = columnThreads_.size();
  if (threads == 0) return {};
  // A guarded definition keeps the old value when its guard fails.
  SitePlan* plan = site.isGuarded() ? guardPlan(def.instruction) : nullptr;
  std::optional<InstructionOperand> unplanned = plan == nullptr ? flow_.guardRegisterOf(site) : std::nullopt;
  const std::optional<InstructionOperand>& guard = plan != nullptr ? plan->guardOperand : unplanned;
  std::optional<ColumnRef> guardColumn, previous;
  if (guard) {
    guardColumn.emplace(plan != nullptr && plan->guard != nullptr
                            ? columnOfRead(*plan->guard, seed, depth + 1)
                            : columnOfOperand(def.instruction, *guard, seed, depth + 1));
  }
  const bool load = op.operation == Operation::Ld || op.operation == Operation::Ldu;
  std::optional<LoadPlan> loadPlanned;
  // The sources' columns, computed when a thread first reads them (`source` points at each).
  std::array<std::optional<ColumnRef>, 4> sources;
  std::array<const Column*, 4> source{};
  auto laneValue = [&](std::size_t lane) -> std::optional<std::uint64_t> {
    if (guardColumn) {
      auto holds = guardColumn->get().at(lane);
      if (!holds) return std::nullopt;
      if (((*holds & 1) != 0) == site.guardNegated) {
        if (!previous) previous.emplace(columnOfReaching(def.reg, reachingAt(def.instruction, def.reg), seed, depth + 1));
        return previous->get().at(lane);
      }
    }
    if (load) {
      // What does not depend on the thread is read once for all of them.
      if (!loadPlanned) loadPlanned.emplace(loadPlan(def));
      return loadValue(*loadPlanned, columnThreads_[lane], seed.seed);
    }
    return thread_values::operationResult(op, site.operandCount, [&](std::uint32_t k) -> std::optional<std::uint64_t> {
      if (k >= site.operandCount || k >= source.size()) return std::nullopt;
      if (source[k] == nullptr) {
        sources[k].emplace(columnOfOperand(def.instruction, module_.operands[site.firstOperand + k], seed, depth + 1));
        source[k] = &sources[k]->get();
      }
      return source[k]->at(lane);
    });
  };
  Column column;
  auto first = laneValue(0);
  // When every column the first thread read is the same for all threads, every thread reads
  // the same values the same way: one value for all. A load's word may depend on the CTA.
  auto uniformRef = [](const std::optional<ColumnRef>& ref) { return !ref || ref->get().uniform; };
  if (!load && uniformRef(guardColumn) && uniformRef(previous) &&
      std::all_of(sources.begin(), sources.end(), uniformRef)) {
    column.value = first;
    return column;
  }
  column.uniform = false;
  column.lanes.resize(threads);
  column.lanes[0] = first;
  if (!guardColumn && !load && thread_values::viaBinaryResult(op.operation) && source[1] != nullptr &&
      source[2] != nullptr) {
    // The common case (an address's addition or shift): the operation lane by lane, its two
    // source columns read directly.
    const Column& x = *source[1];
    const Column& y = *source[2];
    for (std::size_t lane = 1; lane < threads; ++lane) {
      auto a = x.at(lane);
      auto b = y.at(lane);
      column.lanes[lane] = a && b ? binaryResult(op, *a, *b) : std::nullopt;
    }
    return column;
  }
  const bool adds = op.operation == IntegerOperation::Mad || op.operation == IntegerOperation::Mad24;
  const bool multiplies = adds || op.operation == IntegerOperation::Mul || op.operation == IntegerOperation::Mul24;
  if (!guardColumn && !load && multiplies && !op.high && source[1] != nullptr && source[2] != nullptr &&
      (!adds || source[3] != nullptr)) {
    // A product's low half (mul.lo, mul.wide, mad.lo), as operationResult computes it.
    const Column& x = *source[1];
    const Column& y = *source[2];
    for (std::size_t lane = 1; lane < threads; ++lane) {
      auto a = x.at(lane);
      auto b = y.at(lane);
      std::optional<std::uint64_t> addend = adds ? source[3]->at(lane) : std::optional<std::uint64_t>(0);
      column.lanes[lane] = a && b && addend ? std::optional(lowProduct(op, *a, *b, *addend)) : std::nullopt;
    }
    return column;
  }
  for (std::size_t lane = 1; lane < threads; ++lane) column.lanes[lane] = laneValue(lane);
  return column;
}

std::vector<std::optional<bool>> ThreadEvaluator::guardHoldsForThreads(std::uint32_t instruction, SeedColumns& seed) {
  const InstructionSite& site = module_.instructions[instruction];
  std::vector<std::optional<bool>> holds(columnThreads_.size());
  SitePlan* plan = guardPlan(instruction);
  std::optional<InstructionOperand> guard = plan != nullptr ? plan->guardOperand : flow_.guardRegisterOf(site);
  if (!guard) return holds;
  ColumnRef value = plan != nullptr && plan->guard != nullptr ? columnOfRead(*plan->guard, seed, 0)
                                                              : columnOfOperand(instruction, *guard, seed, 0);
  const Column& column = value.get();
  for (std::size_t lane = 0; lane < holds.size(); ++lane) {
    auto v = column.at(lane);
    if (v) holds[lane] = ((*v & 1) != 0) != site.guardNegated;
  }
  return holds;
}

std::vector<std::optional<bool>> ThreadEvaluator::executesForThreads(std::uint32_t instruction, std::uint64_t seedValue,
                                                                     std::uint8_t divergence) {
  SeedColumns& seed = columnsFor(seedValue);
  std::uint32_t block = flow_.blockOf(instruction);
  std::uint64_t key = (std::uint64_t{block} << 8) | divergence;
  auto found = seed.blockReach.find(key);
  if (found == seed.blockReach.end()) {
    // Each thread is followed through the branch conditions in order, as executes() does: the
    // first condition it cannot evaluate or fails decides.
    std::vector<std::optional<bool>> reach(columnThreads_.size(), true);
    for (const Edge& edge : conditionsOf(block)) {
      if ((divergence_.ofBranch(edge.branchBlock) & divergence) == 0) continue;
      std::vector<std::optional<bool>> taken = guardHoldsForThreads(flow_.blocks()[edge.branchBlock].end - 1, seed);
      for (std::size_t lane = 0; lane < reach.size(); ++lane) {
        if (reach[lane] != std::optional<bool>(true)) continue;
        if (!taken[lane]) {
          reach[lane] = std::nullopt;
        } else if (*taken[lane] != edge.taken) {
          reach[lane] = false;
        }
      }
    }
    found = seed.blockReach.emplace(key, std::move(reach)).first;
  }
  std::vector<std::optional<bool>> runs = found->second;
  const InstructionSite& site = module_.instructions[instruction];
  if (!site.isGuarded()) return runs;
  SitePlan* plan = guardPlan(instruction);
  std::optional<InstructionOperand> guard = plan != nullptr ? plan->guardOperand : flow_.guardRegisterOf(site);
  if (!guard) return runs;
  std::uint8_t guardDivergence = plan != nullptr ? plan->guardDivergence : divergence_.ofRead(instruction, *guard);
  if ((guardDivergence & divergence) == 0) return runs;
  std::vector<std::optional<bool>> holds = guardHoldsForThreads(instruction, seed);
  for (std::size_t lane = 0; lane < runs.size(); ++lane) {
    if (runs[lane] != std::optional<bool>(true)) continue;
    if (!holds[lane]) {
      runs[lane] = std::nullopt;
    } else if (!*holds[lane]) {
      runs[lane] = false;
    }
  }
  return runs;
}

ThreadEvaluator::Lanes ThreadEvaluator::addressForThreads(std::uint32_t instruction, const InstructionOperand& address,
                                                          std::uint64_t seedValue) {
  Lanes lanes(columnThreads_.size());
  AddressParts parts = addressParts(instruction, address);
  if (!parts.known) return lanes;
  SeedColumns& seed = columnsFor(seedValue);
  ColumnRef value;
  if (!parts.base) {
    value.own.value = uniformValue(0x5100000000ull + parts.symbol, seed.seed);
  } else {
    value = parts.baseRead != nullptr ? columnOfRead(*parts.baseRead, seed, 0)
                                      : columnOfOperand(instruction, *parts.base, seed, 0);
  }
  const Column& column = value.get();
  for (std::size_t lane = 0; lane < lanes.size(); ++lane) {
    auto v = column.at(lane);
    if (v) lanes[lane] = *v + parts.offset;
  }
  return lanes;
}

}  // namespace ptx::flow
