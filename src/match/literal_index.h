// LiteralIndex: one set of prefilter literals of a pattern shard
// (pattern_shard.h), kept in the shard's section file and used in place:
// where each literal is found in a text, and which patterns it leads to.
//
// Two ways to find literals, with the same answers: a Hyperscan literal
// database scans a long log at gigabytes a second, but must be copied out
// of the file and checked whole before its first use (about 12 ms and
// 12 MB for 128k literals). It holds the literals up to 16 bytes long and
// only the first 16 bytes of the longer ones, which are then compared
// where those are found. A short text (one error message, a request to
// the server) is looked up instead in a hash table of the literals, keyed
// by their first 8 bytes, behind a bitmap of key hashes: a few lookups per
// byte, reading only the pages they touch. Both find each occurrence of
// each literal, ASCII letters in either case.
//
// The patterns behind a literal are in groups by gate: another literal
// each pattern of the group needs in a line (LiteralCheck folding). A line
// without the gate skips the group after one substring search; at a
// million patterns a literal such as "failed to read " leads to thousands.
//
// Immutable once bound; every const method is thread-safe.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kedb/status.h"
#include "regex/hs_database.h"
#include "util/section_file.h"

namespace kedb::match {

// `s` with ASCII letters lowered: how literals are kept and matched (as
// Hyperscan's caseless flag matches them).
std::string FoldedAscii(std::string_view s);
// The same into `out`, whose buffer is reused.
void FoldAscii(std::string_view s, std::string* out);

// A short text as the literal tables look it up: folded, and the hash of
// the key of each length (1 to kBytes) at each position. Made once for a
// text and shared by every shard.
class TextKeys {
 public:
  static constexpr std::size_t kBytes = 8;  // the tables' key length
  explicit TextKeys(std::string_view text);
  std::string_view folded() const { return folded_; }
  // The hash of folded()[i, i + k), k <= kBytes and i + k <= size.
  uint64_t hash(std::size_t i, std::size_t k) const { return hashes_[i * kBytes + k - 1]; }

 private:
  std::string folded_;
  std::vector<uint64_t> hashes_;
};

// A Hyperscan database kept serialized in a section of a file, read from
// it on first use (copied out and checked whole, as Hyperscan requires),
// or given when just compiled. Thread-safe.
class StoredDatabase {
 public:
  void Bind(const util::Array<char>& bytes) { bytes_ = bytes; }
  // The database; empty when none was stored or it does not read back
  // (the file's checks passed, so that means another Hyperscan).
  const regex::HsDatabase& Get() const;
  // Whether Get() has read it already (or Keep() gave it).
  bool ready() const { return ready_.load(std::memory_order_acquire); }
  void Keep(regex::HsDatabase db);
  bool empty() const { return bytes_.empty(); }

 private:
  util::Array<char> bytes_;
  mutable std::once_flag once_;
  mutable std::atomic<bool> ready_{false};
  mutable regex::HsDatabase db_;
};

// Folded literal -> the local numbers of the patterns it leads to, ascending.
using LiteralMap = std::map<std::string, std::vector<uint32_t>>;

class LiteralIndex {
 public:
  static constexpr std::size_t kSections = 18;  // in a section file, from the first given
  // Texts up to this size are looked up in the table, longer ones scanned
  // with the database. With fewer than kTableLiterals literals, Hyperscan
  // scans a short text faster than the table (the corpus's 2,522 patterns:
  // 10 against 17 µs a match), so after the first kTableTexts texts the
  // database is read and used for all; with more, the table is faster (a
  // million patterns: 0.9 against 2.2 ms), its lookups touching a few
  // cache lines where Hyperscan's touch many.
  static constexpr std::size_t kShortText = 32 << 10;
  static constexpr std::size_t kTableLiterals = 32 << 10;
  static constexpr uint32_t kTableTexts = 16;

  // How Find looks: kAuto as above; the other two force a way, for tests.
  enum class Route { kAuto, kTable, kDatabase };

  // Patterns behind a literal that need `gate_text` too (none when empty).
  struct Group {
    uint32_t gate;  // the index's gate number, UINT32_MAX for none
    std::string_view gate_text;
    std::span<const uint32_t> patterns;
  };

  // Writes the index of `by_literal` as kSections sections; `gates[q]` is
  // local pattern q's gate ("" for none). Returns the database compiled
  // on the way; `lengths` gets the key lengths present (bit k-1 for k).
  static Result<regex::HsDatabase> Write(const LiteralMap& by_literal, const std::vector<std::string>& gates,
                                         util::SectionWriter* w, uint64_t* lengths);

  // The sections from `first` of `file` (which must outlive this), with
  // the key lengths Write gave; false when they do not fit together.
  bool Bind(const util::SectionFile& file, std::size_t first, uint64_t lengths);
  // A database just compiled, kept instead of read back from the file.
  void KeepDatabase(regex::HsDatabase db);

  std::size_t size() const { return literals_.size(); }
  // Calls on_hit(literal, end offset) for each occurrence of each literal
  // in `text`, in order of start offset (table) or of end offset
  // (database). `keys`, when given, are TextKeys of `text`.
  void Find(std::string_view text, const std::function<void(uint32_t literal, std::size_t end)>& on_hit,
            Route route = Route::kAuto, const TextKeys* keys = nullptr) const;
  // The keys this index's database holds and the id each reports, `base`
  // added: several indexes' keys, each given its own base, make one
  // database (a base is the previous one plus its database_ids()). The
  // keys are read from the tables, so the database itself is not read.
  void DatabaseKeys(unsigned base, std::vector<std::string>* keys, std::vector<unsigned>* ids) const;
  // How many ids DatabaseKeys gives out, from `base` on.
  std::size_t database_ids() const { return literals_.size() + prefixes_.size(); }
  // What Find reports for a hit of key `id` (base taken off) ending at
  // `end` of `text`; `folded` is a buffer.
  void DatabaseHit(unsigned id, std::string_view text, std::size_t end, std::string* folded,
                   const std::function<void(uint32_t literal, std::size_t end)>& on_hit) const;

  // The patterns literal `literal` leads to, and the same in groups.
  std::span<const uint32_t> Patterns(uint32_t literal) const;
  void Groups(uint32_t literal, std::vector<Group>* out) const;

 private:
  template <typename F>
  void LookUp(const TextKeys& keys, F&& on_hit) const;
  template <typename F>
  void LiteralsBeginning(std::span<const uint32_t> group, std::string_view text, F&& on_hit) const;
  // The literals longer than Hyperscan's keys that begin at `start` of
  // `text`, behind table key `prefix`; `folded` is a buffer.
  void LongLiteralsAt(uint32_t prefix, std::string_view text, std::size_t start, std::string* folded,
                      const std::function<void(uint32_t literal, std::size_t end)>& on_hit) const;

  StoredDatabase db_;
  util::Array<uint32_t> offsets_, patterns_;
  util::StringTable literals_, prefixes_;
  util::Array<uint32_t> prefix_offsets_, prefix_literals_;
  util::Array<uint64_t> key_bits_;
  util::Array<uint32_t> group_starts_, group_gates_, group_ends_;
  util::StringList gates_;
  uint64_t lengths_ = 0;
  std::size_t longest_ = 0;  // the longest literal's length
  mutable std::atomic<uint32_t> table_uses_{0};
};

}  // namespace kedb::match
