#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>
#include "render/evidence_render.h"
#include "render/match_parts.h"
#include "render/render.h"
#include "util/json_writer.h"
#include "util/utf8.h"

namespace kedb {
namespace {

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

// The evidence about `r`'s action `i` (0-based) of `kind` when it was
// reported on, else nullptr.
const store::ActionEvidence* Seen(const ObservedRates* observed, const Record& r, store::ActionKind kind, std::size_t i) {
  if (!observed) return nullptr;
  auto it = observed->find(r.id);
  return it == observed->end() ? nullptr : ReportedAction(&it->second, kind, i);
}

// The rates a reader is shown for `r`'s workarounds or dead ends: the
// posterior where there are reports, the curated rate elsewhere.
std::vector<double> ShownRates(const Record& r, store::ActionKind kind, const ObservedRates* observed) {
  const bool workarounds = kind == store::ActionKind::kWorkaround;
  const std::size_t n = workarounds ? r.workarounds.size() : r.dead_ends.size();
  std::vector<double> rates;
  for (std::size_t i = 0; i < n; ++i) {
    const auto* seen = Seen(observed, r, kind, i);
    rates.push_back(seen ? seen->rate.mean : workarounds ? r.workarounds[i].success_rate : r.dead_ends[i].fail_rate);
  }
  return rates;
}

std::vector<std::size_t> Descending(const std::vector<double>& rates) {
  return ByRate(rates, [](double x) { return x; });
}

void WriteSeen(util::JsonWriter& w, const store::ActionEvidence* seen, double curated) {
  if (!seen) return;
  w.Field("curated_rate", curated);
  w.Key("observed").BeginObject().Field("worked", seen->worked).Field("failed", seen->failed);
  w.Field("partial", seen->partial);
  w.Key("interval").BeginArray().Double(seen->rate.low).Double(seen->rate.high).EndArray().EndObject();
}

std::string Shorten(std::string_view s, std::size_t max_bytes) { return util::Shortened(s, max_bytes); }

// Steps written over several lines, each under `indent` spaces, at most
// `max_lines` of them (with "…" when more were left out) and `max_bytes`
// in all: a card stays a card whatever a record's steps look like.
std::string IndentedSteps(const std::string& how, std::size_t indent, std::size_t max_lines, std::size_t max_bytes) {
  std::string out;
  std::size_t at = 0, lines = 0;
  const std::string text = Shorten(how, max_bytes);
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(at, end - at);
    at = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    out.append(indent, ' ');
    if (lines++ == max_lines) {
      out += "…\n";
      break;
    }
    out += line;
    out += '\n';
  }
  return out;
}

// One match as JSON. Written straight to text rather than through a JSON
// tree: see util/json_writer.h for why.
}  // namespace

void WriteMatchObject(util::JsonWriter& w, const Match& m, Lang lang, const ObservedRates* observed) {
  const Record& r = *m.record;
  w.BeginObject();
  w.Field("id", r.id);
  w.Field("score", std::round(m.score * 10000) / 10000);
  w.Field("confidence", std::round(m.confidence * 10000) / 10000);  // what abstention is decided on
  w.Field("kind", MatchKindName(m.kind));
  w.Field("signature", Pick(lang, r.signature_zh, r.signature));
  w.Field("domain", r.domain);
  w.Field("line", uint64_t{m.line});
  w.Key("span").BeginArray().UInt(m.begin).UInt(m.end).EndArray();
  w.Key("captures").BeginObject();
  for (std::size_t i = 0; i < m.captures.size(); ++i) {
    const auto& [name, text] = m.captures[i];
    bool repeated = false;  // a name given twice keeps its first place, as a JSON object would
    for (std::size_t k = 0; k < i && !repeated; ++k) repeated = m.captures[k].first == name;
    if (!repeated) w.Field(name, text);
  }
  w.EndObject();
  w.Field("root_cause", Pick(lang, r.root_cause_zh, r.root_cause));
  w.Field("resolvable", ResolvableName(r.resolvable));
  w.Key("fix_success_rate").OptionalDouble(r.fix_success_rate);
  w.Key("record_confidence").OptionalDouble(r.confidence);  // what its authors state
  w.Key("workarounds").BeginArray();
  const std::vector<double> rates = ShownRates(r, store::ActionKind::kWorkaround, observed);
  for (std::size_t i : Descending(rates)) {
    const Workaround& fix = r.workarounds[i];
    w.BeginObject().Field("action", WorkaroundText(r, i, lang)).Field("success_rate", rates[i]);
    // The concrete steps and when the fix applies: what a reader acts on.
    if (!fix.how.empty() && fix.how != fix.action) w.Field("how", fix.how);
    if (!fix.condition.empty()) w.Field("condition", fix.condition);
    WriteSeen(w, Seen(observed, r, store::ActionKind::kWorkaround, i), fix.success_rate);
    w.EndObject();
  }
  w.EndArray();
  w.Key("dead_ends").BeginArray();
  const std::vector<double> fails = ShownRates(r, store::ActionKind::kDeadEnd, observed);
  for (std::size_t i : Descending(fails)) {
    const DeadEnd& d = r.dead_ends[i];
    w.BeginObject().Field("action", d.action).Field("why_fails", d.why_fails).Field("fail_rate", fails[i]);
    WriteSeen(w, Seen(observed, r, store::ActionKind::kDeadEnd, i), d.fail_rate);
    w.EndObject();
  }
  w.EndArray();
  w.Key("why").BeginArray();
  for (const auto& f : m.why) {
    w.BeginObject().Field("factor", f.name).Field("value", std::round(f.value * 10000) / 10000);
    w.Field("weight", f.weight).Field("detail", f.detail).EndObject();
  }
  w.EndArray();
  if (!r.attribution.empty()) w.Field("attribution", r.attribution);
  w.EndObject();
}


