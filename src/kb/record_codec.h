// The binary form of one record, as kept in knowledge-base snapshots
// (kb/snapshot.h) and hashed into a knowledge base's content key.
//
// Every field is written, in a fixed order, so that decoding gives back
// the record exactly. Bump kRecordCodecVersion whenever Record or this
// order changes: snapshots and caches of the old form are then rebuilt.
#pragma once

#include <cstdint>

#include "kedb/record.h"
#include "util/binary_io.h"

namespace kedb {

constexpr uint64_t kRecordCodecVersion = 3;  // 2: sources, occurrences, verification_note; 3: origin.text_hash

void EncodeRecord(const Record& r, util::BinaryWriter* w);

// Reads a record in the order EncodeRecord wrote it, and fields of a
// diagnostic; `ok()` turns false (and stays false) at the first short read
// or out-of-range value.
class RecordDecoder {
 public:
  explicit RecordDecoder(util::BinaryReader* r) : r_(r) {}
  bool ok() const { return ok_; }
  void Str(std::string* s) { ok_ = ok_ && r_->String(s); }
  uint64_t Count();
  uint64_t Int();
  double F64();
  void Record(kedb::Record* r);

 private:
  void Strings(std::vector<std::string>* v);
  std::optional<double> Optional();
  std::optional<Date> DateField();
  void Edges(std::vector<Edge>* edges);
  void Occurrences(std::vector<Occurrence>* v);

  util::BinaryReader* r_;
  bool ok_ = true;
};

}  // namespace kedb
