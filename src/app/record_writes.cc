#include "app/record_writes.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "kedb/lint.h"

namespace kedb::app {
namespace {

// Where a document sent over the network is said to come from.
constexpr const char* kBodyOrigin = "request body";

std::string Joined(const std::vector<Diagnostic>& diagnostics, Severity severity) {
  std::string out;
  for (const Diagnostic& d : diagnostics) {
    if (d.severity != severity) continue;
    if (!out.empty()) out += "; ";
    out += d.ToString();
  }
  return out;
}

// The record in `json`, read and checked as a file would be; kInvalid
// when it is not a record.
Result<Record> ReadOne(const std::string& json) {
  LoadReport report;
  auto kb = KnowledgeBase::FromDocuments(kBodyOrigin, {{kBodyOrigin, json}}, LoadOptions{}, &report);
  if (!kb.ok()) return kb.status();
  if (report.errors() > 0 || kb->size() != 1) {
    return Status::InvalidArgument(Joined(report.diagnostics, Severity::kError));
  }
  return kb->records()[0];
}

// Lint's findings about `record` as part of `current` (replacing the
// record with its id): errors and warnings about it alone.
std::vector<Diagnostic> LintInPlace(const KnowledgeBase& current, const Record& record) {
  std::vector<Record> records;
  records.reserve(current.size() + 1);
  for (const Record& r : current.records()) {
    if (r.id != record.id) records.push_back(r);
  }
  records.push_back(record);
  LintOptions options;
  options.check_shadowing = false;  // a warning, and the costliest rule: `kedb lint` runs it
  LintReport report = Lint(KnowledgeBase::FromRecords(std::move(records)), LoadReport{}, options);
  std::vector<Diagnostic> mine;
  for (Diagnostic& d : report.diagnostics) {
    if (d.record_id == record.id) mine.push_back(std::move(d));
  }
  return mine;
}

}  // namespace

Answer WriteRecord(const Engine& engine, store::RecordStore& records, const RecordWrite& q, bool* created) {
  if (q.json.size() > store::kMaxStoredRecordBytes) {
    return Answer::Error(Answer::Kind::kInvalid, fmt::format("record: {} bytes, at most {}", q.json.size(),
                                                             store::kMaxStoredRecordBytes));
  }
  auto record = ReadOne(q.json);
  if (!record.ok()) return Answer::Error(Answer::Kind::kInvalid, record.status().message());
  if (!q.path_id.empty() && q.path_id != record->id) {
    return Answer::Error(Answer::Kind::kInvalid,
                         fmt::format("id: the path names \"{}\", the record says \"{}\"", q.path_id, record->id));
  }
  const std::vector<Diagnostic> findings = LintInPlace(engine.kb(), *record);
  if (std::string errors = Joined(findings, Severity::kError); !errors.empty()) {
    return Answer::Error(Answer::Kind::kInvalid, errors);
  }
  auto stored = records.Get(record->id);
  if (!stored.ok()) return Answer::Error(Answer::Kind::kUnavailable, stored.status().message());
  const bool exists = stored->has_value();
  if (q.create_only && exists) {
    return Answer::Error(Answer::Kind::kConflict,
                         fmt::format("{} exists already; PUT /v1/records/{} replaces it", record->id, record->id));
  }
  auto written = records.Put({{record->id, FormatRecordFile(*record), q.now}}, q.now);
  if (!written.ok()) {
    const bool bad = written.status().code() == Status::Code::kInvalidArgument;
    return Answer::Error(bad ? Answer::Kind::kInvalid : Answer::Kind::kUnavailable, written.status().message());
  }
  if (created != nullptr) *created = !exists;
  nlohmann::ordered_json j{{"id", record->id},
                           {"created", !exists},
                           {"changed", written->changed > 0},
                           {"revision", written->revision},
                           {"warnings", nlohmann::ordered_json::array()}};
  for (const Diagnostic& d : findings) j["warnings"].push_back(d.ToString());
  Answer a;
  a.json = j.dump() + "\n";
  a.text = fmt::format("{} {} at revision {}\n", record->id, !exists ? "created" : written->changed ? "replaced" : "unchanged",
                       written->revision);
  return a;
}

}  // namespace kedb::app
