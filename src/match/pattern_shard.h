// PatternShard: the prefilter databases (pattern_set.h) of one shard of a
// pattern set.
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
// A shard is immutable once built or loaded; scanning it is thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kedb/status.h"
#include "regex/hs_database.h"

namespace kedb::match {

struct ShardCounts {
  std::size_t prefiltered = 0;     // patterns reached through a literal factor
  std::size_t fallback = 0;        // patterns with (some branches) in the regex database
  std::size_t invalid = 0;         // patterns that do not parse or compile
  std::size_t literals = 0;        // distinct literals, both kinds
  std::size_t broad_literals = 0;  // of which looked for on marked lines only
};

struct PatternShard {
  // Literal i of `db` leads to patterns patterns[offsets[i] .. offsets[i+1]),
  // as the set's pattern numbers.
  struct LiteralIndex {
    regex::HsDatabase db;
    std::vector<uint32_t> offsets, patterns;
  };

  // The shard of the patterns `members` (the set's numbers, ascending),
  // fetched through `pattern`. `threads` (1 or 2) plan and compile it.
  static Result<PatternShard> Build(const std::vector<uint32_t>& members,
                                    const std::function<std::string_view(uint32_t)>& pattern, int threads);

  // The cache file's key for a shard of patterns with these hashes, in
  // order (KnowledgeBase::PatternHash), under today's prefilter rules and
  // Hyperscan.
  static uint64_t Key(const std::vector<uint64_t>& hashes);
  // Writes the shard to `path` (false when it cannot: that only costs
  // time). The file numbers patterns by their place in the shard, so that
  // it stays valid when records are added or removed elsewhere.
  bool Save(const std::string& path, uint64_t key, const std::vector<uint32_t>& members) const;
  // The shard in `path` when it was written under `key` for as many
  // members and checks out; else false, and the shard is left empty.
  bool Load(const std::string& path, uint64_t key, const std::vector<uint32_t>& members);

  // Distinctive literals (every line), broad ones (marked lines only);
  // regex-database expression j (a whole pattern or one of its branches)
  // leads to pattern fallback[j]; every_line patterns have no usable
  // factor and are tried on every (marked) line.
  LiteralIndex distinct, broad;
  regex::HsDatabase fallback_db;
  std::vector<uint32_t> fallback;
  std::vector<uint32_t> every_line;
  ShardCounts counts;
};

}  // namespace kedb::match
