// Rates that learn: a record's curated rate, updated by what was reported.
//
// Each rate is the mean of a Beta posterior. The curated rate r (a
// workaround's success_rate, a dead end's fail_rate) is a prior worth
// kPriorWeight observations: Beta(r*w, (1-r)*w). Each report adds one
// observation: for a workaround "worked" is a success and "failed" a
// failure; for a dead end the rate is how often it fails, so "failed"
// counts for it; "partial" is half of each. With no curated rate the prior
// is Beta(1, 1). The interval is the central 90 % of the posterior.
//
// Ten pseudo-observations means a curated 0.9 reads 0.82 after two
// failures, 0.45 after ten in a row and 0.29 after twenty: an author's
// number gives way to reports within a few dozen, not at the first one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kedb/record.h"
#include "store/outcome.h"

namespace kedb::store {

inline constexpr double kPriorWeight = 10;
// Environments are shown for an action once they have this many reports.
inline constexpr int64_t kMinEnvReports = 3;
// A workaround with at least this many reports whose posterior success is
// below kDeadEndRate is flagged as a likely dead end.
inline constexpr int64_t kMinDeadEndReports = 5;
inline constexpr double kDeadEndRate = 0.3;

struct Rate {
  double mean = 0, low = 0, high = 0;  // posterior mean and 90 % interval
  double hits = 0, misses = 0;         // observed, partial reports as halves
};
// The posterior of a rate with prior `curated` (nullopt: none).
Rate Posterior(std::optional<double> curated, double hits, double misses);

struct EnvRate {
  std::string key, value;
  int64_t worked = 0, failed = 0, partial = 0;
  Rate rate;
};

struct ActionEvidence {
  ActionKind kind = ActionKind::kWorkaround;
  int position = 1;  // 1-based, workarounds and dead ends numbered apart
  std::string action;
  double curated = 0;  // the rate the record states
  int64_t worked = 0, failed = 0, partial = 0;
  int64_t last_reported = 0;  // seconds since the epoch; 0 when never
  int64_t last_worked = 0;    // the last report that it worked; 0 when none
  Rate rate;
  std::vector<EnvRate> by_env;  // pairs with kMinEnvReports or more
  bool likely_dead_end = false;  // a workaround that keeps failing
  int64_t reports() const { return worked + failed + partial; }
};

struct RecordEvidence {
  std::vector<ActionEvidence> actions;  // workarounds, then dead ends, in record order
  int64_t reports = 0;          // reports credited to one of its actions
  int64_t unattributed = 0;     // reports about actions the record no longer has
  int64_t evidence_count = 0;   // the record's own count plus the reports
  int64_t last_confirmed = 0;   // last report that a workaround worked; 0 when none
};

// The record's actions with what `counts` (OutcomeStore::Counts) says of
// them.
RecordEvidence Evidence(const Record& record, const std::vector<ActionCounts>& counts);

}  // namespace kedb::store
