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
  j["confidence"] = std::round(m.confidence * 10000) / 10000;  // what abstention is decided on
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
  j["record_confidence"] = r.confidence ? Json(*r.confidence) : Json(nullptr);  // what its authors state
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
  std::string out = fmt::format("{}. {}  ({} {:.0f}%, {} {})\n", rank, r.id, zh ? "置信度" : "confidence",
                                m.confidence * 100, zh ? "行" : "line", m.line);
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

namespace {

const char* KindName(const std::string& kind, Lang lang) {
  static const std::pair<const char*, const char*> kNames[] = {
      {"python", "Python traceback"}, {"java", "Java stack trace"}, {"javascript", "JavaScript stack trace"}, {"cpp", "C++ exception"},
      {"rust-panic", "Rust panic"}, {"rustc", "rustc error"}, {"go-panic", "Go panic"}, {"npm", "npm error"},
      {"pytest", "pytest failure"}, {"compiler", "compiler error"}, {"gpu", "GPU library error"},
      {"error-line", "error line"}, {"step", "failed step"}, {"match", "known error"}};
  static const std::pair<const char*, const char*> kNamesZh[] = {
      {"python", "Python 回溯"}, {"java", "Java 堆栈"}, {"javascript", "JavaScript 堆栈"}, {"cpp", "C++ 异常"},
      {"rust-panic", "Rust panic"}, {"rustc", "rustc 错误"}, {"go-panic", "Go panic"}, {"npm", "npm 错误"},
      {"pytest", "pytest 失败"}, {"compiler", "编译错误"}, {"gpu", "GPU 库错误"},
      {"error-line", "错误行"}, {"step", "失败的步骤"}, {"match", "已知错误"}};
  for (const auto& [k, name] : lang == Lang::kZh ? kNamesZh : kNames) {
    if (kind == k) return name;
  }
  return kind.c_str();
}

std::string BlockText(const ErrorBlock& b, Lang lang) {
  const bool zh = lang == Lang::kZh;
  std::string where = b.first_line == b.last_line ? fmt::format("{} {}", zh ? "行" : "line", b.first_line)
                                                  : fmt::format("{} {}-{}", zh ? "行" : "lines", b.first_line, b.last_line);
  std::string out = fmt::format("── {} · {}", where, KindName(b.kind, lang));
  if (b.count > 1) out += fmt::format(" · ×{}", b.count);
  if (b.root) out += zh ? " · 根源错误" : " · root error";
  out += " ──\n";
  out += fmt::format("   {} {}: {}\n", zh ? "关键行" : "decisive line", b.decisive_line, b.decisive);
  if (b.matches.empty()) {
    out += zh ? "   没有匹配的已知错误\n" : "   no known error matches\n";
  }
  for (std::size_t i = 0; i < b.matches.size(); ++i) out += MatchText(b.matches[i], i + 1, lang);
  return out + "\n";
}

Json BlockJson(const ErrorBlock& b, Lang lang) {
  Json j;
  j["kind"] = b.kind;
  j["lines"] = {b.first_line, b.last_line};
  j["decisive_line"] = b.decisive_line;
  j["decisive"] = b.decisive;
  j["frames"] = b.frames;
  j["frame_count"] = b.frame_count;
  j["count"] = b.count;
  j["root"] = b.root;
  j["caused_by"] = b.caused_by >= 0 ? Json(b.caused_by) : Json(nullptr);
  Json ms = Json::array();
  for (const auto& m : b.matches) ms.push_back(MatchJson(m, lang));
  j["matches"] = std::move(ms);
  j["abstained"] = b.matches.empty();
  return j;
}

}  // namespace

std::string RenderScanText(const ScanResult& result, Lang lang) {
  std::string out;
  for (const auto& b : result.blocks) out += BlockText(b, lang);
  const ScanSummary& s = result.summary;
  out += fmt::format("{} lines, {} bytes scanned; {} error block(s), {} with a known error", s.lines, s.bytes,
                     s.blocks, s.known);
  if (s.truncated_lines) out += fmt::format("; {} over-long line(s) matched on their first and last half MiB", s.truncated_lines);
  if (s.dropped_blocks) out += fmt::format("; {} further distinct block(s) only counted", s.dropped_blocks);
  return out + "\n";
}

std::string RenderScanJson(const ScanResult& result, Lang lang) {
  Json blocks = Json::array();
  for (const auto& b : result.blocks) blocks.push_back(BlockJson(b, lang));
  const ScanSummary& s = result.summary;
  Json summary{{"lines", s.lines},   {"bytes", s.bytes},
               {"blocks", s.blocks}, {"known", s.known},
               {"truncated_lines", s.truncated_lines}, {"dropped_blocks", s.dropped_blocks}};
  Json j{{"blocks", std::move(blocks)}, {"summary", std::move(summary)}};
  return j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace kedb
