// What was observed about a record (store/posterior.h), for programs and
// for people. Every front end that shows a record with its evidence uses
// these, so the CLI, HTTP and MCP give the same numbers.
#pragma once

#include <string>

#include "render/render.h"
#include "store/posterior.h"

namespace kedb {

// The evidence about `record`'s action `index` (0-based) of `kind` when it
// was reported on, else nullptr; `evidence` may be null. What every
// renderer consults before showing a curated rate.
const store::ActionEvidence* ReportedAction(const store::RecordEvidence* evidence, store::ActionKind kind,
                                            std::size_t index);

// JSON {"reports","unattributed","evidence_count","last_confirmed",
// "prior_weight","workarounds":[ACTION],"dead_ends":[ACTION]}, ACTION being
// {"position","action","curated","worked","failed","partial","rate",
// "interval":[low,high],"last_reported","likely_dead_end"(workarounds),
// "by_env":[{"key","value","worked","failed","partial","rate","interval"}]}.
// Times are ISO 8601 UTC, null when there is none.
std::string RenderObservedJson(const store::RecordEvidence& evidence);

// A record's own JSON text with "observed" added as its last member: the
// record's fields stay byte for byte as stored.
std::string RecordJsonWithObserved(const std::string& record_json, const store::RecordEvidence& evidence);

// One report as stored: {"event_id","record_id","kind","position",
// "action","outcome","env":{...},"note","reported_at","duplicate"} and,
// when given, "observed" for that action (the ACTION object above).
std::string RenderReportJson(const store::OutcomeReport& report, bool duplicate, const store::ActionEvidence* now);
std::string RenderReportText(const store::OutcomeReport& report, bool duplicate, const store::ActionEvidence* now);

// How often records were matched (OutcomeStore::Hits), most matched this
// week first. JSON {"now","records":[{"id","signature","day","week",
// "month","total","first_seen","last_seen","daily":[30 counts, oldest
// first]}]}; text: one line each with a bar of the last 30 days. `kb`
// names each record's signature ("" when it is no longer in it).
std::string RenderHitsJson(const std::vector<store::HitStats>& hits, const KnowledgeBase& kb, int64_t now);
std::string RenderHitsText(const std::vector<store::HitStats>& hits, const KnowledgeBase& kb, int64_t now);

// "2026-11-24T10:00:00Z" for seconds since the epoch.
std::string IsoTime(int64_t seconds);

}  // namespace kedb
