// CSQ001 call-sequence-interrupted
//
// What it does: reports an `st.param` that sets a `.param` argument of a call but is not part
// of the one unbroken run of `st.param` instructions that ends at that call, and an `ld.param`
// that reads a call's `.param` return value but is not part of the unbroken run that starts
// right after it. The run may be broken by any other instruction (`mov`, `add`, a load or
// store of another state space, another call), by a label, or by a branch; it is not broken
// by `.param` and `.reg` declarations, comments, `.loc`/`.pragma`/`.file` lines or the
// `{ }` of the call block. A store that reaches the call along another path (made before a
// branch, or hoisted out of a loop) is reported too, and so is a call whose argument variable
// is shared with an earlier call but not stored again before it. Arguments and return values
// passed in `.reg` variables are not concerned.
//
// Why is this bad: the PTX ISA requires the argument stores to immediately precede the call
// and the return-value loads to immediately follow it, with no change of control flow in
// between; the `.param` variable is only a name for the call's argument slot, not storage of
// its own. ptxas accepts the other shapes today and copies the values, so the code works,
// but the layout is outside the specification and a later ptxas may rely on it.
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
// the way touches neither the parameters nor the registers of the stores (or loads) it would
// pass, the quick fix moves its line above the first argument store ("Move before the
// argument stores") or below the last return-value load ("Move after the return-value loads").
//
// References: PTX ISA §7.1 (function declarations and definitions, caller restrictions);
// PTX Writer's Guide to Interoperability (the call sequence).
#include <algorithm>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "CallSequence.h"
#include "RuleContext.h"

