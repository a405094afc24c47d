// CSQ001 call-sequence-interrupted
//
// What it does: reports an `st.param` that sets a `.param` argument of a call but is not part
// of the argument stores directly before that call, and an `ld.param` that reads a call's
// `.param` return value but is not part of the loads directly after it. What separates them
// from their call: a label that a branch names, a branch, `ret`/`exit`, another call, or other
// work, that is an instruction (`add`, `mov`, `ld.global`, a store) whose result is not an
// argument of the call (before it) and that reads no result of the call (after it). `.param`
// and `.reg` declarations, comments, `.loc`/`.pragma`/`.file` lines, other labels (debug
// labels) and the `{ }` of the call block may stand in between, and so may the instructions
// that compute a later argument (nvcc's old Open64 back end and current LLVM interleave them
// with the stores) or use a result already loaded. A store that reaches the call along another
// path (made before a branch, or hoisted out of a loop) is reported too, and so is a call
// whose argument variable is shared with an earlier call but not stored again before it.
// Arguments and return values passed in `.reg` variables are not concerned.
//
// Why is this bad: the PTX ISA requires the argument stores to immediately precede the call
// and the return-value loads to immediately follow it, with no change of control flow in
// between; the `.param` variable is only a name for the call's argument slot, not storage of
// its own. ptxas 13 accepts these shapes and the code has been seen to run correctly, but
// it is outside the specification, which keeps the freedom to rely on the layout.
//
// Example:
//     {
//     .param .b32 arg0;
//     .param .b32 ret0;
//     st.param.b32 [arg0], %r1;
//     add.u32 %r3, %r1, 1;              // between the argument stores and the call
//     call.uni (ret0), f, (arg0);
//     ld.param.b32 %r2, [ret0];
//     }
//
// Use instead:
//     add.u32 %r3, %r1, 1;
//     {
//     .param .b32 arg0;
//     st.param.b32 [arg0], %r1;
//     .param .b32 ret0;
//     call.uni (ret0), f, (arg0);
//     ld.param.b32 %r2, [ret0];
//     }
//
// Fix: move the other work before the argument stores or after the return-value loads, and
// store each argument again right before every call that passes it. Where the instruction in
// the way touches no parameter and no register of the instructions it would pass, the quick
// fix moves its line above the first argument store ("Move before the argument stores") or
// below the last return-value load ("Move after the return-value loads").
//
// References: PTX ISA §7.1 (function declarations and definitions, caller restrictions);
// PTX Writer's Guide to Interoperability (the call sequence).
#include <algorithm>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "CallSequence.h"
#include "RuleContext.h"

namespace ptx {
namespace {

constexpr std::uint32_t kNone = UINT32_MAX;
// A quick fix moves at most this many instructions; beyond that the fix is no obvious one.
constexpr std::size_t kMaxMovedInstructions = 8;
// Control flow that leaves the straight line: no call sequence continues across it.
constexpr Effects kLeavesStraightLine = kBranch | kIndirectBranch | kReturn | kExit | kTrap;

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

// Whether the text from `at` on (after blanks and comments) starts with a directive that
// takes a name the grammar reads as a label: `proto: .callprototype ...`, `t: .calltargets`,
// `t: .branchtargets`.
bool namesDirective(std::string_view text, std::size_t at) {
  while (at < text.size()) {
    if (isBlank(text[at])) {
      ++at;
    } else if (text.compare(at, 2, "//") == 0) {
      at = text.find('\n', at);
      if (at == std::string_view::npos) return false;
    } else if (text.compare(at, 2, "/*") == 0) {
      at = text.find("*/", at + 2);
      if (at == std::string_view::npos) return false;
      at += 2;
    } else {
      break;
    }
  }
  std::string_view rest = text.substr(std::min(at, text.size()));
  return rest.starts_with(spellingOf(Modifier::Callprototype)) || rest.starts_with(spellingOf(Modifier::Calltargets)) ||
         rest.starts_with(spellingOf(Modifier::Branchtargets));
}

// The module's labels that something branches to (a `bra`, or a `.branchtargets` list for
// `brx.idx`), in source order. A label nothing names changes no control flow: compilers emit
// such labels for debug information. The names of prototypes and target lists are no labels.
class Labels {
 public:
  explicit Labels(const RuleContext& context) {
    const Module& module = context.module;
    std::vector<bool> named(module.symbols.size(), false);
    for (const Reference& reference : module.references) {
      if (reference.target != kNoSymbol && reference.target < named.size()) named[reference.target] = true;
    }
    for (SymbolId id = 0; id < module.symbols.size(); ++id) {
      const Symbol& symbol = module.symbols[id];
      if (symbol.kind != SymbolKind::Label || !named[id]) continue;
      if (namesDirective(context.text, symbol.declarationRange.end)) continue;
      positions_.push_back({symbol.declarationRange.begin, id});
    }
    std::sort(positions_.begin(), positions_.end());
  }

