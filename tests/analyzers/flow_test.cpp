// The dataflow layer: known-bits arithmetic, constant expressions, the CFG, reaching
// definitions and the address values rules rely on.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "TestSupport.h"
#include "flow/ConstantExpression.h"
#include "flow/ControlFlow.h"
#include "flow/FunctionFlow.h"
#include "flow/FunctionResults.h"
#include "flow/IntegerOps.h"
#include "flow/ThreadModel.h"
#include "model/Module.h"

using namespace ptx;
using namespace ptx::flow;

namespace {

// A random value consistent with `bits`.
std::uint64_t sample(const KnownBits& bits, std::mt19937_64& random) {
  return (random() & ~bits.zero & ~bits.one) | bits.one;
}

bool consistent(const KnownBits& bits, std::uint64_t value) {
  return (value & bits.zero) == 0 && (value & bits.one) == bits.one;
}

KnownBits randomBits(std::mt19937_64& random) {
  std::uint64_t value = random();
  std::uint64_t known = random() | random();  // Mostly known.
  if (random() % 4 == 0) known = ~std::uint64_t{0};
  if (random() % 4 == 0) known = (std::uint64_t{1} << (random() % 20)) - 1;
  return {~value & known, value & known};
}

struct Flowing {
  std::string text;
  SyntaxTree tree;
  Module module;
  std::unique_ptr<FunctionFlow> flow;

  explicit Flowing(std::string source) : text(std::move(source)) {
    tree = parseSyntax(text);
    module = buildModule(text, tree);
    for (std::size_t f = 0; f < module.functions.size(); ++f) {
      if (module.functions[f].instructionCount > 0) flow = std::make_unique<FunctionFlow>(text, module, f);
    }
    REQUIRE(flow);
  }

  // The instruction whose statement starts with `needle`.
  std::uint32_t instruction(std::string_view needle) const {
    auto at = text.find(needle);
    REQUIRE(at != std::string::npos);
    for (std::uint32_t i = 0; i < module.instructions.size(); ++i) {
      if (module.instructions[i].statement.begin <= at && at < module.instructions[i].statement.end) return i;
    }
    FAIL("no instruction at " << needle);
    return 0;
  }

  const InstructionOperand& operand(std::uint32_t instruction, std::uint32_t index) const {
    return module.operands[module.instructions[instruction].firstOperand + index];
  }

  AbstractValue address(std::string_view needle, std::uint32_t index) {
    std::uint32_t i = instruction(needle);
    return flow->addressOf(i, operand(i, index));
  }

  AbstractValue value(std::string_view needle, std::uint32_t index) {
    std::uint32_t i = instruction(needle);
    return flow->valueOf(i, operand(i, index));
  }

  std::string nameOf(SymbolId id) const { return id == kNoSymbol ? "" : module.symbols[id].name; }
};

const char* kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n";

}  // namespace

TEST_CASE("Known bits: every operation is sound on random values", "[flow]") {
  std::mt19937_64 random(7);
  for (int round = 0; round < 20000; ++round) {
    KnownBits a = randomBits(random), b = randomBits(random);
    std::uint64_t x = sample(a, random), y = sample(b, random);
    INFO("round " << round);
    REQUIRE(consistent(a + b, x + y));
    REQUIRE(consistent(a - b, x - y));
    REQUIRE(consistent(a * b, x * y));
    REQUIRE(consistent(a & b, x & y));
    REQUIRE(consistent(a | b, x | y));
    REQUIRE(consistent(a ^ b, x ^ y));
    unsigned shift = static_cast<unsigned>(random() % 64);
    REQUIRE(consistent(shiftLeft(a, shift), x << shift));
    REQUIRE(consistent(shiftRight(a, shift, 64), x >> shift));
    REQUIRE(consistent(shiftRight(a, shift % 32, 32), (x & 0xffffffffu) >> (shift % 32)));
    REQUIRE(consistent(a.meet(b), x));
    REQUIRE(consistent(a.signExtended(32), static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(x)))));
  }
  // And precise where it matters: an aligned base plus a constant.
  KnownBits aligned = KnownBits::alignedTo(10);
  CHECK((aligned + KnownBits::constant(32)).guaranteedAlignment() == 32);
  CHECK((aligned + KnownBits::constant(4)).provablyMisaligned(8));
  CHECK_FALSE((KnownBits::alignedTo(2) + KnownBits::constant(4)).provablyMisaligned(8));
  CHECK((KnownBits::constant(6) * KnownBits::constant(7)).value() == 42);
}

