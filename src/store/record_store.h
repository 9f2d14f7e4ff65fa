// RecordStore: records kept in a store, so that a team's servers answer
// from one knowledge base that changes without a restart.
//
// A record is kept as its native JSON, by id. Every write that changes a
// record moves the store's revision on; a server compares revisions to
// know whether to reload, and a RecordWatcher wakes it when that happens:
// through LISTEN/NOTIFY on PostgreSQL (within milliseconds of the commit),
// by reading the revision a few times a second on SQLite. Writing the same
// content again changes nothing and moves nothing.
//
// The store checks ids and sizes; whether the JSON is a good record is for
// the caller to check (lint's rules) before writing.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kedb/status.h"

namespace kedb::store {

struct StoredRecord {
  std::string id;
  std::string json;         // the native record, as written
  int64_t updated_at = 0;   // seconds since the epoch of the last change
};

// The largest record a store takes (a record file on disk may be larger;
// a store shared over the network is not the place for one).
inline constexpr std::size_t kMaxStoredRecordBytes = 256u << 10;

class RecordStore {
 public:
  virtual ~RecordStore() = default;

  struct Written {
    std::size_t changed = 0;    // records new or different from the stored ones
    std::size_t unchanged = 0;  // the same JSON as stored already
    int64_t revision = 0;       // the store's revision after the write
  };
  // Stores `records` (by id, replacing what each id held) in one
  // transaction, durably, stamped `at`; all or nothing. InvalidArgument
  // naming the record when an id is empty or repeated, or a record is
  // larger than kMaxStoredRecordBytes; IoError when the store cannot write.
  virtual Result<Written> Put(const std::vector<StoredRecord>& records, int64_t at) = 0;

  // One record, or nullopt when the store has none with that id.
  virtual Result<std::optional<StoredRecord>> Get(std::string_view id) = 0;

  struct Snapshot {
    int64_t revision = 0;
    std::vector<StoredRecord> records;  // by id
  };
  // Every record, and the revision they are as of (read in one transaction).
  virtual Result<Snapshot> All() = 0;

  // The store's revision: 0 before anything was written.
  virtual Result<int64_t> Revision() = 0;

  const std::string& Name() const { return name_; }

 protected:
  explicit RecordStore(std::string name) : name_(std::move(name)) {}

 private:
  std::string name_;
};

// Wakes a server when the records in a store change. It holds a connection
// of its own, used by one thread.
class RecordWatcher {
 public:
  virtual ~RecordWatcher() = default;
  // Returns the store's revision as soon as it is past `seen`, or when
  // `timeout` has passed (then it may still be `seen`). An error when the
  // store cannot be read; the next call tries to reconnect.
  virtual Result<int64_t> WaitPast(int64_t seen, std::chrono::milliseconds timeout) = 0;
};

// The record half of the store `spec` names (see OpenStore in store.h:
// the same spec, schema and migrations).
Result<std::unique_ptr<RecordStore>> OpenRecordStore(const std::string& spec);
Result<std::unique_ptr<RecordWatcher>> OpenRecordWatcher(const std::string& spec);

// "" when `records` may be written, otherwise what is wrong, naming the
// record ("records[3] (cuda/x): 300000 bytes, at most 262144").
std::string CheckRecordsToStore(const std::vector<StoredRecord>& records);

}  // namespace kedb::store
