// SourceOutline: asm statements placed in the CUDA syntax tree's outline.
#include "inline_asm/StatementPlacement.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "cuda/CudaOutline.h"
#include "cuda/CudaSyntax.h"

namespace ptx {
namespace {

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `x = f(...)`: the `x` before the call at `callBegin`, or empty.
std::string assignedVariable(std::string_view text, std::uint32_t callBegin) {
  std::size_t at = callBegin;
  while (at > 0 && std::isspace(static_cast<unsigned char>(text[at - 1]))) --at;
  if (at == 0 || text[at - 1] != '=') return {};
  if (at >= 2 && std::string_view("=!<>+-*/%&|^").find(text[at - 2]) != std::string_view::npos) return {};
  --at;
  while (at > 0 && std::isspace(static_cast<unsigned char>(text[at - 1]))) --at;
  std::size_t end = at;
  while (at > 0 && (isIdentifierChar(text[at - 1]) || text[at - 1] == '.')) --at;
  return std::string(text.substr(at, end - at));
}

}  // namespace

SourceOutline::SourceOutline(std::string_view text, const cuda::LexedSource& source,
                             std::span<const cuda::DevicePass> /*passes*/, const cuda::CudaSyntaxTree* tree,
                             unsigned parseThreads)
    : text_(text), source_(source) {
  outline_ = std::make_unique<cuda::CudaOutline>(tree != nullptr ? cuda::outlineOf(*tree, text)
                                                                 : cuda::outlineOfText(text, parseThreads));
  hasKernels_ = !cuda::kernelsOf(*outline_).empty();
  for (std::uint32_t c = 0; c < outline_->calls.size(); ++c) callsByCallee_[outline_->calls[c].callee].push_back(c);
}

SourceOutline::~SourceOutline() = default;

void SourceOutline::setPass(const cuda::PassView& view) {
  const auto& tokens = source_.tokens();
  auto compiled = [&](std::uint32_t offset) {
    auto it = std::lower_bound(tokens.begin(), tokens.end(), offset,
                               [](const cuda::Token& token, std::uint32_t o) { return token.range.begin < o; });
    if (it == tokens.end()) return true;
    return view.activity(static_cast<std::uint32_t>(it - tokens.begin())) != cuda::Truth::False;
  };
  const cuda::CudaOutline& outline = *outline_;
  std::vector<std::int32_t> kernels;
  for (std::int32_t kernel : cuda::kernelsOf(outline))
    if (compiled(outline.functions[static_cast<std::size_t>(kernel)].nameRange.begin)) kernels.push_back(kernel);
  // Breadth-first over calls the pass compiles; a lambda counts as reached with its function.
  std::unordered_multimap<std::string_view, std::int32_t> byName;
  for (std::size_t f = 0; f < outline.functions.size(); ++f)
    if (!outline.functions[f].simpleName.empty()) byName.emplace(outline.functions[f].simpleName, static_cast<std::int32_t>(f));
  // A call reaches its function surely when one function has the name, maybe when several do.
  struct Edge {
    std::int32_t callee;
    bool sure;
  };
  std::vector<std::vector<Edge>> callees(outline.functions.size());
  for (const cuda::CudaCall& call : outline.calls) {
    if (call.function == cuda::kNoIndex || !compiled(call.range.begin)) continue;
    auto [from, to] = byName.equal_range(call.callee);
    bool sure = std::distance(from, to) == 1;
    for (auto it = from; it != to; ++it) callees[static_cast<std::size_t>(call.function)].push_back({it->second, sure});
  }
  for (std::size_t f = 0; f < outline.functions.size(); ++f) {
    std::int32_t parent = outline.functions[f].parent;
    if (parent != cuda::kNoIndex) callees[static_cast<std::size_t>(parent)].push_back({static_cast<std::int32_t>(f), true});
  }
  // Sure reachability first, then what only maybe-edges add.
  reachable_.assign(outline.functions.size(), cuda::Truth::False);
  for (bool followMaybe : {false, true}) {
    cuda::Truth mark = followMaybe ? cuda::Truth::Unknown : cuda::Truth::True;
    std::vector<std::int32_t> work;
    for (std::size_t f = 0; f < reachable_.size(); ++f)
      if (reachable_[f] != cuda::Truth::False) work.push_back(static_cast<std::int32_t>(f));
    for (std::int32_t kernel : kernels) {
      if (reachable_[static_cast<std::size_t>(kernel)] == cuda::Truth::False) {
        reachable_[static_cast<std::size_t>(kernel)] = cuda::Truth::True;
        work.push_back(kernel);
      }
    }
    while (!work.empty()) {
      std::int32_t f = work.back();
      work.pop_back();
      for (const Edge& edge : callees[static_cast<std::size_t>(f)]) {
        if (!edge.sure && !followMaybe) continue;
        if (reachable_[static_cast<std::size_t>(edge.callee)] != cuda::Truth::False) continue;
        bool sure = edge.sure && reachable_[static_cast<std::size_t>(f)] == cuda::Truth::True;
        reachable_[static_cast<std::size_t>(edge.callee)] = sure ? cuda::Truth::True : mark;
        work.push_back(edge.callee);
      }
    }
  }
}

namespace {

// An identifier spelled like a macro (`CUTLASS_DEVICE`, `CUTE_HOST_DEVICE`): capitals, digits
// and underscores, at least four characters.
bool looksLikeMacro(std::string_view word) {
  if (word.size() < 4) return false;
  for (char c : word)
    if (!(std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

}  // namespace

bool SourceOutline::hasForeignQualifierMacro(ByteRange declaration) const {
  const auto& tokens = source_.tokens();
  auto it = std::lower_bound(tokens.begin(), tokens.end(), declaration.begin,
                             [](const cuda::Token& token, std::uint32_t o) { return token.range.begin < o; });
  std::string scratch;
  for (; it != tokens.end() && it->range.begin < declaration.end; ++it) {
    if (it->kind != cuda::TokenKind::Identifier || it->directive != cuda::kNoDirective) continue;
    if (looksLikeMacro(source_.spellingView(*it, scratch))) return true;
  }
  return false;
}

StatementPlacement SourceOutline::placementOf(const cuda::AsmStatement& statement) const {
  StatementPlacement placement;
  if (statement.macroName) return placement;  // A macro body: wherever it is expanded.
  const cuda::CudaOutline& outline = *outline_;
  std::int32_t index = outline.enclosingFunction(statement.keyword.begin);
  // Outside every function body: an asm label on a declaration (`clock_t clock() asm("clock32")`)
  // or file-scope asm, both the host compiler's.
  if (index == cuda::kNoIndex || statement.keyword.begin < outline.functions[static_cast<std::size_t>(index)].body.begin) {
    placement.isHostOnly = true;
    return placement;
  }
  const cuda::CudaFunction& function = outline.functions[static_cast<std::size_t>(index)];
  placement.functionBody = function.body;
  placement.isLambda = function.isLambda;
  placement.isTemplate = function.isTemplate;

  // Device code: a __global__ or __device__ function, or a lambda inside one.
  bool device = false;
  for (std::int32_t f = index; f != cuda::kNoIndex; f = outline.functions[static_cast<std::size_t>(f)].parent) {
    const cuda::CudaFunction& around = outline.functions[static_cast<std::size_t>(f)];
    if (around.isKernel || around.isDevice) {
      device = true;
      break;
    }
    if (!around.isLambda) break;
  }
  // A function without __device__ is compiled for the host only: its asm is the host's (x86).
  // Unless a macro from another header may stand for __device__ (CUTLASS_DEVICE).
  if (!device && !function.isHost && hasForeignQualifierMacro({function.range.begin, function.nameRange.begin})) {
    placement.deviceUnknown = true;
    placement.mayBeInlined = !function.isNoinline;
  } else {
    placement.isHostOnly = !device;
    placement.mayBeInlined = function.isDevice && !function.isKernel && !function.isNoinline;
  }
  if (hasKernels_ && index < static_cast<std::int32_t>(reachable_.size()))
    placement.reachedByKernel = reachable_[static_cast<std::size_t>(index)];

  for (std::int32_t loop : outline.enclosingLoops(statement.keyword.begin)) {
    const cuda::CudaLoop& around = outline.loops[static_cast<std::size_t>(loop)];
    placement.loops.push_back(around.range);
    placement.loopConditions.push_back(around.condition);
  }
  if (auto calls = callsByCallee_.find(function.simpleName); !function.simpleName.empty() && calls != callsByCallee_.end()) {
    for (std::uint32_t callIndex : calls->second) {
      const cuda::CudaCall& call = outline.calls[callIndex];
      std::vector<std::int32_t> loops = outline.enclosingLoops(call.range.begin);
      if (loops.empty()) continue;
      std::string assigned = assignedVariable(text_, call.range.begin);
      for (std::int32_t loop : loops)
        placement.callsInLoops.push_back({outline.loops[static_cast<std::size_t>(loop)].condition, call.range, assigned});
    }
  }
  return placement;
}

}  // namespace ptx
