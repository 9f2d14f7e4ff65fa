#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "render/render.h"

namespace kedb {
namespace {

using Json = nlohmann::ordered_json;

const std::string& Signature(const Record& r, Lang lang) {
  return lang == Lang::kZh && !r.signature_zh.empty() ? r.signature_zh : r.signature;
}

std::string Join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

}  // namespace

std::string RenderSearchText(const SearchResult& result, Lang lang) {
  const bool zh = lang == Lang::kZh;
  if (result.hits.empty()) return zh ? "没有找到相关记录。\n" : "No record matches those words.\n";
  std::string out;
  for (std::size_t i = 0; i < result.hits.size(); ++i) {
    const SearchHit& h = result.hits[i];
    out += fmt::format("{}. {}  ({} {:.2f})\n", i + 1, h.record->id, zh ? "得分" : "score", h.score);
    out += fmt::format("   {}\n", Signature(*h.record, lang));
    out += fmt::format("   {}{}\n", zh ? "匹配词：" : "matched: ", Join(h.terms));
  }
  return out;
}

std::string RenderSearchJson(const SearchResult& result, Lang lang) {
  Json hits = Json::array();
  for (const SearchHit& h : result.hits) {
    Json j;
    j["id"] = h.record->id;
    j["score"] = std::round(h.score * 1e4) / 1e4;
    j["signature"] = Signature(*h.record, lang);
    j["domain"] = h.record->domain;
    j["terms"] = h.terms;
    hits.push_back(std::move(j));
  }
  Json out{{"hits", std::move(hits)}};
  return out.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace kedb
