// The records of a knowledge base read in place from a mapped snapshot
// file (kb/snapshot.h), each decoded the first time it is touched.
//
// Why: a command that touches one record (`kedb show ID`) should cost the
// same at a thousand records as at a million. Decoding every record of a
// large snapshot takes seconds and gigabytes; mapping it costs neither.
//
// The file holds, after its header, every record's encoding
// (kb/record_codec.h) back to back, every regex, a table of where each
// record is with its checksum, one of where each regex is with its hash,
// and a table of id hashes sorted for binary search. Opening checks the
// header; the tables are checked in 4 KB blocks as they are read, and a
// record's or regex's own bytes when it is first read.
//
// Thread-safe: two threads touching the same record at once may both
// decode it; one copy is kept, and a record once decoded stays at the same
// address until the knowledge base goes away.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "kedb/knowledge_base.h"
#include "util/binary_io.h"
#include "util/section_file.h"

namespace kedb {

class KnowledgeBase::Mapped {
 public:
  // One record's place in the file (relative to the start of the records).
  struct Entry {
    uint64_t offset;
    uint64_t size;
    uint64_t checksum;  // XXH3 of the record's bytes
    uint64_t text_hash;  // Origin::text_hash: the source text it was read from
  };
  // An id's hash and its record, sorted by hash then record.
  struct IdSlot {
    uint64_t hash;
    uint64_t record;
  };
  // One record's regex, kept apart from its encoding so that a pattern
  // database can be built, or a hit confirmed, without decoding records
  // (relative to the start of the patterns).
  struct PatternEntry {
    uint64_t offset;
    uint64_t hash;  // KnowledgeBase::PatternHash, which also checks it
    uint64_t size;
  };

  // Where everything is in the mapped file. `records` spans every record's
  // encoding and `patterns` every regex; `entries`, `ids` and
  // `pattern_entries` hold `count` items each (their checksum already
  // verified by the caller, and each entry checked to lie inside its
  // section).
  struct Sections {
    std::string_view records, patterns;
    const char* entries = nullptr;
    const char* ids = nullptr;
    const char* pattern_entries = nullptr;
    std::size_t count = 0;
    uint64_t content_key = 0;
  };

  // `file` stays open for the life of this object. `table_checks` covers
  // the three tables, which lie back to back from `entries`.
  Mapped(std::unique_ptr<util::MappedFile> file, std::string path, const Sections& sections,
         util::BlockChecks table_checks);
  ~Mapped();
  Mapped(const Mapped&) = delete;
  Mapped& operator=(const Mapped&) = delete;

  std::size_t size() const { return sections_.count; }
  uint64_t content_key() const { return sections_.content_key; }

  // Record `i`, decoded on first use. A record whose bytes fail their
  // checksum means the file changed under the process after it was
  // opened: the file is removed (the next run builds it again from the
  // source) and the process stops with a message naming it, since no
  // answer drawn from it can be trusted.
  const Record& Get(std::size_t i) const;
  // Record `i` if it was decoded and kept, else null.
  const Record* IfDecoded(std::size_t i) const { return decoded_[i].load(std::memory_order_acquire); }
  // Record `i` decoded afresh and not kept (checked as Get checks it).
  Record Decode(std::size_t i) const;
  // Record `i`'s regex, read in place; a damaged one is handled as a
  // damaged record is.
  std::string_view Pattern(std::size_t i) const;
  uint64_t PatternHashAt(std::size_t i) const { return PatternEntryAt(i).hash; }
  // Record `i`'s Origin::text_hash, without decoding it.
  uint64_t TextHashAt(std::size_t i) const { return EntryAt(i).text_hash; }
  // The position of the record with `id`, if there is one.
  std::optional<std::size_t> Find(std::string_view id) const;

  static uint64_t IdHash(std::string_view id);

 private:
  Entry EntryAt(std::size_t i) const;
  IdSlot IdAt(std::size_t i) const;
  PatternEntry PatternEntryAt(std::size_t i) const;
  [[noreturn]] void Damaged(std::size_t i, const char* what) const;

  std::unique_ptr<util::MappedFile> file_;
  std::string path_;
  Sections sections_;
  util::BlockChecks table_checks_;
  std::unique_ptr<std::atomic<const Record*>[]> decoded_;
};

}  // namespace kedb
