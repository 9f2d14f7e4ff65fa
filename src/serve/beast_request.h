// The request Beast parsed, as the router reads it. One conversion for the
// server and the HTTP fuzzer, so the fuzzer drives the same path the wire
// does.
#pragma once

#include <string>
#include <utility>

#include <boost/beast/http.hpp>

#include "serve/http_router.h"

namespace kedb::serve {

inline HttpRequest FromBeast(boost::beast::http::request<boost::beast::http::string_body>&& req) {
  namespace http = boost::beast::http;
  HttpRequest request;
  request.method = std::string(req.method_string());
  request.target = std::string(req.target());
  request.host = std::string(req[http::field::host]);
  request.origin = std::string(req[http::field::origin]);
  request.content_type = std::string(req[http::field::content_type]);
  request.mcp_protocol_version = std::string(req["MCP-Protocol-Version"]);
  request.authorization = std::string(req[http::field::authorization]);
  request.body = std::move(req.body());
  return request;
}

}  // namespace kedb::serve
