// The thread model answers the race search's questions for a whole set of threads at once
// (ThreadModel::executesForThreads, addressForThreads: one column of values per definition),
// and FunctionFlow answers reaching definitions by searching backwards before solving a
// register for every block. Both are shortcuts that must not change an answer: here they are
// held against the thread-by-thread evaluation and against a plain iterative dataflow, over
// every function of the corpus files, ours and the shared one when present (a sample of the
// largest, to stay quick).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "TestSupport.h"
#include "flow/FunctionFlow.h"
#include "flow/ThreadModel.h"
#include "model/Module.h"

using namespace ptx;
using namespace ptx::flow;
namespace fs = std::filesystem;

namespace {

// The threads the race search compares for global memory: up to 64 x 2 x 2 of CTA (0, 0, 0)
// and the same of CTA (1, 1, 1).
std::vector<ThreadCoordinates> threadSet(const LaunchShape& launch) {
  std::vector<ThreadCoordinates> threads;
  for (std::uint32_t cta = 0; cta < 2; ++cta) {
    for (std::uint32_t z = 0; z < std::min<std::uint32_t>(launch.ntid[2], 2); ++z) {
      for (std::uint32_t y = 0; y < std::min<std::uint32_t>(launch.ntid[1], 2); ++y) {
        for (std::uint32_t x = 0; x < std::min<std::uint32_t>(launch.ntid[0], 64); ++x) {
          ThreadCoordinates t;
          t.tid = {x, y, z};
          t.ctaid = {cta, cta, cta};
          threads.push_back(t);
        }
      }
    }
  }
  return threads;
}

// Reaching definitions by the textbook iteration over all blocks, as a reference: per
// register, the definitions reaching each block's entry (solved once per register).
class ReferenceReaching {
 public:
  explicit ReferenceReaching(FunctionFlow& flow) : flow_(flow) {}

  std::vector<std::uint32_t> at(std::uint32_t instruction, RegisterKey reg) {
    Solved& solved = solve(reg);
    std::uint32_t block = flow_.blockOf(instruction);
    std::int64_t before = -1;
    for (std::uint32_t d : solved.all) {
      std::uint32_t at = flow_.definitions()[d].instruction;
      if (at < instruction && flow_.blockOf(at) == block) before = d;
    }
    if (before >= 0) return {static_cast<std::uint32_t>(before)};
    if (solved.all.size() == 1) return solved.all;
    return {solved.entry[block].begin(), solved.entry[block].end()};
  }

 private:
  struct Solved {
    std::vector<std::uint32_t> all;
    std::vector<std::set<std::uint32_t>> entry;
  };

  Solved& solve(RegisterKey reg) {
    std::uint64_t key = (std::uint64_t{reg.symbol} << 32) | reg.index;
    auto [it, added] = solved_.try_emplace(key);
    if (!added) return it->second;
    Solved& solved = it->second;
    const std::vector<BasicBlock>& blocks = flow_.blocks();
    std::vector<std::int64_t> lastIn(blocks.size(), -1);
    for (std::uint32_t d = 0; d < flow_.definitions().size(); ++d) {
      if (!(flow_.definitions()[d].reg == reg)) continue;
      solved.all.push_back(d);
      lastIn[flow_.blockOf(flow_.definitions()[d].instruction)] = d;
    }
    solved.entry.assign(blocks.size(), {});
    for (bool changed = solved.all.size() >= 2; changed;) {
      changed = false;
      for (std::uint32_t b = 0; b < blocks.size(); ++b) {
        std::set<std::uint32_t> in;
        for (std::uint32_t p : blocks[b].predecessors) {
          if (lastIn[p] >= 0) {
            in.insert(static_cast<std::uint32_t>(lastIn[p]));
          } else {
            in.insert(solved.entry[p].begin(), solved.entry[p].end());
          }
        }
        if (in != solved.entry[b]) {
          solved.entry[b] = std::move(in);
          changed = true;
        }
      }
    }
    return solved;
  }

  FunctionFlow& flow_;
  std::map<std::uint64_t, Solved> solved_;
};

// The corpus files to check: every one under 32 KB, and every sixth larger one up to 1 MB.
std::vector<fs::path> sampleFiles() {
  std::vector<fs::path> files;
  std::size_t larger = 0;
  for (const fs::path& path : test::corpusPtxFiles({"corpus"})) {
    if (path.extension() != ".ptx") continue;
    auto size = fs::file_size(path);
    if (size < 32 * 1024 || (size < 1024 * 1024 && larger++ % 6 == 0)) files.push_back(path);
  }
  return files;
}

// Calls check(text, module, function) for every function with instructions of every sampled
// file.
template <typename Check>
void forEachSampledFunction(Check&& check) {
  std::vector<fs::path> files = sampleFiles();
  REQUIRE(files.size() >= 20);  // The project's own corpus at least.
  for (const fs::path& path : files) {
    INFO(path.string());
    std::string text = test::readMaybeCompressed(path);
    SyntaxTree tree = parseSyntax(text);
    Module module = buildModule(text, tree);
    for (std::size_t f = 0; f < module.functions.size(); ++f) {
      if (module.functions[f].instructionCount > 0) check(std::string_view(text), module, f);
    }
  }
}

}  // namespace

