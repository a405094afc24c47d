// CUDA 13's own headers (/usr/local/cuda/include) against what nvcc emits
// (tests/cuda/headers/README.md): every asm statement the census counts is extracted, the
// rebuilt template of the statements test translation units instantiated equals nvcc's inline
// asm block byte for byte (nvcc's substitution applied), and no error is reported on the headers
// for sm_80, sm_90a or sm_100a.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "TestSupport.h"
#include "cuda/AsmExtractor.h"
#include "cuda/CppLexer.h"
#include "cuda/DevicePasses.h"
#include "cuda/Preprocessor.h"
#include "inline_asm/CudaLint.h"
#include "text/LineIndex.h"

using namespace ptx;
namespace fs = std::filesystem;

namespace {

const fs::path kInclude = "/usr/local/cuda/include";

// nvcc's inline-asm block for a template (tests/cuda/headers/README.md): with operands, `%N`
// becomes the operand's text, `%%` a `%` and `%=` the recorded number; the block is a tab, the
// text and a newline, or nothing for an empty text.
std::string emitLikeNvcc(const cuda::AsmStatement& statement, const nlohmann::json& substitutions,
                         const nlohmann::json& percentEquals) {
  const std::string& tpl = statement.templateText;
  std::string out;
  if (statement.operands.empty()) {
    out = tpl;
  } else {
    std::size_t equalsIndex = 0;
    for (std::size_t i = 0; i < tpl.size(); ++i) {
      if (tpl[i] != '%' || i + 1 >= tpl.size()) {
        out.push_back(tpl[i]);
        continue;
      }
      char next = tpl[i + 1];
      if (next == '%') {
        out.push_back('%');
        ++i;
      } else if (next == '=') {
        out += equalsIndex < percentEquals.size() ? percentEquals[equalsIndex].get<std::string>() : std::string("?");
        ++equalsIndex;
        ++i;
      } else if (std::isdigit(static_cast<unsigned char>(next))) {
        std::size_t end = i + 1;
        while (end < tpl.size() && std::isdigit(static_cast<unsigned char>(tpl[end]))) ++end;
        std::string index = tpl.substr(i + 1, end - i - 1);
        out += substitutions.contains(index) ? substitutions[index]["text"].get<std::string>() : "%" + index;
        i = end - 1;
      } else {
        out.push_back('%');
      }
    }
  }
  return out.empty() ? out : "\t" + out + "\n";
}

cuda::DevicePass passNamed(const std::string& virtualArch) {
  cuda::PassList list = cuda::passesForGencode(virtualArch, virtualArch, "test");
  REQUIRE(list.passes.size() == 1);
  return list.passes.front();
}

}  // namespace

