// InstructionFacts: the vocabulary covers the instruction table, Effects.def is sound, and
// the facts of common spellings say what those instructions do.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "isa/InstructionFacts.h"
#include "isa/InstructionForms.h"
#include "isa/IsaReference.h"

using namespace ptx;

namespace {

InstructionFacts factsOf(std::string_view spelled) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  std::size_t dot = spelled.find('.');
  std::string_view opcode = spelled.substr(0, dot);
  while (dot != std::string_view::npos) {
    // Modifiers are split at dots that do not belong to a `::` segment.
    start = dot;
    dot = spelled.find('.', start + 1);
    parts.push_back(spelled.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
  }
  return resolveFacts(opcode, parts);
}

}  // namespace

TEST_CASE("every instruction family has an enumerator and the name round-trips", "[isa][facts]") {
  std::size_t count = 0;
  for (const OpcodeInfo& opcode : allOpcodes()) {
    Family family = familyNamed(opcode.name);
    INFO(opcode.name);
    REQUIRE(family != Family::Unknown);
    CHECK(nameOf(family) == opcode.name);
    ++count;
  }
  CHECK(count == 135);
  CHECK(familyNamed("ldx") == Family::Unknown);
}

TEST_CASE("every modifier of every form of the instruction table resolves to a known modifier", "[isa][facts]") {
  std::size_t forms = 0;
  for (const InstructionFamily& family : allInstructionFamilies()) {
    REQUIRE(familyNamed(family.name) != Family::Unknown);
    for (const InstructionForm& form : family.forms) {
      ++forms;
      for (const FormElement& element : form.elements) {
        for (const std::string& value : element.values) {
          INFO(family.name << ": " << form.text << ": " << value);
          CHECK(modifierNamed(value) != Modifier::Unknown);
          CHECK(spellingOf(modifierNamed(value)) == value);
        }
      }
    }
  }
  CHECK(forms > 500);
}

TEST_CASE("Effects.def parses without errors", "[isa][facts]") {
  for (const std::string& error : effectsTableErrors()) FAIL(error);
  SUCCEED();
}

TEST_CASE("facts of memory accesses: spaces, vector width, type, semantics", "[isa][facts]") {
  InstructionFacts load = factsOf("ld.global.v4.u32");
  CHECK(load.is(Family::Ld));
  CHECK(load.does(kReadsMemory));
  CHECK_FALSE(load.does(kWritesMemory));
  CHECK(load.space == StateSpace::Global);
  CHECK(load.vectorWidth == 4);
  CHECK(load.accessBytes() == 16u);
  CHECK(load.semantics == Semantics::None);

  InstructionFacts acquire = factsOf("ld.acquire.gpu.shared::cta.b64");
  CHECK(acquire.semantics == Semantics::Acquire);
  CHECK(acquire.scope == MemoryScope::Gpu);
  CHECK(acquire.space == StateSpace::Shared);
  CHECK(acquire.accessBytes() == 8u);

  InstructionFacts atomic = factsOf("atom.shared::cluster.add.u32");
  CHECK(atomic.does(kAtomic));
  CHECK(atomic.does(kReadsMemory));
  CHECK(atomic.space == StateSpace::SharedCluster);

  InstructionFacts store = factsOf("st.volatile.global.f32");
  CHECK(store.does(kWritesMemory | kNoDestination));
  CHECK(store.semantics == Semantics::Volatile);
  CHECK(store.isFloatType());
}

TEST_CASE("facts of asynchronous copies name how they complete", "[isa][facts]") {
  InstructionFacts viaMbarrier = factsOf("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes");
  CHECK(viaMbarrier.does(kCompletesOnMbarrier));
  CHECK_FALSE(viaMbarrier.does(kCompletesInBulkGroup));
  CHECK(viaMbarrier.does(kAsyncProxy));
  CHECK(viaMbarrier.space == StateSpace::SharedCluster);
  CHECK(viaMbarrier.secondSpace == StateSpace::Global);

  InstructionFacts bulkGroup = factsOf("cp.async.bulk.global.shared::cta.bulk_group");
  CHECK(bulkGroup.does(kCompletesInBulkGroup));
  CHECK_FALSE(bulkGroup.does(kCompletesOnMbarrier));

  CHECK(factsOf("cp.async.ca.shared.global").does(kCompletesInAsyncGroup));
  CHECK(factsOf("cp.async.commit_group").does(kCommitsGroup));
  CHECK_FALSE(factsOf("cp.async.commit_group").does(kCompletesInAsyncGroup));
  CHECK(factsOf("cp.async.bulk.wait_group.read").does(kWaitsForGroup));
  CHECK(factsOf("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16").does(kWarpgroupMma | kCompletesInWgmmaGroup));
}

