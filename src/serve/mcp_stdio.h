// `kedb mcp`: MCP over stdio. One JSON-RPC message per line in, one reply
// per line out (newline-delimited, as the protocol's stdio transport asks);
// nothing but protocol messages is written to `out`.
#pragma once

#include <cstddef>
#include <istream>
#include <ostream>

#include "serve/mcp.h"

namespace kedb::serve {

// Serves messages from `in` until it ends. A line longer than
// `max_message_bytes` is skipped and answered with a parse error.
void RunMcpStdio(const McpServer& server, std::istream& in, std::ostream& out,
                 std::size_t max_message_bytes = 64u << 20);

}  // namespace kedb::serve
