#include "flow/ControlFlow.h"

namespace ptx::flow {
namespace {

// Cooper, Harvey and Kennedy's iterative dominator algorithm ("A Simple, Fast Dominance
// Algorithm", 2001) over a graph of `count` nodes given by two callbacks:
// `successorsOf(node)` returns the node's successors, `forEachPredecessor(node, visit)` calls
// `visit` on each predecessor. Run on the reversed graph, it gives post-dominators.
template <typename SuccessorsOf, typename ForEachPredecessor>
std::vector<std::uint32_t> dominatorTree(std::uint32_t count, std::uint32_t root, SuccessorsOf successorsOf,
                                         ForEachPredecessor forEachPredecessor) {
  std::vector<std::uint32_t> order;  // Post-order from the root.
  std::vector<std::uint8_t> seen(count, 0);
  std::vector<std::pair<std::uint32_t, std::size_t>> stack{{root, 0}};
  seen[root] = 1;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    const std::vector<std::uint32_t>& successors = successorsOf(node);
    if (next < successors.size()) {
      std::uint32_t s = successors[next++];
      if (!seen[s]) {
        seen[s] = 1;
        stack.push_back({s, 0});
      }
    } else {
      order.push_back(node);
      stack.pop_back();
    }
  }
  std::vector<std::uint32_t> position(count, 0);
  for (std::uint32_t k = 0; k < order.size(); ++k) position[order[k]] = k;
  std::vector<std::uint32_t> dominator(count, kNoDominator);
  dominator[root] = root;
  auto intersect = [&](std::uint32_t a, std::uint32_t b) {
    while (a != b) {
      while (position[a] < position[b]) a = dominator[a];
      while (position[b] < position[a]) b = dominator[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t k = order.size(); k-- > 0;) {
      std::uint32_t b = order[k];
      if (b == root) continue;
      std::uint32_t candidate = kNoDominator;
      forEachPredecessor(b, [&](std::uint32_t p) {
        if (dominator[p] == kNoDominator) return;
        candidate = candidate == kNoDominator ? p : intersect(p, candidate);
      });
      if (candidate != kNoDominator && dominator[b] != candidate) {
        dominator[b] = candidate;
        changed = true;
      }
    }
  }
  return dominator;
}

}  // namespace

std::vector<std::uint32_t> immediateDominators(const std::vector<BasicBlock>& blocks) {
  auto n = static_cast<std::uint32_t>(blocks.size());
  if (n == 0) return {};
  return dominatorTree(
      n, 0, [&](std::uint32_t b) -> const std::vector<std::uint32_t>& { return blocks[b].successors; },
      [&](std::uint32_t b, auto visit) {
        for (std::uint32_t p : blocks[b].predecessors) visit(p);
      });
}

std::vector<std::uint32_t> immediatePostDominators(const std::vector<BasicBlock>& blocks) {
  auto n = static_cast<std::uint32_t>(blocks.size());
  std::uint32_t exit = n;
  // The reversed graph, rooted at the virtual exit: its successors are the blocks without
  // successors, and the blocks that reach no such block (endless loops).
  std::vector<std::vector<std::uint32_t>> reverseSuccessors(n + 1);
  std::vector<bool> reachesExit(n, false);
  std::vector<std::uint32_t> pending;
  for (std::uint32_t b = 0; b < n; ++b) {
    if (blocks[b].successors.empty()) {
      reverseSuccessors[exit].push_back(b);
      reachesExit[b] = true;
      pending.push_back(b);
    }
    for (std::uint32_t s : blocks[b].successors) reverseSuccessors[s].push_back(b);
  }
  while (!pending.empty()) {
    std::uint32_t b = pending.back();
    pending.pop_back();
    for (std::uint32_t p : blocks[b].predecessors) {
      if (!reachesExit[p]) {
        reachesExit[p] = true;
        pending.push_back(p);
      }
    }
  }
  for (std::uint32_t b = 0; b < n; ++b) {
    if (!reachesExit[b]) reverseSuccessors[exit].push_back(b);
  }
  std::vector<std::uint32_t> tree = dominatorTree(
      n + 1, exit, [&](std::uint32_t b) -> const std::vector<std::uint32_t>& { return reverseSuccessors[b]; },
      [&](std::uint32_t b, auto visit) {
        // Its predecessors in the reversed graph are its successors (and the exit).
        for (std::uint32_t s : blocks[b].successors) visit(s);
        if (blocks[b].successors.empty() || !reachesExit[b]) visit(exit);
      });
  tree.resize(n);
  for (std::uint32_t& postDominator : tree) {
    if (postDominator == kNoDominator) postDominator = exit;
  }
  return tree;
}

bool dominatesIn(const std::vector<std::uint32_t>& dominators, std::uint32_t a, std::uint32_t b) {
  for (int hops = 0; hops < 1 << 16; ++hops) {
    if (b == a) return true;
    if (b >= dominators.size() || dominators[b] == b || dominators[b] == kNoDominator) return false;
    b = dominators[b];
  }
  return false;
}

namespace {

// dominatesIn for many pairs of one tree: each block's entry and exit in a depth-first walk of
// the dominator tree, so that a dominates b when b's interval lies in a's. Walking up the tree
// per pair cost the depth of the tree each time: long straight-line code (a -G build's
// 20,000-instruction function) made finding its loops quadratic.
class DominanceIntervals {
 public:
  explicit DominanceIntervals(const std::vector<std::uint32_t>& dominators) {
    std::size_t n = dominators.size();
    enter_.assign(n, kUnvisited);
    exit_.assign(n, 0);
    depth_.assign(n, 0);
    auto parentOf = [&](std::uint32_t v) -> std::uint32_t {
      std::uint32_t d = dominators[v];
      return d == v || d == kNoDominator || d >= n ? kUnvisited : d;
    };
    std::vector<std::vector<std::uint32_t>> children(n);
    for (std::uint32_t v = 0; v < n; ++v) {
      if (std::uint32_t p = parentOf(v); p != kUnvisited) children[p].push_back(v);
    }
    std::uint32_t clock = 0;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> stack;  // Block, its next child.
    for (std::uint32_t root = 0; root < n; ++root) {
      if (parentOf(root) != kUnvisited) continue;
      enter_[root] = clock++;
      stack.emplace_back(root, 0);
      while (!stack.empty()) {
        std::uint32_t block = stack.back().first;
        std::uint32_t next = stack.back().second;
        if (next < children[block].size()) {
          stack.back().second = next + 1;
          std::uint32_t child = children[block][next];
          enter_[child] = clock++;
          depth_[child] = depth_[block] + 1;
          stack.emplace_back(child, 0);
        } else {
          exit_[block] = clock++;
          stack.pop_back();
        }
      }
    }
  }

