// MergedLiterals: one Hyperscan database over the any-line literals of
// every shard of a pattern set (pattern_set.h), so that a long text is
// read once for them instead of once per shard.
//
// Why: shards exist because Hyperscan's compile time grows faster than a
// database's size, and they are large because a scan pays a pass per
// shard. At a million generated patterns the eight shards' any-line
// databases hold 94k keys between them (nine literals in ten hold a
// problem word and are looked for on marked lines only): merged, they
// compile in about 3 s and one pass over a 1 MB chunk of log costs an
// eighth of the eight passes (0.017 against 0.13 s for a 50 MB log).
//
// Each index's keys keep their ids, offset by a base per index
// (LiteralIndex::DatabaseKeys), so a hit is handed back to its index as
// if the index's own database had found it: Find reports exactly what
// each index's Find(Route::kDatabase) reports.
//
// The database is compiled on first use, not with the shards: an edit to
// one record recompiles a shard or two in well under a second, while this
// database would take seconds; the first long scan after an edit pays it,
// once, and it is kept in the cache under a key made of every shard's key.
//
// Immutable once opened; Find is thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kedb/status.h"
#include "match/literal_index.h"
#include "regex/hs_database.h"

namespace kedb::match {

class MergedLiterals {
 public:
  MergedLiterals(MergedLiterals&&) noexcept;
  MergedLiterals& operator=(MergedLiterals&&) noexcept;
  ~MergedLiterals();

  // The database over `indexes` (which must outlive it), read from
  // `cache_dir` when kept there under `key`, else compiled (and kept;
  // failing to write it only costs time). `key` must change whenever any
  // index does: Key() of the shards' keys.
  static Result<MergedLiterals> Open(std::vector<const LiteralIndex*> indexes, uint64_t key,
                                     const std::string& cache_dir);
  // The cache key of the merged any-line literals of shards with these
  // keys (PatternShard::Key), in order.
  static uint64_t Key(const std::vector<uint64_t>& shard_keys);

  // Calls on_hit(index, literal, end) for each occurrence of each literal
  // of each index in `text`: per index, what its Find would report with
  // its database, in the same order.
  void Find(std::string_view text,
            const std::function<void(std::size_t index, uint32_t literal, std::size_t end)>& on_hit) const;

  bool from_cache() const { return from_cache_; }

 private:
  MergedLiterals() = default;
  std::vector<const LiteralIndex*> indexes_;
  std::vector<unsigned> bases_;  // index i's ids start at bases_[i]
  regex::HsDatabase db_;
  bool from_cache_ = false;
};

}  // namespace kedb::match
