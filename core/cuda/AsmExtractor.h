// AsmExtractor: every asm statement of a CUDA source as one device pass sees it.
//
// Works on tokens (CppLexer) and one pass's preprocessing (Preprocessor), so it finds asm
// statements wherever nvcc would: in functions, lambdas and templates, in `#define` bodies, and
// with `#if` lines inside the operand list (the pass's branch is taken). The template is rebuilt
// from adjacent literals and object-like macros defined in the file; a template that depends on
// anything else is marked opaque rather than guessed.
#pragma once

#include <vector>

#include "cuda/AsmStatement.h"
#include "cuda/CppLexer.h"
#include "cuda/Preprocessor.h"

namespace ptx::cuda {

// Statements in source order. Statements the pass does not compile (activity False) are left
// out; those under undecidable conditions are kept with activity Unknown.
std::vector<AsmStatement> extractAsmStatements(const LexedSource& source, const PassView& pass);

// True for `asm`, `__asm__` and `__asm`.
bool isAsmKeyword(std::string_view spelling);

}  // namespace ptx::cuda
