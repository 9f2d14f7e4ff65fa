// HttpRouter: one HTTP request, already read off the wire, in; the reply
// out. It decides everything about a request that is not about sockets:
// which browser pages may call the server (Origin and Host), the target's
// path and query, and whether the web page, MCP or the API answers.
// http_server.cc only moves bytes; tests and the fuzzer call Route directly.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "serve/api.h"
#include "serve/engine_slot.h"
#include "serve/mcp.h"

namespace kedb::serve {

// The parts of a request the router reads. Header values are as sent; an
// absent header is an empty string.
struct HttpRequest {
  std::string method;  // "GET", "POST", ...
  std::string target;  // "/v1/search?q=cudnn", as on the request line
  std::string host, origin, content_type, mcp_protocol_version, authorization;
  std::string body;
  std::string peer;  // the client's address ("" when unknown): writes are limited per peer
};

struct HttpReply {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // besides Content-Type and Content-Length
};

// A reply in the API's error shape ({"error":{"code","message"}}).
HttpReply HttpError(int status, std::string_view code, std::string_view message);

class HttpRouter {
 public:
  // `loopback_only`: the server listens on a loopback address only. Then a
  // request must name a loopback host in Host, so a page on another site
  // whose name was rebound to 127.0.0.1 cannot read the API.
  HttpRouter(const EngineSlot& slot, bool loopback_only) : slot_(slot), mcp_(slot), loopback_only_(loopback_only) {}

  // Thread-safe; never throws (an exception from below becomes a 500).
  HttpReply Route(const HttpRequest& request) const;

  // Whether `request` is certain to be answered in well under a
  // millisecond: a health check, or a match, search or record lookup with
  // a body of at most kQuickBodyBytes. The server answers those on the
  // thread that read them, saving two hand-offs between threads (about
  // half the latency of a small match under load); everything else goes
  // to the engine pool, so a long scan never holds up reading others.
  static bool IsQuick(const HttpRequest& request);
  static constexpr std::size_t kQuickBodyBytes = 16u << 10;

 private:
  HttpReply RouteChecked(const HttpRequest& request) const;
  HttpReply RouteMcp(const HttpRequest& request) const;
  // 429 with Retry-After when `request`, a write, is over its client's
  // limit (EngineSlot::write_limiter); nullopt to go ahead.
  std::optional<HttpReply> OverWriteLimit(const HttpRequest& request) const;

  const EngineSlot& slot_;
  const McpServer mcp_;
  const bool loopback_only_;
};

// The host of an Origin header ("http://localhost:8080" -> "localhost"),
// or "" when the value is not exactly scheme://host[:port]: an Origin with
// userinfo, a path or anything else is refused rather than guessed at.
std::string OriginHost(std::string_view origin);

// The host of a Host header ("[::1]:8080" -> "[::1]"), or "" when malformed.
std::string HostHeaderHost(std::string_view host);

bool IsLoopbackName(std::string_view host);

}  // namespace kedb::serve
