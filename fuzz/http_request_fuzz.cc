// Feeds the input as bytes off a connection: Boost.Beast's request parser
// with the server's limits (64 KiB of headers, a 1 MiB body) reads up to
// four pipelined requests; each one that parses whole becomes an
// HttpRequest as the server's Session::Dispatch builds it and goes to
// HttpRouter::Route over the bundled knowledge base (loaded once).
//
// A bug is a crash, a sanitizer report, an exception out of Route (it
// promises none), or a reply the server could not send as it should:
//   - a status outside 100-599, or 500, which Route gives only when an
//     exception came up from below (the API answers errors with 4xx);
//   - an application/json body that is not valid JSON (UTF-8 included);
//   - a header that is not a plain name and a value without CR, LF or NUL.
#include <cstdint>
#include <string>
#include <string_view>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include "bundled_slot.h"
#include "fuzz_check.h"
#include "serve/beast_request.h"
#include "serve/http_router.h"

namespace {

namespace beast = boost::beast;
namespace http = beast::http;

constexpr std::size_t kHeaderLimit = 64u << 10;
constexpr std::size_t kBodyLimit = 1u << 20;
constexpr int kMaxRequests = 4;

bool IsToken(std::string_view name) {
  if (name.empty()) return false;
  for (unsigned char c : name) {
    if (c <= ' ' || c >= 0x7F || std::string_view("()<>@,;:\\\"/[]?={}").find(c) != std::string_view::npos) {
      return false;
    }
  }
  return true;
}

void CheckReply(const kedb::serve::HttpReply& reply) {
  FUZZ_CHECK(reply.status >= 100 && reply.status <= 599);
  if (reply.status == 500) std::fprintf(stderr, "500: %s\n", reply.body.c_str());
  FUZZ_CHECK(reply.status != 500);
  if (reply.content_type.starts_with("application/json")) {
    FUZZ_CHECK(nlohmann::json::accept(reply.body));
  }
  FUZZ_CHECK(reply.content_type.find_first_of("\r\n", 0) == std::string::npos);
  for (const auto& [name, value] : reply.headers) {
    FUZZ_CHECK(IsToken(name));
    FUZZ_CHECK(value.find_first_of(std::string_view("\r\n\0", 3)) == std::string::npos);
  }
}


}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The server's default: listening on loopback, so Host is checked.
  static const kedb::serve::HttpRouter router(kedb::fuzz::BundledSlot(), /*loopback_only=*/true);
  std::size_t used = 0;
  for (int n = 0; n < kMaxRequests && used < size; ++n) {
    http::request_parser<http::string_body> parser;
    parser.header_limit(kHeaderLimit);
    parser.body_limit(kBodyLimit);
    parser.eager(true);
    beast::error_code ec;
    while (!parser.is_done() && used < size) {
      const std::size_t took = parser.put(boost::asio::buffer(data + used, size - used), ec);
      used += took;
      if (ec == http::error::need_more && took > 0) {
        ec = {};
        continue;
      }
      if (ec || took == 0) break;  // an error, or the rest is not a whole request yet
    }
    if (!parser.is_done()) return 0;
    CheckReply(router.Route(kedb::serve::FromBeast(parser.release())));
  }
  return 0;
}
