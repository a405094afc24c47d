// Annotated: strips `^`, `[[`, `]]` and `$name` markers and records where they were.
#include "Annotated.h"

#include <cctype>
#include <stdexcept>

namespace ptx::test {
namespace {

// A `$name` right at `at` (letters, digits, underscores); empty when there is none.
std::string_view nameAt(std::string_view text, std::size_t at) {
  if (at >= text.size() || text[at] != '$') return {};
  std::size_t end = at + 1;
  while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
  return text.substr(at + 1, end - at - 1);
}

}  // namespace

Annotated::Annotated(std::string_view annotated) {
  struct Open {
    std::uint32_t begin;
    std::string name;
  };
  std::vector<Open> open;
  for (std::size_t i = 0; i < annotated.size();) {
    std::string_view name = nameAt(annotated, i);
    if (!name.empty() && i + 1 + name.size() < annotated.size() && annotated[i + 1 + name.size()] == '^') {
      namedPoints_[std::string(name)] = static_cast<std::uint32_t>(text_.size());
      points_.push_back(static_cast<std::uint32_t>(text_.size()));
      i += name.size() + 2;
    } else if (annotated[i] == '^') {
      points_.push_back(static_cast<std::uint32_t>(text_.size()));
      ++i;
    } else if (annotated.compare(i, 2, "[[") == 0) {
      i += 2;
      std::string_view rangeName = nameAt(annotated, i);
      if (!rangeName.empty() && i + 1 + rangeName.size() < annotated.size() && annotated[i + 1 + rangeName.size()] == ':') {
        i += rangeName.size() + 2;
      } else {
        rangeName = {};
      }
      open.push_back({static_cast<std::uint32_t>(text_.size()), std::string(rangeName)});
    } else if (annotated.compare(i, 2, "]]") == 0 && !open.empty()) {
      ByteRange range{open.back().begin, static_cast<std::uint32_t>(text_.size())};
      if (!open.back().name.empty()) namedRanges_[open.back().name] = range;
      ranges_.push_back(range);
      open.pop_back();
      i += 2;
    } else {
      text_.push_back(annotated[i]);
      ++i;
    }
  }
  if (!open.empty()) throw std::invalid_argument("annotated text has an unclosed [[");
}

std::uint32_t Annotated::point() const {
  if (points_.size() != 1) throw std::logic_error("annotated text needs exactly one ^, has " + std::to_string(points_.size()));
  return points_.front();
}

std::uint32_t Annotated::point(std::string_view name) const {
  auto it = namedPoints_.find(name);
  if (it == namedPoints_.end()) throw std::logic_error("annotated text has no point $" + std::string(name));
  return it->second;
}

ByteRange Annotated::range() const {
  if (ranges_.size() != 1) throw std::logic_error("annotated text needs exactly one [[ ]], has " + std::to_string(ranges_.size()));
  return ranges_.front();
}

ByteRange Annotated::range(std::string_view name) const {
  auto it = namedRanges_.find(name);
  if (it == namedRanges_.end()) throw std::logic_error("annotated text has no range $" + std::string(name));
  return it->second;
}

}  // namespace ptx::test
