#include "serve/http_router.h"

#include <algorithm>
#include <cctype>
#include <exception>

#include <boost/url/parse.hpp>
#include <fmt/format.h>

#include "serve/assets.h"
#include "serve/outcome_request.h"

namespace kedb::serve {
namespace {

bool IsDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

// "host", "host:port", "[v6]" or "[v6]:port" -> the host part, or "".
std::string SplitHostPort(std::string_view authority) {
  std::string_view host = authority, port;
  if (authority.starts_with('[')) {
    std::size_t close = authority.find(']');
    if (close == std::string_view::npos) return "";
    host = authority.substr(0, close + 1);
    std::string_view rest = authority.substr(close + 1);
    if (!rest.empty()) {
      if (rest[0] != ':') return "";
      port = rest.substr(1);
      if (!IsDigits(port)) return "";
    }
  } else if (std::size_t colon = authority.find(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
    if (!IsDigits(port)) return "";
  }
  if (host.empty()) return "";
  // What a host name or address may hold; '@', '/', '%' and the like mean
  // the value is not a plain host.
  for (unsigned char c : host) {
    if (!std::isalnum(c) && c != '.' && c != '-' && c != '_' && c != '[' && c != ']' && c != ':') return "";
  }
  std::string out(host);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

HttpReply FromApi(ApiReply api) {
  HttpReply r;
  r.status = api.status;
  r.content_type = std::move(api.content_type);
  r.body = std::move(api.body);
  if (!api.allow.empty()) r.headers.emplace_back("Allow", std::move(api.allow));
  if (api.bearer_challenge) r.headers.emplace_back("WWW-Authenticate", "Bearer");
  return r;
}

}  // namespace

std::string OriginHost(std::string_view origin) {
  std::size_t sep = origin.find("://");
  if (sep == std::string_view::npos) return "";
  std::string_view scheme = origin.substr(0, sep);
  if (scheme != "http" && scheme != "https") return "";
  return SplitHostPort(origin.substr(sep + 3));
}

std::string HostHeaderHost(std::string_view host) { return SplitHostPort(host); }

bool IsLoopbackName(std::string_view host) {
  if (host == "localhost" || host == "[::1]") return true;
  return host.starts_with("127.") &&
         std::all_of(host.begin(), host.end(), [](unsigned char c) { return std::isdigit(c) || c == '.'; });
}

HttpReply HttpError(int status, std::string_view code, std::string_view message) {
  return FromApi(ErrorReply(status, code, message));
}

HttpReply HttpRouter::Route(const HttpRequest& request) const {
  try {
    return RouteChecked(request);
  } catch (const std::exception& e) {
    return HttpError(500, "internal", e.what());
  } catch (...) {
    return HttpError(500, "internal", "unknown");
  }
}

HttpReply HttpRouter::RouteChecked(const HttpRequest& request) const {
  // A page from another site may send requests here (a text/plain POST
  // needs no preflight) even though it cannot read the replies; refuse them
  // before doing any work. Only browsers send Origin, and same-origin pages
  // send this server's own.
  if (!request.origin.empty()) {
    std::string origin = OriginHost(request.origin);
    if (origin.empty() || (!IsLoopbackName(origin) && origin != HostHeaderHost(request.host))) {
      return HttpError(403, "forbidden_origin", fmt::format("Origin \"{}\" is not this server", request.origin));
    }
  }
  // DNS rebinding: a page on evil.example whose name now resolves to
  // 127.0.0.1 is same-origin with us in the browser's eyes, but still says
  // Host: evil.example.
  if (loopback_only_ && !request.host.empty() && !IsLoopbackName(HostHeaderHost(request.host))) {
    return HttpError(403, "forbidden_host",
                     fmt::format("Host \"{}\": this server listens on loopback and answers only to a loopback name",
                                 request.host));
  }

  auto url = boost::urls::parse_origin_form(request.target);
  if (!url) return HttpError(400, "bad_request", fmt::format("request target \"{}\" is not a path", request.target));
  ApiRequest api;
  api.method = request.method == "HEAD" ? "GET" : request.method;
  api.path = url->path();
  for (auto param : url->params(boost::urls::encoding_opts(true))) {
    api.query.emplace_back(std::move(param.key), std::move(param.value));
  }
  if (api.path == "/mcp") return RouteMcp(request);
  const bool write = (api.method == "POST" && (api.path == "/v1/outcomes" || api.path == "/v1/records")) ||
                     (api.method == "PUT" && api.path.starts_with("/v1/records/"));
  if (write) {
    if (auto limited = OverWriteLimit(request)) return *limited;
  }
  if (api.method == "GET") {
    if (const Asset* a = FindAsset(api.path)) {
      HttpReply r;
      r.content_type = a->content_type;
      r.body = a->body;
      r.headers.emplace_back("Cache-Control", "no-cache");
      return r;
    }
  }
  api.content_type = request.content_type;
  api.body = request.body;
  api.may_write = TokenMatches(request.authorization, slot_.write_token());
  return FromApi(HandleApi(slot_, api));
}

bool HttpRouter::IsQuick(const HttpRequest& request) {
  if (request.body.size() > kQuickBodyBytes) return false;
  std::string_view path = request.target;
  path = path.substr(0, path.find('?'));
  // Record lookups and their chains are one record's worth of work; the
  // lists under /v1/domains grow with the knowledge base, so they are not.
  return path == "/healthz" || path == "/v1/match" || path == "/v1/search" || path.starts_with("/v1/errors/") ||
         (request.method == "GET" && FindAsset(path) != nullptr);
}

std::optional<HttpReply> HttpRouter::OverWriteLimit(const HttpRequest& request) const {
  WriteLimiter* limiter = slot_.write_limiter();
  if (limiter == nullptr) return std::nullopt;
  // Every attempt counts, with the token or not: guessing it is throttled too.
  const int wait = limiter->Admit(request.peer);
  if (wait == 0) return std::nullopt;
  HttpReply r = HttpError(429, "too_many_requests",
                          fmt::format("more than {:g} writes a minute from {}; try again in {} s (--write-rate)",
                                      limiter->per_minute(), request.peer.empty() ? "this client" : request.peer, wait));
  r.headers.emplace_back("Retry-After", std::to_string(wait));
  return r;
}

HttpReply HttpRouter::RouteMcp(const HttpRequest& request) const {
  if (request.method != "POST") {
    // No server-initiated stream: every reply comes back on its POST.
    HttpReply r = HttpError(405, "method_not_allowed", "this server answers MCP on POST only");
    r.headers.emplace_back("Allow", "POST");
    return r;
  }
  const std::string& version = request.mcp_protocol_version;
  if (!version.empty() && !IsSupportedMcpVersion(version)) {
    return HttpError(400, "bad_request", fmt::format("MCP-Protocol-Version {} is not supported", version));
  }
  // A tool that writes needs the token over HTTP, as the API's writes do;
  // the refusal is an HTTP 401 so a client can ask for credentials.
  const bool may_write = TokenMatches(request.authorization, slot_.write_token());
  const bool wants_write = McpServer::WantsWrite(request.body);
  if (wants_write) {
    if (auto limited = OverWriteLimit(request)) return *limited;
  }
  if (!may_write && wants_write) {
    HttpReply r = HttpError(401, "unauthorized", "this MCP tool writes: send Authorization: Bearer TOKEN");
    r.headers.emplace_back("WWW-Authenticate", "Bearer");
    return r;
  }
  std::optional<std::string> reply = mcp_.Handle(request.body, may_write);
  HttpReply r;
  if (!reply) {
    r.content_type.clear();
    r.status = 202;  // a notification or a reply: accepted, nothing to say
    return r;
  }
  r.body = std::move(*reply);
  return r;
}

}  // namespace kedb::serve
