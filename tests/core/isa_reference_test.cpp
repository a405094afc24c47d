// IsaReference: the reference tables are complete, sorted and well-formed.
#include <catch2/catch.hpp>

#include <string>

#include "isa/HoverDocs.h"
#include "isa/IsaReference.h"
#include "model/Module.h"

using namespace ptx;

namespace {

bool validTarget(std::string_view target) {
  TargetArch arch;
  return parseTargetArch(target, arch) && arch.number >= 10;
}

bool validVersion(PtxVersion version) {
  return version.major >= 1 && version.major <= 9 && version.minor <= 9;
}

}  // namespace

TEST_CASE("Every reserved opcode has a documented, sorted entry", "[isa]") {
  auto opcodes = allOpcodes();
  REQUIRE(opcodes.size() == 135);
  for (std::size_t i = 0; i < opcodes.size(); ++i) {
    const OpcodeInfo& op = opcodes[i];
    INFO(op.name);
    if (i > 0) CHECK(opcodes[i - 1].name < op.name);
    CHECK(op.summary.size() > 20);
    CHECK(op.syntax.find(op.name) != std::string_view::npos);
    CHECK_FALSE(op.operands.empty());
    CHECK(validVersion(op.minPtx));
    CHECK(validTarget(op.minTarget));
    CHECK(findOpcode(op.name) == &op);
  }
  CHECK(findOpcode("movv") == nullptr);
}

TEST_CASE("Known minimum versions and targets of Hopper and Blackwell families", "[isa]") {
  const OpcodeInfo* wgmma = findOpcode("wgmma");
  REQUIRE(wgmma != nullptr);
  CHECK(wgmma->minPtx == PtxVersion{8, 0});
  CHECK(wgmma->minTarget == "sm_90a");
  const OpcodeInfo* tcgen05 = findOpcode("tcgen05");
  REQUIRE(tcgen05 != nullptr);
  CHECK(tcgen05->minPtx == PtxVersion{8, 6});
  const OpcodeInfo* add = findOpcode("add");
  REQUIRE(add != nullptr);
  CHECK(add->minPtx == PtxVersion{1, 0});
  CHECK(add->flags.empty());
  CHECK(findOpcode("ld")->flags.find("memory") != std::string_view::npos);
  CHECK(findOpcode("bra")->flags.find("branch") != std::string_view::npos);
}

TEST_CASE("Every directive has a documented entry", "[isa]") {
  const char* directives[] = {
      ".address_size", ".alias", ".align", ".branchtargets", ".callprototype", ".calltargets",
      ".common", ".const", ".entry", ".explicitcluster", ".extern", ".file", ".func", ".global",
      ".loc", ".local", ".maxclusterrank", ".maxnctapersm", ".maxnreg", ".maxntid",
      ".minnctapersm", ".noreturn", ".param", ".pragma", ".reg", ".reqnctapercluster",
      ".reqntid", ".section", ".shared", ".sreg", ".target", ".tex", ".version", ".visible",
      ".weak", ".attribute", ".ptr", ".blocksareclusters", ".abi_preserve",
      ".abi_preserve_control"};
  for (const char* name : directives) {
    INFO(name);
    const DirectiveInfo* info = findDirective(name);
    REQUIRE(info != nullptr);
    CHECK(info->summary.size() > 10);
    CHECK_FALSE(info->syntax.empty());
    CHECK(validVersion(info->minPtx));
  }
}

TEST_CASE("Every predefined name the model accepts has documentation", "[isa]") {
  const char* names[] = {"%tid", "%ntid", "%laneid", "%warpid", "%nwarpid", "%ctaid",
                         "%nctaid", "%smid", "%nsmid", "%gridid", "%is_explicit_cluster",
                         "%clusterid", "%nclusterid", "%cluster_ctaid", "%cluster_nctaid",
                         "%cluster_ctarank", "%cluster_nctarank", "%lanemask_eq",
                         "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt",
                         "%clock", "%clock_hi", "%clock64", "%pm0", "%pm7", "%pm3_64",
                         "%envreg0", "%envreg31", "%globaltimer", "%globaltimer_lo",
                         "%globaltimer_hi", "%reserved_smem_offset_begin",
                         "%reserved_smem_offset_end", "%reserved_smem_offset_cap",
                         "%reserved_smem_offset_0", "%reserved_smem_offset_1",
                         "%total_smem_size", "%aggr_smem_size", "%dynamic_smem_size",
                         "%current_graph_exec", "WARP_SZ"};
  for (const char* name : names) {
    INFO(name);
    CHECK(isPredefinedName(name));
    const SpecialRegisterInfo* info = findSpecialRegister(name);
    REQUIRE(info != nullptr);
    CHECK(info->summary.size() > 10);
  }
  CHECK(findSpecialRegister("%envreg") == nullptr);
  CHECK(findSpecialRegister("%r1") == nullptr);
}

