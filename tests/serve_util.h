// Requests to a server's router without sockets, as a local client on the
// loopback address sends them.
#pragma once

#include <string>

#include "serve/engine_slot.h"
#include "serve/http_router.h"

namespace kedb::testing {

// `method` `path` with a JSON `body` (ignored for GET) and an
// Authorization header, from `peer`, to a loopback-only router on `slot`.
inline serve::HttpReply RouteLocal(const serve::EngineSlot& slot, const std::string& method, const std::string& path,
                                   const std::string& body = "", const std::string& authorization = "",
                                   const std::string& peer = "127.0.0.1") {
  serve::HttpRouter router(slot, /*loopback_only=*/true);
  serve::HttpRequest r;
  r.method = method;
  r.target = path;
  r.host = "localhost";
  r.peer = peer;
  r.authorization = authorization;
  if (method != "GET") {
    r.content_type = "application/json";
    r.body = body;
  }
  return router.Route(r);
}

}  // namespace kedb::testing
