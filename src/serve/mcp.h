// McpServer: the Model Context Protocol over any transport. It takes one
// JSON-RPC 2.0 message and gives the reply to send, if any; the stdio loop
// (kedb mcp) and the Streamable HTTP endpoint (/mcp on kedb serve) only
// move bytes.
//
// Served: initialize (protocol versions 2025-11-25 back to 2024-11-05,
// the client's own when known, else the newest), ping, tools/list,
// tools/call (see mcp_tools.h), resources/list, resources/templates/list
// and resources/read for records as kedb://errors/{id}, and
// notifications, which get no reply. Errors follow JSON-RPC: -32700 parse
// error, -32600 invalid request, -32601 unknown method, -32602 invalid
// params (an unknown tool, or arguments its schema refuses, naming the
// field). A tool that runs but cannot answer (an unknown id) returns a
// result with isError true, as the protocol asks.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "serve/engine_slot.h"

namespace kedb::serve {

inline constexpr const char* kMcpLatestVersion = "2025-11-25";
bool IsSupportedMcpVersion(std::string_view version);

class McpServer {
 public:
  explicit McpServer(const EngineSlot& slot) : slot_(slot) {}

  // The reply to one message (a JSON text, no trailing newline), or nullopt
  // for notifications and for replies from the client. Thread-safe.
  // `may_write`: the sender may call tools that write (report_outcome);
  // over stdio the user's own process always may.
  std::optional<std::string> Handle(std::string_view message, bool may_write = true) const;

  // Whether `message` calls a tool that writes, so a transport can ask for
  // credentials before handing it over.
  static bool WantsWrite(std::string_view message);

 private:
  const EngineSlot& slot_;
};

}  // namespace kedb::serve
