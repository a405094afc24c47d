// BlockStates: a forward dataflow over a function's blocks, for the synchronization rules
// that follow asynchronous operations through the code (SNC004-SNC007). With Paths::Every, a
// block's entry state is its predecessors' exit state when all of them (that have been
// reached) agree, and the empty state otherwise, so a fact holds at an instruction only when
// it holds on every path there. With Paths::Some, it is the state of the predecessor with the
// most in it (`State::weight`): what one thread's path carries (a copy only thread 0 issued)
// survives the join with the paths of the threads that skipped it. With Paths::Merge, the
// state decides: `State::merge(other)` joins another predecessor's exit state into it. `visit`
// then walks each block from its entry state.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "flow/FunctionFlow.h"

namespace ptx::sync {

enum class Paths { Every, Some, Merge };

template <typename State>
void forPathStates(Paths paths, const std::vector<flow::BasicBlock>& blocks,
                   const std::function<void(std::uint32_t instruction, State& state)>& apply,
                   const std::function<void(std::uint32_t instruction, const State& before)>& visit) {
  std::vector<std::optional<State>> entry(blocks.size()), exit(blocks.size());
  for (int round = 0; round < 8; ++round) {
    bool changed = false;
    for (std::uint32_t b = 0; b < blocks.size(); ++b) {
      std::optional<State> in;
      if (b == 0) {
        in = State{};
      } else {
        bool agree = true;
        for (std::uint32_t p : blocks[b].predecessors) {
          if (!exit[p]) continue;  // Not reached yet (a back edge): no say.
          if (!in) {
            in = exit[p];
          } else if (!(*in == *exit[p])) {
            agree = false;
            if constexpr (requires(State a, const State& b) { a.merge(b); }) {
              if (paths == Paths::Merge) in->merge(*exit[p]);
            }
            if (paths == Paths::Some && exit[p]->weight() > in->weight()) in = exit[p];
          }
        }
        if (in && !agree && paths == Paths::Every) in = State{};
      }
      if (!in) continue;
      State state = *in;
      for (std::uint32_t i = blocks[b].first; i < blocks[b].end; ++i) apply(i, state);
      if (!(entry[b] == in) || !(exit[b] == state)) {
        entry[b] = in;
        exit[b] = state;
        changed = true;
      }
    }
    if (!changed) break;
  }
  for (std::uint32_t b = 0; b < blocks.size(); ++b) {
    if (!entry[b]) continue;
    State state = *entry[b];
    for (std::uint32_t i = blocks[b].first; i < blocks[b].end; ++i) {
      visit(i, state);
      apply(i, state);
    }
  }
}

}  // namespace ptx::sync

namespace ptx::sync {

// Asynchronous operations tracked in commit groups, as cp.async, cp.async.bulk and wgmma
// complete them: each new one joins the open group, a commit closes it, and a wait for
// "at most N pending" completes all but the newest N committed groups.
template <typename Item>
struct AsyncGroups {
  std::vector<Item> open;                 // Not yet committed.
  std::vector<std::vector<Item>> groups;  // Committed, oldest first.

  bool operator==(const AsyncGroups&) const = default;
  bool empty() const { return open.empty() && groups.empty(); }
  std::size_t weight() const {
    std::size_t n = open.size();
    for (const auto& group : groups) n += group.size();
    return n;
  }
  void commit() {
    if (!open.empty()) groups.push_back(std::move(open));
    open.clear();
  }
  // `wait_group N`; an unknown N is taken to wait for everything.
  void waitKeeping(std::optional<std::uint64_t> newest) {
    if (!newest) {
      *this = AsyncGroups{};
    } else if (groups.size() > *newest) {
      groups.erase(groups.begin(), groups.end() - static_cast<std::ptrdiff_t>(*newest));
    }
  }
  // Every item still pending, open ones first.
  std::vector<Item> pending() const {
    std::vector<Item> all = open;
    for (const auto& group : groups) all.insert(all.end(), group.begin(), group.end());
    return all;
  }
};

}  // namespace ptx::sync
