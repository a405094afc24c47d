#include "flow/ThreadModel.h"

namespace ptx::flow {

ThreadModel::ThreadModel(std::string_view text, const Module& module, FunctionFlow& flow)
    : flow_(flow),
      launch_(launchShapeOf(text, module, flow.functionIndex())),
      reads_(coordinateReadsOf(text, module, flow.functionIndex())),
      divergence_(text, module, flow),
      evaluator_(text, module, flow, launch_, divergence_),
      barriers_(text, module, flow, divergence_, evaluator_) {}

bool ThreadModel::definedInLoop(const NaturalLoop& loop, std::uint32_t instruction, RegisterKey reg) {
  for (std::uint32_t d : flow_.reachingDefinitions(instruction, reg)) {
    if (loop.body[flow_.blockOf(flow_.definitions()[d].instruction)]) return true;
  }
  return false;
}

}  // namespace ptx::flow
