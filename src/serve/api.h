// The HTTP API's routes, free of any socket: a request in, a reply out.
// http_server.cc adapts this to the wire; tests call it directly.
//
//   POST /v1/match                  {"text","top","env","lang"} or text/plain
//   POST /v1/scan                   {"log","top","env","lang"} or text/plain
//   GET  /v1/errors/{id}            the record's native JSON, with "observed"
//                                   when outcomes were reported about it
//   POST /v1/outcomes               an outcome report (outcome_request.h);
//                                   needs Authorization: Bearer TOKEN
//   GET  /v1/errors/{id}/chain      ?depth=1..5&lang=
//   GET  /v1/search                 ?q=&limit=&domain=&lang=
//   GET  /v1/domains
//   GET  /v1/domains/{domain}/errors ?sort_by=fix_rate|name|confidence&lang=
//   GET  /v1/stats                  ?domain=
//   GET  /v1/stats/hits             how often each record was matched
//   GET  /healthz
//
// Every reply is JSON. Errors are {"error":{"code","message"}} with a 4xx
// status: 400 bad_request, 401 unauthorized, 403 writes_disabled,
// 404 not_found, 405 method_not_allowed, 413 payload_too_large,
// 415 unsupported_media_type, 503 not_ready or unavailable.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "serve/engine_slot.h"

namespace kedb::serve {

struct ApiRequest {
  std::string method;  // "GET", "POST", ...
  std::string path;    // decoded, without the query string
  std::vector<std::pair<std::string, std::string>> query;  // decoded, in order
  std::string content_type;
  std::string body;
  // The request carried the server's write token (outcome_request.h).
  bool may_write = false;

  // The first value of query parameter `name`, or nullptr.
  const std::string* Param(std::string_view name) const;
};

struct ApiReply {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
  std::string allow;  // for 405: the methods the path takes
  bool bearer_challenge = false;  // for 401: ask for a Bearer token
};

ApiReply ErrorReply(int status, std::string_view code, std::string_view message);

// Answers one request from the slot's current engine.
ApiReply HandleApi(const EngineSlot& slot, const ApiRequest& request);

// Every route HandleApi answers, as an OpenAPI path template and a method,
// so a test can hold the published OpenAPI document to it.
struct ApiRoute {
  std::string method, path;
};
std::vector<ApiRoute> ApiRoutes();

}  // namespace kedb::serve
