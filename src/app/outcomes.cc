#include "app/outcomes.h"

#include <algorithm>
#include <ctime>

#include <fmt/format.h>

#include "render/evidence_render.h"
#include "store/posterior.h"

namespace kedb::app {
namespace {

Answer Invalid(std::string message) { return Answer::Error(Answer::Kind::kInvalid, std::move(message)); }
// The store failed, not the question.
Answer Unavailable(const Status& st) { return Answer::Error(Answer::Kind::kUnavailable, st.message()); }

std::string Lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return s;
}

// The request as a report, or what is wrong with it.
Result<store::OutcomeReport> ToReport(const Record& record, const OutcomeRequest& q) {
  store::OutcomeReport r;
  r.record_id = record.id;
  auto kind = store::ParseActionKind(q.kind);
  if (!kind) return Status::InvalidArgument(fmt::format("kind: \"{}\" is not workaround or dead_end", q.kind));
  r.kind = *kind;
  auto outcome = store::ParseOutcome(q.outcome);
  if (!outcome) return Status::InvalidArgument(fmt::format("outcome: \"{}\" is not worked, failed or partial", q.outcome));
  r.outcome = *outcome;
  const bool workaround = r.kind == store::ActionKind::kWorkaround;
  const std::size_t count = workaround ? record.workarounds.size() : record.dead_ends.size();
  if (q.position < 1 || static_cast<std::size_t>(q.position) > count) {
    return Status::InvalidArgument(fmt::format("{} {}: {} has {} {}{} (numbered from 1)", workaround ? "workaround" : "dead end",
                                               q.position, record.id, count, workaround ? "workaround" : "dead end",
                                               count == 1 ? "" : "s"));
  }
  r.position = q.position;
  const auto i = static_cast<std::size_t>(q.position - 1);
  r.action = workaround ? record.workarounds[i].action : record.dead_ends[i].action;
  auto env = ParseEnv(q.env);
  if (!env.ok()) return env.status();
  for (const EnvPair& p : *env) r.env.emplace_back(Lower(p.key), Lower(p.value));
  std::sort(r.env.begin(), r.env.end());
  for (std::size_t k = 1; k < r.env.size(); ++k) {
    if (r.env[k].first == r.env[k - 1].first) {
      return Status::InvalidArgument(fmt::format("env: \"{}\" is given twice", r.env[k].first));
    }
  }
  r.note = q.note;
  r.event_id = q.event_id.empty() ? store::NewEventId() : q.event_id;
  r.reported_at = q.now;
  if (std::string problem = store::CheckReport(r); !problem.empty()) return Status::InvalidArgument(problem);
  return r;
}

}  // namespace

Answer ReportOutcome(const Engine& engine, store::OutcomeStore& store, const OutcomeRequest& q) {
  const Record* record = engine.kb().Find(q.record_id);
  if (!record) return Answer::Error(Answer::Kind::kNotFound, NotFoundMessage(engine, q.record_id));
  auto report = ToReport(*record, q);
  if (!report.ok()) return Invalid(report.status().message());
  auto added = store.Add(*report);
  if (!added.ok()) {
    // A report the store refuses (an id reused with other content) is the
    // caller's to fix; a store that cannot write is not.
    const bool callers = added.status().code() == Status::Code::kInvalidArgument;
    return callers ? Invalid(added.status().message()) : Unavailable(added.status());
  }
  const bool duplicate = *added == store::OutcomeStore::Added::kDuplicate;
  auto counts = store.Counts(record->id);
  if (!counts.ok()) return Unavailable(counts.status());
  const store::RecordEvidence evidence = store::Evidence(*record, *counts);
  const store::ActionEvidence* now = nullptr;
  for (const auto& a : evidence.actions) {
    if (a.kind == report->kind && a.position == report->position) now = &a;
  }
  Answer answer;
  answer.json = RenderReportJson(*report, duplicate, now);
  answer.text = RenderReportText(*report, duplicate, now);
  return answer;
}

Answer HitStatistics(const Engine& engine, store::OutcomeStore& store, int64_t now) {
  auto hits = store.Hits(now);
  if (!hits.ok()) return Unavailable(hits.status());
  Answer answer;
  answer.json = RenderHitsJson(*hits, engine.kb(), now);
  answer.text = RenderHitsText(*hits, engine.kb(), now);
  answer.found = !hits->empty();
  return answer;
}

std::string CountHits(store::OutcomeStore* store, const std::vector<const Record*>& records) {
  if (!store || records.empty()) return "";
  std::vector<std::string> ids;
  for (const Record* r : records) ids.push_back(r->id);
  Status st = store->AddHits(ids, static_cast<int64_t>(std::time(nullptr)));
  return st.ok() ? "" : fmt::format("matches not counted: {}", st.message());
}

ObservedRates ObservedFor(store::OutcomeStore* store, const std::vector<const Record*>& records, std::string* note) {
  ObservedRates out;
  if (!store) return out;
  for (const Record* r : records) {
    if (out.contains(r->id)) continue;
    auto counts = store->Counts(r->id);
    if (!counts.ok()) {
      *note = fmt::format("observed rates left out: {}", counts.status().message());
      return {};
    }
    if (counts->empty()) continue;
    out.emplace(r->id, store::Evidence(*r, *counts));
  }
  return out;
}

Answer RecordWithEvidence(const Engine& engine, store::OutcomeStore& store, const std::string& id, Lang lang) {
  const Record* record = engine.kb().Find(id);
  if (!record) return Answer::Error(Answer::Kind::kNotFound, NotFoundMessage(engine, id));
  auto counts = store.Counts(record->id);
  if (!counts.ok()) return Unavailable(counts.status());
  const store::RecordEvidence evidence = store::Evidence(*record, *counts);
  Answer answer;
  // A record nothing was reported about is shown exactly as stored.
  const bool observed = evidence.reports + evidence.unattributed > 0;
  answer.json = observed ? RecordJsonWithObserved(FormatRecordFile(*record), evidence) : FormatRecordFile(*record);
  answer.text = RenderRecordText(*record, lang, &engine.kb(), &evidence);
  return answer;
}

}  // namespace kedb::app
