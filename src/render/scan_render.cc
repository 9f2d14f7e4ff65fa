// Rendering a scanned log: its error blocks root first, each with the
// known errors it shows (the match cards of match_render.cc), and a summary;
// one log or several.
#include <fmt/format.h>

#include "render/match_parts.h"
#include "render/render.h"
#include "util/json_writer.h"

namespace kedb {
namespace {

// A block kind as a reader calls it, by BlockKind.
std::string_view KindName(BlockKind kind, Lang lang) {
  static constexpr std::string_view kNames[] = {
      "Python traceback", "Java stack trace", "JavaScript stack trace", "C++ exception", "Rust panic", "rustc error",
      "Go panic",         "npm error",        "pytest failure",         "compiler error", "GPU library error",
      "error line",       "failed step",      "known error"};
  static constexpr std::string_view kNamesZh[] = {
      "Python 回溯", "Java 堆栈", "JavaScript 堆栈", "C++ 异常",   "Rust panic", "rustc 错误", "Go panic",
      "npm 错误",    "pytest 失败", "编译错误",      "GPU 库错误", "错误行",     "失败的步骤", "已知错误"};
  static_assert(std::size(kNames) == static_cast<std::size_t>(BlockKind::kMatch) + 1);
  static_assert(std::size(kNamesZh) == std::size(kNames));
  return (lang == Lang::kZh ? kNamesZh : kNames)[static_cast<std::size_t>(kind)];
}

}  // namespace

std::string RenderBlockText(const ErrorBlock& b, Lang lang, const ObservedRates* observed, TextStyle style) {
  const bool zh = lang == Lang::kZh;
  std::string where = b.first_line == b.last_line ? fmt::format("{} {}", zh ? "行" : "line", b.first_line)
                                                  : fmt::format("{} {}-{}", zh ? "行" : "lines", b.first_line, b.last_line);
  std::string out = fmt::format("── {} · {}", where, KindName(b.kind, lang));
  if (b.count > 1) out += fmt::format(" · ×{}", b.count);
  if (b.root) out += Paint(style, "1;31", zh ? " · 根源错误" : " · root error");
  out += " ──\n";
  out += fmt::format("   {} {}: {}\n", zh ? "关键行" : "decisive line", b.decisive_line, b.decisive);
  if (b.matches.empty()) {
    out += zh ? "   没有匹配的已知错误\n" : "   no known error matches\n";
  }
  for (std::size_t i = 0; i < b.matches.size(); ++i) out += MatchCardText(b.matches[i], i + 1, lang, observed, style);
  return out + "\n";
}

namespace {

void WriteBlock(util::JsonWriter& w, const ErrorBlock& b, Lang lang, const ObservedRates* observed) {
  w.BeginObject();
  w.Field("kind", BlockKindName(b.kind));
  w.Key("lines").BeginArray().UInt(b.first_line).UInt(b.last_line).EndArray();
  w.Field("decisive_line", uint64_t{b.decisive_line});
  w.Field("decisive", b.decisive);
  w.Key("frames").BeginArray();
  for (const auto& f : b.frames) w.String(f);
  w.EndArray();
  w.Field("frame_count", uint64_t{b.frame_count});
  w.Field("count", uint64_t{b.count});
  w.Field("root", b.root);
  w.Key("caused_by");
  if (b.caused_by >= 0) {
    w.Int(b.caused_by);
  } else {
    w.Null();
  }
  w.Key("matches").BeginArray();
  for (const auto& m : b.matches) WriteMatchObject(w, m, lang, observed);
  w.EndArray();
  w.Field("abstained", b.matches.empty());
  w.EndObject();
}


void WriteSummaryFields(util::JsonWriter& w, const ScanSummary& s) {
  w.Field("lines", uint64_t{s.lines}).Field("bytes", uint64_t{s.bytes});
  w.Field("blocks", uint64_t{s.blocks}).Field("known", uint64_t{s.known});
  w.Field("truncated_lines", uint64_t{s.truncated_lines}).Field("dropped_blocks", uint64_t{s.dropped_blocks});
}

// {"file"?,"blocks":[...],"summary":{...}}
void WriteScan(util::JsonWriter& w, const ScanResult& result, Lang lang, const ObservedRates* observed,
               std::string_view file) {
  w.BeginObject();
  if (!file.empty()) w.Field("file", file);
  w.Key("blocks").BeginArray();
  for (const auto& b : result.blocks) WriteBlock(w, b, lang, observed);
  w.EndArray();
  w.Key("summary").BeginObject();
  WriteSummaryFields(w, result.summary);
  w.EndObject().EndObject();
}

std::string SummaryText(const ScanSummary& s) {
  std::string out = fmt::format("{} lines, {} bytes scanned; {} error block(s), {} with a known error", s.lines, s.bytes,
                                s.blocks, s.known);
  if (s.truncated_lines) out += fmt::format("; {} over-long line(s) matched on their first and last half MiB", s.truncated_lines);
  if (s.dropped_blocks) out += fmt::format("; {} further distinct block(s) only counted", s.dropped_blocks);
  return out + "\n";
}

}  // namespace

std::string RenderScanText(const ScanResult& result, Lang lang, const ObservedRates* observed, TextStyle style) {
  std::string out;
  for (const auto& b : result.blocks) out += RenderBlockText(b, lang, observed, style);
  return out + SummaryText(result.summary);
}

std::string RenderScanJson(const ScanResult& result, Lang lang, const ObservedRates* observed, std::string_view file) {
  util::JsonWriter w;
  WriteScan(w, result, lang, observed, file);
  return w.Take() + "\n";
}

ScanSummary TotalOf(std::span<const ScannedLog> logs) {
  ScanSummary total;
  for (const ScannedLog& log : logs) {
    const ScanSummary& s = log.result.summary;
    total.lines += s.lines;
    total.bytes += s.bytes;
    total.blocks += s.blocks;
    total.known += s.known;
    total.truncated_lines += s.truncated_lines;
    total.dropped_blocks += s.dropped_blocks;
  }
  return total;
}

std::string RenderScansText(std::span<const ScannedLog> logs, std::span<const UnreadLog> unread, Lang lang,
                            const ObservedRates* observed, TextStyle style) {
  std::string out;
  std::size_t clean = 0;
  for (const ScannedLog& log : logs) {
    if (log.result.blocks.empty()) {
      ++clean;
      continue;
    }
    out += Paint(style, "1", fmt::format("==> {} <==", log.file)) + "\n";
    out += RenderScanText(log.result, lang, observed, style) + "\n";
  }
  out += fmt::format("{} log(s), {} clean", logs.size(), clean);
  if (!unread.empty()) out += fmt::format(", {} not read", unread.size());
  return out + ": " + SummaryText(TotalOf(logs));
}

std::string RenderScansJson(std::span<const ScannedLog> logs, std::span<const UnreadLog> unread, Lang lang,
                            const ObservedRates* observed) {
  util::JsonWriter w;
  w.BeginObject().Key("files").BeginArray();
  std::size_t clean = 0;
  for (const ScannedLog& log : logs) {
    WriteScan(w, log.result, lang, observed, log.file);
    clean += log.result.blocks.empty();
  }
  w.EndArray().Key("summary").BeginObject();
  w.Field("files", uint64_t{logs.size()}).Field("clean", uint64_t{clean});
  WriteSummaryFields(w, TotalOf(logs));
  w.EndObject().Key("unread").BeginArray();
  for (const UnreadLog& u : unread) w.BeginObject().Field("file", u.file).Field("error", u.error).EndObject();
  w.EndArray().EndObject();
  return w.Take() + "\n";
}

std::string RenderLiveText(const ScanResult& fresh, std::span<const RepeatedBlock> repeats, Lang lang,
                           const ObservedRates* observed, TextStyle style) {
  std::string out;
  for (const auto& b : fresh.blocks) out += RenderBlockText(b, lang, observed, style);
  const bool zh = lang == Lang::kZh;
  for (const RepeatedBlock& r : repeats) {
    out += fmt::format("── {} {} · {} {} ──\n   {}\n\n", zh ? "行" : "line", r.first_line, zh ? "再次出现" : "again",
                       r.record ? Paint(style, "1;36", r.record->id) : (zh ? "未知错误" : "unknown error"), r.decisive);
  }
  return out;
}

std::string RenderLiveJson(const ScanResult& fresh, std::span<const RepeatedBlock> repeats, std::string_view file,
                           Lang lang, const ObservedRates* observed) {
  util::JsonWriter w;
  w.BeginObject().Field("file", file).Key("blocks").BeginArray();
  for (const auto& b : fresh.blocks) WriteBlock(w, b, lang, observed);
  w.EndArray().Key("repeats").BeginArray();
  for (const RepeatedBlock& r : repeats) {
    w.BeginObject().Key("lines").BeginArray().UInt(r.first_line).UInt(r.last_line).EndArray();
    w.Field("decisive", r.decisive).Key("record");
    if (r.record) {
      w.String(r.record->id);
    } else {
      w.Null();
    }
    w.EndObject();
  }
  w.EndArray().EndObject();
  return w.Take() + "\n";
}

}  // namespace kedb
