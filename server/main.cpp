// ptxls: the PTX language server. Speaks LSP over stdio (default) or, for debugging, over
// one TCP connection (`--listen 127.0.0.1:PORT`). The transport lives here; Server knows
// nothing of it.
#include <unistd.h>

// Boost 1.74's asio uses std::exchange without including <utility> in C++20 mode.
#include <utility>

#include <boost/asio.hpp>
#include <array>
#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>

#include "Server.h"
#include "protocol/MessageReader.h"

namespace asio = boost::asio;

namespace {

constexpr std::string_view kUsage =
    "usage: ptxls [--stdio | --listen HOST:PORT] [--version] [--help]\n"
    "The PTX language server. Speaks the Language Server Protocol over stdio by default;\n"
    "--listen serves one client over TCP (for debugging).\n";

// Reads framed messages from `input` and writes replies to `output` until exit or EOF.
template <typename Input, typename Output>
int serve(Input& input, Output& output) {
  ptx::lsp::Server server([&](const std::string& body) {
    std::string framed = ptx::lsp::frameMessage(body);
    boost::system::error_code error;
    asio::write(output, asio::buffer(framed), error);
  });
  ptx::lsp::MessageReader reader;
  std::array<char, 64 * 1024> chunk{};
  while (!server.exitRequested()) {
    boost::system::error_code error;
    std::size_t received = input.read_some(asio::buffer(chunk), error);
    if (received > 0) reader.feed(std::string_view(chunk.data(), received));
    while (auto message = reader.next()) {
      if (message->kind == ptx::lsp::MessageReader::Result::Kind::Message) {
        server.handle(message->body);
      } else {
        server.handleBadFrame(message->body);
      }
      if (server.exitRequested()) break;
    }
    if (error) break;  // EOF or a broken pipe: the client is gone.
  }
  return server.exitRequested() ? server.exitCode() : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string listen;
  for (int i = 1; i < argc; ++i) {
    std::string_view argument = argv[i];
    if (argument == "--help" || argument == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (argument == "--version") {
      std::cout << "ptxls " << PTXLS_VERSION << "\n";
      return 0;
    }
    if (argument == "--stdio") continue;
    if (argument == "--listen" && i + 1 < argc) {
      listen = argv[++i];
      continue;
    }
    std::cerr << "ptxls: unknown argument '" << argument << "'\n" << kUsage;
    return 2;
  }
  asio::io_context io;
  try {
    if (!listen.empty()) {
      auto colon = listen.rfind(':');
      if (colon == std::string::npos) {
        std::cerr << "ptxls: --listen needs HOST:PORT\n";
        return 2;
      }
      asio::ip::tcp::acceptor acceptor(
          io, asio::ip::tcp::endpoint(asio::ip::make_address(listen.substr(0, colon)),
                                      static_cast<unsigned short>(std::stoi(listen.substr(colon + 1)))));
      std::cerr << "ptxls: listening on " << listen << "\n";
      asio::ip::tcp::socket socket(io);
      acceptor.accept(socket);
      return serve(socket, socket);
    }
    asio::posix::stream_descriptor input(io, ::dup(STDIN_FILENO));
    asio::posix::stream_descriptor output(io, ::dup(STDOUT_FILENO));
    return serve(input, output);
  } catch (const std::exception& error) {
    std::cerr << "ptxls: " << error.what() << "\n";
    return 1;
  }
}
