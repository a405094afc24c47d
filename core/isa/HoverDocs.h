// HoverDocs: the Markdown that hover shows for a PTX word — an instruction family, a
// directive, a special register, a type, a state space or a modifier — rendered from the ISA
// reference tables, the instruction table and the modifier descriptions (ModifierDocs.def). No LSP here: the server wraps the text in its reply.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "isa/InstructionFacts.h"

namespace ptx {

// Documentation for `word` as spelled in source: "add", ".maxntid", "%tid", "%tid.x",
// ".f16x2", ".shared", ".shared::cta", ".rn". nullopt when the word is none of these.
std::optional<std::string> hoverMarkdown(std::string_view word);

// Documentation for a modifier spelled on an instruction of `family`: a directive, type or
// state space as hoverMarkdown shows it, else the modifier's description for that family
// (`.hi` on mul is the product's upper half, on setp a comparison).
std::optional<std::string> modifierHover(std::string_view spelled, Family family);

// The components a special register has (".x", ".y", ".z" for `%tid`); empty for a scalar
// one or an unknown name.
std::span<const std::string_view> specialRegisterComponents(std::string_view name);

// Hover for an instruction family, listing its forms from the instruction table.
std::optional<std::string> instructionHover(std::string_view opcode);

// The same without the list of forms: summary, main syntax and requirements, short enough
// for a completion item.
std::optional<std::string> instructionSummary(std::string_view opcode);

}  // namespace ptx
