// KnowledgeBase: the set of records kedb answers from, loaded and checked.
//
// A knowledge base is read from one PATH, which may be
//   - a directory tree of record files (*.json), each either a native record
//     or a deadends.dev canon record (told apart per file, automatically);
//   - a JSON Lines file (*.jsonl, *.ndjson), one record per line;
//   - a single record file of any extension (the seed .txt files load as is).
//
// Loading never stops at a broken document: every problem becomes a
// Diagnostic naming file, line, column and field, and the broken document is
// left out while the others load. Strict mode, for servers, refuses the whole
// knowledge base when any document has an error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kedb/diagnostic.h"
#include "kedb/record.h"
#include "kedb/status.h"

namespace kedb {

struct LoadOptions {
  bool strict = false;                             // any error fails Load
  std::size_t max_file_bytes = 64u << 20;          // one record file
  std::size_t max_line_bytes = 16u << 20;          // one JSONL line
  std::size_t max_string_bytes = 1u << 20;         // one string value
  std::size_t max_depth = 64;                      // nesting of one document
};

struct LoadReport {
  std::vector<Diagnostic> diagnostics;  // errors and warnings found while loading
  std::size_t documents = 0;            // documents read
  std::size_t rejected = 0;             // documents left out because of errors
  std::size_t native = 0, deadends = 0; // loaded records by source layout

  std::size_t errors() const;
  std::size_t warnings() const;
};

class KnowledgeBase {
 public:
  KnowledgeBase() = default;

  // Loads a knowledge base from `path` (see above). Fails only when `path`
  // cannot be read at all, or in strict mode when any document has an error;
  // `report` (optional) receives every diagnostic either way.
  static Result<KnowledgeBase> Load(const std::string& path, const LoadOptions& options,
                                    LoadReport* report = nullptr);

  // Load(), through a snapshot in `cache_dir` ("" for none): when the
  // source's files are unchanged since the snapshot was written, the records
  // and the report come from it (tens of milliseconds instead of a parse of
  // every file). Otherwise the source is loaded and a snapshot written.
  // Returns exactly what Load() returns either way.
  static Result<KnowledgeBase> LoadCached(const std::string& path, const LoadOptions& options,
                                          const std::string& cache_dir, LoadReport* report = nullptr);

  // A record document held in memory rather than in a file (a record kept
  // in a store): `origin` names it in diagnostics, `text` is its JSON.
  struct Document {
    std::string origin;
    std::string text;
  };
  // Loads records from `documents` exactly as Load() does from files: each
  // is parsed and checked, and a broken one is reported and left out (in
  // strict mode, refuses the whole knowledge base, which `name` names).
  static Result<KnowledgeBase> FromDocuments(const std::string& name, std::vector<Document> documents,
                                             const LoadOptions& options, LoadReport* report = nullptr);

  // Builds a knowledge base from records already in memory. Later duplicates
  // of an id are dropped and reported.
  static KnowledgeBase FromRecords(std::vector<Record> records, LoadReport* report = nullptr);

  // Every record, in load order. A knowledge base read from a snapshot
  // decodes a record the first time it is touched (kb/mapped_records.h),
  // so a command that reads one record does not pay for all of them;
  // walking them all decodes them all.
  class Records {
   public:
    class iterator {
     public:
      using iterator_category = std::forward_iterator_tag;
      using value_type = Record;
      using difference_type = std::ptrdiff_t;
      using pointer = const Record*;
      using reference = const Record&;
      iterator() = default;
      iterator(const KnowledgeBase* kb, std::size_t i) : kb_(kb), i_(i) {}
      const Record& operator*() const { return kb_->record(i_); }
      const Record* operator->() const { return &kb_->record(i_); }
      iterator& operator++() { return ++i_, *this; }
      iterator operator++(int) { iterator t = *this; ++i_; return t; }
      bool operator==(const iterator& o) const { return i_ == o.i_; }

     private:
      const KnowledgeBase* kb_ = nullptr;
      std::size_t i_ = 0;
    };
    explicit Records(const KnowledgeBase* kb) : kb_(kb) {}
    std::size_t size() const { return kb_->size(); }
    bool empty() const { return size() == 0; }
    const Record& operator[](std::size_t i) const { return kb_->record(i); }
    iterator begin() const { return {kb_, 0}; }
    iterator end() const { return {kb_, size()}; }

