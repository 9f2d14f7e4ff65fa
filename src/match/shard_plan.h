// ShardPlan: which patterns each shard of a pattern set holds, and the key
// of each shard's cache file (pattern_shard.h).
//
// Why a file of its own: placing patterns in shards needs every pattern's
// hash. For a million patterns that is a pass over a 24 MB table of the
// snapshot and 12 MB of vectors, at every start of every command. The
// plan is kept in the cache under the source's identity (the knowledge
// base's content key), and used in place: a command reads the few shard
// keys, and the members of a shard only where a candidate names them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "util/section_file.h"

namespace kedb::match {

// Where a set's patterns come from, fetched one at a time: a knowledge base
// read from a snapshot keeps them in the mapped file, and a set read from
// the cache fetches only those it compiles (those a scan finds candidates
// for), never all of them.
struct PatternSource {
  std::size_t count = 0;
  // Pattern i (i < count), called from any thread; the view stays valid
  // for the set's life.
  std::function<std::string_view(uint32_t)> pattern;
  // KnowledgeBase::PatternHash of pattern i: what places it in a shard
  // and keys the shard's cache file.
  std::function<uint64_t(uint32_t)> hash;
  // A key that changes whenever any pattern, or their order, changes
  // (KnowledgeBase::content_key); 0 when there is none, and then the plan
  // is made from every pattern's hash each time.
  uint64_t identity = 0;
};

class ShardPlan {
 public:
  // The plan for `source` split into shards of at most about
  // `shard_patterns`: read from `cache_dir` when kept there under the
  // source's identity, else made (and kept, when it has one).
  static std::unique_ptr<ShardPlan> Open(const PatternSource& source, std::size_t shard_patterns,
                                         const std::string& cache_dir);

  std::size_t shards() const { return keys_.size(); }
  // PatternShard::Key of shard k's patterns' hashes.
  uint64_t key(std::size_t k) const { return keys_[k]; }
  // The set's numbers of shard k's patterns, ascending.
  util::Array<uint32_t> members(std::size_t k) const;
  bool from_cache() const { return from_cache_; }

 private:
  bool Bind(std::size_t patterns);
  std::unique_ptr<util::SectionFile> file_;
  util::Array<uint64_t> keys_;
  util::Array<uint32_t> offsets_, members_;  // shard k: members[offsets[k] .. offsets[k+1])
  bool from_cache_ = false;
};

}  // namespace kedb::match
