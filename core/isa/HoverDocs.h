// HoverDocs: the Markdown that hover shows for a PTX word — an instruction family, a
// directive, a special register, a type or a state space — rendered from the ISA reference
// tables and the instruction table. No LSP here: the server wraps the text in its reply.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ptx {

// Documentation for `word` as spelled in source: "add", ".maxntid", "%tid", "%tid.x",
// ".f16x2", ".shared", ".shared::cta". nullopt when the word is none of these.
std::optional<std::string> hoverMarkdown(std::string_view word);

// Hover for an instruction family, listing its forms from the instruction table.
std::optional<std::string> instructionHover(std::string_view opcode);

// The same without the list of forms: summary, main syntax and requirements, short enough
// for a completion item.
std::optional<std::string> instructionSummary(std::string_view opcode);

}  // namespace ptx