  // The first label that starts in [from, to), or kNoSymbol.
  SymbolId between(std::uint32_t from, std::uint32_t to) const {
    auto it = std::lower_bound(positions_.begin(), positions_.end(), std::make_pair(from, SymbolId{0}));
    return it != positions_.end() && it->first < to ? it->second : kNoSymbol;
  }

 private:
  std::vector<std::pair<std::uint32_t, SymbolId>> positions_;
};

using RegisterSet = std::unordered_set<std::string_view>;

struct CallInfo {
  std::vector<SymbolId> arguments;  // The `.param` variables passed (body-local ones only).
  std::vector<SymbolId> returns;
};

bool contains(const std::vector<SymbolId>& list, SymbolId id) {
  return std::find(list.begin(), list.end(), id) != list.end();
}

// One function body: its calls, the runs of parameter transfers around them, and (built
// only when a stray transfer needs it) its control-flow graph.
class FunctionCheck {
 public:
  FunctionCheck(const RuleContext& context, const Labels& labels, const FunctionInfo& function)
      : context_(context),
        module_(context.module),
        labels_(labels),
        function_(function),
        first_(function.firstInstruction),
        end_(function.firstInstruction + function.instructionCount) {}

  void run() {
    std::uint32_t count = end_ - first_;
    transfers_.resize(count);
    callSlot_.assign(count, kNone);
    for (std::uint32_t i = first_; i < end_; ++i) {
      const InstructionSite& site = module_.instructions[i];
      transfers_[i - first_] = paramTransferOf(context_, site);
      if (!site.isCall || site.inDamagedCode) continue;
      CallInfo info;
      for (std::uint32_t k = 0; k < site.operandCount; ++k) {
        SymbolId symbol = module_.operands[site.firstOperand + k].symbol;
        if (!isCallParamVariable(module_, symbol)) continue;
        (k < site.callReturnCount ? info.returns : info.arguments).push_back(symbol);
      }
      if (info.arguments.empty() && info.returns.empty()) continue;
      for (SymbolId a : info.arguments) argumentOf_[a].push_back(i);
      for (SymbolId r : info.returns) returnOf_[r].push_back(i);
      callSlot_[i - first_] = static_cast<std::uint32_t>(calls_.size());
      calls_.push_back(std::move(info));
    }
    if (calls_.empty()) return;
    findRuns();
    checkStores();
    checkReusedArguments();
    checkLoads();
  }

 private:
  // What ends a call sequence: a label or an instruction.
  struct Interruption {
    SymbolId label = kNoSymbol;
    std::uint32_t instruction = kNone;
  };

  const InstructionSite& site(std::uint32_t index) const { return module_.instructions[index]; }
  const ParamTransfer& transfer(std::uint32_t index) const { return transfers_[index - first_]; }
  const CallInfo* callInfo(std::uint32_t index) const {
    std::uint32_t slot = callSlot_[index - first_];
    return slot == kNone ? nullptr : &calls_[slot];
  }

  // A label between the instruction `before` and the instruction `after` (global indexes).
  SymbolId labelBetween(std::uint32_t before, std::uint32_t after) const {
    return labels_.between(site(before).statement.end, site(after).statement.begin);
  }

  bool storesArgumentOf(std::uint32_t index, const CallInfo& call) const {
    const ParamTransfer& t = transfer(index);
    return t.kind == ParamTransferKind::Store && contains(call.arguments, t.variable);
  }
  bool loadsReturnOf(std::uint32_t index, const CallInfo& call) const {
    const ParamTransfer& t = transfer(index);
    return t.kind == ParamTransferKind::Load && contains(call.returns, t.variable);
  }

  // Whether an instruction may belong to a call sequence as work that computes an argument
  // (before the call) or consumes a result (after it): anything but control flow, another
  // call, and transfers of other calls' parameters.
  bool mayJoinSequence(std::uint32_t index) const {
    const InstructionSite& other = site(index);
    if (other.isCall || other.inDamagedCode || transfer(index).kind != ParamTransferKind::None) return false;
    const InstructionFacts& facts = module_.factsOf(other);
    return !facts.does(kLeavesStraightLine) && !facts.is(Family::Brkpt);
  }