   private:
    const KnowledgeBase* kb_;
  };
  Records records() const { return Records(this); }
  const Record& record(std::size_t i) const;
  // Calls `visit(i, record)` for every record in order. From a snapshot,
  // a record not decoded yet is decoded for the call and dropped after it:
  // building an index over a million records must not keep them all.
  void ForEachRecord(const std::function<void(std::size_t, const Record&)>& visit) const;
  std::size_t size() const;
  const Record* Find(std::string_view id) const;  // nullptr when absent; O(1), or O(log n) from a snapshot
  std::optional<std::size_t> IndexOf(std::string_view id) const;  // the position of Find's record

  // A hash of every record's whole content, in order: caches built from
  // the records (pattern databases, indexes) are keyed by it. Read from a
  // snapshot, or computed once from the records (one pass over them).
  uint64_t content_key() const;

  // Record `i`'s regex, without decoding the record: what a pattern
  // database compiles, and fetches again when it confirms a hit. From a
  // snapshot it is read in place (checked when fetched, as a record is).
  std::string_view pattern(std::size_t i) const;
  // A hash of record `i`'s regex (PatternHash): pattern databases are
  // sharded and keyed by them, so that an edit that leaves every regex
  // alone (a new workaround, a rate) compiles nothing, and one that changes
  // a regex compiles only the shards it moves between. Read from a
  // snapshot without touching the regex.
  uint64_t pattern_hash(std::size_t i) const;
  static uint64_t PatternHash(std::string_view pattern);
  // Record `i`'s Origin::text_hash (the XXH3 of the text it was read
  // from), without decoding it: what tells which lines of a JSONL file
  // changed since the records were loaded (kb/jsonl_changes.h).
  uint64_t text_hash(std::size_t i) const;

  // Records changed since a knowledge base was loaded: some replaced in
  // place (the same id at the same position), some added after the rest.
  struct Changes {
    std::vector<std::pair<std::size_t, Record>> replaced;  // position, new record
    std::vector<Record> added;
    bool empty() const { return replaced.empty() && added.empty(); }
    std::size_t size() const { return replaced.size() + added.size(); }
  };
  // `base` with `changes` laid over it. Nothing of `base` is copied or
  // decoded: a reload after a one-record edit of a million-record file
  // costs that record. Records keep their positions; added ones follow
  // base's. `changes` must name positions inside base, each once, keep
  // each replaced record's id, and add no id base has (the caller has
  // checked: kb/jsonl_changes.h). The result's content key mixes base's
  // with the changed records'.
  static KnowledgeBase WithChanges(std::shared_ptr<const KnowledgeBase> base, Changes changes);

  // The records of a snapshot, read in place (kb/mapped_records.h).
  class Mapped;
  static KnowledgeBase FromMapped(std::shared_ptr<const Mapped> mapped);

 private:
  // Adds `record` unless its id is taken; then reports a duplicate-id error.
  bool Add(Record record, LoadReport* report);

  std::vector<Record> records_;
  std::unordered_map<std::string, std::size_t> by_id_;
  std::shared_ptr<const Mapped> mapped_;  // set instead of records_ when read from a snapshot
  class Overlay;
  std::shared_ptr<const Overlay> overlay_;  // set instead of both by WithChanges
  struct KeyCache;
  std::shared_ptr<KeyCache> key_;  // content_key() of records_, once computed
};

// Where caches for the knowledge base at `kb_path` go: a .kedb-cache folder
// beside it when that can be written, else $XDG_CACHE_HOME/kedb or
// ~/.cache/kedb; "" when none is usable.
std::string DefaultCacheDir(const std::string& kb_path);

// The user's own cache folder for kedb: $XDG_CACHE_HOME/kedb or
// ~/.cache/kedb ("" when neither variable is set).
std::string UserCacheDir();

// Why a knowledge base at `path` that loaded no record cannot be used: a
// wrong folder, a copied binary whose built-in path is gone, or documents
// that all failed to load. Commands treat it as an error rather than
// answering "nothing matches".
std::string NoRecordsMessage(const std::string& path, const LoadReport& report);

// Writes every record to DIR/<id>.json in the canonical file form, creating
// folders as needed. Each file is written to a temporary name and renamed,
// so a crash never leaves a half-written record.
Status WriteNativeTree(const KnowledgeBase& kb, const std::string& dir);

}  // namespace kedb
