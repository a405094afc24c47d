// LintOptions::stop: a caller that will not use a whole lint's result (the server's full
// analysis of a version an edit replaced) can end it early; the result says so, and a lint
// whose flag stays clear is the lint without one.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <string>

#include "Lint.h"

using namespace ptx;

namespace {

// A kernel with a finding for a dataflow rule (a shared-memory race) and one for a model
// rule (an unknown instruction), so that a result with rules run is told from one without.
const std::string kKernel = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k()
{
  .reg .b32 %r<4>;
  .shared .align 4 .b32 buf[32];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, buf;
  add.s32 %r3, %r3, %r2;
  st.shared.u32 [buf], %r1;
  frobnicate.b32 %r1, %r1;
  ret;
}
)";

}  // namespace

TEST_CASE("A whole lint stops at its next stage once the caller sets the stop flag", "[lint][stop]") {
  for (unsigned threads : {1U, 2U}) {
    LintOptions options;
    options.threads = threads;
    options.parallelThresholdBytes = 0;
    LintResult unstopped = lintText(kKernel, options);
    REQUIRE_FALSE(unstopped.stopped);
    // The rules found something to report (a stopped lint must then lack it).
    REQUIRE(std::any_of(unstopped.diagnostics.begin(), unstopped.diagnostics.end(),
                        [](const Diagnostic& d) { return d.rule.rfind("SYN", 0) != 0; }));

    std::atomic<bool> stop{false};
    options.stop = &stop;
    LintResult clear = lintTree(kKernel, unstopped.tree, options);
    CHECK_FALSE(clear.stopped);
    REQUIRE(clear.diagnostics.size() == unstopped.diagnostics.size());
    for (std::size_t i = 0; i < clear.diagnostics.size(); ++i) {
      CHECK(clear.diagnostics[i].rule == unstopped.diagnostics[i].rule);
      CHECK(clear.diagnostics[i].range == unstopped.diagnostics[i].range);
    }

    stop = true;
    LintResult stopped = lintTree(kKernel, unstopped.tree, options);
    CHECK(stopped.stopped);
    // Stopped before any rule ran: none of their findings is there.
    for (const Diagnostic& diagnostic : stopped.diagnostics) CHECK(diagnostic.rule.rfind("SYN", 0) == 0);
  }
}