  // The call sequence around each call. Before it: its argument stores, and the instructions
  // that compute a value one of them (or the call itself) reads, which compilers interleave
  // with the stores (nvcc's Open64 back end and LLVM since it stopped gluing the stores to the
  // call). After it: its return-value loads, and the instructions that read a value they
  // produced. Declarations, comments and directives may stand anywhere in between; any other
  // instruction, or a label, ends the sequence.
  void findRuns() {
    std::uint32_t count = end_ - first_;
    storeRunOf_.assign(count, kNone);
    loadRunOf_.assign(count, kNone);
    setupOf_.assign(count, kNone);
    resultUseOf_.assign(count, kNone);
    beforeStop_.assign(calls_.size(), {});
    afterStop_.assign(calls_.size(), {});
    for (std::uint32_t c = first_; c < end_; ++c) {
      const CallInfo* call = callInfo(c);
      if (call == nullptr) continue;
      std::uint32_t slot = callSlot_[c - first_];
      const InstructionSite& callSite = site(c);
      RegisterSet needed = toSet(callReads(callSite));
      for (std::uint32_t j = c;; --j) {
        if (j == first_) break;
        SymbolId label = labelBetween(j - 1, j);
        if (label != kNoSymbol) {
          beforeStop_[slot] = Interruption{label, kNone};
          break;
        }
        std::uint32_t p = j - 1;
        if (storesArgumentOf(p, *call)) {
          storeRunOf_[p - first_] = c;
          append(needed, registersIn(site(p).statement));
        } else if (mayJoinSequence(p) && overlaps(registersWritten(site(p)), needed)) {
          setupOf_[p - first_] = c;
          append(needed, registersRead(site(p)));
        } else {
          beforeStop_[slot] = Interruption{kNoSymbol, p};
          break;
        }
      }
      RegisterSet produced = toSet(callWrites(callSite));
      for (std::uint32_t j = c; j + 1 < end_; ++j) {
        SymbolId label = labelBetween(j, j + 1);
        if (label != kNoSymbol) {
          afterStop_[slot] = Interruption{label, kNone};
          break;
        }
        std::uint32_t n = j + 1;
        if (loadsReturnOf(n, *call)) {
          loadRunOf_[n - first_] = c;
          append(produced, registersWritten(site(n)));
        } else if (mayJoinSequence(n) && overlaps(registersRead(site(n)), produced)) {
          resultUseOf_[n - first_] = c;
          append(produced, registersWritten(site(n)));
        } else {
          afterStop_[slot] = Interruption{kNoSymbol, n};
          break;
        }
      }
    }
  }

  // ── Reports ─────────────────────────────────────────────────────────────────────────

  std::string describe(const Interruption& what) const {
    if (what.label != kNoSymbol) return concat({"label '", module_.symbols[what.label].name, "'"});
    const InstructionSite& other = site(what.instruction);
    std::string spelled = concat({"'", context_.textOf(module_.spellingOf(other)), "'"});
    if (other.isCall) return concat({spelled, " (another call)"});
    return spelled;
  }

  ByteRange rangeOf(const Interruption& what) const {
    if (what.label != kNoSymbol) return module_.symbols[what.label].declarationRange;
    return site(what.instruction).statement;
  }

  // What separates the store at `index` from the sequence of the call at `c`: where the
  // sequence ends, when the store lies before that; else (the store reaches the call along
  // another path) the first thing after the store that belongs to no part of the sequence.
  std::optional<Interruption> interruptionAfter(std::uint32_t index, std::uint32_t c) const {
    const Interruption& stop = beforeStop_[callSlot_[c - first_]];
    bool stopped = stop.label != kNoSymbol || stop.instruction != kNone;
    if (index < c && stopped && startOf(stop) > site(index).statement.begin) {
      return stop;
    }
    const CallInfo& call = *callInfo(c);
    for (std::uint32_t j = index + 1; j < end_; ++j) {
      SymbolId label = labelBetween(j - 1, j);
      if (label != kNoSymbol) return Interruption{label, kNone};
      if (!storesArgumentOf(j, call) && setupOf_[j - first_] != c) return Interruption{kNoSymbol, j};
    }
    return std::nullopt;
  }

  // What separates the load at `index` from the sequence of the call at `c` (the mirror image).
  std::optional<Interruption> interruptionBefore(std::uint32_t index, std::uint32_t c) const {
    const Interruption& stop = afterStop_[callSlot_[c - first_]];
    bool stopped = stop.label != kNoSymbol || stop.instruction != kNone;
    if (c < index && stopped && startOf(stop) < site(index).statement.begin) {
      return stop;
    }
    const CallInfo& call = *callInfo(c);
    for (std::uint32_t j = index; j > first_; --j) {
      SymbolId label = labelBetween(j - 1, j);
      if (label != kNoSymbol) return Interruption{label, kNone};
      if (!loadsReturnOf(j - 1, call) && resultUseOf_[j - 1 - first_] != c) return Interruption{kNoSymbol, j - 1};
    }
    return std::nullopt;
  }

