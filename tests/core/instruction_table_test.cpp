// The instruction table (core/isa/instructions/*.def): its data reads cleanly, the matcher
// and the operand type rules behave, and every family's examples and counterexamples lint
// as recorded (one section per family; ptxas re-checks the same lines in
// tests/isa/check_examples_with_ptxas.py).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "TestSupport.h"
#include "isa/InstructionForms.h"
#include "isa/IsaReference.h"
#include "text/LineIndex.h"

namespace ptx {
namespace {

struct ExampleLine {
  std::string statement;
  std::string target = "sm_90a";
  std::string rule;  // Counterexamples only.
};

std::vector<ExampleLine> exampleLines(std::string_view block) {
  std::vector<ExampleLine> lines;
  while (!block.empty()) {
    std::size_t end = block.find('\n');
    std::string_view line = block.substr(0, end);
    block = end == std::string_view::npos ? std::string_view() : block.substr(end + 1);
    ExampleLine parsed;
    if (auto comment = line.find("//"); comment != std::string_view::npos) {
      std::string_view note = line.substr(comment + 2);
      if (auto sm = note.find("sm_"); sm != std::string_view::npos) {
        std::size_t stop = note.find_first_of(" \t", sm);
        parsed.target = std::string(note.substr(sm, stop == std::string_view::npos ? stop : stop - sm));
      }
      line = line.substr(0, comment);
    }
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (line.empty()) continue;
    std::size_t semicolon = line.rfind(';');
    if (semicolon != std::string_view::npos && semicolon + 1 < line.size()) {
      std::string_view rule = line.substr(semicolon + 1);
      while (!rule.empty() && (rule.front() == ' ' || rule.front() == '\t')) rule.remove_prefix(1);
      parsed.rule = std::string(rule);
      line = line.substr(0, semicolon + 1);
    }
    parsed.statement = std::string(line);
    lines.push_back(std::move(parsed));
  }
  return lines;
}

struct ExampleModule {
  std::string text;
  std::uint32_t statementLine = 0;  // 1-based.
};

ExampleModule exampleModule(const ExampleLine& line) {
  static const std::string kTemplate = test::readFile(test::sourceDir() / "tests/isa/example_kernel.ptx.in");
  ExampleModule module;
  module.text = kTemplate;
  auto replace = [&](std::string_view key, std::string_view value) {
    std::size_t at = module.text.find(key);
    REQUIRE(at != std::string::npos);
    module.text.replace(at, key.size(), value);
  };
  replace("@VERSION@", "9.0");
  replace("@TARGET@", line.target);
  std::size_t at = module.text.find("@STATEMENT@");
  module.statementLine = static_cast<std::uint32_t>(std::count(module.text.begin(), module.text.begin() + static_cast<std::ptrdiff_t>(at), '\n')) + 1;
  replace("@STATEMENT@", line.statement);
  return module;
}

}  // namespace

TEST_CASE("The instruction table's data reads without errors", "[isa][forms]") {
  std::string errors;
  for (const std::string& error : instructionTableErrors()) errors += error + "\n";
  INFO(errors);
  CHECK(instructionTableErrors().empty());
  CHECK(!allInstructionFamilies().empty());
}

TEST_CASE("Every instruction family has forms in the table", "[isa][forms]") {
  std::vector<std::string_view> missing;
  for (const OpcodeInfo& opcode : allOpcodes()) {
    if (findInstructionFamily(opcode.name) == nullptr) missing.push_back(opcode.name);
  }
  std::string list;
  for (std::string_view name : missing) list += std::string(name) + " ";
  INFO("families without forms: " << list);
  CHECK(missing.empty());
}

TEST_CASE("Forms match modifiers in any order, each element once", "[isa][forms]") {
  const InstructionFamily* add = findInstructionFamily("add");
  REQUIRE(add != nullptr);
  std::vector<std::string_view> ordered = {".rn", ".ftz", ".f32"};
  auto matches = matchForms(*add, ordered);
  REQUIRE(!matches.empty());
  CHECK(matches[0].inTemplateOrder);
  REQUIRE(matches[0].types.size() == 1);
  CHECK(matches[0].types[0] == ".f32");

  std::vector<std::string_view> shuffled = {".f32", ".rn"};
  matches = matchForms(*add, shuffled);
  REQUIRE(!matches.empty());
  CHECK_FALSE(matches[0].inTemplateOrder);

  std::vector<std::string_view> twoRoundings = {".rn", ".rz", ".f32"};
  CHECK(matchForms(*add, twoRoundings).empty());
  std::vector<std::string_view> noType = {".rn"};
  CHECK(matchForms(*add, noType).empty());

  const InstructionFamily* ld = findInstructionFamily("ld");
  REQUIRE(ld != nullptr);
  std::vector<std::string_view> vector = {".global", ".v4", ".f32"};
  matches = matchForms(*ld, vector);
  REQUIRE(!matches.empty());
  CHECK(matches[0].vectorWidth == 4);
}

TEST_CASE("Operand type rules follow PTX ISA 6.4", "[isa][forms]") {
  using enum OperandRelax;
  // Bit-size instructions take any register of the size.
  CHECK(registerTypeFits(".b32", ".f32", Strict));
  CHECK(registerTypeFits(".b32", ".s32", Strict));
  CHECK_FALSE(registerTypeFits(".b32", ".b64", Strict));
  // Integer instructions take integer and bit registers of the size, not floats.
  CHECK(registerTypeFits(".s32", ".u32", Strict));
  CHECK(registerTypeFits(".s32", ".b32", Strict));
  CHECK_FALSE(registerTypeFits(".s32", ".f32", Strict));
  CHECK_FALSE(registerTypeFits(".s32", ".s64", Strict));
  // Float instructions take float and bit registers of the size.
  CHECK(registerTypeFits(".f32", ".b32", Strict));
  CHECK_FALSE(registerTypeFits(".f32", ".s32", Strict));
  CHECK_FALSE(registerTypeFits(".f16", ".u16", Strict));
  CHECK(registerTypeFits(".f16", ".b16", Strict));
  // Predicates only with predicates.
  CHECK(registerTypeFits(".pred", ".pred", Strict));
  CHECK_FALSE(registerTypeFits(".pred", ".b32", Strict));
  CHECK_FALSE(registerTypeFits(".b32", ".pred", Strict));
  // Relaxed rules: wider integer destinations and sources for ld/st/cvt, never narrower.
  CHECK(registerTypeFits(".u8", ".b32", WiderDestination));
  CHECK(registerTypeFits(".u32", ".u64", WiderDestination));
  CHECK_FALSE(registerTypeFits(".u32", ".b16", WiderDestination));
  CHECK_FALSE(registerTypeFits(".f32", ".f64", WiderDestination));
  CHECK(registerTypeFits(".u16", ".b32", WiderSource));
}

TEST_CASE("Target requirements: plain, arch-specific and family-specific", "[isa][forms]") {
  TargetArch sm90a{90, 'a'};
  TargetArch sm90{90, 0};
  TargetArch sm100a{100, 'a'};
  TargetArch sm103f{103, 'f'};
  TargetArch sm120{120, 0};
  CHECK(targetSatisfies(sm90, "sm_80"));
  CHECK_FALSE(targetSatisfies(sm90, "sm_100"));
  CHECK(targetSatisfies(sm90a, "sm_90a"));
  CHECK_FALSE(targetSatisfies(sm90, "sm_90a"));
  CHECK_FALSE(targetSatisfies(sm100a, "sm_90a"));
  CHECK(targetSatisfies(sm100a, "sm_100f"));
  CHECK(targetSatisfies(sm103f, "sm_100f"));
  CHECK_FALSE(targetSatisfies(sm120, "sm_100f"));
}

TEST_CASE("Each family's examples lint clean and its counterexamples are caught", "[isa][forms]") {
  for (const InstructionFamily& family : allInstructionFamilies()) {
    DYNAMIC_SECTION("family " << family.name) {
      std::vector<ExampleLine> examples = exampleLines(family.examples);
      CHECK(!examples.empty());
      for (const ExampleLine& example : examples) {
        ExampleModule module = exampleModule(example);
        auto diagnostics = test::lint(module.text);
        // An example is one statement in a kernel made up around it: what the race and
        // synchronization rules say of that kernel as a program (a bulk copy nobody waits
        // for before the exit) is not about the statement.
        std::erase_if(diagnostics, [](const Diagnostic& diagnostic) {
          return diagnostic.category == Category::Race || diagnostic.category == Category::Sync;
        });
        INFO(example.statement << "  (target " << example.target << ")\n" << test::describe(module.text, diagnostics));
        CHECK(diagnostics.empty());
      }
      for (const ExampleLine& counterexample : exampleLines(family.counterexamples)) {
        ExampleModule module = exampleModule(counterexample);
        auto diagnostics = test::lint(module.text);
        LineIndex lines(module.text);
        bool found = std::any_of(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& diagnostic) {
          return diagnostic.rule == counterexample.rule &&
                 lines.lineOf(diagnostic.range.begin) + 1 == module.statementLine;
        });
        INFO(counterexample.statement << "  expects " << counterexample.rule << "\n"
                                      << test::describe(module.text, diagnostics));
        CHECK(!counterexample.rule.empty());
        CHECK(found);
      }
    }
  }
}

}  // namespace ptx