TEST_CASE("Constant expressions in operands and offsets", "[flow]") {
  CHECK(evaluateConstant("4") == 4);
  CHECK(evaluateConstant("0x10") == 16);
  CHECK(evaluateConstant("-4") == -4);
  CHECK(evaluateConstant("4*8+2") == 34);
  CHECK(evaluateConstant("(1 << 10) - 1") == 1023);
  CHECK(evaluateConstant("2+3*4") == 14);
  CHECK(evaluateConstant("~0 & 0xff") == 255);
  CHECK(evaluateConstant("7 % 4") == 3);
  CHECK_FALSE(evaluateConstant("%r1"));
  CHECK_FALSE(evaluateConstant("1/0"));
  CHECK_FALSE(evaluateConstant("1.5"));
  CHECK_FALSE(evaluateConstant("(1"));
}

TEST_CASE("Addresses: symbol, offset and alignment through arithmetic", "[flow]") {
  Flowing f(std::string(kHeader) + R"(
.visible .entry k(.param .u64 .ptr.global.align 16 out)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<10>;
  .shared .align 1024 .b8 buf[4096];
  .extern .shared .align 16 .b8 dyn[];
  mov.u32 %r1, buf;
  add.u32 %r2, %r1, 32;
  ld.shared.u32 %r3, [%r2+4];
  mov.u32 %r4, %tid.x;
  shl.b32 %r5, %r4, 4;
  add.u32 %r6, %r1, %r5;
  ld.shared.v4.u32 {%r7, %r8, %r9, %r3}, [%r6];
  mov.u32 %r1, dyn;
  add.u32 %r2, %r1, 1023;
  and.b32 %r2, %r2, -1024;
  st.shared.u32 [%r2], %r3;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  st.global.u32 [%rd2+8], %r3;
  mov.b64 %rd3, {%r5, %r4};
  mov.u64 %rd5, buf;
  cvta.shared.u64 %rd6, %rd5;
  cvta.to.shared.u64 %rd7, %rd6;
  cvt.u32.u64 %r8, %rd7;
  ld.shared.u32 %r9, [%r8+64];
  bfi.b32 %r7, %r4, 0x40, 8, 4;
  ret;
}
)");
  AbstractValue a = f.address("ld.shared.u32 %r3", 1);
  CHECK(f.nameOf(a.base) == "buf");
  CHECK(a.exactOffset() == 36);
  CHECK(a.bits.guaranteedAlignment() == 4);

  AbstractValue v = f.address("ld.shared.v4", 1);
  CHECK(f.nameOf(v.base) == "buf");
  CHECK_FALSE(v.exactOffset());
  CHECK(v.bits.guaranteedAlignment() == 16);

  // Rounding the dynamic buffer up by hand proves 1024-byte alignment (and forgets the base).
  AbstractValue rounded = f.address("st.shared.u32", 0);
  CHECK(rounded.base == kNoSymbol);
  CHECK(rounded.bits.guaranteedAlignment() == 1024);

  // `.ptr.align 16` survives cvta (the low bits do).
  AbstractValue global = f.address("st.global.u32", 0);
  CHECK(global.bits.guaranteedAlignment() == 8);
  CHECK_FALSE(global.bits.provablyMisaligned(8));
  CHECK(global.bits.provablyMisaligned(16));

  AbstractValue packed = f.value("mov.b64 %rd3", 0);  // The destination's own definition...
  (void)packed;
  std::uint32_t pack = f.instruction("mov.b64 %rd3");
  AbstractValue written = f.flow->valueOfDefinition(f.flow->reachingDefinitions(pack + 1, *f.flow->registerOf(f.operand(pack, 0)))[0]);
  CHECK(written.bits.trailingZeros() == 4);  // %r5 = tid << 4 in the low half.

  // nvcc's __cvta_generic_to_shared: generic, back to shared, narrowed to 32 bits.
  AbstractValue narrowed = f.address("ld.shared.u32 %r9", 1);
  CHECK(f.nameOf(narrowed.base) == "buf");
  CHECK(narrowed.exactOffset() == 64);
  CHECK(narrowed.bits.guaranteedAlignment() == 64);

  std::uint32_t insert = f.instruction("bfi.b32");
  auto inserted = f.flow->valueOfDefinition(f.flow->reachingDefinitions(insert + 1, *f.flow->registerOf(f.operand(insert, 0)))[0]);
  CHECK((inserted.bits.zero & 0xff) == 0xbf);  // bits 0-7 of 0x40 kept: 0x40 known.
  CHECK((inserted.bits.one & 0xff) == 0x40);
  CHECK(((inserted.bits.zero | inserted.bits.one) & 0xf00) == 0);  // tid's low bits: unknown.
}

