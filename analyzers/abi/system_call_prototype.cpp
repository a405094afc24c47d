// ABI009 system-call-prototype
//
// What it does: checks the prototypes (declarations without a body) of the system calls
// `vprintf`, `malloc`, `free` and `__assertfail` against the ABI:
//     .extern .func (.param .s32 status) vprintf (.param t1 format, .param t1 valist)
//     .extern .func (.param t1 ptr) malloc (.param t2 size)
//     .extern .func free (.param t1 ptr)
//     .extern .func __assertfail (.param t1 message, .param t1 file, .param .b32 line,
//                                 .param t1 function, .param t2 charSize)
// where t1 (a pointer) and t2 (a size_t) are 64 bits under `.address_size 64` and 32 bits
// under `.address_size 32` (either when the module does not say). The number of return
// values and parameters, the `.param` space and each size are compared; the type's kind is
// not (nvcc declares vprintf's status as `.b32`).
//
// Why is this bad: the driver implements these calls with exactly this interface; ptxas
// accepts any declaration, and a call through a wrong one passes arguments the runtime
// reads differently: a 32-bit format pointer, a missing return value, a truncated size.
//
// Example:
//     .address_size 64
//     .extern .func (.param .b64 ptr) malloc (.param .b32 size);
//
// Use instead:
//     .address_size 64
//     .extern .func (.param .b64 ptr) malloc (.param .b64 size);
//
// References: PTX Writer's Guide to Interoperability §4 (system calls); PTX ISA §11.1.3
// (.address_size).
#include <array>
#include <string>

#include "RuleContext.h"
#include "abi/AbiFacts.h"

namespace ptx {
namespace {

// Sizes in bytes; 0 stands for a pointer or size_t (the address size).
struct SystemCall {
  std::string_view name;
  std::vector<std::uint32_t> returns;
  std::vector<std::uint32_t> parameters;
  std::vector<std::string_view> names;  // Parameter names as the ABI gives them.
  std::string_view prototype;           // `T` stands for t1/t2.
};

const std::array<SystemCall, 4>& systemCalls() {
  static const std::array<SystemCall, 4> calls{{
      {"vprintf", {4}, {0, 0}, {"format", "valist"}, "(.param .s32 status) vprintf (.param T format, .param T valist)"},
      {"malloc", {0}, {0}, {"size"}, "(.param T ptr) malloc (.param T size)"},
      {"free", {}, {0}, {"ptr"}, "free (.param T ptr)"},
      {"__assertfail",
       {},
       {0, 0, 4, 0, 0},
       {"message", "file", "line", "function", "charSize"},
       "__assertfail (.param T message, .param T file, .param .b32 line, .param T function, .param T charSize)"},
  }};
  return calls;
}

// The ABI prototype with the pointer type filled in.
std::string prototypeText(const SystemCall& call, std::optional<std::uint32_t> pointerBytes) {
  std::string_view t = !pointerBytes ? ".b32/.b64" : spellingOf(*pointerBytes == 8 ? Modifier::B64 : Modifier::B32);
  std::string out;
  for (char c : call.prototype) {
    if (c == 'T') out += t;
    else out += c;
  }
  return out;
}

std::string sizeName(std::uint32_t bytes, std::optional<std::uint32_t> pointerBytes) {
  if (bytes != 0) return concat({std::to_string(bytes * 8), "-bit"});
  if (pointerBytes) return concat({std::to_string(*pointerBytes * 8), "-bit"});
  return "32- or 64-bit";
}

}  // namespace

void checkSystemCallPrototype(const RuleContext& context) {
  const Module& module = context.module;
  std::optional<std::uint32_t> pointerBytes;
  if (module.header.addressSize == 32 || module.header.addressSize == 64) pointerBytes = *module.header.addressSize / 8;
  for (const FunctionInfo& function : module.functions) {
    if (function.symbol == kNoSymbol || function.hasSyntaxErrors) continue;
    const Symbol& owner = module.symbols[function.symbol];
    if (owner.hasBody || owner.isEntry) continue;
    const SystemCall* call = nullptr;
    for (const SystemCall& candidate : systemCalls()) {
      if (candidate.name == owner.name) call = &candidate;
    }
    if (call == nullptr) continue;
    auto signature = abi::signatureOfFunction(context, function.symbol);
    if (!signature) continue;
    std::string expected = concat({"; the ABI declares .extern .func ", prototypeText(*call, pointerBytes)});
    if (signature->returns.size() != call->returns.size() || signature->parameters.size() != call->parameters.size()) {
      context.report("ABI009", owner.nameRange,
                     concat({"system call '", owner.name, "' is declared with ",
                             std::to_string(signature->returns.size()),
                             " return value", signature->returns.size() == 1 ? "" : "s", " and ",
                             std::to_string(signature->parameters.size()), " parameter",
                             signature->parameters.size() == 1 ? "" : "s", expected}));
      continue;
    }
    auto check = [&](const abi::ParamShape& shape, std::uint32_t bytes, std::string_view role) {
      std::string problem;
      auto size = shape.byteSize();
      if (shape.spaceId != Modifier::Param) {
        problem = concat({"is in ", shape.space, " space; the ABI passes it in .param"});
      } else if (shape.isArray || shape.vectorWidth != 0) {
        problem = "is not a scalar";
      } else if (!size) {
        return;
      } else if (bytes != 0 ? *size != bytes : pointerBytes ? *size != *pointerBytes : (*size != 4 && *size != 8)) {
        problem = concat({"is ", std::to_string(*size * 8), "-bit (", shape.type, "); the ABI passes a ",
                          sizeName(bytes, pointerBytes), " value"});
      } else {
        return;
      }
      context.report("ABI009", shape.declaration,
                     concat({role, " of system call '", owner.name, "' ", problem}));
    };
    for (std::size_t i = 0; i < call->returns.size(); ++i) {
      check(signature->returns[i], call->returns[i], "the return value");
    }
    for (std::size_t i = 0; i < call->parameters.size(); ++i) {
      check(signature->parameters[i], call->parameters[i],
            concat({"parameter ", std::to_string(i + 1), " (", call->names[i], ")"}));
    }
  }
}

}  // namespace ptx
