// MessageReader: incremental parsing of Content-Length framed messages.
#include "protocol/MessageReader.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace ptx::lsp {
namespace {

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

}  // namespace

std::optional<MessageReader::Result> MessageReader::next() {
  while (true) {
    if (consumed_ == buffer_.size() && consumed_ > 0) {
      // Everything read has been handed out. A large message (a 10 MB didOpen) left the
      // buffer that large: give it back rather than hold it for the session.
      if (buffer_.capacity() > kKeptCapacity) {
        std::string().swap(buffer_);
      } else {
        buffer_.clear();
      }
      consumed_ = 0;
    }
    // Compact now and then so the buffer does not grow without bound.
    if (consumed_ > (std::size_t{1} << 20) && consumed_ * 2 > buffer_.size()) {
      buffer_.erase(0, consumed_);
      consumed_ = 0;
    }
    if (skipBytes_ > 0) {
      std::size_t available = buffer_.size() - consumed_;
      std::size_t drop = std::min(available, skipBytes_);
      consumed_ += drop;
      skipBytes_ -= drop;
      if (skipBytes_ > 0) return std::nullopt;
    }
    if (pendingLength_) {
      if (buffer_.size() - consumed_ < *pendingLength_) return std::nullopt;
      Result result{Result::Kind::Message, buffer_.substr(consumed_, *pendingLength_)};
      consumed_ += *pendingLength_;
      pendingLength_.reset();
      return result;
    }
    std::string_view rest(buffer_.data() + consumed_, buffer_.size() - consumed_);
    // Tolerate stray line breaks between messages.
    std::size_t leading = 0;
    while (leading < rest.size() && (rest[leading] == '\r' || rest[leading] == '\n')) ++leading;
    consumed_ += leading;
    rest.remove_prefix(leading);
    std::size_t end = rest.find("\r\n\r\n");
    std::size_t separator = 4;
    if (end == std::string_view::npos) {
      end = rest.find("\n\n");  // Some hand-written clients send bare LFs.
      separator = 2;
    }
    if (end == std::string_view::npos) {
      if (rest.size() > 64 * 1024) {
        // No header block ends within 64 KiB: this is not LSP framing; drop it.
        consumed_ += rest.size();
        return Result{Result::Kind::BadHeader, "header block longer than 64 KiB without a blank line"};
      }
      return std::nullopt;
    }
    std::string_view headers = rest.substr(0, end);
    consumed_ += end + separator;
    std::optional<std::size_t> length;
    std::string problem;
    while (!headers.empty()) {
      std::size_t lineEnd = headers.find('\n');
      std::string_view line = trim(headers.substr(0, lineEnd));
      headers = lineEnd == std::string_view::npos ? std::string_view() : headers.substr(lineEnd + 1);
      if (line.empty()) continue;
      std::size_t colon = line.find(':');
      if (colon == std::string_view::npos) {
        problem = "header line without ':'";
        continue;
      }
      std::string_view name = trim(line.substr(0, colon));
      std::string_view value = trim(line.substr(colon + 1));
      if (equalsIgnoringCase(name, "Content-Length")) {
        std::size_t parsed = 0;
        auto [ptr, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
        if (error != std::errc() || ptr != value.data() + value.size()) {
          problem = "Content-Length is not a number";
        } else {
          length = parsed;
        }
      }
    }
    if (!length) {
      return Result{Result::Kind::BadHeader, problem.empty() ? "missing Content-Length header" : problem};
    }
    if (*length > maxBody_) {
      skipBytes_ = *length;
      return Result{Result::Kind::BadHeader, "message of " + std::to_string(*length) + " bytes is over the limit"};
    }
    pendingLength_ = length;
  }
}

std::string frameMessage(std::string_view body) {
  std::string framed = "Content-Length: ";
  framed += std::to_string(body.size());
  framed += "\r\n\r\n";
  framed += body;
  return framed;
}

}  // namespace ptx::lsp