  std::uint32_t startOf(const Interruption& what) const { return rangeOf(what).begin; }

  void checkStores() {
    for (std::uint32_t i = first_; i < end_; ++i) {
      const ParamTransfer& t = transfer(i);
      if (t.kind != ParamTransferKind::Store || storeRunOf_[i - first_] != kNone) continue;
      auto users = argumentOf_.find(t.variable);
      if (users == argumentOf_.end()) continue;  // Not passed to any call.
      std::uint32_t c = reach(i, /*forward=*/true, Search::CallPassing, t.variable, [&](std::uint32_t k) {
        const CallInfo* call = callInfo(k);
        return call != nullptr && contains(call->arguments, t.variable);
      });
      if (c == kNone) continue;  // Reaches no call that passes it.
      std::string message = concat({"st.param to argument '", module_.symbols[t.variable].name, "' of ",
                                    describeCall(context_, site(c)),
                                    " is not part of the argument stores directly before the call"});
      std::vector<RelatedInformation> related{{module_.spellingOf(site(c)), "the call"}};
      if (auto what = interruptionAfter(i, c)) {
        message += concat({": ", describe(*what), " comes between"});
        related.push_back({rangeOf(*what), "interrupts the argument stores"});
      }
      context_.report("CSQ001", site(i).statement, std::move(message));
      context_.out.back().related = std::move(related);
      if (i < c) attachMoveBeforeStores(i, c);
    }
  }

  // A call whose argument variable holds a value stored for another call: the variable is
  // passed by two calls and stored only before the first.
  void checkReusedArguments() {
    for (std::uint32_t c = first_; c < end_; ++c) {
      const CallInfo* call = callInfo(c);
      if (call == nullptr) continue;
      const InstructionSite& callSite = site(c);
      for (std::uint32_t k = callSite.callReturnCount; k < callSite.operandCount; ++k) {
        const InstructionOperand& operand = module_.operands[callSite.firstOperand + k];
        SymbolId variable = operand.symbol;
        if (!isCallParamVariable(module_, variable)) continue;
        bool storedInRun = false;
        for (std::uint32_t j = c; j > first_; --j) {
          std::uint32_t p = j - 1 - first_;
          if (storeRunOf_[p] != c && setupOf_[p] != c) break;
          if (storeRunOf_[p] == c && transfers_[p].variable == variable) storedInRun = true;
        }
        if (storedInRun) continue;
        std::uint32_t store = reach(c, /*forward=*/false, Search::StoreOf, variable, [&](std::uint32_t j) {
          const ParamTransfer& t = transfer(j);
          return t.kind == ParamTransferKind::Store && t.variable == variable;
        });
        // Never stored (not this rule's business), or stored by a stray st.param, which is
        // reported on its own.
        if (store == kNone || storeRunOf_[store - first_] == kNone) continue;
        std::uint32_t owner = storeRunOf_[store - first_];
        std::string message =
            concat({"argument '", module_.symbols[variable].name, "' of ", describeCall(context_, callSite),
                    " is not set by an st.param directly before the call: it still holds the value stored for ",
                    describeCall(context_, site(owner)), " before it"});
        context_.report("CSQ001", operand.range, std::move(message));
        context_.out.back().related = {{site(store).statement, "the st.param that set it"},
                                       {module_.spellingOf(site(owner)), "the call that st.param belongs to"}};
      }
    }
  }

  void checkLoads() {
    for (std::uint32_t i = first_; i < end_; ++i) {
      const ParamTransfer& t = transfer(i);
      if (t.kind != ParamTransferKind::Load || loadRunOf_[i - first_] != kNone) continue;
      auto users = returnOf_.find(t.variable);
      if (users == returnOf_.end()) continue;  // No call returns into it.
      std::uint32_t c = reach(i, /*forward=*/false, Search::CallReturning, t.variable, [&](std::uint32_t k) {
        const CallInfo* call = callInfo(k);
        return call != nullptr && contains(call->returns, t.variable);
      });
      if (c == kNone) continue;  // No call reaches it: reads nothing a call returned.
      std::string message = concat({"ld.param of return value '", module_.symbols[t.variable].name, "' of ",
                                    describeCall(context_, site(c)),
                                    " is not part of the return-value loads directly after the call"});
      std::vector<RelatedInformation> related{{module_.spellingOf(site(c)), "the call"}};
      if (auto what = interruptionBefore(i, c)) {
        message += concat({": ", describe(*what), " comes between"});
        related.push_back({rangeOf(*what), "interrupts the return-value loads"});
      }
      context_.report("CSQ001", site(i).statement, std::move(message));
      context_.out.back().related = std::move(related);
      if (c < i) attachMoveAfterLoads(i, c);
    }
  }

