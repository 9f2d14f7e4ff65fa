#include "render/evidence_render.h"

#include <algorithm>
#include <ctime>

#include <fmt/format.h>

#include "util/json_writer.h"

namespace kedb {
namespace {

void WriteTime(util::JsonWriter& w, std::string_view key, int64_t seconds) {
  w.Key(key);
  if (seconds > 0) {
    w.String(IsoTime(seconds));
  } else {
    w.Null();
  }
}

void WriteRate(util::JsonWriter& w, const store::Rate& r) {
  w.Field("rate", r.mean);
  w.Key("interval").BeginArray().Double(r.low).Double(r.high).EndArray();
}

void WriteAction(util::JsonWriter& w, const store::ActionEvidence& a) {
  w.BeginObject();
  w.Field("position", a.position).Field("action", a.action).Field("curated", a.curated);
  w.Field("worked", a.worked).Field("failed", a.failed).Field("partial", a.partial);
  WriteRate(w, a.rate);
  WriteTime(w, "last_reported", a.last_reported);
  if (a.kind == store::ActionKind::kWorkaround) w.Field("likely_dead_end", a.likely_dead_end);
  w.Key("by_env").BeginArray();
  for (const store::EnvRate& e : a.by_env) {
    w.BeginObject().Field("key", e.key).Field("value", e.value);
    w.Field("worked", e.worked).Field("failed", e.failed).Field("partial", e.partial);
    WriteRate(w, e.rate);
    w.EndObject();
  }
  w.EndArray().EndObject();
}

void WriteObserved(util::JsonWriter& w, const store::RecordEvidence& e) {
  w.BeginObject();
  w.Field("reports", e.reports).Field("unattributed", e.unattributed).Field("evidence_count", e.evidence_count);
  WriteTime(w, "last_confirmed", e.last_confirmed);
  w.Field("prior_weight", store::kPriorWeight);
  for (const auto kind : {store::ActionKind::kWorkaround, store::ActionKind::kDeadEnd}) {
    w.Key(kind == store::ActionKind::kWorkaround ? "workarounds" : "dead_ends").BeginArray();
    for (const store::ActionEvidence& a : e.actions) {
      if (a.kind == kind) WriteAction(w, a);
    }
    w.EndArray();
  }
  w.EndObject();
}

}  // namespace

const store::ActionEvidence* ReportedAction(const store::RecordEvidence* evidence, store::ActionKind kind,
                                            std::size_t index) {
  if (!evidence) return nullptr;
  for (const store::ActionEvidence& a : evidence->actions) {
    if (a.kind == kind && a.position == static_cast<int>(index + 1)) return a.reports() > 0 ? &a : nullptr;
  }
  return nullptr;
}

std::string IsoTime(int64_t seconds) {
  const auto t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                     tm.tm_min, tm.tm_sec);
}

std::string RenderObservedJson(const store::RecordEvidence& evidence) {
  util::JsonWriter w;
  WriteObserved(w, evidence);
  return w.Take();
}

std::string RecordJsonWithObserved(const std::string& record_json, const store::RecordEvidence& evidence) {
  const std::size_t close = record_json.find_last_of('}');
  if (close == std::string::npos) return record_json;
  std::size_t end = close;  // the record's last member ends before the blanks here
  while (end > 0 && (record_json[end - 1] == ' ' || record_json[end - 1] == '\n' || record_json[end - 1] == '\t' ||
                     record_json[end - 1] == '\r')) {
    --end;
  }
  const bool empty_object = end > 0 && record_json[end - 1] == '{';
  const bool indented = record_json.find('\n') < close;
  std::string out = record_json.substr(0, end);
  out += empty_object ? "" : ",";
  out += indented ? "\n  \"observed\": " : "\"observed\":";
  out += RenderObservedJson(evidence);
  out += indented ? "\n" : "";
  out += record_json.substr(close);
  return out;
}

