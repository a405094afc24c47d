// The alignment rules' quick fix: raising a declaration's `.align` removes the finding.
#include <catch2/catch.hpp>

#include <string>

#include "Lint.h"
#include "TestSupport.h"

using namespace ptx;

namespace {

std::string applyFix(std::string text, const Fix& fix) {
  // Edits of one fix do not overlap; apply them back to front.
  std::vector<FixEdit> edits = fix.edits;
  std::sort(edits.begin(), edits.end(), [](const FixEdit& a, const FixEdit& b) { return a.range.begin > b.range.begin; });
  for (const FixEdit& edit : edits) text.replace(edit.range.begin, edit.range.end - edit.range.begin, edit.newText);
  return text;
}

std::size_t countRule(const LintResult& result, std::string_view rule) {
  return static_cast<std::size_t>(std::count_if(result.diagnostics.begin(), result.diagnostics.end(),
                                                [&](const Diagnostic& d) { return d.rule == rule; }));
}

}  // namespace

TEST_CASE("Raising a weak .align fixes alignment findings, provable offsets get no such fix", "[analyzers][alignment]") {
  // 'bars' promises 4 bytes where an mbarrier needs 8: aligned only by placement, which the ISA
  // does not promise (ALN008, with the fix raising the declaration). 'tile' promises 128, so
  // tile+64 is provably not 128-byte aligned: an error no declaration change fixes.
  std::string text = R"(.version 8.0
.target sm_90a
.address_size 64
.shared .align 4 .b8 bars[16];
.shared .align 128 .b8 tile[4096];
.visible .entry k(.param .align 64 .b8 tmap[128])
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  mbarrier.init.shared::cta.b64 [bars+8], 1;
  mov.b64 %rd1, tmap;
  mov.u32 %r1, 0;
  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [tile+64], [%rd1, {%r1, %r1}], [bars];
  ret;
}
)";
  LintResult before = lintText(text);
  REQUIRE(countRule(before, "ALN008") == 2);
  REQUIRE(countRule(before, "ALN003") == 1);
  const Diagnostic* barrier = nullptr;
  for (const Diagnostic& d : before.diagnostics) {
    if (d.rule == "ALN008" && barrier == nullptr) barrier = &d;
    if (d.rule == "ALN003") CHECK(d.fixes.empty());
  }
  REQUIRE(barrier != nullptr);
  REQUIRE(barrier->fixes.size() == 1);
  CHECK(barrier->fixes[0].title == "Declare 'bars' with .align 8");
  LintResult after = lintText(applyFix(text, barrier->fixes[0]));
  CHECK(countRule(after, "ALN008") == 0);
  CHECK(countRule(after, "ALN003") == 1);
}