  // ── Quick fixes ─────────────────────────────────────────────────────────────────────

  // The registers an instruction names within `range`, as spelled (`%r1`).
  std::vector<std::string_view> registersIn(ByteRange range) const {
    std::vector<std::string_view> names;
    for (const Reference& reference : module_.referencesWithin(range)) {
      if (reference.target == kNoSymbol || reference.range.end > range.end) continue;
      if (module_.symbols[reference.target].isRegister()) names.push_back(context_.textOf(reference.range));
    }
    return names;
  }

  // The registers an instruction writes: those of its first operand, unless that is an address.
  std::vector<std::string_view> registersWritten(const InstructionSite& other) const {
    if (other.operandCount == 0) return {};
    const InstructionOperand& destination = module_.operands[other.firstOperand];
    if (destination.shape == OperandShape::Address) return {};
    return registersIn(destination.range);
  }

  // The registers an instruction reads: all it names but those of a written first operand.
  std::vector<std::string_view> registersRead(const InstructionSite& other) const {
    if (other.operandCount == 0) return registersIn(other.statement);
    const InstructionOperand& destination = module_.operands[other.firstOperand];
    if (destination.shape == OperandShape::Address) return registersIn(other.statement);
    std::vector<std::string_view> names = registersIn({other.statement.begin, destination.range.begin});
    append(names, registersIn({destination.range.end, other.statement.end}));
    return names;
  }

  // The registers a call reads (its guard, an indirect callee, `.reg` arguments) and writes
  // (`.reg` return values).
  std::vector<std::string_view> callReads(const InstructionSite& call) const {
    std::vector<std::string_view> names = registersIn(call.guard);
    append(names, registersIn({call.calleeRange.begin, call.statement.end}));
    return names;
  }
  std::vector<std::string_view> callWrites(const InstructionSite& call) const {
    std::vector<std::string_view> names;
    for (std::uint32_t k = 0; k < call.callReturnCount && k < call.operandCount; ++k) {
      append(names, registersIn(module_.operands[call.firstOperand + k].range));
    }
    return names;
  }

  static void append(std::vector<std::string_view>& to, const std::vector<std::string_view>& from) {
    to.insert(to.end(), from.begin(), from.end());
  }
  static void append(RegisterSet& to, const std::vector<std::string_view>& from) { to.insert(from.begin(), from.end()); }
  static RegisterSet toSet(const std::vector<std::string_view>& names) { return {names.begin(), names.end()}; }
  static bool overlaps(const std::vector<std::string_view>& a, const RegisterSet& b) {
    return std::any_of(a.begin(), a.end(), [&](std::string_view name) { return b.contains(name); });
  }

  static bool overlaps(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
    for (std::string_view name : a) {
      if (std::find(b.begin(), b.end(), name) != b.end()) return true;
    }
    return false;
  }

  // An instruction that may trade places with parameter transfers: no control flow, no stack
  // manipulation, and nothing of the `.param` state space but an ld.param of one of the
  // function's own parameters.
  bool movable(std::uint32_t index) const {
    const InstructionSite& other = site(index);
    if (other.isCall || other.inDamagedCode) return false;
    const InstructionFacts& facts = module_.factsOf(other);
    if (facts.does(kLeavesStraightLine)) return false;
    for (Family family : {Family::Brkpt, Family::Alloca, Family::Stacksave, Family::Stackrestore}) {
      if (facts.is(family)) return false;
    }
    bool paramSpace = facts.space == StateSpace::Param || facts.secondSpace == StateSpace::Param;
    bool loadsOwnParameter = paramSpace && facts.is(Family::Ld);
    if (paramSpace && !loadsOwnParameter) return false;
    for (const Reference& reference : module_.referencesWithin(other.statement)) {
      if (reference.target == kNoSymbol || module_.symbols[reference.target].spaceId != Modifier::Param) continue;
      if (!loadsOwnParameter || isCallParamVariable(module_, reference.target)) return false;
    }
    return true;
  }