TEST_CASE("Control flow: branches split blocks, definitions merge at joins and around loops", "[flow]") {
  Flowing f(std::string(kHeader) + R"(
.visible .entry k()
{
  .reg .pred %p<3>;
  .reg .b32 %r<10>;
  .shared .align 256 .b8 buf[4096];
  mov.u32 %r1, buf;
  setp.eq.u32 %p1, %r9, 0;
  @%p1 bra $ELSE;
  add.u32 %r2, %r1, 64;
  bra.uni $JOIN;
$ELSE:
  add.u32 %r2, %r1, 128;
$JOIN:
  ld.shared.u32 %r3, [%r2];
  mov.u32 %r4, %r1;
$LOOP:
  st.shared.v2.u32 [%r4], {%r3, %r3};
  add.u32 %r4, %r4, 16;
  setp.lt.u32 %p2, %r4, 4096;
  @%p2 bra $LOOP;
  ret;
}
)");
  const auto& blocks = f.flow->blocks();
  REQUIRE(blocks.size() == 6);
  // The guarded branch has two successors, the unconditional one one.
  CHECK(blocks[0].successors.size() == 2);
  CHECK(blocks[1].successors.size() == 1);

  std::uint32_t load = f.instruction("ld.shared.u32 %r3");
  auto reaching = f.flow->reachingDefinitions(load, *f.flow->registerOf(f.operand(f.instruction("add.u32 %r2, %r1, 64"), 0)));
  CHECK(reaching.size() == 2);
  AbstractValue joined = f.address("ld.shared.u32 %r3", 1);
  CHECK(f.nameOf(joined.base) == "buf");
  CHECK_FALSE(joined.exactOffset());
  CHECK(joined.bits.guaranteedAlignment() == 64);

  // The loop-carried pointer stays 16-byte aligned.
  AbstractValue looped = f.address("st.shared.v2", 0);
  CHECK(f.nameOf(looped.base) == "buf");
  CHECK(looped.bits.guaranteedAlignment() == 16);
}

TEST_CASE("Dominance: dominators, post-dominators and natural loops of the blocks", "[flow]") {
  Flowing f(std::string(kHeader) + R"(
.visible .entry k()
{
  .reg .pred %p<3>;
  .reg .b32 %r<10>;
  setp.eq.u32 %p1, %r9, 0;
  @%p1 bra $ELSE;
  mov.u32 %r2, 64;
  bra.uni $JOIN;
$ELSE:
  mov.u32 %r2, 128;
$JOIN:
  mov.u32 %r4, 0;
$LOOP:
  add.u32 %r4, %r4, %r2;
  setp.lt.u32 %p2, %r4, 4096;
  @%p2 bra $LOOP;
  ret;
$DEAD:
  bra.uni $DEAD;
}
)");
  // Blocks: 0 entry, 1 then, 2 else, 3 join, 4 loop, 5 ret, 6 an unreachable endless loop.
  REQUIRE(f.flow->blocks().size() == 7);
  CHECK(f.flow->immediateDominators() == std::vector<std::uint32_t>{0, 0, 0, 0, 3, 4, kNoDominator});
  CHECK(f.flow->dominates(0, 5));
  CHECK(f.flow->dominates(3, 4));
  CHECK_FALSE(f.flow->dominates(1, 3));
  CHECK_FALSE(f.flow->dominates(0, 6));
  // 7 is the exit, which the endless loop reaches too.
  CHECK(f.flow->immediatePostDominators() == std::vector<std::uint32_t>{3, 3, 3, 4, 5, 7, 7});
  const std::vector<NaturalLoop>& loops = f.flow->naturalLoops();
  REQUIRE(loops.size() == 2);
  CHECK(loops[0].head == 4);
  CHECK(loops[0].latch == 4);
  CHECK(loops[0].body == std::vector<bool>{false, false, false, false, true, false, false});
  CHECK(loops[1].head == 6);
  // Computed once: the same list on every request.
  CHECK(&f.flow->naturalLoops() == &loops);
}

