#include "match/merged_literals.h"

#include <xxhash.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "util/binary_io.h"

namespace kedb::match {
namespace {

// Bump when the file's layout or the way keys get their ids changes.
constexpr uint32_t kMergedFormat = 1;
constexpr char kMagic[8] = {'K', 'E', 'D', 'B', 'M', 'L', 'T', '1'};
// Merged databases kept per cache folder: the one in use and the one
// before an edit (a second knowledge base sharing the folder may need it).
constexpr std::size_t kCachedMerged = 2;
constexpr char kPrefix[] = "anyline-";

}  // namespace

MergedLiterals::MergedLiterals(MergedLiterals&&) noexcept = default;
MergedLiterals& MergedLiterals::operator=(MergedLiterals&&) noexcept = default;
MergedLiterals::~MergedLiterals() = default;

uint64_t MergedLiterals::Key(const std::vector<uint64_t>& shard_keys) {
  std::vector<uint64_t> all{kMergedFormat};
  all.insert(all.end(), shard_keys.begin(), shard_keys.end());
  return XXH3_64bits(all.data(), all.size() * sizeof(uint64_t));
}

Result<MergedLiterals> MergedLiterals::Open(std::vector<const LiteralIndex*> indexes, uint64_t key,
                                            const std::string& cache_dir) {
  MergedLiterals merged;
  merged.indexes_ = std::move(indexes);
  unsigned base = 0;
  for (const LiteralIndex* index : merged.indexes_) {
    merged.bases_.push_back(base);
    base += static_cast<unsigned>(index->database_ids());
  }
  const std::string path =
      cache_dir.empty() ? "" : (std::filesystem::path(cache_dir) / fmt::format("{}{:016x}.bin", kPrefix, key)).string();
  if (!path.empty()) {
    // Hyperscan reads a database only from a copy it checks whole, so the
    // file is read once here and not kept.
    auto file = util::SectionFile::Open(path, {kMagic, sizeof kMagic}, key);
    util::Array<char> bytes;
    if (file && file->sections() == 1 && file->Get(0, &bytes)) {
      const auto all = bytes.All();
      if (auto read = regex::HsDatabase::Deserialize({all.data(), all.size()}); read.ok()) {
        merged.db_ = std::move(*read);
        merged.from_cache_ = true;
        return merged;
      }
    }
  }
  std::vector<std::string> keys;
  std::vector<unsigned> ids;
  for (std::size_t i = 0; i < merged.indexes_.size(); ++i) {
    merged.indexes_[i]->DatabaseKeys(merged.bases_[i], &keys, &ids);
  }
  auto db = regex::HsDatabase::CompileLiterals(keys, &ids);
  if (!db.ok()) return db.status();
  if (!path.empty()) {
    util::SectionWriter w;
    w.AddBytes(db->Serialize());
    util::WriteFileAtomically(path, w.Finish({kMagic, sizeof kMagic}, key), util::WriteFor::kReadWhole);
    util::PruneCacheFiles(cache_dir, kPrefix, kCachedMerged);
  }
  merged.db_ = std::move(*db);
  return merged;
}

void MergedLiterals::Find(
    std::string_view text,
    const std::function<void(std::size_t index, uint32_t literal, std::size_t end)>& on_hit) const {
  if (db_.empty()) return;
  std::string folded;
  std::size_t index = 0;
  auto to_caller = [&](uint32_t literal, std::size_t end) { on_hit(index, literal, end); };
  const std::function<void(uint32_t, std::size_t)> report = to_caller;
  db_.Scan(text, [&](unsigned id, unsigned long long end) {
    // The last index whose ids start at or below `id` (one with no ids
    // shares its base with the next).
    index = static_cast<std::size_t>(std::upper_bound(bases_.begin(), bases_.end(), id) - bases_.begin()) - 1;
    indexes_[index]->DatabaseHit(id - bases_[index], text, static_cast<std::size_t>(end), &folded, report);
  });
}

}  // namespace kedb::match
