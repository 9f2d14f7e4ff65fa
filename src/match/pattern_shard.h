// PatternShard: the prefilter of one shard of a pattern set (pattern_set.h),
// kept in a section file (util/section_file.h) that is used in place.
//
// Why shards: Hyperscan compiles a literal database in time that grows
// faster than its size (about 8 s for 100k literals; more than ten minutes
// for a million), and one edit to one pattern would compile it all again.
// A set is split by each pattern's hash into shards of at most about 128k
// patterns; each is compiled on its own (two at a time, one per core) and
// cached under a key made of its patterns' hashes, so an edit compiles only
// the shards whose patterns changed. Scanning pays one pass per shard,
// which is why shards are large.
//
// Each shard holds two literal indexes (literal_index.h): distinctive
// literals, looked for on every line, and the others, on marked lines
// only: broad ones, and distinctive ones that hold a word which marks a
// line as a problem (logs::HoldsProblemWord), since no unmarked line can
// hold them. A short text is looked up in their tables, a long one
// scanned with their Hyperscan databases.
//
// The file also keeps each pattern's literal check (literal_check.h), so
// that a candidate is turned away without parsing its regex.
//
// Patterns are numbered within the shard ("local" numbers, the order of
// `members`), so that the file stays valid when records are added or
// removed elsewhere; Global() gives the set's number.
//
// Immutable once built or loaded; every const method is thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kedb/status.h"
#include "match/literal_index.h"
#include "regex/hs_database.h"
#include "util/section_file.h"

namespace kedb::match {

struct ShardCounts {
  std::size_t prefiltered = 0;     // patterns reached through a literal factor
  std::size_t fallback = 0;        // patterns with (some branches) in the regex database
  std::size_t invalid = 0;         // patterns that do not parse or compile
  std::size_t literals = 0;        // distinct literals, both kinds
  std::size_t broad_literals = 0;  // of which looked for on marked lines only
};

class PatternShard {
 public:
  // The literals looked for on every line, and those looked for on marked
  // lines only (pattern_set.h).
  enum class Literals { kAnyLine = 0, kMarkedLine = 1 };
  using Route = LiteralIndex::Route;
  using LiteralGroup = LiteralIndex::Group;
  static constexpr std::size_t kShortText = LiteralIndex::kShortText;

  PatternShard();
  PatternShard(PatternShard&&) noexcept;
  PatternShard& operator=(PatternShard&&) noexcept;
  ~PatternShard();

  // The shard of the patterns `members` (the set's numbers, ascending;
  // kept for the shard's life),
  // fetched through `pattern`, held in memory until Save(); `key` is
  // Key() of their hashes. `threads` (1 or 2) plan and compile it.
  static Result<PatternShard> Build(const util::Array<uint32_t>& members,
                                    const std::function<std::string_view(uint32_t)>& pattern, uint64_t key,
                                    int threads);

  // The cache file's key for a shard of patterns with these hashes, in
  // order (KnowledgeBase::PatternHash), under today's prefilter rules and
  // Hyperscan.
  static uint64_t Key(const std::vector<uint64_t>& hashes);
  // Writes the shard to `path` (false when it cannot: that only costs
  // time).
  bool Save(const std::string& path) const;
  // The shard in `path` when it was written under `key` for as many
  // members and checks out; else nullopt.
  static std::optional<PatternShard> Load(const std::string& path, uint64_t key, const util::Array<uint32_t>& members);

  // Calls on_hit(literal, end offset) for each occurrence of each literal
  // of `kind` in `text` (LiteralIndex::Find).
  void FindLiterals(Literals kind, std::string_view text,
                    const std::function<void(uint32_t literal, std::size_t end)>& on_hit,
                    Route route = Route::kAuto, const TextKeys* keys = nullptr) const;
  // The index of the literals of `kind`.
  const LiteralIndex& literal_index(Literals kind) const;
  // The local numbers of the patterns literal `literal` of `kind` leads to.
  std::span<const uint32_t> LiteralPatterns(Literals kind, uint32_t literal) const;
  // The same in groups by gate (LiteralIndex::Groups).
  void Groups(Literals kind, uint32_t literal, std::vector<LiteralGroup>* out) const;
  bool has_literals(Literals kind) const;

  // The regex database (a whole pattern or some of its branches per
  // expression; read from the file on first use) and the local pattern of
  // each expression; empty when no pattern needs one.
  const regex::HsDatabase& fallback_db() const;
  uint32_t FallbackPattern(uint32_t expression) const;
  bool has_fallback() const;
  // Patterns with no usable factor, tried on every (marked) line.
  std::span<const uint32_t> every_line() const;

  // Pattern `local`'s literal check (LiteralCheck::Encode), "" for none.
  std::string_view CheckBytes(uint32_t local) const;
  uint32_t Global(uint32_t local) const { return members_[local]; }
  std::size_t size() const { return members_.size(); }
  const ShardCounts& counts() const { return counts_; }

 private:
  struct Parts;
  bool Bind();  // the sections of file_, with their bounds checked

  util::Array<uint32_t> members_;  // in the set's manifest (pattern_set.h)
  std::unique_ptr<Parts> parts_;
  ShardCounts counts_;
};

}  // namespace kedb::match
