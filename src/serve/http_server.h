// `kedb serve`: the HTTP API (api.h), MCP over Streamable HTTP at /mcp
// (mcp.h) and the web page at /, on one port.
//
// The server is event-driven (Boost.Beast on Asio): a connection costs a
// few kilobytes while it waits, never a thread, so thousands of idle or
// slow clients do not keep anyone else waiting. A few I/O threads read and
// write and answer the requests that are certain to be quick (a small
// match, a lookup; HttpRouter::IsQuick); other engine work runs on a
// separate fixed pool, so a long scan does not stall reading other
// requests. What a connection may take is bounded:
// its request headers must arrive within the header deadline and its body
// within the body deadline (totals, not per-read idle timers), the body is
// refused with 413 as soon as it passes the limit, chunked or not, and
// connections past the limit get 503.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "serve/engine_slot.h"

namespace kedb::serve {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8080;                         // 0: any free port
  std::size_t max_body_bytes = 16u << 20;  // larger bodies get 413
  int engine_threads = 0;                  // threads answering requests; 0: one per core
  int io_threads = 0;                      // threads moving bytes; 0: one per core
  int max_connections = 0;                 // open at once; 0: 10,000, or what the open-file limit allows
  int header_timeout_seconds = 10;         // from waiting for a request (a new or idle connection) to its last header
  int body_timeout_seconds = 30;           // from the end of the headers to the end of the body
};

// Serves until SIGINT or SIGTERM; SIGHUP reloads the knowledge base (see
// EngineSlot::Reload). `on_listening` is called once with the bound port.
// Returns a non-OK Status when the address cannot be bound.
Status RunHttpServer(EngineSlot& slot, const ServeOptions& options, const std::function<void(int port)>& on_listening);

}  // namespace kedb::serve