std::string RenderHitsJson(const std::vector<store::HitStats>& hits, const KnowledgeBase& kb, int64_t now) {
  util::JsonWriter w;
  w.BeginObject();
  WriteTime(w, "now", now);
  w.Key("records").BeginArray();
  for (const store::HitStats& h : hits) {
    const Record* r = kb.Find(h.record_id);
    w.BeginObject().Field("id", h.record_id).Field("signature", r ? r->signature : "");
    w.Field("day", h.day).Field("week", h.week).Field("month", h.month).Field("total", h.total);
    WriteTime(w, "first_seen", h.first_seen);
    WriteTime(w, "last_seen", h.last_seen);
    w.Key("daily").BeginArray();
    for (int64_t n : h.daily) w.Int(n);
    w.EndArray().EndObject();
  }
  w.EndArray().EndObject();
  return w.Take() + "\n";
}

std::string RenderHitsText(const std::vector<store::HitStats>& hits, const KnowledgeBase& kb, int64_t now) {
  if (hits.empty()) return "No match counted yet (kedb scan --record-hits, kedb match --record-hits).\n";
  // One character a day, its height by that day's share of the busiest day.
  static constexpr std::string_view kBars[] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  std::string out = fmt::format("{:>6} {:>6} {:>6} {:>7}  {:<20}  {:<30}  {}\n", "24h", "7d", "30d", "total", "last seen",
                                "last 30 days", "record");
  for (const store::HitStats& h : hits) {
    const int64_t peak = *std::max_element(h.daily.begin(), h.daily.end());
    std::string bars;
    for (int64_t n : h.daily) {
      const int64_t level = n == 0 ? 0 : std::clamp<int64_t>((n * 8 + peak - 1) / peak, 1, 8);
      bars += kBars[level];
    }
    const Record* r = kb.Find(h.record_id);
    out += fmt::format("{:>6} {:>6} {:>6} {:>7}  {:<20}  {}  {}{}\n", h.day, h.week, h.month, h.total, IsoTime(h.last_seen),
                       bars, h.record_id, r ? "" : " (not in this knowledge base)");
  }
  out += fmt::format("as of {}\n", IsoTime(now));
  return out;
}

std::string RenderReportJson(const store::OutcomeReport& r, bool duplicate, const store::ActionEvidence* now) {
  util::JsonWriter w;
  w.BeginObject();
  w.Field("event_id", r.event_id).Field("record_id", r.record_id).Field("kind", store::ToString(r.kind));
  w.Field("position", r.position).Field("action", r.action).Field("outcome", store::ToString(r.outcome));
  w.Key("env").BeginObject();
  for (const auto& [k, v] : r.env) w.Field(k, v);
  w.EndObject();
  w.Field("note", r.note);
  WriteTime(w, "reported_at", r.reported_at);
  w.Field("duplicate", duplicate);
  if (now) {
    w.Key("observed");
    WriteAction(w, *now);
  }
  w.EndObject();
  return w.Take();
}

std::string RenderReportText(const store::OutcomeReport& r, bool duplicate, const store::ActionEvidence* now) {
  const bool workaround = r.kind == store::ActionKind::kWorkaround;
  std::string out = fmt::format("{} {} {} #{} of {}: {}\n", duplicate ? "Already recorded:" : "Recorded:",
                                store::ToString(r.outcome), workaround ? "workaround" : "dead end", r.position,
                                r.record_id, r.action);
  if (now) {
    out += fmt::format("  {} now {:.0f}% ({:.0f}-{:.0f}%, 90% interval) from {} report{} and the curated {:.0f}%\n",
                       workaround ? "success rate" : "fail rate", now->rate.mean * 100, now->rate.low * 100,
                       now->rate.high * 100, now->reports(), now->reports() == 1 ? "" : "s", now->curated * 100);
  }
  out += fmt::format("  event {}\n", r.event_id);
  return out;
}

}  // namespace kedb