std::string Paint(TextStyle style, std::string_view sgr, std::string_view text) {
  if (!style.color) return std::string(text);
  return fmt::format("\x1b[{}m{}\x1b[0m", sgr, text);
}

std::string_view RateColor(double rate, bool dead_end) {
  if (dead_end) return "31";
  return rate >= 0.7 ? "32" : rate >= 0.4 ? "33" : "31";
}

std::string MatchCardText(const Match& m, std::size_t rank, Lang lang, const ObservedRates* observed,
                          TextStyle style) {
  const Record& r = *m.record;
  bool zh = lang == Lang::kZh;
  std::string out = fmt::format("{}. {}  ({} {:.0f}%, {} {})\n", rank, Paint(style, "1;36", r.id),
                                zh ? "置信度" : "confidence", m.confidence * 100, zh ? "行" : "line", m.line);
  out += "   " + Shorten(Pick(lang, r.signature_zh, r.signature), 200) + "\n";
  std::string cause = Pick(lang, r.root_cause_zh, r.root_cause);
  if (!cause.empty()) out += fmt::format("   {} {}\n", zh ? "原因：" : "cause:", Shorten(cause, 300));
  const std::vector<double> rates = ShownRates(r, store::ActionKind::kWorkaround, observed);
  auto ws = Descending(rates);
  for (std::size_t k = 0; k < ws.size() && k < 2; ++k) {
    const auto* seen = Seen(observed, r, store::ActionKind::kWorkaround, ws[k]);
    out += fmt::format("   {} {} {}{}\n", zh ? "可试：" : "try  ",
                       Paint(style, RateColor(rates[ws[k]], false), fmt::format("{:>3.0f}%", rates[ws[k]] * 100)),
                       Shorten(WorkaroundText(r, ws[k], lang), 200),
                       seen ? fmt::format(" ({} {}/{})", zh ? "反馈有效" : "reported worked", seen->worked, seen->reports())
                            : "");
    // How to do it, for the fix tried first: the steps, not only the idea.
    const Workaround& fix = r.workarounds[ws[k]];
    if (k == 0 && !fix.how.empty() && fix.how != fix.action) out += IndentedSteps(fix.how, 14, 4, 400);  // under the action
  }
  const std::vector<double> fails = ShownRates(r, store::ActionKind::kDeadEnd, observed);
  auto ds = Descending(fails);
  if (!ds.empty()) {
    const DeadEnd& d = r.dead_ends[ds[0]];
    // What not to do, and why it does not help.
    std::string what = d.action.empty() ? d.why_fails
                       : d.why_fails.empty() ? d.action
                                             : d.action + " — " + d.why_fails;
    out += fmt::format("   {} {} {}\n", zh ? "勿试：" : "avoid",
                       Paint(style, RateColor(fails[ds[0]], true), fmt::format("{:>3.0f}%", fails[ds[0]] * 100)),
                       Shorten(what, 300));
  }
  if (!r.attribution.empty()) out += fmt::format("   ({})\n", r.attribution);
  return out;
}


ShownFix FirstWorkaround(const Record& r, const ObservedRates* observed) {
  if (r.workarounds.empty()) return {};
  const std::vector<double> rates = ShownRates(r, store::ActionKind::kWorkaround, observed);
  const std::size_t first = Descending(rates).front();
  return {static_cast<long>(first), rates[first]};
}

std::string RenderMatchText(const MatchResult& result, Lang lang, const ObservedRates* observed, TextStyle style) {
  if (result.matches.empty()) return lang == Lang::kZh ? "未找到已知错误。\n" : "No known error found.\n";
  std::string out;
  for (std::size_t i = 0; i < result.matches.size(); ++i) {
    if (i) out += "\n";
    out += MatchCardText(result.matches[i], i + 1, lang, observed, style);
  }
  return out;
}

void WriteMatchJson(util::JsonWriter& w, const MatchResult& result, Lang lang, const ObservedRates* observed) {
  w.BeginObject().Key("matches").BeginArray();
  for (const auto& m : result.matches) WriteMatchObject(w, m, lang, observed);
  w.EndArray().Field("abstained", result.abstained).EndObject();
}

std::string RenderMatchJson(const MatchResult& result, Lang lang, const ObservedRates* observed) {
  util::JsonWriter w;
  WriteMatchJson(w, result, lang, observed);
  return w.Take() + "\n";
}

}  // namespace kedb
