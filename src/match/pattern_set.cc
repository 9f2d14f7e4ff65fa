#include "match/pattern_set.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <future>
#include <mutex>

#include <fmt/format.h>

#include "kedb/knowledge_base.h"
#include "match/pattern_shard.h"
#include "match/prefilter.h"
#include "util/binary_io.h"

namespace kedb::match {
namespace fs = std::filesystem;
namespace {

// Pattern shards kept per cache folder beyond those in use (several
// knowledge bases may share ~/.cache/kedb): with one shard, 8 files.
constexpr std::size_t kCachedShards = 7;

}  // namespace

Result<std::unique_ptr<PatternSet>> PatternSet::Build(PatternSource source, const std::string& cache_dir,
                                                      std::size_t shard_patterns) {
  auto start = std::chrono::steady_clock::now();
  std::unique_ptr<PatternSet> set(new PatternSet());
  set->source_ = std::move(source);
  const std::size_t n = set->source_.count;
  set->slot_pages_.reset(new std::atomic<SlotPage*>[(n >> kSlotPageBits) + 1]());
  set->cache_dir_ = cache_dir;
  set->plan_ = ShardPlan::Open(set->source_, shard_patterns, cache_dir);
  if (!set->plan_) return Status::Internal("pattern set: the shard plan just made does not read back");
  const std::size_t shards = set->plan_->shards();
  set->shards_.resize(shards);
  std::atomic<std::size_t> next{0}, compiled{0};
  std::mutex failed_mutex;
  Status failed;
  // Shards are taken in turn by two workers; a lone shard uses both cores
  // inside.
  auto work = [&](int threads) {
    for (std::size_t k = next++; k < shards; k = next++) {
      const uint64_t key = set->plan_->key(k);
      const util::Array<uint32_t> members = set->plan_->members(k);
      std::string path;
      if (!cache_dir.empty()) path = (fs::path(cache_dir) / fmt::format("patterns-{:016x}.bin", key)).string();
      if (!path.empty()) {
        if (auto loaded = PatternShard::Load(path, key, members)) {
          set->shards_[k] = std::move(*loaded);
          continue;
        }
      }
      auto built = PatternShard::Build(members, set->source_.pattern, key, threads);
      if (!built.ok()) {
        std::lock_guard lock(failed_mutex);
        failed = built.status();
        continue;
      }
      set->shards_[k] = std::move(built).value();
      ++compiled;
      // An unwritable cache only costs time.
      if (!path.empty()) set->shards_[k].Save(path);
    }
  };
  if (shards == 1) {
    work(2);
  } else {
    auto other = std::async(std::launch::async, work, 1);
    work(1);
    other.get();
  }
  if (!failed.ok()) return failed;
  if (compiled > 0 && !cache_dir.empty()) {
    // Pruning keeps the newest files: the shards read from the cache are
    // marked as new as the ones just written, or an edit that recompiles
    // two shards could prune one that is still in use, unchanged for long.
    std::error_code ec;
    const auto now = fs::file_time_type::clock::now();
    for (std::size_t k = 0; k < shards; ++k) {
      fs::last_write_time(fs::path(cache_dir) / fmt::format("patterns-{:016x}.bin", set->plan_->key(k)), now, ec);
    }
    util::PruneCacheFiles(cache_dir, "patterns-", shards + kCachedShards);
  }
  set->stats_.plan_from_cache = set->plan_->from_cache();
  set->CountStats(compiled);
  set->stats_.build_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return set;
}

void PatternSet::CountStats(std::size_t compiled) {
  stats_.patterns = source_.count;
  stats_.shards = shards_.size();
  stats_.shards_compiled = compiled;
  stats_.from_cache = compiled == 0;
  for (const PatternShard& s : shards_) {
    stats_.prefiltered += s.counts().prefiltered;
    stats_.fallback += s.counts().fallback;
    stats_.every_line += s.every_line().size();
    stats_.invalid += s.counts().invalid;
    stats_.literals += s.counts().literals;
    stats_.broad_literals += s.counts().broad_literals;
  }
}

bool PatternSet::has_broad() const {
  return std::any_of(shards_.begin(), shards_.end(), [](const PatternShard& s) {
    return s.has_literals(PatternShard::Literals::kMarkedLine) || s.has_fallback() || !s.every_line().empty();
  });
}

Result<std::unique_ptr<PatternSet>> PatternSet::Build(std::vector<std::string> python_patterns,
                                                      const std::string& cache_dir) {
  auto held = std::make_shared<const std::vector<std::string>>(std::move(python_patterns));
  PatternSource source{held->size(), [held](uint32_t p) { return std::string_view((*held)[p]); },
                       [held](uint32_t p) { return KnowledgeBase::PatternHash((*held)[p]); }};
  return Build(std::move(source), cache_dir);
}

PatternSet::~PatternSet() {
  for (std::size_t page = 0; page <= (source_.count >> kSlotPageBits); ++page) {
    SlotPage* slots = slot_pages_[page].load(std::memory_order_relaxed);
    if (!slots) continue;
    for (auto& slot : slots->slots) delete slot.load(std::memory_order_relaxed);
    delete slots;
  }
}

namespace {

// *at, made on first call; when two threads race, one's is kept.
template <typename T>
T& MadeOnce(std::atomic<T*>& at) {
  if (T* existing = at.load(std::memory_order_acquire)) return *existing;
  auto fresh = std::make_unique<T>();
  T* expected = nullptr;
  if (at.compare_exchange_strong(expected, fresh.get(), std::memory_order_acq_rel)) return *fresh.release();
  return *expected;
}

}  // namespace

PatternSet::Compiled& PatternSet::Slot(uint32_t p) const {
  SlotPage& page = MadeOnce(slot_pages_[p >> kSlotPageBits]);
  return MadeOnce(page.slots[p & ((std::size_t{1} << kSlotPageBits) - 1)]);
}

namespace {

// Patterns are compiled on their first candidate, and most see only a few
// (at a million records, a match compiles dozens of patterns to confirm
// one): the JIT waits until a pattern has been searched with this often.
regex::Pcre2Options DeferredJit() {
  regex::Pcre2Options options;
  options.jit_after = 8;
  return options;
}

}  // namespace

const PatternSet::Compiled& PatternSet::Get(uint32_t p) const {
  Compiled& c = Slot(p);
  std::call_once(c.once, [&]() {
    auto parsed = regex::ParsePythonRegex(source_.pattern(p));
    if (parsed.ok()) {
      c.info = std::make_unique<regex::PatternInfo>(std::move(parsed).value());
      auto re = regex::Pcre2Regex::Compile(c.info->pcre2, DeferredJit());
      if (re.ok()) c.regex = std::make_unique<regex::Pcre2Regex>(std::move(re).value());
    }
  });
  return c;
}

const LiteralCheck& PatternSet::CheckOf(uint32_t p, const PatternShard& shard, uint32_t local) const {
  Compiled& c = Slot(p);
  std::call_once(c.check_once, [&]() { c.check = LiteralCheck::Decode(shard.CheckBytes(local), &literal_ids_); });
  return c.check;
}

std::size_t PatternSet::MatchedLiteralChars(uint32_t p, std::string_view line, regex::Span span) const {
  if (!Get(p).info) return 0;
  Compiled& c = Slot(p);  // allocated by Get
  std::call_once(c.branches_once, [&]() {
    std::vector<Branch> branches;
    for (const std::string& b : TopLevelBranches(source_.pattern(p))) {
      auto parsed = regex::ParsePythonRegex(b);
      if (!parsed.ok()) return;  // a branch that does not stand alone: count the whole pattern
      auto re = regex::Pcre2Regex::Compile("\\A(?:" + parsed->pcre2 + ")", DeferredJit());
      if (!re.ok()) return;
      branches.push_back({std::make_unique<regex::Pcre2Regex>(std::move(re).value()), parsed->literal_chars});
    }
    c.branches = std::move(branches);
  });
  if (span.first > line.size()) return c.info->literal_chars;
  std::string_view from = line.substr(span.first);
  for (const Branch& b : c.branches) {
    if (b.regex->Search(from)) return b.literal_chars;
  }
  return c.info->literal_chars;
}

std::optional<std::vector<std::optional<regex::Span>>> PatternSet::Captures(uint32_t p, std::string_view line) const {
  const Compiled& c = Get(p);
  if (!c.regex) return std::nullopt;
  return c.regex->Captures(line);
}

std::size_t PatternSet::CaptureCount(uint32_t p) const {
  const Compiled& c = Get(p);
  return c.regex ? c.regex->capture_count() : 0;
}

std::vector<std::string> PatternSet::GroupNames(uint32_t p) const {
  const Compiled& c = Get(p);
  return c.regex ? c.regex->group_names() : std::vector<std::string>{};
}

const regex::PatternInfo* PatternSet::Info(uint32_t p) const { return Get(p).info.get(); }

}  // namespace kedb::match
