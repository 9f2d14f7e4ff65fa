#include "app/upkeep.h"

#include <fmt/format.h>

#include <ctime>
#include <optional>

#include <nlohmann/json.hpp>

#include "app/clean_logs.h"
#include "app/store_kb.h"
#include "store/store.h"
#include "kedb/knowledge_base.h"
#include "render/render.h"

namespace kedb::app {

Answer LintKnowledgeBase(const std::string& kb_path, const LintOptions& options, bool strict,
                         const std::vector<std::string>& clean_logs) {
  LoadReport load;
  auto kb = LoadKnowledge(kb_path, LoadOptions{}, &load);
  if (!kb.ok()) return Answer::Error(Answer::Kind::kInvalid, kb.status().message());
  if (load.documents == 0) {
    return Answer::Error(Answer::Kind::kInvalid, IsStoreKb(kb_path) ? fmt::format("{}: the store holds no record", store::RedactUrl(kb_path))
                                                                    : NoRecordsMessage(kb_path, load));
  }
  LintReport report = Lint(*kb, load, options);
  std::optional<CleanLogFindings> clean;
  if (!clean_logs.empty()) {
    auto engine = Engine::FromKnowledgeBase(std::move(*kb), "");
    if (!engine.ok()) return Answer::Error(Answer::Kind::kInvalid, engine.status().message());
    auto found = CheckCleanLogs(**engine, clean_logs);
    if (!found.ok()) return Answer::Error(Answer::Kind::kInvalid, found.status().message());
    clean = std::move(*found);
    report.diagnostics.insert(report.diagnostics.end(), clean->diagnostics.begin(), clean->diagnostics.end());
  }
  Answer a;
  a.json = RenderLintJson(report);
  a.text = RenderLintText(report);
  if (clean) {
    const std::string summary = fmt::format(
        "clean logs: {} read ({} lines); {} record(s) fired on them, {} would have been reported as the answer\n",
        clean->logs, clean->lines, clean->diagnostics.size(), clean->reported);
    a.text += summary;
    auto j = nlohmann::ordered_json::parse(a.json);
    j["clean_logs"] = {{"logs", clean->logs}, {"lines", clean->lines}, {"bytes", clean->bytes},
                       {"fired", clean->diagnostics.size()}, {"reported", clean->reported}};
    a.json = j.dump() + "\n";
  }
  a.found = report.errors() == 0 && !(strict && report.warnings() > 0);
  return a;
}

Answer ImportRecords(ImportFormat format, const std::string& src, const std::string& out_dir,
                     const std::string& into_store) {
  LoadReport report;
  auto kb = LoadKnowledge(src, LoadOptions{}, &report);
  if (!kb.ok()) return Answer::Error(Answer::Kind::kInvalid, kb.status().message());
  Answer a;
  for (const auto& d : report.diagnostics) {
    if (d.severity == Severity::kError) a.notes += d.ToString() + "\n";
  }
  if (format == ImportFormat::kDeadends && report.native > 0) {
    a.notes += fmt::format("{} of the records in {} are already native; imported as they are\n",
                           report.native, src);
  }
  if (!into_store.empty()) {
    auto put = PutKnowledge(*kb, into_store, static_cast<int64_t>(std::time(nullptr)));
    if (!put.ok()) {
      Answer error = Answer::Error(Answer::Kind::kInvalid, put.status().message());
      error.notes = std::move(a.notes);
      return error;
    }
    a.text = fmt::format(
        "imported {} records into {}: {} new or changed, {} unchanged; revision {} ({} documents read, {} rejected)\n",
        kb->size(), put->store, put->changed, put->unchanged, put->revision, report.documents, report.rejected);
  } else {
    if (Status st = WriteNativeTree(*kb, out_dir); !st.ok()) {
      Answer error = Answer::Error(Answer::Kind::kInvalid, st.message());
      error.notes = std::move(a.notes);
      return error;
    }
    a.text = fmt::format("imported {} records into {} ({} documents read, {} rejected)\n", kb->size(), out_dir,
                         report.documents, report.rejected);
  }
  a.found = report.rejected == 0;
  return a;
}

}  // namespace kedb::app