  // The line of a statement, newline included, when nothing but blanks and a trailing
  // comment shares it.
  std::optional<ByteRange> ownLine(ByteRange statement) const {
    std::string_view text = context_.text;
    std::size_t begin = statement.begin == 0 ? std::string_view::npos : text.rfind('\n', statement.begin - 1);
    begin = begin == std::string_view::npos ? 0 : begin + 1;
    for (std::size_t k = begin; k < statement.begin; ++k) {
      if (text[k] != ' ' && text[k] != '\t') return std::nullopt;
    }
    std::size_t end = text.find('\n', statement.end);
    if (end == std::string_view::npos) return std::nullopt;
    std::size_t k = statement.end;
    while (k < end && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r')) ++k;
    if (k < end && text.compare(k, 2, "//") != 0) return std::nullopt;
    return ByteRange{static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end + 1)};
  }

  // Whether the instructions [from, to] share one block with no nested block opening between.
  bool sameBlock(std::uint32_t from, std::uint32_t to) const {
    for (std::uint32_t j = from; j <= to; ++j) {
      if (site(j).scope != site(from).scope) return false;
    }
    std::uint32_t begin = site(from).statement.begin;
    std::uint32_t end = site(to).statement.end;
    auto it = std::upper_bound(module_.scopes.begin(), module_.scopes.end(), begin,
                               [](std::uint32_t at, const Scope& scope) { return at < scope.range.begin; });
    return it == module_.scopes.end() || it->range.begin >= end;
  }

  // "Move before the argument stores": the instructions between the argument stores of the
  // call at `c` go above the first of them, when that is safe.
  void attachMoveBeforeStores(std::uint32_t stray, std::uint32_t c) const {
    const CallInfo& call = *callInfo(c);
    std::uint32_t firstStore = kNone;
    std::vector<std::uint32_t> movers;
    std::vector<std::uint32_t> kept;  // Stores and the work computing arguments stay.
    RegisterSet needed = toSet(callReads(site(c)));
    for (std::uint32_t j = c; j > first_ && labelBetween(j - 1, j) == kNoSymbol; --j) {
      std::uint32_t p = j - 1;
      if (storesArgumentOf(p, call)) {
        firstStore = p;
        kept.push_back(p);
        append(needed, registersIn(site(p).statement));
      } else if (mayJoinSequence(p) && overlaps(registersWritten(site(p)), needed)) {
        kept.push_back(p);
        append(needed, registersRead(site(p)));
      } else if (movable(p) && movers.size() < kMaxMovedInstructions) {
        movers.push_back(p);
      } else {
        break;
      }
    }
    if (firstStore == kNone || stray < firstStore) return;
    std::erase_if(movers, [&](std::uint32_t j) { return j < firstStore; });
    if (movers.empty() || !sameBlock(firstStore, c)) return;
    std::sort(movers.begin(), movers.end());
    std::optional<ByteRange> target = ownLine(site(firstStore).statement);
    if (!target) return;
    std::vector<FixEdit> edits;
    std::string moved;
    for (std::uint32_t mover : movers) {
      // The mover must not write a register that a store it passes reads, and must share no
      // register with an argument computation it passes.
      std::vector<std::string_view> written = registersWritten(site(mover));
      std::vector<std::string_view> used = registersIn(site(mover).statement);
      for (std::uint32_t j : kept) {
        if (j < firstStore || j > mover) continue;
        if (storesArgumentOf(j, call) ? overlaps(written, registersIn(site(j).statement))
                                      : overlaps(used, registersIn(site(j).statement))) {
          return;
        }
      }
      std::optional<ByteRange> line = ownLine(site(mover).statement);
      if (!line) return;
      moved += context_.textOf(*line);
      edits.push_back({*line, ""});
    }
    edits.insert(edits.begin(), FixEdit{ByteRange{target->begin, target->begin}, moved});
    context_.attachFix(movers.size() == 1 ? "Move before the argument stores"
                                          : "Move these instructions before the argument stores",
                       std::move(edits), /*isPreferred=*/true);
  }

