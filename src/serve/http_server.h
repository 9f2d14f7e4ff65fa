// `kedb serve`: the HTTP API (api.h), MCP over Streamable HTTP at /mcp
// (mcp.h) and the web page at /, on one port.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "serve/engine_slot.h"

namespace kedb::serve {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8080;                        // 0: any free port
  std::size_t max_body_bytes = 16u << 20;  // larger bodies get 413
  int threads = 0;                        // connections served at once; 0: 16 per core, at least 64
};

// Serves until SIGINT or SIGTERM; SIGHUP reloads the knowledge base (see
// EngineSlot::Reload). `on_listening` is called once with the bound port.
// Returns a non-OK Status when the address cannot be bound.
Status RunHttpServer(EngineSlot& slot, const ServeOptions& options, const std::function<void(int port)>& on_listening);

}  // namespace kedb::serve