TEST_CASE("Every type and state space has documentation", "[isa]") {
  const char* types[] = {".b8", ".b16", ".b32", ".b64", ".b128", ".s8", ".s16", ".s32", ".s64",
                         ".u8", ".u16", ".u32", ".u64", ".f16", ".f16x2", ".f32", ".f64",
                         ".bf16", ".bf16x2", ".tf32", ".e4m3", ".e5m2", ".e4m3x2", ".e5m2x2",
                         ".e2m1", ".e2m1x2", ".e2m3", ".e2m3x2", ".e3m2", ".e3m2x2", ".ue8m0",
                         ".ue8m0x2", ".pred", ".texref", ".samplerref", ".surfref"};
  for (const char* name : types) {
    INFO(name);
    const TypeInfo* info = findType(name);
    REQUIRE(info != nullptr);
    CHECK(info->summary.size() > 5);
  }
  CHECK(findType(".b32")->sizeBits == 32);
  CHECK(findType(".f16x2")->sizeBits == 32);
  for (const char* name : {".reg", ".sreg", ".const", ".global", ".local", ".param", ".shared", ".tex"}) {
    INFO(name);
    REQUIRE(findStateSpace(name) != nullptr);
  }
}

TEST_CASE("Target architectures parse with their suffix", "[isa]") {
  TargetArch arch;
  REQUIRE(parseTargetArch("sm_90a", arch));
  CHECK(arch.number == 90);
  CHECK(arch.suffix == 'a');
  REQUIRE(parseTargetArch("sm_100f", arch));
  CHECK(arch.suffix == 'f');
  REQUIRE(parseTargetArch("sm_75", arch));
  CHECK(arch.suffix == 0);
  CHECK_FALSE(parseTargetArch("debug", arch));
  CHECK_FALSE(parseTargetArch("sm_90x", arch));
}

TEST_CASE("Hover text exists for every family, directive, special register, type and space", "[isa][hover]") {
  std::size_t documented = 0;
  for (const OpcodeInfo& op : allOpcodes()) {
    INFO(op.name);
    auto text = hoverMarkdown(op.name);
    REQUIRE(text.has_value());
    CHECK(text->find(op.summary) != std::string::npos);
    CHECK(text->find("Requires PTX ISA") != std::string::npos);
    ++documented;
  }
  for (const DirectiveInfo& directive : allDirectives()) {
    INFO(directive.name);
    auto text = hoverMarkdown(directive.name);
    REQUIRE(text.has_value());
    CHECK(text->find(directive.summary) != std::string::npos);
    ++documented;
  }
  for (const SpecialRegisterInfo& reg : allSpecialRegisters()) {
    // Numbered families are listed as "%envreg0..%envreg31": hover on a member.
    std::string_view name = reg.name.substr(0, reg.name.find(".."));
    INFO(name);
    auto text = hoverMarkdown(name);
    REQUIRE(text.has_value());
    CHECK(text->find(reg.summary) != std::string::npos);
    ++documented;
  }
  for (const TypeInfo& type : allTypes()) {
    INFO(type.name);
    CHECK(hoverMarkdown(type.name).has_value());
  }
  for (const StateSpaceInfo& space : allStateSpaces()) {
    INFO(space.name);
    CHECK(hoverMarkdown(space.name).has_value());
  }
  CHECK(documented == allOpcodes().size() + allDirectives().size() + allSpecialRegisters().size());
  // Spellings as they appear in source.
  CHECK(hoverMarkdown("%tid.x")->find("%tid") != std::string::npos);
  CHECK(hoverMarkdown(".shared::cta")->find(".shared") != std::string::npos);
  CHECK_FALSE(hoverMarkdown("%r1").has_value());
  CHECK_FALSE(hoverMarkdown("not_an_opcode").has_value());
  // Families with forms list them.
  CHECK(hoverMarkdown("add")->find("add.sat.s32") != std::string::npos);
}