  // "Move after the return-value loads": the instructions between the call at `c` and its
  // return-value loads go below the last of them, when that is safe.
  void attachMoveAfterLoads(std::uint32_t stray, std::uint32_t c) const {
    const CallInfo& call = *callInfo(c);
    std::uint32_t lastLoad = kNone;
    std::vector<std::uint32_t> movers;
    std::vector<std::uint32_t> kept;  // Loads and the work reading results stay.
    RegisterSet produced = toSet(callWrites(site(c)));
    for (std::uint32_t j = c; j + 1 < end_ && labelBetween(j, j + 1) == kNoSymbol; ++j) {
      std::uint32_t n = j + 1;
      if (loadsReturnOf(n, call)) {
        lastLoad = n;
        kept.push_back(n);
        append(produced, registersWritten(site(n)));
      } else if (mayJoinSequence(n) && overlaps(registersRead(site(n)), produced)) {
        kept.push_back(n);
        append(produced, registersWritten(site(n)));
      } else if (movable(n) && movers.size() < kMaxMovedInstructions) {
        movers.push_back(n);
      } else {
        break;
      }
    }
    if (lastLoad == kNone || stray > lastLoad) return;
    std::erase_if(movers, [&](std::uint32_t j) { return j > lastLoad; });
    if (movers.empty() || !sameBlock(c, lastLoad)) return;
    std::optional<ByteRange> target = ownLine(site(lastLoad).statement);
    if (!target) return;
    std::vector<FixEdit> edits;
    std::string moved;
    for (std::uint32_t mover : movers) {
      // The mover must share no register with a load or a result's use it passes.
      std::vector<std::string_view> used = registersIn(site(mover).statement);
      for (std::uint32_t j : kept) {
        if (j > mover && j <= lastLoad && overlaps(used, registersIn(site(j).statement))) return;
      }
      std::optional<ByteRange> line = ownLine(site(mover).statement);
      if (!line) return;
      moved += context_.textOf(*line);
      edits.push_back({*line, ""});
    }
    edits.push_back(FixEdit{ByteRange{target->end, target->end}, moved});
    context_.attachFix(movers.size() == 1 ? "Move after the return-value loads"
                                          : "Move these instructions after the return-value loads",
                       std::move(edits), /*isPreferred=*/true);
  }

  // ── Control flow ────────────────────────────────────────────────────────────────────

  static bool endsBlock(const InstructionFacts& facts) {
    return facts.does(kBranch | kIndirectBranch | kReturn | kExit);
  }

