// BarrierIntervals: the barrier structure of a function — which instructions are barriers
// of which kind, whether one instruction can follow another with no barrier between them, and
// the barrier intervals the race rules compare accesses in.
//
// A branch every thread takes alike, whose condition the evaluator shows to come out the same
// whatever the uniform inputs, is followed along its one feasible edge only.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "flow/Divergence.h"
#include "flow/FunctionFlow.h"
#include "flow/ThreadEvaluation.h"
#include "model/Module.h"

namespace ptx::flow {

// Cluster: what orders threads of different CTAs of a cluster (barrier.cluster, and the
// operations the model cannot follow: mbarriers, fences, acquire/release, calls), not the
// CTA barriers.
enum class BarrierKind : std::uint8_t { None, Warp, Cta, Cluster };

class BarrierIntervals {
 public:
  BarrierIntervals(std::string_view text, const Module& module, FunctionFlow& flow, Divergence& divergence,
                   ThreadEvaluator& evaluator);

  // Whether `to` can execute after `from` (or `from` again, around a loop) with no barrier of
  // `kind` or stronger between them, on some path (BarrierKind::None: on any path).
  bool reachableWithout(std::uint32_t from, std::uint32_t to, BarrierKind kind);
  BarrierKind barrierKindOf(std::uint32_t instruction) const;
  // For each of `instructions`, the sorted barrier intervals it lies in (ThreadModel.h).
  std::vector<std::vector<std::uint32_t>> intervals(const std::vector<std::uint32_t>& instructions, BarrierKind kind,
                                                    bool countedBarriersCut);
  // Whether an instruction orders threads of different CTAs of a cluster (BarrierKind::Cluster).
  bool ordersCluster(std::uint32_t instruction) const;
  // Whether `instruction`, a barrier of kind `barrier`, ends a barrier-free stretch for
  // threads that `kind` asks about.
  bool cuts(std::uint32_t instruction, BarrierKind barrier, BarrierKind kind) const;
  // The number of a CTA barrier with a thread count (ThreadModel::countedBarrierId).
  static constexpr std::uint32_t kUnknownBarrierId = UINT32_MAX;
  std::optional<std::uint32_t> countedBarrierId(std::uint32_t instruction) const;

 private:
  void pushFeasibleSuccessors(std::uint32_t block, std::vector<std::uint32_t>& into);

  std::string_view text_;
  const Module& module_;
  FunctionFlow& flow_;
  Divergence& divergence_;
  ThreadEvaluator& evaluator_;
  std::uint32_t first_ = 0;
  std::uint32_t end_ = 0;
  std::vector<BarrierKind> barrierKinds_;  // Per instruction, built on first use.
};

}  // namespace ptx::flow