TEST_CASE("Thread columns: every thread's answers at once equal the answers asked thread by thread",
          "[flow][races]") {
  std::size_t compared = 0, threadDependent = 0;
  forEachSampledFunction([&](std::string_view text, const Module& module, std::size_t f) {
    const FunctionInfo& info = module.functions[f];
    FunctionFlow flow(text, module, f);
    ThreadModel byThread(text, module, flow);
    ThreadModel byColumns(text, module, flow);
    std::vector<ThreadCoordinates> threads = threadSet(byThread.launch());
    byColumns.useThreads(threads);
    // The accesses' addresses, in order. Thread by thread, each thread's accesses are asked
    // one after the other, as the race search did: the memo of one thread's values then
    // serves its later accesses (a long chain of address increments is followed from the
    // previous access's value, not from the start, where the depth limit would cut it).
    std::vector<std::pair<std::uint32_t, const InstructionOperand*>> accesses;
    for (std::uint32_t i = info.firstInstruction; i < info.firstInstruction + info.instructionCount; ++i) {
      const InstructionSite& site = module.instructions[i];
      for (std::uint32_t o = site.firstOperand; o < site.firstOperand + site.operandCount; ++o) {
        if (module.operands[o].shape == OperandShape::Address) accesses.push_back({i, &module.operands[o]});
      }
    }
    for (std::uint8_t divergence : {kVariesInCta, std::uint8_t(kVariesInCta | kVariesAcrossCtas)}) {
      for (std::uint64_t seed : kProofSeeds) {
        std::vector<std::vector<std::optional<bool>>> runs;
        std::vector<std::vector<std::optional<std::uint64_t>>> addresses;
        for (const auto& [i, address] : accesses) {
          runs.push_back(byColumns.executesForThreads(i, seed, divergence));
          addresses.push_back(byColumns.addressForThreads(i, *address, seed));
          REQUIRE(runs.back().size() == threads.size());
          REQUIRE(addresses.back().size() == threads.size());
        }
        std::vector<std::set<std::uint64_t>> distinct(accesses.size());
        for (std::size_t t = 0; t < threads.size(); ++t) {
          for (std::size_t a = 0; a < accesses.size(); ++a) {
            const auto& [i, address] = accesses[a];
            const InstructionSite& site = module.instructions[i];
            INFO("instruction " << i << ", thread " << t << ", seed " << seed << ": `"
                                << text.substr(site.statement.begin, site.statement.end - site.statement.begin)
                                << "`");
            auto executes = byThread.executes(i, threads[t], seed, divergence);
            REQUIRE(runs[a][t] == executes);
            if (executes != std::optional<bool>(true)) continue;
            auto value = byThread.evaluateAddress(i, *address, threads[t], seed);
            REQUIRE(addresses[a][t] == value);
            if (value) distinct[a].insert(*value);
          }
        }
        compared += accesses.size();
        for (const auto& values : distinct) threadDependent += values.size() > 1 ? 1 : 0;
      }
    }
    byColumns.releaseThreads();
  });
  INFO(compared << " address questions, " << threadDependent << " with addresses that differ by thread");
  CHECK(compared > 10000);
  CHECK(threadDependent > 1000);
}

TEST_CASE("Reaching definitions: the backward search and the whole solve equal the plain dataflow", "[flow]") {
  std::size_t merged = 0;
  forEachSampledFunction([&](std::string_view text, const Module& module, std::size_t f) {
    const FunctionInfo& info = module.functions[f];
    if (info.instructionCount > 3000) return;
    FunctionFlow flow(text, module, f);
    ReferenceReaching reference(flow);
    for (std::uint32_t i = info.firstInstruction; i < info.firstInstruction + info.instructionCount; ++i) {
      const InstructionSite& site = module.instructions[i];
      for (std::uint32_t o = site.firstOperand + 1; o < site.firstOperand + site.operandCount; ++o) {
        auto reg = flow.registerOf(module.operands[o]);
        if (!reg) continue;
        auto expected = reference.at(i, *reg);
        REQUIRE(flow.reachingDefinitions(i, *reg) == expected);
        if (expected.size() >= 2) ++merged;
      }
    }
  });
  INFO(merged << " reads reached by several definitions");
  CHECK(merged > 1000);
}