  // The first instruction (global index) at or after byte `offset`, or kNone.
  std::uint32_t instructionAt(std::uint32_t offset) const {
    std::uint32_t low = first_, high = end_;
    while (low < high) {
      std::uint32_t middle = low + (high - low) / 2;
      if (site(middle).statement.begin < offset) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    return low < end_ ? low : kNone;
  }

  void buildGraph() {
    if (!blockStart_.empty()) return;
    std::uint32_t count = end_ - first_;
    blockOf_.assign(count, 0);
    std::vector<bool> labelled;
    std::uint32_t bodyBegin = site(first_).statement.begin;
    if (function_.bodyScope != kNoScope && function_.bodyScope < module_.scopes.size()) {
      bodyBegin = module_.scopes[function_.bodyScope].range.begin;
    }
    for (std::uint32_t i = first_; i < end_; ++i) {
      bool label = i == first_ ? labels_.between(bodyBegin, site(i).statement.begin) != kNoSymbol
                               : labelBetween(i - 1, i) != kNoSymbol;
      bool leader = i == first_ || label || endsBlock(module_.factsOf(site(i - 1)));
      if (leader) {
        blockStart_.push_back(i);
        labelled.push_back(label);
      }
      blockOf_[i - first_] = static_cast<std::uint32_t>(blockStart_.size() - 1);
    }
    std::uint32_t blocks = static_cast<std::uint32_t>(blockStart_.size());
    blockStart_.push_back(end_);
    successors_.assign(blocks, {});
    predecessors_.assign(blocks, {});
    auto link = [&](std::uint32_t from, std::uint32_t to) {
      if (std::find(successors_[from].begin(), successors_[from].end(), to) != successors_[from].end()) return;
      successors_[from].push_back(to);
      predecessors_[to].push_back(from);
    };
    auto linkLabelled = [&](std::uint32_t from) {
      for (std::uint32_t b = 0; b < blocks; ++b) {
        if (labelled[b]) link(from, b);
      }
    };
    for (std::uint32_t b = 0; b < blocks; ++b) {
      const InstructionSite& last = site(blockStart_[b + 1] - 1);
      const InstructionFacts& facts = module_.factsOf(last);
      bool fallthrough = b + 1 < blocks;
      if (facts.does(kBranch)) {
        bool resolved = false;
        for (const Reference& reference : module_.referencesWithin(last.statement)) {
          if (reference.role != ReferenceRole::BranchTarget || reference.target == kNoSymbol) continue;
          const Symbol& label = module_.symbols[reference.target];
          if (label.kind != SymbolKind::Label) continue;
          resolved = true;
          std::uint32_t target = instructionAt(label.declarationRange.end);
          if (target != kNone) link(b, blockOf_[target - first_]);
        }
        if (!resolved) linkLabelled(b);
        if (last.isGuarded() && fallthrough) link(b, b + 1);
      } else if (facts.does(kIndirectBranch)) {
        linkLabelled(b);
        if (last.isGuarded() && fallthrough) link(b, b + 1);
      } else if (facts.does(kReturn | kExit)) {
        if (last.isGuarded() && fallthrough) link(b, b + 1);
      } else if (fallthrough) {
        link(b, b + 1);
      }
    }
  }

  enum class Search : std::uint8_t { CallPassing, CallReturning, StoreOf };

  // The first instruction matching `match` that control can reach after `from` (forward:
  // along the rest of its block, then breadth-first over the graph), or the nearest one from
  // which control can reach `from` (backward); kNone when there is none. Searches of one kind
  // for one variable share what they learn: the blocks from which (or into which) nothing
  // matching can be reached, so that many fruitless searches stay linear.
  template <class Match>
  std::uint32_t reach(std::uint32_t from, bool forward, Search kind, SymbolId variable, Match match) {
    buildGraph();
    std::uint32_t blocks = static_cast<std::uint32_t>(successors_.size());
    std::vector<bool>& barren = barren_[(static_cast<std::uint64_t>(kind) << 32) | variable];
    if (barren.empty()) barren.assign(blocks, false);
    std::uint32_t block = blockOf_[from - first_];
    if (forward) {
      for (std::uint32_t j = from + 1; j < blockStart_[block + 1]; ++j) {
        if (match(j)) return j;
      }
    } else {
      for (std::uint32_t j = from; j-- > blockStart_[block];) {
        if (match(j)) return j;
      }
    }
    const std::vector<std::vector<std::uint32_t>>& edges = forward ? successors_ : predecessors_;
    std::vector<bool> seen(blocks, false);
    std::vector<std::uint32_t> scanned;
    std::deque<std::uint32_t> queue;
    auto enqueue = [&](std::uint32_t b) {
      if (seen[b] || barren[b]) return;
      seen[b] = true;
      queue.push_back(b);
    };
    for (std::uint32_t next : edges[block]) enqueue(next);
    while (!queue.empty()) {
      std::uint32_t b = queue.front();
      queue.pop_front();
      if (forward) {
        for (std::uint32_t j = blockStart_[b]; j < blockStart_[b + 1]; ++j) {
          if (match(j)) return j;
        }
      } else {
        for (std::uint32_t j = blockStart_[b + 1]; j-- > blockStart_[b];) {
          if (match(j)) return j;
        }
      }
      scanned.push_back(b);
      for (std::uint32_t next : edges[b]) enqueue(next);
    }
    for (std::uint32_t b : scanned) barren[b] = true;
    return kNone;
  }

  const RuleContext& context_;
  const Module& module_;
  const Labels& labels_;
  const FunctionInfo& function_;
  std::uint32_t first_;
  std::uint32_t end_;
  std::vector<ParamTransfer> transfers_;  // Per instruction of the body.
  std::vector<std::uint32_t> callSlot_;   // Per instruction: its index in calls_, or kNone.
  std::vector<CallInfo> calls_;
  std::unordered_map<SymbolId, std::vector<std::uint32_t>> argumentOf_;  // Variable -> calls.
  std::unordered_map<SymbolId, std::vector<std::uint32_t>> returnOf_;
  // Per instruction: the call whose sequence holds it as an argument store, as work computing
  // an argument, as a return-value load or as work reading a result (else kNone).
  std::vector<std::uint32_t> storeRunOf_;
  std::vector<std::uint32_t> setupOf_;
  std::vector<std::uint32_t> loadRunOf_;
  std::vector<std::uint32_t> resultUseOf_;
  std::vector<Interruption> beforeStop_;  // Per call: what ends its sequence before/after it.
  std::vector<Interruption> afterStop_;
  // The graph: block b spans instructions [blockStart_[b], blockStart_[b + 1]).
  std::vector<std::uint32_t> blockStart_;
  std::vector<std::uint32_t> blockOf_;  // Per instruction.
  std::vector<std::vector<std::uint32_t>> successors_;
  std::vector<std::vector<std::uint32_t>> predecessors_;
  std::unordered_map<std::uint64_t, std::vector<bool>> barren_;  // Per search kind and variable.
};

}  // namespace

void checkCallSequenceInterrupted(const RuleContext& context) {
  const Module& module = context.module;
  bool anyCall = std::any_of(module.instructions.begin(), module.instructions.end(),
                             [](const InstructionSite& site) { return site.isCall && site.operandCount > 0; });
  if (!anyCall) return;
  Labels labels(context);
  for (const FunctionInfo& function : module.functions) {
    if (function.hasSyntaxErrors || function.instructionCount == 0) continue;
    if (function.firstInstruction + function.instructionCount > module.instructions.size()) continue;
    FunctionCheck(context, labels, function).run();
  }
}

}  // namespace ptx