TEST_CASE("Integer operations: one decode, and the two interpreters agree on constants", "[flow]") {
  Flowing f(std::string(kHeader) + R"(
.visible .entry k()
{
  .reg .pred %p<3>;
  .reg .b16 %rs<4>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, 7;
  mov.u32 %r2, -3;
  mul.wide.s32 %rd1, %r1, %r2;
  mul.wide.u32 %rd4, %r1, %r2;
  mul.lo.u32 %r3, %r1, 1000000;
  mad.lo.u32 %r4, %r1, %r2, 5;
  shl.b32 %r5, %r1, 29;
  shr.s32 %r6, %r2, 1;
  shr.u32 %r7, %r2, 28;
  and.b32 %r8, %r2, 0xF0;
  or.b32 %r9, %r1, 0x100;
  xor.b32 %r10, %r1, %r2;
  not.b32 %r11, %r1;
  neg.s32 %r12, %r1;
  sub.u32 %r13, %r1, 9;
  add.u32 %r14, %r2, 10;
  cvt.s64.s32 %rd2, %r2;
  cvt.u64.u32 %rd3, %r2;
  cvt.u16.u32 %rs1, %r3;
  setp.lo.u32 %p1, %r1, %r2;
  ret;
}
)");
  IntegerOp wide = decodeIntegerOp(f.module.factsOf(f.instruction("mul.wide.s32")));
  CHECK(wide.operation == IntegerOperation::Mul);
  CHECK(wide.wide);
  CHECK(wide.type.isSigned());
  CHECK(wide.type.bits == 32);
  IntegerOp convert = decodeIntegerOp(f.module.factsOf(f.instruction("cvt.s64.s32")));
  CHECK(convert.operation == IntegerOperation::Cvt);
  CHECK(convert.typeCount == 2);
  CHECK(convert.type.bits == 64);
  CHECK(convert.sourceType.isSigned());
  CHECK(decodeIntegerOp(f.module.factsOf(f.instruction("setp.lo.u32"))).comparison == Comparison::Lo);

  // Every definition above has a constant value, and the known-bits analysis and the thread
  // model's evaluator compute the same one.
  ThreadModel model(f.text, f.module, *f.flow);
  std::uint32_t ret = f.instruction("ret;");
  std::uint32_t setp = f.instruction("setp.lo.u32");
  std::size_t compared = 0;
  for (std::uint32_t i = f.instruction("mov.u32 %r1, 7"); i < setp; ++i) {
    const InstructionOperand& destination = f.operand(i, 0);
    INFO(f.text.substr(f.module.instructions[i].statement.begin,
                       f.module.instructions[i].statement.end - f.module.instructions[i].statement.begin));
    auto known = f.flow->valueOf(i + 1, destination).constantValue();
    REQUIRE(known);
    CHECK(model.evaluate(i + 1, destination, ThreadCoordinates{}, 1) == known);
    ++compared;
  }
  CHECK(compared == 19);
  CHECK(f.flow->valueOf(f.instruction("mul.wide.u32") + 1, f.operand(f.instruction("mul.wide.s32"), 0)).constantValue() ==
        static_cast<std::uint64_t>(-21));
  CHECK(f.flow->valueOf(f.instruction("mul.lo.u32") + 1, f.operand(f.instruction("mul.wide.u32"), 0)).constantValue() ==
        7 * std::uint64_t{0xFFFFFFFD});
  // Comparisons are the evaluator's alone: 7 < 0xFFFFFFFD unsigned.
  CHECK(f.flow->valueOf(ret, f.operand(setp, 0)).constantValue() == std::nullopt);
  CHECK(model.evaluate(ret, f.operand(setp, 0), ThreadCoordinates{}, 1) == 1u);
}

