#include "match/pattern_set.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <future>
#include <mutex>
#include <span>

#include <fmt/format.h>

#include "logs/line_chunker.h"
#include "kedb/knowledge_base.h"
#include "match/pattern_shard.h"
#include "match/prefilter.h"
#include "util/binary_io.h"
#include "util/utf8.h"

namespace kedb::match {
namespace fs = std::filesystem;
namespace {

// Pattern shards kept per cache folder beyond those in use (several
// knowledge bases may share ~/.cache/kedb): with one shard, 8 files.
constexpr std::size_t kCachedShards = 7;

// Hyperscan's UTF-8 mode needs valid UTF-8. nullopt when `s` already is;
// otherwise a copy whose invalid bytes became '?'. That can only add
// candidates (PCRE2 never matches an invalid byte), which confirmation drops.
std::optional<std::string> SanitizedUtf8(std::string_view s) {
  std::optional<std::string> out;
  for (std::size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    char32_t c;
    std::size_t n = util::DecodeUtf8(s, i, &c);
    if (n == 0) {
      if (!out) out.emplace(s);
      (*out)[i] = '?';
      n = 1;
    }
    i += n;
  }
  return out;
}

// Sorts by (line, second field) and drops repeats.
void SortUnique(std::vector<LineHit>* v) {
  auto key = [](const LineHit& h) { return (static_cast<uint64_t>(h.line) << 32) | h.pattern; };
  std::sort(v->begin(), v->end(), [&](const LineHit& a, const LineHit& b) { return key(a) < key(b); });
  v->erase(std::unique(v->begin(), v->end(), [&](const LineHit& a, const LineHit& b) { return key(a) == key(b); }),
           v->end());
}

}  // namespace

Result<std::unique_ptr<PatternSet>> PatternSet::Build(PatternSource source, const std::string& cache_dir,
                                                      std::size_t shard_patterns) {
  auto start = std::chrono::steady_clock::now();
  std::unique_ptr<PatternSet> set(new PatternSet());
  set->source_ = std::move(source);
  const std::size_t n = set->source_.count;
  set->slot_pages_.reset(new std::atomic<SlotPage*>[(n >> kSlotPageBits) + 1]());
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

// Confirms the candidates of one line at a time, reusing its buffers.
class PatternSet::LineConfirmer {
 public:
  LineConfirmer(const PatternSet& set, const PatternShard& shard, std::string_view text,
                const std::vector<std::size_t>& line_starts, std::vector<LineHit>* hits)
      : set_(set), shard_(shard), text_(text), starts_(line_starts), hits_(hits) {
    patterns_.reserve(32);  // one allocation for the candidates of most lines
  }

  // Line `line` holds literals `lits` of the any-line index (repeats
  // allowed) and `marked` of the marked-line index, and is a candidate for
  // the patterns of `extra`; patterns by their local numbers.
  void Line(uint32_t line, std::vector<uint32_t>* lits, std::span<const LineHit> marked,
            std::span<const LineHit> extra) {
    using Literals = PatternShard::Literals;
    std::sort(lits->begin(), lits->end());
    lits->erase(std::unique(lits->begin(), lits->end()), lits->end());
    patterns_.clear();
    std::string_view text = logs::LineText(text_, starts_, line);
    bool folded = false;
    auto fold = [&] {
      if (folded) return;
      FoldLine(text, &folded_);
      memo_->Reset(folded_);
      folded = true;
    };
    gates_seen_.clear();
    // Gates are numbered per index.
    auto has_gate = [&](Literals kind, const PatternShard::LiteralGroup& g) {
      const uint64_t key = (uint64_t{static_cast<uint32_t>(kind)} << 32) | g.gate;
      for (const auto& [gate, found] : gates_seen_) {
        if (gate == key) return found;
      }
      fold();
      const bool found = folded_.find(g.gate_text) != std::string::npos;
      gates_seen_.emplace_back(key, found);
      return found;
    };
    auto add_groups = [&](Literals kind, uint32_t lit) {
      shard_.Groups(kind, lit, &groups_);
      for (const PatternShard::LiteralGroup& g : groups_) {
        if (!g.gate_text.empty() && !has_gate(kind, g)) continue;
        patterns_.insert(patterns_.end(), g.patterns.begin(), g.patterns.end());
      }
    };
    for (uint32_t lit : *lits) add_groups(Literals::kAnyLine, lit);
    for (const LineHit& h : marked) add_groups(Literals::kMarkedLine, h.pattern);
    for (const LineHit& h : extra) patterns_.push_back(h.pattern);
    std::sort(patterns_.begin(), patterns_.end());
    patterns_.erase(std::unique(patterns_.begin(), patterns_.end()), patterns_.end());
    for (uint32_t q : patterns_) {
      if (q >= shard_.size()) continue;  // a damaged file names no pattern
      const uint32_t p = shard_.Global(q);
      if (p >= set_.size()) continue;
      // The check comes first: it is read from the shard's file, while the
      // regex is parsed and compiled, which most candidates never need.
      const LiteralCheck& check = set_.CheckOf(p, shard_, q);
      if (!check.empty()) {
        fold();
        if (!check.MayMatch(memo_)) continue;
      }
      const Compiled& comp = set_.Get(p);
      if (!comp.regex) continue;
      // The confirmation's span is kept, so a pattern without groups needs
      // no second search to report where it matched.
      if (auto span = comp.regex->Find(text)) hits_->push_back({line, p, *span});
    }
  }

 private:
  const PatternSet& set_;
  const PatternShard& shard_;
  std::string_view text_;
  const std::vector<std::size_t>& starts_;
  std::vector<LineHit>* hits_;
  std::vector<uint32_t> patterns_;
  std::vector<PatternShard::LiteralGroup> groups_;
  std::vector<std::pair<uint64_t, bool>> gates_seen_;  // index and gate, whether this line holds it
  std::string folded_;
  // One per thread, kept across calls: its table grows with the number of
  // distinct literals, which a fresh one per call would pay for again.
  LineLiterals* memo_ = &ThreadMemo();
  static LineLiterals& ThreadMemo() {
    thread_local LineLiterals memo;
    return memo;
  }
};

void PatternSet::FindOnMarkedLines(const PatternShard& shard, std::string_view text,
                                   const std::vector<std::size_t>& starts, const std::vector<uint32_t>* original,
                                   const TextKeys* keys, MarkedCandidates* out) {
  auto line_of = [&](logs::LineCursor& c, std::size_t end) {
    const std::size_t line = c.LineOfEnd(end);
    return original ? (*original)[line] : static_cast<uint32_t>(line);
  };
  using Literals = PatternShard::Literals;
  if (shard.has_literals(Literals::kMarkedLine)) {
    logs::LineCursor lines(starts);
    shard.FindLiterals(
        Literals::kMarkedLine, text,
        [&](uint32_t lit, std::size_t end) { out->literals.push_back({line_of(lines, end), lit}); },
        PatternShard::Route::kAuto, keys);
  }
  if (shard.has_fallback()) {
    logs::LineCursor lines(starts);
    auto on_match = [&](unsigned j, unsigned long long end) {
      out->patterns.push_back({line_of(lines, end), shard.FallbackPattern(j)});
    };
    if (auto clean = SanitizedUtf8(text)) {
      shard.fallback_db().Scan(*clean, on_match);
    } else {
      shard.fallback_db().Scan(text, on_match);
    }
  }
  for (uint32_t q : shard.every_line()) {
    for (std::size_t i = 0; i < starts.size(); ++i) {
      out->patterns.push_back({original ? (*original)[i] : static_cast<uint32_t>(i), q});
    }
  }
}

void PatternSet::Scan(std::string_view text, const std::vector<std::size_t>& line_starts, std::vector<LineHit>* hits,
                      const std::vector<uint8_t>* broad_lines) const {
  if (text.empty() || line_starts.empty()) return;
  const std::size_t first_hit = hits->size();
  // Each pattern is in one shard: the shards' hits never repeat each other,
  // and are put in order once all are in.
  // A short text's keys are hashed once for every shard's literal table.
  std::optional<TextKeys> keys;
  if (shards_.size() > 1 && text.size() <= PatternShard::kShortText) keys.emplace(text);
  // The marked lines, copied together once for every shard: Hyperscan's
  // cost is per byte scanned.
  std::optional<MarkedLines> marked;
  if (broad_lines) {
    marked.emplace();
    for (uint32_t i = 0; i < line_starts.size(); ++i) {
      if (i >= broad_lines->size() || !(*broad_lines)[i]) continue;
      marked->starts.push_back(marked->text.size());
      marked->original.push_back(i);
      marked->text.append(logs::LineText(text, line_starts, i));
      marked->text.push_back('\n');
    }
    if (shards_.size() > 1 && marked->text.size() <= PatternShard::kShortText) marked->keys.emplace(marked->text);
  }
  for (const PatternShard& shard : shards_) {
    ScanShard(shard, text, line_starts, marked ? &*marked : nullptr, keys ? &*keys : nullptr, hits);
  }
  std::vector<LineHit> mine(hits->begin() + static_cast<std::ptrdiff_t>(first_hit), hits->end());
  SortUnique(&mine);
  hits->resize(first_hit);
  hits->insert(hits->end(), mine.begin(), mine.end());
}

void PatternSet::ScanShard(const PatternShard& shard, std::string_view text,
                           const std::vector<std::size_t>& line_starts, const MarkedLines* marked_lines,
                           const TextKeys* keys, std::vector<LineHit>* hits) const {
  // What is found on marked lines is collected first and merged line by
  // line with the hits of the any-line literals.
  MarkedCandidates marked;
  if (!marked_lines) {
    FindOnMarkedLines(shard, text, line_starts, nullptr, keys, &marked);
  } else if (!marked_lines->text.empty()) {
    FindOnMarkedLines(shard, marked_lines->text, marked_lines->starts, &marked_lines->original,
                      marked_lines->keys ? &*marked_lines->keys : nullptr, &marked);
  }
  SortUnique(&marked.literals);
  SortUnique(&marked.patterns);
  std::size_t next_literal = 0, next_pattern = 0;
  // The entries of `v` from *next on `line` (none on an earlier line).
  auto take = [](const std::vector<LineHit>& v, std::size_t* next, uint32_t line) {
    const std::size_t b = *next;
    while (*next < v.size() && v[*next].line == line) ++*next;
    return std::span<const LineHit>(v).subspan(b, *next - b);
  };
  auto next_marked_line = [&] {
    return std::min(next_literal < marked.literals.size() ? marked.literals[next_literal].line : UINT32_MAX,
                    next_pattern < marked.patterns.size() ? marked.patterns[next_pattern].line : UINT32_MAX);
  };

  // Literal hits arrive in order of end offset, so a line's hits arrive
  // together and each line is confirmed as soon as the next one starts. A
  // hit for an earlier line (not expected, not ruled out) waits in `late`.
  LineConfirmer confirm(*this, shard, text, line_starts, hits);
  std::vector<uint32_t> none;
  auto marked_before = [&](uint32_t line) {  // lines with only marked-line candidates
    for (uint32_t m = next_marked_line(); m < line; m = next_marked_line()) {
      confirm.Line(m, &none, take(marked.literals, &next_literal, m), take(marked.patterns, &next_pattern, m));
    }
  };
  auto finish_line = [&](uint32_t line, std::vector<uint32_t>* lits) {
    marked_before(line);
    confirm.Line(line, lits, take(marked.literals, &next_literal, line), take(marked.patterns, &next_pattern, line));
    lits->clear();
  };
  logs::LineCursor literal_lines(line_starts);
  uint32_t open_line = UINT32_MAX;
  std::vector<uint32_t> lits;
  std::vector<LineHit> late;
  auto on_literal = [&](uint32_t lit, std::size_t end) {
    const auto line = static_cast<uint32_t>(literal_lines.LineOfEnd(end));
    if (line == open_line) {
      lits.push_back(lit);
    } else if (open_line != UINT32_MAX && line < open_line) {
      late.push_back({line, lit});
    } else {
      if (open_line != UINT32_MAX) finish_line(open_line, &lits);
      open_line = line;
      lits.push_back(lit);
    }
  };
  shard.FindLiterals(PatternShard::Literals::kAnyLine, text, on_literal, PatternShard::Route::kAuto, keys);
  if (open_line != UINT32_MAX) finish_line(open_line, &lits);
  marked_before(UINT32_MAX);
  if (late.empty()) return;
  SortUnique(&late);
  for (std::size_t i = 0; i < late.size();) {
    std::size_t b = i;
    for (lits.clear(); i < late.size() && late[i].line == late[b].line; ++i) lits.push_back(late[i].pattern);
    confirm.Line(late[b].line, &lits, {}, {});
  }
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
