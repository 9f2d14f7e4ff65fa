// What the SQLite and PostgreSQL stores share: the statements they run and
// the folding of result rows into counts. Every statement numbers its
// parameters $1, $2, ...: PostgreSQL's own syntax, which SQLite reads as
// named parameters numbered in order of first appearance, so one text
// serves both backends and they cannot drift apart.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "store/outcome.h"

namespace kedb::store::sql {

// $1 event_id, $2 record_id, $3 kind, $4 position, $5 action, $6 outcome,
// $7 note, $8 reported_at. Inserts nothing when the event id is stored.
inline constexpr const char* kInsertOutcome =
    "INSERT INTO outcomes (event_id, record_id, kind, position, action, outcome, note, reported_at) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (event_id) DO NOTHING";
// $1 event_id, $2 key, $3 value.
inline constexpr const char* kInsertEnv = "INSERT INTO outcome_env (event_id, key, value) VALUES ($1, $2, $3)";
// $1 event_id.
inline constexpr const char* kLoadOutcome =
    "SELECT record_id, kind, position, action, outcome, note, reported_at FROM outcomes WHERE event_id = $1";
inline constexpr const char* kLoadEnv = "SELECT key, value FROM outcome_env WHERE event_id = $1 ORDER BY key";
// $1 record_id. Rows of (kind, position, action, key, value, outcome,
// count, last reported_at): totals per action as reported, with '' for the
// environment pair ...
inline constexpr const char* kCountTotals =
    "SELECT kind, position, action, '', '', outcome, COUNT(*), MAX(reported_at) FROM outcomes "
    "WHERE record_id = $1 GROUP BY kind, position, action, outcome ORDER BY kind, position, action";
// ... then per action and environment pair.
inline constexpr const char* kCountByEnv =
    "SELECT o.kind, o.position, o.action, e.key, e.value, o.outcome, COUNT(*), MAX(o.reported_at) "
    "FROM outcomes o JOIN outcome_env e ON e.event_id = o.event_id WHERE o.record_id = $1 "
    "GROUP BY o.kind, o.position, o.action, e.key, e.value, o.outcome "
    "ORDER BY o.kind, o.position, o.action, e.key, e.value";
// $1 record_id, $2 hour, $3 count, $4 at (first and last). CASE rather
// than min()/LEAST(), which the two dialects spell differently.
inline constexpr const char* kAddHits =
    "INSERT INTO hits (record_id, hour, count, first_at, last_at) VALUES ($1, $2, $3, $4, $4) "
    "ON CONFLICT (record_id, hour) DO UPDATE SET count = hits.count + excluded.count, "
    "first_at = CASE WHEN excluded.first_at < hits.first_at THEN excluded.first_at ELSE hits.first_at END, "
    "last_at = CASE WHEN excluded.last_at > hits.last_at THEN excluded.last_at ELSE hits.last_at END";
inline constexpr const char* kHitRows =
    "SELECT record_id, hour, count, first_at, last_at FROM hits ORDER BY record_id, hour";
inline constexpr const char* kSize = "SELECT COUNT(*) FROM outcomes";

// Records (record_store.h). A write first moves the revision on (which,
// on PostgreSQL, also makes concurrent writers take turns), then upserts
// each record; a record whose JSON is unchanged is not rewritten.
inline constexpr const char* kNextRevision =
    "UPDATE records_revision SET revision = revision + 1 RETURNING revision";
// $1 id, $2 body, $3 revision, $4 updated_at; changes 0 rows when the body
// is the same.
inline constexpr const char* kPutRecord =
    "INSERT INTO records (id, body, revision, updated_at) VALUES ($1, $2, $3, $4) "
    "ON CONFLICT (id) DO UPDATE SET body = excluded.body, revision = excluded.revision, "
    "updated_at = excluded.updated_at WHERE records.body <> excluded.body";
inline constexpr const char* kGetRecord = "SELECT body, updated_at FROM records WHERE id = $1";
inline constexpr const char* kAllRecords = "SELECT id, body, updated_at FROM records ORDER BY id";
inline constexpr const char* kRevision = "SELECT revision FROM records_revision";

// One row of kCountTotals or kCountByEnv, folded into `out`: rows of one
// action and environment pair arrive together and add up to one entry.
struct CountRow {
  std::string kind, action, env_key, env_value, outcome;
  int position = 1;
  int64_t n = 0, last = 0;
};
void FoldCount(CountRow row, std::vector<ActionCounts>* out);

// One row of kHitRows, folded into `out` (rows of one record arrive
// together, oldest hour first), for statistics as of hour `now_hour`.
struct HitRow {
  std::string record_id;
  int64_t hour = 0, count = 0, first_at = 0, last_at = 0;
};
void FoldHit(HitRow row, int64_t now_hour, std::vector<HitStats>* out);
// Most matched in the last 7 days first, then by id.
void SortHits(std::vector<HitStats>* hits);

// A stored report's row (kLoadOutcome, kLoadEnv) as a report.
OutcomeReport ReportFromRow(std::string event_id, std::string record_id, const std::string& kind, int position,
                            std::string action, const std::string& outcome, std::string note, int64_t reported_at);
// Whether `incoming` repeats `stored`: the same report apart from the time
// it was stamped (a retry may arrive later).
bool IsRetryOf(const OutcomeReport& incoming, const OutcomeReport& stored);

}  // namespace kedb::store::sql
