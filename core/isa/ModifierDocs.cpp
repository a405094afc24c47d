// ModifierDocs: looks descriptions up in ModifierDocs.def, family-specific rows first.
#include "isa/ModifierDocs.h"

namespace ptx {
namespace {

struct FamilyModifierDoc {
  Family family;
  Modifier modifier;
  std::string_view text;
};

constexpr FamilyModifierDoc kFamilyDocs[] = {
#define PTX_MODIFIER_DOC_IN(family, modifier, text) {Family::family, Modifier::modifier, text},
#define PTX_MODIFIER_DOC(modifier, text)
#include "isa/ModifierDocs.def"
#undef PTX_MODIFIER_DOC
#undef PTX_MODIFIER_DOC_IN
};

std::string_view generalDoc(Modifier modifier) {
  switch (modifier) {
#define PTX_MODIFIER_DOC_IN(family, modifier, text)
#define PTX_MODIFIER_DOC(modifier, text) \
  case Modifier::modifier:               \
    return text;
#include "isa/ModifierDocs.def"
#undef PTX_MODIFIER_DOC
#undef PTX_MODIFIER_DOC_IN
    default:
      return {};
  }
}

}  // namespace

std::string_view describeModifier(Modifier modifier, Family family) {
  if (family != Family::Unknown) {
    for (const FamilyModifierDoc& doc : kFamilyDocs) {
      if (doc.family == family && doc.modifier == modifier) return doc.text;
    }
  }
  return generalDoc(modifier);
}

}  // namespace ptx