TEST_CASE("toolkit headers: templates rebuilt as nvcc emits them, every statement extracted", "[cuda][headers]") {
  fs::path expectedFile = test::sourceDir() / "tests" / "cuda" / "headers" / "expected-templates.json";
  if (!fs::exists(kInclude / "cuda.h")) {
    WARN("skipped: CUDA 13's headers are not installed in " << kInclude);
    return;
  }
  nlohmann::json expected = nlohmann::json::parse(test::readFile(expectedFile));
  nlohmann::json census = nlohmann::json::parse(test::readFile(test::sourceDir() / "tests" / "cuda" / "headers" / "census.json"));

  // Per header and pass: the statements on each source line.
  struct Extracted {
    std::string text;
    std::map<std::string, std::vector<cuda::AsmStatement>> byPass;
  };
  std::map<std::string, Extracted> headers;
  auto statementsOf = [&](const std::string& header, const std::string& pass) -> const std::vector<cuda::AsmStatement>& {
    Extracted& extracted = headers[header];
    if (extracted.text.empty()) extracted.text = test::readFile(kInclude / header);
    auto found = extracted.byPass.find(pass);
    if (found != extracted.byPass.end()) return found->second;
    cuda::DevicePass device = passNamed(pass);
    cuda::LexedSource source(extracted.text);
    std::vector<cuda::DevicePass> compilation{device};
    return extracted.byPass[pass] = cuda::extractAsmStatements(source, cuda::evaluatePass(source, macrosForPass(device, compilation)));
  };

  std::size_t compared = 0, equal = 0;
  std::set<std::pair<std::string, int>> equalLocations;
  std::vector<std::string> mismatches;
  for (const nlohmann::json& entry : expected["statements"]) {
    if (entry["sourceAsmLine"].is_null()) continue;  // From a macro's body: no line of its own to match.
    std::string header = entry["header"];
    auto line = entry["sourceAsmLine"].get<int>();
    std::string pass = entry["pass"];
    const std::vector<cuda::AsmStatement>& statements = statementsOf(header, pass);
    LineIndex lines(headers[header].text);
    ++compared;
    bool matched = false;
    for (const cuda::AsmStatement& statement : statements) {
      if (static_cast<int>(lines.lineOf(statement.keyword.begin)) + 1 != line || statement.opaqueReason) continue;
      if (emitLikeNvcc(statement, entry["operandSubstitutions"], entry["percentEquals"]) == entry["ptxText"].get<std::string>()) {
        matched = true;
        break;
      }
    }
    if (matched) {
      ++equal;
      equalLocations.insert({header, line});
    } else if (mismatches.size() < 20) {
      mismatches.push_back(header + ":" + std::to_string(line) + " (" + pass + ")");
    }
  }
  std::string firstMismatches;
  for (const std::string& m : mismatches) firstMismatches += "\n  " + m;
  INFO(equal << " of " << compared << " instantiated statements rebuilt exactly (" << equalLocations.size()
             << " distinct locations); first mismatches:" << firstMismatches);
  CHECK(equalLocations.size() >= 300);
  CHECK(equal * 100 >= compared * 95);

  // Every statement the census counts, across the three passes (a statement no pass compiles,
  // such as host-only asm, is not extracted: the census counts it anyway).
  std::size_t censusTotal = 0, extracted = 0;
  for (const nlohmann::json& file : census["files"]) {
    std::string header = file["path"];
    std::set<std::uint32_t> keywords;
    for (const char* pass : {"compute_80", "compute_90a", "compute_100a"})
      for (const cuda::AsmStatement& statement : statementsOf(header, pass)) keywords.insert(statement.keyword.begin);
    censusTotal += file["count"].get<std::size_t>();
    extracted += std::min<std::size_t>(keywords.size(), file["count"].get<std::size_t>());
  }
  INFO(extracted << " of " << censusTotal << " census statements extracted");
  CHECK(extracted * 100 >= censusTotal * 97);
}

TEST_CASE("toolkit headers: no error for sm_80, sm_90a or sm_100a", "[cuda][headers]") {
  if (!fs::exists(kInclude / "cuda.h")) {
    WARN("skipped: CUDA 13's headers are not installed in " << kInclude);
    return;
  }
  nlohmann::json census = nlohmann::json::parse(test::readFile(test::sourceDir() / "tests" / "cuda" / "headers" / "census.json"));
  CudaLintOptions options;
  for (const char* arch : {"sm_80", "sm_90a", "sm_100a"}) cuda::appendUnique(options.passes, cuda::passesForArch(arch, arch).passes);
  std::size_t files = 0;
  for (const nlohmann::json& file : census["files"]) {
    std::string header = file["path"];
    std::string text = test::readFile(kInclude / header);
    CudaLintResult result = lintCudaText(text, options);
    ++files;
    for (const Diagnostic& diagnostic : result.diagnostics) {
      INFO(header << ": " << diagnostic.rule << " " << diagnostic.message);
      CHECK(diagnostic.severity != Severity::Error);
    }
  }
  CHECK(files == census["files"].size());
}
