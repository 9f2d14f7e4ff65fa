#include "match/shard_plan.h"

#include <xxhash.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "match/pattern_shard.h"
#include "util/binary_io.h"

namespace kedb::match {
namespace {

constexpr char kMagic[8] = {'K', 'E', 'D', 'B', 'P', 'L', 'N', '1'};
// Plans kept per cache folder: one per knowledge base that shares it, and
// a few past versions of each.
constexpr std::size_t kCachedPlans = 8;
enum Section : std::size_t { kKeys, kOffsets, kMembers, kSections };

// The key of a plan: the source's identity, how it is split, and the
// shard keys' own format (PatternShard::Key of no pattern), so that a new
// prefilter or Hyperscan gives new shard keys.
uint64_t PlanKey(const PatternSource& source, std::size_t shard_patterns) {
  const std::string what = fmt::format("{}|{}|{}|{}", source.identity, source.count, shard_patterns,
                                       PatternShard::Key({}));
  return XXH3_64bits(what.data(), what.size());
}

// Each pattern goes to the shard its hash names: an edit moves one
// pattern between at most two shards, and adding or removing records
// changes only the shards of their patterns.
std::string MakePlan(const PatternSource& source, std::size_t shard_patterns, uint64_t plan_key) {
  const std::size_t n = source.count;
  const std::size_t shards = std::max<std::size_t>(1, (n + shard_patterns - 1) / shard_patterns);
  std::vector<std::vector<uint32_t>> members(shards);
  std::vector<std::vector<uint64_t>> hashes(shards);
  for (uint32_t p = 0; p < n; ++p) {
    const uint64_t h = source.hash(p);
    members[h % shards].push_back(p);
    hashes[h % shards].push_back(h);
  }
  std::vector<uint64_t> keys;
  std::vector<uint32_t> offsets{0}, all;
  all.reserve(n);
  for (std::size_t k = 0; k < shards; ++k) {
    keys.push_back(PatternShard::Key(hashes[k]));
    all.insert(all.end(), members[k].begin(), members[k].end());
    offsets.push_back(static_cast<uint32_t>(all.size()));
  }
  util::SectionWriter w;
  w.Add(keys);
  w.Add(offsets);
  w.Add(all);
  return w.Finish({kMagic, sizeof kMagic}, plan_key);
}

}  // namespace

std::unique_ptr<ShardPlan> ShardPlan::Open(const PatternSource& source, std::size_t shard_patterns,
                                           const std::string& cache_dir) {
  shard_patterns = std::max<std::size_t>(shard_patterns, 1);
  const uint64_t plan_key = PlanKey(source, shard_patterns);
  std::string path;
  if (source.identity != 0 && !cache_dir.empty()) {
    path = (std::filesystem::path(cache_dir) / fmt::format("pattern-plan-{:016x}.bin", plan_key)).string();
  }
  std::unique_ptr<ShardPlan> plan(new ShardPlan());
  if (!path.empty()) {
    // Read in places: only the members a candidate names are checked.
    plan->file_ = util::SectionFile::Open(path, {kMagic, sizeof kMagic}, plan_key, /*check_whole_below=*/1 << 20);
    if (plan->Bind(source.count)) {
      plan->from_cache_ = true;
      return plan;
    }
  }
  std::string bytes = MakePlan(source, shard_patterns, plan_key);
  // An unwritable cache only costs time.
  if (!path.empty() && util::WriteFileAtomically(path, bytes, util::WriteFor::kReadInPlaces)) {
    util::PruneCacheFiles(cache_dir, "pattern-plan-", kCachedPlans);
  }
  plan->file_ = util::SectionFile::FromBytes(std::move(bytes), {kMagic, sizeof kMagic}, plan_key);
  if (!plan->Bind(source.count)) return nullptr;
  return plan;
}

bool ShardPlan::Bind(std::size_t patterns) {
  if (!file_ || file_->sections() != kSections || !file_->Get(kKeys, &keys_) || !file_->Get(kOffsets, &offsets_) ||
      !file_->Get(kMembers, &members_)) {
    return false;
  }
  return !keys_.empty() && offsets_.size() == keys_.size() + 1 && members_.size() == patterns &&
         offsets_[0] == 0 && offsets_[offsets_.size() - 1] == patterns;
}

util::Array<uint32_t> ShardPlan::members(std::size_t k) const {
  const uint32_t begin = offsets_[k], end = offsets_[k + 1];
  return members_.Part(begin, end);
}

}  // namespace kedb::match