TEST_CASE("Function results: computed once per type and slot", "[flow]") {
  FunctionResults results;
  int fills = 0;
  const std::vector<int>& first = results.get<std::vector<int>>(1, [&](std::vector<int>& v) {
    ++fills;
    v = {1, 2};
  });
  const std::vector<int>& again = results.get<std::vector<int>>(1, [&](std::vector<int>&) { ++fills; });
  CHECK(&first == &again);
  CHECK(again == std::vector<int>{1, 2});
  CHECK(fills == 1);
  // Another type, or another slot, is another result.
  CHECK(results.get<std::string>(1, [&](std::string& s) { s = "x"; }) == "x");
  CHECK(results.get<std::vector<int>>(2, [&](std::vector<int>& v) { v = {3}; }) == std::vector<int>{3});
}

TEST_CASE("Thread model: barriers with thread counts and cluster coordinates through mapa", "[flow][races]") {
  Flowing f(R"(.version 8.0
.target sm_90a
.address_size 64
.visible .entry k()
.explicitcluster
.reqnctapercluster 4, 1, 1
{
  .reg .b32 %r<12>;
  .reg .pred %p<2>;
  .shared .align 4 .b8 box[256];
  mov.u32 %r1, %cluster_ctarank;
  mov.u32 %r2, %clusterid.x;
  xor.b32 %r3, %r1, 1;
  mov.u32 %r4, box;
  mapa.shared::cluster.u32 %r5, %r4, %r3;
  bar.sync 0;
  bar.sync 1, 64;
  bar.arrive 2, 64;
  bar.red.popc.u32 %r6, 3, 64, %p1;
  bar.red.popc.u32 %r7, 0, %p1;
  barrier.sync %r1, 64;
  barrier.cluster.arrive;
  st.shared.u32 [%r5], %r1;
  ret;
}
)");
  ThreadModel model(f.text, f.module, *f.flow);
  CHECK(model.launch().cluster == std::array<std::uint32_t, 3>{4, 1, 1});
  // Only barriers with a thread count take part by number; a register number is unknown.
  CHECK_FALSE(model.countedBarrierId(f.instruction("bar.sync 0;")).has_value());
  CHECK(model.countedBarrierId(f.instruction("bar.sync 1, 64;")) == 1u);
  CHECK(model.countedBarrierId(f.instruction("bar.arrive 2, 64;")) == 2u);
  CHECK(model.countedBarrierId(f.instruction("bar.red.popc.u32 %r6, 3")) == 3u);
  CHECK_FALSE(model.countedBarrierId(f.instruction("bar.red.popc.u32 %r7, 0")).has_value());
  CHECK(model.countedBarrierId(f.instruction("barrier.sync %r1")) == ThreadModel::kUnknownBarrierId);
  // CTA barriers do not order threads of different CTAs; cluster barriers do.
  CHECK_FALSE(model.ordersCluster(f.instruction("bar.sync 0;")));
  CHECK(model.ordersCluster(f.instruction("barrier.cluster.arrive;")));
  // CTA 5 of a grid of 4-CTA clusters is rank 1 of cluster 1; mapa keeps the offset.
  ThreadCoordinates thread;
  thread.ctaid = {5, 0, 0};
  std::uint32_t store = f.instruction("st.shared.u32");
  const InstructionSite& site = f.module.instructions[store];
  const InstructionOperand& value = f.module.operands[site.firstOperand + 1];
  CHECK(model.evaluate(store, value, thread, 1) == 1u);
  std::uint32_t mapa = f.instruction("mapa.shared::cluster");
  CHECK(model.evaluate(mapa, f.module.operands[f.module.instructions[mapa].firstOperand + 2], thread, 1) == 0u);
  auto local = model.evaluate(mapa, f.module.operands[f.module.instructions[mapa].firstOperand + 1], thread, 7);
  auto remote = model.evaluateAddress(store, f.module.operands[site.firstOperand], thread, 7);
  REQUIRE(local);
  CHECK(remote == local);
  std::uint32_t clusterId = f.instruction("mov.u32 %r2");
  CHECK(model.evaluate(clusterId, f.module.operands[f.module.instructions[clusterId].firstOperand + 1], thread, 1) ==
        1u);
}

