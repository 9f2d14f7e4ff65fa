#include "kb/mapped_records.h"

#include <unistd.h>
#include <xxhash.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "kb/record_codec.h"

namespace kedb {

KnowledgeBase::Mapped::Mapped(std::unique_ptr<util::MappedFile> file, std::string path, const Sections& sections,
                              util::BlockChecks table_checks)
    : file_(std::move(file)),
      path_(std::move(path)),
      sections_(sections),
      table_checks_(std::move(table_checks)),
      decoded_(new std::atomic<const Record*>[sections.count]) {
  for (std::size_t i = 0; i < sections_.count; ++i) decoded_[i].store(nullptr, std::memory_order_relaxed);
}

KnowledgeBase::Mapped::~Mapped() {
  for (std::size_t i = 0; i < sections_.count; ++i) delete decoded_[i].load(std::memory_order_relaxed);
}

uint64_t KnowledgeBase::Mapped::IdHash(std::string_view id) { return XXH3_64bits(id.data(), id.size()); }

KnowledgeBase::Mapped::PatternEntry KnowledgeBase::Mapped::PatternEntryAt(std::size_t i) const {
  PatternEntry e;
  table_checks_.Check(sections_.pattern_entries + i * sizeof(PatternEntry), sizeof e);
  std::memcpy(&e, sections_.pattern_entries + i * sizeof(PatternEntry), sizeof e);
  return e;
}

// The tables are read with memcpy: the file's layout keeps them aligned,
// but nothing in the language promises a mapped byte is a struct.
KnowledgeBase::Mapped::Entry KnowledgeBase::Mapped::EntryAt(std::size_t i) const {
  Entry e;
  table_checks_.Check(sections_.entries + i * sizeof(Entry), sizeof e);
  std::memcpy(&e, sections_.entries + i * sizeof(Entry), sizeof e);
  return e;
}

KnowledgeBase::Mapped::IdSlot KnowledgeBase::Mapped::IdAt(std::size_t i) const {
  IdSlot s;
  table_checks_.Check(sections_.ids + i * sizeof(IdSlot), sizeof s);
  std::memcpy(&s, sections_.ids + i * sizeof(IdSlot), sizeof s);
  return s;
}

void KnowledgeBase::Mapped::Damaged(std::size_t i, const char* what) const {
  util::StopOnDamagedCache("knowledge-base snapshot", path_, std::string(what) + " " + std::to_string(i));
}

Record KnowledgeBase::Mapped::Decode(std::size_t i) const {
  const Entry e = EntryAt(i);
  if (e.offset > sections_.records.size() || e.size > sections_.records.size() - e.offset) Damaged(i, "record");
  const std::string_view bytes = sections_.records.substr(e.offset, e.size);
  if (XXH3_64bits(bytes.data(), bytes.size()) != e.checksum) Damaged(i, "record");
  Record record;
  util::BinaryReader in(bytes);
  RecordDecoder decoder(&in);
  decoder.Record(&record);
  if (!decoder.ok() || !in.done()) Damaged(i, "record");
  return record;
}

const Record& KnowledgeBase::Mapped::Get(std::size_t i) const {
  if (const Record* r = IfDecoded(i)) return *r;
  auto record = std::make_unique<Record>(Decode(i));
  const Record* expected = nullptr;
  if (decoded_[i].compare_exchange_strong(expected, record.get(), std::memory_order_acq_rel)) {
    return *record.release();
  }
  return *expected;  // another thread decoded it first
}

std::string_view KnowledgeBase::Mapped::Pattern(std::size_t i) const {
  const PatternEntry e = PatternEntryAt(i);
  if (e.offset > sections_.patterns.size() || e.size > sections_.patterns.size() - e.offset) {
    Damaged(i, "the pattern of record");
  }
  const std::string_view pattern = sections_.patterns.substr(e.offset, e.size);
  if (KnowledgeBase::PatternHash(pattern) != e.hash) Damaged(i, "the pattern of record");
  return pattern;
}

std::optional<std::size_t> KnowledgeBase::Mapped::Find(std::string_view id) const {
  const uint64_t hash = IdHash(id);
  std::size_t lo = 0, hi = sections_.count;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (IdAt(mid).hash < hash) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  for (; lo < sections_.count; ++lo) {
    const IdSlot slot = IdAt(lo);
    if (slot.hash != hash) break;
    if (slot.record >= sections_.count) Damaged(slot.record, "the id table entry of record");
    if (Get(slot.record).id == id) return slot.record;
  }
  return std::nullopt;
}

}  // namespace kedb
