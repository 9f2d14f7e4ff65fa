#include "serve/mcp_stdio.h"

#include <string>

namespace kedb::serve {

void RunMcpStdio(const McpServer& server, std::istream& in, std::ostream& out, std::size_t max_message_bytes) {
  std::string line;
  std::streambuf* buf = in.rdbuf();
  for (;;) {
    line.clear();
    bool too_long = false;
    int c;
    while ((c = buf->sbumpc()) != std::char_traits<char>::eof() && c != '\n') {
      if (line.size() < max_message_bytes) {
        line.push_back(static_cast<char>(c));
      } else {
        too_long = true;  // keep reading to the line's end, dropping bytes
      }
    }
    const bool at_end = c == std::char_traits<char>::eof();
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (too_long) {
      out << R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: message over the size limit"}})"
          << '\n' << std::flush;
    } else if (line.find_first_not_of(" \t") != std::string::npos) {
      if (auto reply = server.Handle(line)) out << *reply << '\n' << std::flush;
    }
    if (at_end) return;
  }
}

}  // namespace kedb::serve