TEST_CASE("Known bits: arithmetic shift right copies the sign bit, also by 64 or more", "[flow]") {
  using ptx::flow::KnownBits;
  using ptx::flow::arithmeticShiftRight;
  // -8 as a 32-bit value, shifted by 1: -4, sign-extended to 64 bits.
  KnownBits minusEight = KnownBits::constant(0xFFFFFFF8u);
  CHECK(arithmeticShiftRight(minusEight, 1, 32).value() == 0xFFFFFFFFFFFFFFFCull);
  CHECK(arithmeticShiftRight(minusEight, 0, 32).value() == 0xFFFFFFFFFFFFFFF8ull);
  // Shifting by the whole width or more leaves only copies of the sign.
  CHECK(arithmeticShiftRight(minusEight, 64, 32).value() == ~0ull);
  CHECK(arithmeticShiftRight(minusEight, 200, 32).value() == ~0ull);
  CHECK(arithmeticShiftRight(KnownBits::constant(0x40), 64, 32).value() == 0);
  // A positive value shifts like a logical shift.
  CHECK(arithmeticShiftRight(KnownBits::constant(0x7FFFFFF0u), 4, 32).value() == 0x07FFFFFFu);
  // An unknown sign leaves the vacated bits unknown.
  KnownBits unknownSign = KnownBits::alignedTo(4);
  KnownBits shifted = arithmeticShiftRight(unknownSign, 8, 32);
  CHECK_FALSE(shifted.isConstant());
  CHECK((shifted.zero >> 63) == 0);
  CHECK((shifted.one >> 63) == 0);
}

TEST_CASE("Natural loops: the back edges are exactly those whose head dominates the latch, on random graphs",
          "[flow]") {
  // naturalLoopsOf answers dominance from one walk of the dominator tree; dominatesIn walks up
  // the tree per pair. They must agree on every edge, whatever the graph: long chains (deep
  // trees), unreachable blocks, self loops.
  std::mt19937 random(23);
  for (int round = 0; round < 300; ++round) {
    std::uint32_t n = 1 + static_cast<std::uint32_t>(random() % (round < 250 ? 40 : 3000));
    std::vector<flow::BasicBlock> blocks(n);
    for (std::uint32_t b = 0; b < n; ++b) {
      // Mostly straight-line code (b -> b+1), with some branches anywhere and some exits.
      if (b + 1 < n && random() % 8 != 0) blocks[b].successors.push_back(b + 1);
      if (random() % 4 == 0) blocks[b].successors.push_back(static_cast<std::uint32_t>(random() % n));
    }
    for (std::uint32_t b = 0; b < n; ++b) {
      for (std::uint32_t s : blocks[b].successors) blocks[s].predecessors.push_back(b);
    }
    std::vector<std::uint32_t> dominators = flow::immediateDominators(blocks);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> expected;
    for (std::uint32_t latch = 0; latch < n; ++latch) {
      for (std::uint32_t head : blocks[latch].successors) {
        if (flow::dominatesIn(dominators, head, latch)) expected.emplace_back(head, latch);
      }
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> found;
    for (const flow::NaturalLoop& loop : flow::naturalLoopsOf(blocks, dominators)) {
      found.emplace_back(loop.head, loop.latch);
    }
    INFO("round " << round << ", " << n << " blocks");
    REQUIRE(found == expected);
  }
}
