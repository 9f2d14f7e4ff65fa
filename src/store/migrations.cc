#include "store/migrations.h"

#include <array>

namespace kedb::store {
namespace {

constexpr std::array<std::string_view, 3> kSteps = {
    // 1: outcome reports and the environment each happened in.
    R"sql(
CREATE TABLE outcomes (
  event_id    TEXT PRIMARY KEY,
  record_id   TEXT NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('workaround', 'dead_end')),
  position    INTEGER NOT NULL CHECK (position >= 1),
  action      TEXT NOT NULL,
  outcome     TEXT NOT NULL CHECK (outcome IN ('worked', 'failed', 'partial')),
  note        TEXT NOT NULL,
  reported_at BIGINT NOT NULL
);
CREATE INDEX outcomes_by_record ON outcomes (record_id);
CREATE TABLE outcome_env (
  event_id TEXT NOT NULL REFERENCES outcomes (event_id),
  key      TEXT NOT NULL,
  value    TEXT NOT NULL,
  PRIMARY KEY (event_id, key)
))sql",
    // 2: how often each record was matched, per hour (hours since the
    // epoch, UTC), with the first and last time within the hour.
    R"sql(
CREATE TABLE hits (
  record_id TEXT NOT NULL,
  hour      BIGINT NOT NULL,
  count     BIGINT NOT NULL CHECK (count > 0),
  first_at  BIGINT NOT NULL,
  last_at   BIGINT NOT NULL,
  PRIMARY KEY (record_id, hour)
))sql",
    // 3: records kept in the store: each as its native JSON, with the store
    // revision that last wrote it. The revision counts every write that
    // changed a record, so a server knows from one number whether to reload.
    R"sql(
CREATE TABLE records (
  id         TEXT PRIMARY KEY,
  body       TEXT NOT NULL,
  revision   BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE TABLE records_revision (revision BIGINT NOT NULL);
INSERT INTO records_revision (revision) VALUES (0))sql",
};

}  // namespace

std::span<const std::string_view> SchemaSteps() { return kSteps; }

}  // namespace kedb::store
