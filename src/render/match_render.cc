#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "render/render.h"

namespace kedb {
namespace {

using Json = nlohmann::ordered_json;

const std::string& Pick(Lang lang, const std::string& zh, const std::string& en) {
  return lang == Lang::kZh && !zh.empty() ? zh : en;
}

std::string WorkaroundText(const Record& r, std::size_t i, Lang lang) {
  const std::string& en = r.workarounds[i].action;
  return i < r.workarounds_zh.size() ? Pick(lang, r.workarounds_zh[i], en) : en;
}

template <typename T, typename Rate>
std::vector<std::size_t> ByRate(const std::vector<T>& items, Rate rate) {
  std::vector<std::size_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rate(items[a]) > rate(items[b]); });
  return order;
}

std::string Shorten(std::string s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // keep UTF-8 whole
  return s.substr(0, cut) + "…";
}

Json MatchJson(const Match& m, Lang lang) {
  const Record& r = *m.record;
  Json j;
  j["id"] = r.id;
  j["score"] = std::round(m.score * 10000) / 10000;
  j["kind"] = m.kind;
  j["signature"] = Pick(lang, r.signature_zh, r.signature);
  j["domain"] = r.domain;
  j["line"] = m.line;
  j["span"] = {m.begin, m.end};
  Json caps = Json::object();
  for (const auto& [k, v] : m.captures) caps[k] = v;
  j["captures"] = std::move(caps);
  j["root_cause"] = Pick(lang, r.root_cause_zh, r.root_cause);
  j["resolvable"] = ResolvableName(r.resolvable);
  j["fix_success_rate"] = r.fix_success_rate ? Json(*r.fix_success_rate) : Json(nullptr);
  j["confidence"] = r.confidence ? Json(*r.confidence) : Json(nullptr);
  Json ws = Json::array();
  for (std::size_t i : ByRate(r.workarounds, [](const Workaround& w) { return w.success_rate; })) {
    ws.push_back({{"action", WorkaroundText(r, i, lang)}, {"success_rate", r.workarounds[i].success_rate}});
  }
  j["workarounds"] = std::move(ws);
  Json ds = Json::array();
  for (std::size_t i : ByRate(r.dead_ends, [](const DeadEnd& d) { return d.fail_rate; })) {
    ds.push_back({{"action", r.dead_ends[i].action},
                  {"why_fails", r.dead_ends[i].why_fails},
                  {"fail_rate", r.dead_ends[i].fail_rate}});
  }
  j["dead_ends"] = std::move(ds);
  Json why = Json::array();
  for (const auto& f : m.why) {
    why.push_back({{"factor", f.name}, {"value", std::round(f.value * 10000) / 10000}, {"weight", f.weight},
                   {"detail", f.detail}});
  }
  j["why"] = std::move(why);
  if (!r.attribution.empty()) j["attribution"] = r.attribution;
  return j;
}

std::string MatchText(const Match& m, std::size_t rank, Lang lang) {
  const Record& r = *m.record;
  bool zh = lang == Lang::kZh;
  std::string out = fmt::format("{}. {}  ({} {:.2f}, {} {})\n", rank, r.id, zh ? "得分" : "score", m.score,
                                zh ? "行" : "line", m.line);
  out += "   " + Shorten(Pick(lang, r.signature_zh, r.signature), 200) + "\n";
  std::string cause = Pick(lang, r.root_cause_zh, r.root_cause);
  if (!cause.empty()) out += fmt::format("   {} {}\n", zh ? "原因：" : "cause:", Shorten(cause, 300));
  auto ws = ByRate(r.workarounds, [](const Workaround& w) { return w.success_rate; });
  for (std::size_t k = 0; k < ws.size() && k < 2; ++k) {
    out += fmt::format("   {} {:>3.0f}% {}\n", zh ? "可试：" : "try  ", r.workarounds[ws[k]].success_rate * 100,
                       Shorten(WorkaroundText(r, ws[k], lang), 200));
  }
  auto ds = ByRate(r.dead_ends, [](const DeadEnd& d) { return d.fail_rate; });
  if (!ds.empty()) {
    const DeadEnd& d = r.dead_ends[ds[0]];
    std::string what = d.action.empty() ? d.why_fails : d.action;
    out += fmt::format("   {} {:>3.0f}% {}\n", zh ? "勿试：" : "avoid", d.fail_rate * 100, Shorten(what, 200));
  }
  if (!r.attribution.empty()) out += fmt::format("   ({})\n", r.attribution);
  return out;
}

}  // namespace

std::string RenderMatchText(const MatchResult& result, Lang lang) {
  if (result.matches.empty()) return lang == Lang::kZh ? "未找到已知错误。\n" : "No known error found.\n";
  std::string out;
  for (std::size_t i = 0; i < result.matches.size(); ++i) {
    if (i) out += "\n";
    out += MatchText(result.matches[i], i + 1, lang);
  }
  return out;
}

std::string RenderMatchJson(const MatchResult& result, Lang lang) {
  Json j;
  Json ms = Json::array();
  for (const auto& m : result.matches) ms.push_back(MatchJson(m, lang));
  j["matches"] = std::move(ms);
  j["abstained"] = result.abstained;
  return j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string RenderRegionText(const Region& region, Lang lang) {
  std::string out = region.first_line == region.last_line
                        ? fmt::format("── {} {} ──\n", lang == Lang::kZh ? "行" : "line", region.first_line)
                        : fmt::format("── {} {}-{} ──\n", lang == Lang::kZh ? "行" : "lines", region.first_line,
                                      region.last_line);
  for (std::size_t i = 0; i < region.matches.size(); ++i) out += MatchText(region.matches[i], i + 1, lang);
  return out + "\n";
}

std::string RenderRegionJson(const Region& region, Lang lang) {
  Json j;
  j["lines"] = {region.first_line, region.last_line};
  Json ms = Json::array();
  for (const auto& m : region.matches) ms.push_back(MatchJson(m, lang));
  j["matches"] = std::move(ms);
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string RenderScanSummaryText(const ScanSummary& s) {
  std::string out = fmt::format("{} lines, {} bytes scanned; {} region(s) with known errors", s.lines, s.bytes,
                                s.regions);
  if (s.truncated_lines) out += fmt::format("; {} over-long line(s) matched on their first 1 MiB", s.truncated_lines);
  return out + "\n";
}

std::string RenderScanSummaryJson(const ScanSummary& s) {
  Json j{{"lines", s.lines}, {"bytes", s.bytes}, {"regions", s.regions}, {"truncated_lines", s.truncated_lines}};
  return j.dump();
}

}  // namespace kedb
