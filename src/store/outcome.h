// Outcome reports: what happened when someone tried a record's workaround
// or dead end, and the counts they add up to.
//
// A report names its action by position (the card's numbering, from 1) and
// also carries the action's text as it read when reported, so that counts
// stay with the right action when a record's list is reordered or edited:
// an action is credited with the reports whose text it still has, and
// with those by position only when the text was not given.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kedb::store {

enum class ActionKind { kWorkaround, kDeadEnd };
enum class Outcome { kWorked, kFailed, kPartial };

std::string_view ToString(ActionKind kind);  // "workaround", "dead_end"
std::string_view ToString(Outcome outcome);  // "worked", "failed", "partial"
std::optional<ActionKind> ParseActionKind(std::string_view text);
std::optional<Outcome> ParseOutcome(std::string_view text);

struct OutcomeReport {
  std::string event_id;  // unique per report: the same id twice counts once
  std::string record_id;
  ActionKind kind = ActionKind::kWorkaround;
  int position = 1;     // 1-based, as cards number actions
  std::string action;   // the action's text when reported ("" if unknown)
  Outcome outcome = Outcome::kWorked;
  // Where it happened: "os" -> "linux", "torch" -> "2.2", sorted by key,
  // each key once.
  std::vector<std::pair<std::string, std::string>> env;
  std::string note;
  int64_t reported_at = 0;  // seconds since the Unix epoch, UTC

  bool operator==(const OutcomeReport&) const = default;
};

// Limits a report must keep (a store refuses more, so that one client
// cannot fill it with a few requests).
inline constexpr std::size_t kMaxEventIdBytes = 128;
inline constexpr std::size_t kMaxNoteBytes = 4096;
inline constexpr std::size_t kMaxEnvPairs = 16;
inline constexpr std::size_t kMaxEnvBytes = 128;  // a key or a value

// "" when the report can be stored, otherwise what is wrong with it, naming
// the field ("note: 5000 bytes, at most 4096").
std::string CheckReport(const OutcomeReport& report);

// A fresh event id: 128 random bits in hex (from the system's random
// device).
std::string NewEventId();

// What the reports about one action add up to. `env` is empty for the
// totals; per environment it is one key=value.
struct ActionCounts {
  ActionKind kind = ActionKind::kWorkaround;
  int position = 1;
  std::string action;  // as reported ("" when reports gave none)
  std::string env_key, env_value;
  int64_t worked = 0, failed = 0, partial = 0;
  int64_t last_reported = 0;  // seconds since the epoch; 0 when none
  int64_t last_worked = 0;    // the same, of the reports that it worked

  int64_t reports() const { return worked + failed + partial; }
};

// How often a record was matched: in the last 24 hours, 7 days and 30
// days before a given time, in all, and when first and last.
struct HitStats {
  std::string record_id;
  int64_t day = 0, week = 0, month = 0, total = 0;
  int64_t first_seen = 0, last_seen = 0;  // seconds since the epoch
  // Matches per day over the last 30 days, oldest first (for a chart).
  std::vector<int64_t> daily;
};

}  // namespace kedb::store
