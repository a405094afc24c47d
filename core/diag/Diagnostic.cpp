// String forms of severities and categories, shared by every output format.
#include "diag/Diagnostic.h"

namespace ptx {

std::string_view toString(Severity severity) {
  switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Information: return "information";
    case Severity::Hint: return "hint";
  }
  return "error";
}

std::string_view toString(Category category) {
  switch (category) {
    case Category::Syntax: return "syntax";
    case Category::Semantic: return "semantic";
    case Category::Isa: return "isa";
    case Category::Abi: return "abi";
    case Category::CallSequence: return "call-sequence";
    case Category::Alignment: return "alignment";
    case Category::Swizzle: return "swizzle";
    case Category::Race: return "race";
    case Category::Sync: return "sync";
    case Category::Performance: return "performance";
    case Category::Lint: return "lint";
    case Category::InlineAsm: return "inline-asm";
    case Category::HostApi: return "host-api";
  }
  return "syntax";
}

}  // namespace ptx
