#include "store/shared_sql.h"

#include <algorithm>

namespace kedb::store::sql {

void FoldCount(CountRow row, std::vector<ActionCounts>* out) {
  const ActionKind kind = ParseActionKind(row.kind).value_or(ActionKind::kWorkaround);
  const bool same = !out->empty() && out->back().kind == kind && out->back().position == row.position &&
                    out->back().action == row.action && out->back().env_key == row.env_key &&
                    out->back().env_value == row.env_value;
  if (!same) {
    ActionCounts c;
    c.kind = kind;
    c.position = row.position;
    c.action = std::move(row.action);
    c.env_key = std::move(row.env_key);
    c.env_value = std::move(row.env_value);
    out->push_back(std::move(c));
  }
  ActionCounts& c = out->back();
  switch (ParseOutcome(row.outcome).value_or(Outcome::kWorked)) {
    case Outcome::kWorked:
      c.worked += row.n;
      c.last_worked = std::max(c.last_worked, row.last);
      break;
    case Outcome::kFailed: c.failed += row.n; break;
    case Outcome::kPartial: c.partial += row.n; break;
  }
  c.last_reported = std::max(c.last_reported, row.last);
}

void FoldHit(HitRow row, int64_t now_hour, std::vector<HitStats>* out) {
  if (out->empty() || out->back().record_id != row.record_id) {
    HitStats fresh;
    fresh.record_id = std::move(row.record_id);
    fresh.daily.assign(30, 0);
    fresh.first_seen = row.first_at;
    out->push_back(std::move(fresh));
  }
  HitStats& h = out->back();
  const int64_t age = now_hour - row.hour;  // whole hours before now's hour
  h.total += row.count;
  if (age < 24) h.day += row.count;
  if (age < 24 * 7) h.week += row.count;
  if (age < 24 * 30) {
    h.month += row.count;
    if (age >= 0) h.daily[29 - age / 24] += row.count;
  }
  h.first_seen = std::min(h.first_seen, row.first_at);
  h.last_seen = std::max(h.last_seen, row.last_at);
}

void SortHits(std::vector<HitStats>* hits) {
  std::sort(hits->begin(), hits->end(), [](const HitStats& a, const HitStats& b) {
    return a.week != b.week ? a.week > b.week : a.record_id < b.record_id;
  });
}

OutcomeReport ReportFromRow(std::string event_id, std::string record_id, const std::string& kind, int position,
                            std::string action, const std::string& outcome, std::string note, int64_t reported_at) {
  OutcomeReport r;
  r.event_id = std::move(event_id);
  r.record_id = std::move(record_id);
  r.kind = ParseActionKind(kind).value_or(ActionKind::kWorkaround);
  r.position = position;
  r.action = std::move(action);
  r.outcome = ParseOutcome(outcome).value_or(Outcome::kWorked);
  r.note = std::move(note);
  r.reported_at = reported_at;
  return r;
}

bool IsRetryOf(const OutcomeReport& incoming, const OutcomeReport& stored) {
  OutcomeReport mine = incoming;
  mine.reported_at = stored.reported_at;
  return mine == stored;
}

}  // namespace kedb::store::sql
