#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "render/render.h"

namespace kedb {

std::string RenderClusterText(const std::vector<logs::Template>& templates) {
  if (templates.empty()) return "No unknown errors: every error block matched a known error.\n";
  std::string out;
  for (std::size_t i = 0; i < templates.size(); ++i) {
    const auto& t = templates[i];
    out += fmt::format("{}. ×{}  {}\n", i + 1, t.count, t.text);
    out += fmt::format("   example: {}\n", t.example);
    out += fmt::format("   regex:   {}\n", t.regex);
    out += fmt::format("   checked: matches {} of {} distinct members\n\n", t.verified, t.members.size());
  }
  return out;
}

std::string RenderClusterJson(const std::vector<logs::Template>& templates) {
  using Json = nlohmann::ordered_json;
  Json list = Json::array();
  for (const auto& t : templates) {
    list.push_back(Json{{"template", t.text},
                        {"count", t.count},
                        {"example", t.example},
                        {"regex", t.regex},
                        {"members", t.members.size()},
                        {"verified", t.verified}});
  }
  return Json{{"templates", std::move(list)}}.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace kedb