  // The same answer as dominatesIn, whose walk gives up after 65,536 steps.
  bool dominates(std::uint32_t a, std::uint32_t b) const {
    if (a == b) return true;
    if (a >= enter_.size() || b >= enter_.size() || enter_[a] == kUnvisited || enter_[b] == kUnvisited) return false;
    return enter_[a] < enter_[b] && exit_[b] < exit_[a] && depth_[b] - depth_[a] < (1u << 16);
  }

 private:
  static constexpr std::uint32_t kUnvisited = UINT32_MAX;
  std::vector<std::uint32_t> enter_;
  std::vector<std::uint32_t> exit_;
  std::vector<std::uint32_t> depth_;
};

}  // namespace

std::vector<NaturalLoop> naturalLoopsOf(const std::vector<BasicBlock>& blocks,
                                        const std::vector<std::uint32_t>& dominators) {
  std::vector<NaturalLoop> loops;
  DominanceIntervals dominance(dominators);
  for (std::uint32_t latch = 0; latch < blocks.size(); ++latch) {
    for (std::uint32_t head : blocks[latch].successors) {
      if (!dominance.dominates(head, latch)) continue;
      NaturalLoop loop{head, latch, std::vector<bool>(blocks.size(), false)};
      loop.body[head] = true;
      std::vector<std::uint32_t> pending{latch};
      while (!pending.empty()) {
        std::uint32_t b = pending.back();
        pending.pop_back();
        if (loop.body[b]) continue;
        loop.body[b] = true;
        for (std::uint32_t p : blocks[b].predecessors) pending.push_back(p);
      }
      loops.push_back(std::move(loop));
    }
  }
  return loops;
}

}  // namespace ptx::flow
