#include "app/export.h"

#include <cmath>
#include <ctime>
#include <filesystem>

#include <fmt/format.h>

#include "record/json_text.h"
#include "store/posterior.h"
#include "util/binary_io.h"

namespace kedb::app {
namespace {

double TwoDecimals(double x) { return std::round(x * 100) / 100; }

Date DateOf(int64_t seconds) {
  const auto t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return Date{tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday};
}

// `doc` (a record's JSON) with `evidence` folded in.
void Fold(const store::RecordEvidence& evidence, const Record& record, Json* doc) {
  for (const store::ActionEvidence& a : evidence.actions) {
    if (a.reports() == 0) continue;
    const bool workaround = a.kind == store::ActionKind::kWorkaround;
    Json& list = (*doc)[workaround ? "workarounds" : "dead_ends"];
    const auto i = static_cast<std::size_t>(a.position - 1);
    if (!list.is_array() || i >= list.size() || !list[i].is_object()) continue;
    list[i][workaround ? "success_rate" : "fail_rate"] = TwoDecimals(a.rate.mean);
    list[i]["x_reported"] = {{"worked", a.worked}, {"failed", a.failed}, {"partial", a.partial}};
  }
  (*doc)["evidence_count"] = evidence.evidence_count;
  if (evidence.last_confirmed > 0) {
    const Date seen = DateOf(evidence.last_confirmed);
    if (!record.last_confirmed || *record.last_confirmed < seen) (*doc)["last_confirmed"] = seen.ToString();
  }
}

}  // namespace

Answer ExportRecords(const Engine& engine, store::OutcomeStore* store, const std::string& out_dir) {
  std::size_t folded = 0;
  for (const Record& record : engine.kb().records()) {
    std::string text = FormatRecordFile(record);
    if (store) {
      auto counts = store->Counts(record.id);
      if (!counts.ok()) return Answer::Error(Answer::Kind::kUnavailable, counts.status().message());
      const store::RecordEvidence evidence = store::Evidence(record, *counts);
      if (evidence.reports > 0) {
        Json doc;
        if (ParseJson(text, JsonLimits{}, &doc).ok()) {
          Fold(evidence, record, &doc);
          text = doc.dump(2, ' ', /*ensure_ascii=*/false, Json::error_handler_t::replace) + "\n";
          ++folded;
        }
      }
    }
    const std::filesystem::path path = std::filesystem::path(out_dir) / RecordRelativePath(record.id);
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec || !util::WriteFileAtomically(path.string(), text)) {
      return Answer::Error(Answer::Kind::kInvalid, fmt::format("{}: cannot be written", path.string()));
    }
  }
  Answer a;
  a.text = fmt::format("exported {} records into {}; {} with reported outcomes folded in\n", engine.kb().size(), out_dir,
                       folded);
  a.json = fmt::format("{{\"records\":{},\"folded\":{},\"out\":{}}}\n", engine.kb().size(), folded,
                       Json(out_dir).dump());
  return a;
}

}  // namespace kedb::app
