// Workspace symbols: kernels, functions and module variables across documents, fuzzy-matched
// and ranked exact > prefix > substring > subsequence.
#include <catch2/catch.hpp>

#include <string>

#include "Annotated.h"
#include "Lint.h"
#include "features/WorkspaceSymbols.h"

using namespace ptx;
using namespace ptx::lsp;
using test::Annotated;

namespace {

struct Workspace {
  std::vector<Annotated> sources;
  std::vector<LintResult> analyses;
  std::vector<WorkspaceDocument> documents;

  explicit Workspace(std::vector<std::string> annotated) {
    for (const std::string& text : annotated) sources.emplace_back(text);
    for (const Annotated& source : sources) analyses.push_back(lintText(source.text()));
    for (std::size_t i = 0; i < sources.size(); ++i) {
      documents.push_back({"file:///doc" + std::to_string(i) + ".ptx", &analyses[i].module});
    }
  }

  std::vector<std::string> names(std::string_view query, std::size_t limit = 0) const {
    std::vector<std::string> found;
    for (const WorkspaceSymbolMatch& match : workspaceSymbols(documents, query, limit)) found.push_back(match.name);
    return found;
  }
};

const std::string kFirst =
    ".version 8.0\n.target sm_80\n.address_size 64\n\n.global .u32 [[counter]];\n"
    ".func helper_add();\n"
    ".visible .entry [[scale_kernel]](.param .u64 p)\n{\n\tcall helper_add;\n\tret;\n}\n"
    ".func [[helper_add]]()\n{\nLOOP:\n\tret;\n}\n";
const std::string kSecond =
    ".version 8.0\n.target sm_80\n.address_size 64\n\n.visible .entry [[add]]()\n{\n\tret;\n}\n"
    ".visible .entry [[Add_scaled]]()\n{\n\tret;\n}\n";

}  // namespace

TEST_CASE("Workspace symbols list kernels, functions and module variables of every document", "[workspace-symbols]") {
  Workspace workspace({kFirst, kSecond});
  auto all = workspaceSymbols(workspace.documents, "", 0);
  REQUIRE(all.size() == 5);
  // Document and source order; the prototype of helper_add is left out for its definition;
  // parameters and labels are not workspace symbols.
  CHECK(all[0].name == "counter");
  CHECK(all[0].kind == OutlineKind::Variable);
  CHECK(all[0].detail == ".global .u32");
  CHECK(all[1].name == "scale_kernel");
  CHECK(all[1].kind == OutlineKind::Kernel);
  CHECK(all[2].name == "helper_add");
  CHECK(all[2].kind == OutlineKind::Function);
  CHECK(all[2].uri == "file:///doc0.ptx");
  CHECK(all[2].selectionRange == workspace.sources[0].ranges()[2]);
  CHECK(all[3].name == "add");
  CHECK(all[3].uri == "file:///doc1.ptx");
  CHECK(all[3].selectionRange == workspace.sources[1].ranges()[0]);
}

TEST_CASE("Workspace symbols rank exact, prefix, substring, then subsequence matches", "[workspace-symbols]") {
  Workspace workspace({kFirst, kSecond});
  CHECK(workspace.names("add") == std::vector<std::string>{"add", "Add_scaled", "helper_add"});
  CHECK(workspace.names("ADD") == std::vector<std::string>{"add", "Add_scaled", "helper_add"});
  CHECK(workspace.names("sk") == std::vector<std::string>{"scale_kernel"});
  // Fewer gaps between the matched characters rank higher.
  CHECK(workspace.names("scl") == std::vector<std::string>{"scale_kernel", "Add_scaled"});
  CHECK(workspace.names("cnt") == std::vector<std::string>{"counter"});
  CHECK(workspace.names("zzz").empty());
}

TEST_CASE("Workspace symbols stop at the limit, keeping the best matches", "[workspace-symbols]") {
  Workspace workspace({kFirst, kSecond});
  CHECK(workspace.names("add", 2) == std::vector<std::string>{"add", "Add_scaled"});
  CHECK(workspace.names("", 1) == std::vector<std::string>{"counter"});
}

TEST_CASE("Workspace symbols skip documents without a model", "[workspace-symbols]") {
  std::vector<WorkspaceDocument> documents{{"file:///none.ptx", nullptr}};
  CHECK(workspaceSymbols(documents, "", 0).empty());
}
