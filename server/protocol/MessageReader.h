// MessageReader: splits a byte stream into JSON-RPC message bodies by the LSP base protocol
// (`Content-Length: N\r\n` headers, a blank line, then N bytes).
//
// Transport-agnostic: the caller feeds whatever bytes arrived; complete bodies come out in
// order. A malformed header block is reported and skipped up to the next blank line, so one
// bad message never wedges the stream.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ptx::lsp {

class MessageReader {
 public:
  // Messages larger than this are refused (their bytes are skipped).
  explicit MessageReader(std::size_t maxBody = std::size_t{512} << 20) : maxBody_(maxBody) {}

  void feed(std::string_view bytes) { buffer_.append(bytes); }

  struct Result {
    enum class Kind { Message, BadHeader } kind;
    std::string body;  // The message, or a description of the bad header.
  };

  // The next complete message or header error; nullopt when more bytes are needed.
  std::optional<Result> next();

  // Bytes the reader holds allocated for input not yet handed out.
  std::size_t bufferCapacity() const { return buffer_.capacity(); }

 private:
  // Capacity the buffer keeps once emptied; anything larger is released.
  static constexpr std::size_t kKeptCapacity = std::size_t{1} << 20;

  std::string buffer_;
  std::size_t consumed_ = 0;
  std::size_t maxBody_;
  std::optional<std::size_t> pendingLength_;  // Body length of a header block already read.
  std::size_t skipBytes_ = 0;                 // Bytes of a refused body still to drop.
};

// Frames a body for sending.
std::string frameMessage(std::string_view body);

}  // namespace ptx::lsp
