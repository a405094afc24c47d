// ASM010 hoisted-polling-load
//
// What it does: reports a non-volatile asm statement without a `"memory"` clobber that loads
// from memory into an output, inside a loop whose condition reads that output's variable — a
// polling loop waiting for another thread or the host to change the value.
//
// Why is this bad: nvcc treats non-volatile asm as a pure function of its inputs. The inputs
// (the address) do not change in the loop, so it may load once before the loop and spin on a
// stale value forever.
//
// Example:
//     do {
//       asm("ld.acquire.gpu.u32 %0, [%1];" : "=r"(flag) : "l"(ptr));
//     } while (flag == 0);
//
// Use instead:
//     do {
//       asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(flag) : "l"(ptr) : "memory");
//     } while (flag == 0);
//
// Fix: make the statement `volatile` with a `"memory"` clobber.
//
// References: docs/inline-ptx.md §4 (a polling load becomes an infinite loop).
#include <cctype>
#include <optional>

#include "inline_asm/MemoryEffects.h"

namespace ptx {
namespace {

// Whether `text` holds `word` as a whole identifier.
bool mentions(std::string_view text, std::string_view word) {
  auto isIdentifierChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    bool before = at == 0 || !isIdentifierChar(text[at - 1]);
    bool after = at + word.size() >= text.size() || !isIdentifierChar(text[at + word.size()]);
    if (before && after) return true;
  }
  return false;
}

// The variable an output operand writes (`flag`, `s.flag`), or empty for anything else.
std::string_view outputVariable(const cuda::AsmOperand& operand) {
  std::string_view text = operand.expressionText;
  if (text.empty()) return {};
  for (char c : text)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ' ')) return {};
  return text;
}

// Whether a function body holds `return variable;`.
bool returns(std::string_view body, std::string_view variable) {
  for (std::size_t at = body.find("return"); at != std::string_view::npos; at = body.find("return", at + 1)) {
    std::size_t end = body.find(';', at);
    if (end == std::string_view::npos) break;
    std::string_view value = body.substr(at + 6, end - at - 6);
    while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front()))) value.remove_prefix(1);
    while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.remove_suffix(1);
    if (value == variable) return true;
  }
  return false;
}

}  // namespace

void checkHoistedPollingLoad(const AsmRuleContext& context) {
  const Module& module = context.fragmentLint.module;
  for (const CheckedStatement& checked : context.statements) {
    const cuda::AsmStatement& statement = *checked.statement;
    if (statement.isVolatile || statement.memoryClobber) continue;
    std::uint32_t load = firstInstructionDoing(context, checked, kReadsMemory);
    if (load == UINT32_MAX) continue;
    for (const cuda::AsmOperand& operand : statement.operands) {
      std::string_view variable = outputVariable(operand);
      if (!operand.isOutput || variable.empty()) continue;
      const StatementPlacement& placement = checked.placement;
      std::optional<ByteRange> poll;
      for (ByteRange condition : placement.loopConditions)
        if (!poll && mentions(context.textOf(condition), variable)) poll = condition;
      // A helper that returns the loaded value, called in a polling loop.
      if (!poll && returns(context.textOf(placement.functionBody), variable)) {
        for (const auto& call : placement.callsInLoops) {
          bool inCondition = call.loopCondition.begin <= call.call.begin && call.call.end <= call.loopCondition.end;
          bool assignedAndPolled = !call.assignedTo.empty() && mentions(context.textOf(call.loopCondition), call.assignedTo);
          if (inCondition || assignedAndPolled) {
            poll = call.call;
            break;
          }
        }
      }
      if (!poll) continue;
      ByteRange opcode = module.instructions[load].opcode;
      context.report("ASM010", context.sourceOf(checked, opcode),
                     concat({"this non-volatile asm load of '", variable, "' is polled by a loop; nvcc treats the "
                             "statement as a pure function of its address and may hoist it out of the loop, which then "
                             "spins on a stale value: make it volatile with a \"memory\" clobber"}),
                     {{*poll, "the loop polls it here"}, {statement.keyword, "the asm statement"}});
      context.attachFix("Make the asm statement volatile", {{{statement.keyword.end, statement.keyword.end}, " volatile"}},
                        true);
      break;
    }
  }
}

}  // namespace ptx