TEST_CASE("facts of mbarrier operations say what they do to the barrier", "[isa][facts]") {
  CHECK(factsOf("mbarrier.arrive.shared.b64").does(kMbarrierArrive));
  CHECK(factsOf("mbarrier.arrive_drop.shared.b64").does(kMbarrierArrive));
  InstructionFacts arriveExpect = factsOf("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64");
  CHECK(arriveExpect.does(kMbarrierArrive | kMbarrierExpectTx));
  CHECK_FALSE(arriveExpect.does(kNoDestination));  // It returns the phase state.
  InstructionFacts expect = factsOf("mbarrier.expect_tx.relaxed.cta.shared::cta.b64");
  CHECK(expect.does(kMbarrierExpectTx | kNoDestination));
  CHECK_FALSE(expect.does(kMbarrierArrive));
  CHECK(factsOf("mbarrier.try_wait.parity.shared::cta.b64").does(kMbarrierWait));
  CHECK(factsOf("mbarrier.test_wait.shared.b64").does(kMbarrierWait));
  CHECK_FALSE(factsOf("mbarrier.init.shared.b64").does(kMbarrierArrive | kMbarrierWait | kMbarrierExpectTx));
  CHECK(factsOf("cp.async.mbarrier.arrive.noinc.shared.b64").does(kMbarrierArrive));
  CHECK_FALSE(factsOf("cp.async.mbarrier.arrive.noinc.shared.b64").does(kCompletesInAsyncGroup));
  InstructionFacts prefetch = factsOf("cp.async.bulk.prefetch.L2.global");
  CHECK(prefetch.does(kPrefetch));
  CHECK_FALSE(prefetch.does(kWritesMemory));
}

TEST_CASE("facts of barriers and control flow", "[isa][facts]") {
  CHECK(factsOf("bar.sync").does(kCtaBarrier));
  CHECK(factsOf("barrier.sync.aligned").does(kCtaBarrier));
  CHECK(factsOf("bar.arrive").does(kBarrierArrive));
  CHECK_FALSE(factsOf("bar.arrive").does(kCtaBarrier));
  CHECK(factsOf("bar.red.popc.u32").does(kCtaBarrier));
  CHECK_FALSE(factsOf("bar.red.popc.u32").does(kNoDestination));  // It writes the count.
  CHECK_FALSE(factsOf("barrier.red.or.pred").does(kNoDestination));
  CHECK(factsOf("membar.proxy.alias").does(kProxyFence));
  CHECK(factsOf("barrier.cluster.arrive.release").does(kClusterBarrier));
  CHECK_FALSE(factsOf("barrier.cluster.wait").does(kCtaBarrier));
  CHECK(factsOf("bar.warp.sync").does(kWarpBarrier));
  CHECK(factsOf("fence.proxy.async.shared::cta").does(kProxyFence | kFence));
  CHECK(factsOf("bra.uni").does(kBranch));
  CHECK(factsOf("brx.idx").does(kIndirectBranch));
  CHECK(factsOf("ret").does(kReturn));
  CHECK(factsOf("exit").does(kExit));
  CHECK(factsOf("add.s32").effects == 0);
  CHECK(factsOf("add.s32").isSignedType());
}

TEST_CASE("unknown spellings resolve to Unknown without failing", "[isa][facts]") {
  InstructionFacts odd = factsOf("frobnicate.wat.u32");
  CHECK(odd.family == Family::Unknown);
  REQUIRE(odd.modifiers.size() == 2);
  CHECK(odd.modifiers[0] == Modifier::Unknown);
  CHECK(odd.modifiers[1] == Modifier::U32);
  CHECK(odd.effects == 0);
}
