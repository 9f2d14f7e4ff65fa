// Files the server sends as they are: the web page and the OpenAPI
// document. They are compiled into the binary (cmake/embed_assets.cmake),
// so `kedb serve` needs nothing beside it and no CDN.
#pragma once

#include <string_view>

namespace kedb::serve {

struct Asset {
  std::string_view path;          // "/", "/app.js", "/v1/openapi.json"
  std::string_view content_type;  // "text/html; charset=utf-8", ...
  std::string_view body;
};

// The asset served at `path`, or nullptr.
const Asset* FindAsset(std::string_view path);

}  // namespace kedb::serve
