// Outcome reports and what they add up to, for every front end: reporting
// one (`kedb report`), and showing a record with its observed rates.
#pragma once

#include <cstdint>
#include <string>

#include "app/queries.h"
#include "store/store.h"

namespace kedb::app {

struct OutcomeRequest {
  std::string record_id;
  std::string kind = "workaround";  // "workaround" or "dead_end"
  int position = 0;                 // 1-based, as the record's card numbers them
  std::string outcome;              // "worked", "failed" or "partial"
  std::string env;                  // "os=linux,torch=2.2"
  std::string note;
  std::string event_id;             // "" for a new one
  int64_t now = 0;                  // the report's time, seconds since the epoch
};

// Checks the request against the record (it exists, it has that action),
// stores it, and answers with the report as stored and the action's rate
// now (render/evidence_render.h). kInvalid or kNotFound name what is wrong;
// a store that cannot write gives kInvalid with its message (nothing was
// kept).
Answer ReportOutcome(const Engine& engine, store::OutcomeStore& store, const OutcomeRequest& request);

// RecordById with what `store` observed: JSON is the record's own text
// with an "observed" member added when any report is about it; the text
// card shows posterior rates.
Answer RecordWithEvidence(const Engine& engine, store::OutcomeStore& store, const std::string& id, Lang lang);

// `kedb stats --hits`: how often each record was matched, most this week
// first (render/evidence_render.h). `now`: seconds since the epoch.
Answer HitStatistics(const Engine& engine, store::OutcomeStore& store, int64_t now);

// Counts `records` (the best match of each message or block) as matched
// now; "" or why they could not be counted, for the answer's notes.
std::string CountHits(store::OutcomeStore* store, const std::vector<const Record*>& records);

// What `store` observed about `records` (each once, by id), for the match
// and scan renderers; records nothing was reported about are left out.
// Without a store, or when it cannot be read (then `*note` says why), the
// result is empty and rates are shown as curated.
ObservedRates ObservedFor(store::OutcomeStore* store, const std::vector<const Record*>& records, std::string* note);

}  // namespace kedb::app