namespace ptx {
namespace {

constexpr std::uint32_t kNone = UINT32_MAX;

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
  return rest.starts_with(".callprototype") || rest.starts_with(".calltargets") || rest.starts_with(".branchtargets");
}

// The module's labels in source order (the names of prototypes and target lists left out).
class Labels {
 public:
  explicit Labels(const RuleContext& context) {
    const Module& module = context.module;
    for (SymbolId id = 0; id < module.symbols.size(); ++id) {
      const Symbol& symbol = module.symbols[id];
      if (symbol.kind != SymbolKind::Label) continue;
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

  // The run of argument stores directly before each call and of return-value loads directly
  // after it: only declarations, comments and directives (never an instruction or a label)
  // may stand between their members.
  void findRuns() {
    std::uint32_t count = end_ - first_;
    storeRunOf_.assign(count, kNone);
    loadRunOf_.assign(count, kNone);
    for (std::uint32_t c = first_; c < end_; ++c) {
      const CallInfo* call = callInfo(c);
      if (call == nullptr) continue;
      for (std::uint32_t j = c; j > first_ && labelBetween(j - 1, j) == kNoSymbol && storesArgumentOf(j - 1, *call); --j) {
        storeRunOf_[j - 1 - first_] = c;
      }
      for (std::uint32_t j = c; j + 1 < end_ && labelBetween(j, j + 1) == kNoSymbol && loadsReturnOf(j + 1, *call); ++j) {
        loadRunOf_[j + 1 - first_] = c;
      }
    }
  }

  // ── Reports ─────────────────────────────────────────────────────────────────────────

  // What breaks a run: a label or an instruction.
  struct Interruption {
    SymbolId label = kNoSymbol;
    std::uint32_t instruction = kNone;
  };

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

  // The first thing after the store at `index` (in source order) that is not another
  // argument store of `call`.
  std::optional<Interruption> interruptionAfter(std::uint32_t index, const CallInfo& call) const {
    for (std::uint32_t j = index + 1; j < end_; ++j) {
      SymbolId label = labelBetween(j - 1, j);
      if (label != kNoSymbol) return Interruption{label, kNone};
      if (!storesArgumentOf(j, call)) return Interruption{kNoSymbol, j};
    }
    return std::nullopt;
  }

  // The last thing before the load at `index` that is not another return-value load of `call`.
  std::optional<Interruption> interruptionBefore(std::uint32_t index, const CallInfo& call) const {
    for (std::uint32_t j = index; j > first_; --j) {
      SymbolId label = labelBetween(j - 1, j);
      if (label != kNoSymbol) return Interruption{label, kNone};
      if (!loadsReturnOf(j - 1, call)) return Interruption{kNoSymbol, j - 1};
    }
    return std::nullopt;
  }

  void checkStores() {
    for (std::uint32_t i = first_; i < end_; ++i) {
      const ParamTransfer& t = transfer(i);
      if (t.kind != ParamTransferKind::Store || storeRunOf_[i - first_] != kNone) continue;
      auto users = argumentOf_.find(t.variable);
      if (users == argumentOf_.end()) continue;  // Not passed to any call.
      std::uint32_t c = reachForward(i, [&](std::uint32_t k) {
        const CallInfo* call = callInfo(k);
        return call != nullptr && contains(call->arguments, t.variable);
      });
      if (c == kNone) continue;  // Reaches no call that passes it.
      const CallInfo& call = *callInfo(c);
      std::string message = concat({"st.param to argument '", module_.symbols[t.variable].name, "' of ",
                                    describeCall(context_, site(c)),
                                    " is not in the unbroken run of st.param instructions directly before the call"});
      std::vector<RelatedInformation> related{{module_.spellingOf(site(c)), "the call"}};
      if (auto what = interruptionAfter(i, call)) {
        message += concat({": ", describe(*what), " comes between"});
        related.push_back({rangeOf(*what), "interrupts the argument stores"});
      }
      context_.warn("CSQ001", Category::CallSequence, site(i).statement, std::move(message));
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
        for (std::uint32_t j = c; j > first_ && storeRunOf_[j - 1 - first_] == c; --j) {
          if (transfer(j - 1).variable == variable) storedInRun = true;
        }
        if (storedInRun) continue;
        std::uint32_t store = reachBackward(c, [&](std::uint32_t j) {
          const ParamTransfer& t = transfer(j);
          return t.kind == ParamTransferKind::Store && t.variable == variable;
        });
        // Never stored (not this rule's business), or stored by a stray st.param, which is
        // reported on its own.
        if (store == kNone || storeRunOf_[store - first_] == kNone) continue;
        std::uint32_t owner = storeRunOf_[store - first_];
        std::string message = concat({"argument '", module_.symbols[variable].name, "' of ", describeCall(context_, callSite),
                                      " is not set by an st.param directly before the call: it still holds the "
                                      "value stored for ",
                                      describeCall(context_, site(owner)), " before it"});
        context_.warn("CSQ001", Category::CallSequence, operand.range, std::move(message));
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
      std::uint32_t c = reachBackward(i, [&](std::uint32_t k) {
        const CallInfo* call = callInfo(k);
        return call != nullptr && contains(call->returns, t.variable);
      });
      if (c == kNone) continue;  // No call reaches it: reads nothing a call returned.
      const CallInfo& call = *callInfo(c);
      std::string message = concat({"ld.param of return value '", module_.symbols[t.variable].name, "' of ",
                                    describeCall(context_, site(c)),
                                    " is not in the unbroken run of ld.param instructions directly after the call"});
      std::vector<RelatedInformation> related{{module_.spellingOf(site(c)), "the call"}};
      if (auto what = interruptionBefore(i, call)) {
        message += concat({": ", describe(*what), " comes between"});
        related.push_back({rangeOf(*what), "interrupts the return-value loads"});
      }
      context_.warn("CSQ001", Category::CallSequence, site(i).statement, std::move(message));
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

  static bool overlaps(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
    for (std::string_view name : a) {
      if (std::find(b.begin(), b.end(), name) != b.end()) return true;
    }
    return false;
  }

  // An instruction that may trade places with parameter transfers: no control flow, no stack
  // manipulation, and nothing of the `.param` state space.
  bool movable(std::uint32_t index) const {
    const InstructionSite& other = site(index);
    if (other.isCall || other.inDamagedCode) return false;
    std::string_view opcode = context_.textOf(other.opcode);
    for (std::string_view control : {"bra", "brx", "ret", "exit", "trap", "brkpt", "alloca", "stacksave",
                                     "stackrestore"}) {
      if (opcode == control) return false;
    }
    for (std::uint32_t m = 0; m < other.modifierCount; ++m) {
      if (context_.textOf(module_.modifiers[other.firstModifier + m]).starts_with(".param")) return false;
    }
    for (const Reference& reference : module_.referencesWithin(other.statement)) {
      if (reference.target != kNoSymbol && module_.symbols[reference.target].space == ".param") return false;
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
    for (std::uint32_t j = c; j > first_ && labelBetween(j - 1, j) == kNoSymbol; --j) {
      if (storesArgumentOf(j - 1, call)) {
        firstStore = j - 1;
      } else if (movable(j - 1)) {
        movers.push_back(j - 1);
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
      // The mover must not write a register that a store it passes reads.
      std::vector<std::string_view> written = registersWritten(site(mover));
      for (std::uint32_t j = firstStore; j < mover; ++j) {
        if (storesArgumentOf(j, call) && overlaps(written, registersIn(site(j).statement))) return;
      }
      std::optional<ByteRange> line = ownLine(site(mover).statement);
      if (!line) return;
      moved += context_.textOf(*line);
      edits.push_back({*line, ""});
    }
    edits.insert(edits.begin(), FixEdit{ByteRange{target->begin, target->begin}, moved});
    context_.attachFix(movers.size() == 1 ? "Move before the argument stores" : "Move these instructions before the argument stores",
                       std::move(edits), /*isPreferred=*/true);
  }

  // "Move after the return-value loads": the instructions between the call at `c` and its
  // return-value loads go below the last of them, when that is safe.
  void attachMoveAfterLoads(std::uint32_t stray, std::uint32_t c) const {
    const CallInfo& call = *callInfo(c);
    std::uint32_t lastLoad = kNone;
    std::vector<std::uint32_t> movers;
    for (std::uint32_t j = c; j + 1 < end_ && labelBetween(j, j + 1) == kNoSymbol; ++j) {
      if (loadsReturnOf(j + 1, call)) {
        lastLoad = j + 1;
      } else if (movable(j + 1)) {
        movers.push_back(j + 1);
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
      // The mover must share no register with a load it passes (loads write registers).
      std::vector<std::string_view> used = registersIn(site(mover).statement);
      for (std::uint32_t j = mover + 1; j <= lastLoad; ++j) {
        if (loadsReturnOf(j, call) && overlaps(used, registersIn(site(j).statement))) return;
      }
      std::optional<ByteRange> line = ownLine(site(mover).statement);
      if (!line) return;
      moved += context_.textOf(*line);
      edits.push_back({*line, ""});
    }
    edits.push_back(FixEdit{ByteRange{target->end, target->end}, moved});
    context_.attachFix(movers.size() == 1 ? "Move after the return-value loads" : "Move these instructions after the return-value loads",
                       std::move(edits), /*isPreferred=*/true);
  }

  // ── Control flow ────────────────────────────────────────────────────────────────────

  static bool endsBlock(std::string_view opcode) {
    return opcode == "bra" || opcode == "brx" || opcode == "ret" || opcode == "exit";
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
      bool leader = i == first_ || label || endsBlock(context_.textOf(site(i - 1).opcode));
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
      std::string_view opcode = context_.textOf(last.opcode);
      bool fallthrough = b + 1 < blocks;
      if (opcode == "bra") {
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
      } else if (opcode == "brx") {
        linkLabelled(b);
        if (last.isGuarded() && fallthrough) link(b, b + 1);
      } else if (opcode == "ret" || opcode == "exit") {
        if (last.isGuarded() && fallthrough) link(b, b + 1);
      } else if (fallthrough) {
        link(b, b + 1);
      }
    }
  }

  // The first instruction matching `match` that control can reach after `from` (along the
  // rest of its block, then breadth-first over the graph), or kNone.
  template <class Match>
  std::uint32_t reachForward(std::uint32_t from, Match match) {
    buildGraph();
    std::uint32_t block = blockOf_[from - first_];
    for (std::uint32_t j = from + 1; j < blockStart_[block + 1]; ++j) {
      if (match(j)) return j;
    }
    std::vector<bool> seen(successors_.size(), false);
    std::deque<std::uint32_t> queue;
    for (std::uint32_t next : successors_[block]) {
      if (!seen[next]) seen[next] = true, queue.push_back(next);
    }
    while (!queue.empty()) {
      std::uint32_t b = queue.front();
      queue.pop_front();
      for (std::uint32_t j = blockStart_[b]; j < blockStart_[b + 1]; ++j) {
        if (match(j)) return j;
      }
      for (std::uint32_t next : successors_[b]) {
        if (!seen[next]) seen[next] = true, queue.push_back(next);
      }
    }
    return kNone;
  }

  // The nearest instruction matching `match` from which control can reach `from`, or kNone.
  template <class Match>
  std::uint32_t reachBackward(std::uint32_t from, Match match) {
    buildGraph();
    std::uint32_t block = blockOf_[from - first_];
    for (std::uint32_t j = from; j-- > blockStart_[block];) {
      if (match(j)) return j;
    }
    std::vector<bool> seen(successors_.size(), false);
    std::deque<std::uint32_t> queue;
    for (std::uint32_t previous : predecessors_[block]) {
      if (!seen[previous]) seen[previous] = true, queue.push_back(previous);
    }
    while (!queue.empty()) {
      std::uint32_t b = queue.front();
      queue.pop_front();
      for (std::uint32_t j = blockStart_[b + 1]; j-- > blockStart_[b];) {
        if (match(j)) return j;
      }
      for (std::uint32_t previous : predecessors_[b]) {
        if (!seen[previous]) seen[previous] = true, queue.push_back(previous);
      }
    }
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
  std::vector<std::uint32_t> storeRunOf_;  // Per instruction: the call whose run holds it.
  std::vector<std::uint32_t> loadRunOf_;
  // The graph: block b spans instructions [blockStart_[b], blockStart_[b + 1]).
  std::vector<std::uint32_t> blockStart_;
  std::vector<std::uint32_t> blockOf_;  // Per instruction.
  std::vector<std::vector<std::uint32_t>> successors_;
  std::vector<std::vector<std::uint32_t>> predecessors_;
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
