#include "match/pattern_set.h"

#include <hs/hs.h>
#include <xxhash.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <future>
#include <map>
#include <span>

#include <fmt/format.h>

#include "logs/line_chunker.h"
#include "kedb/knowledge_base.h"
#include "match/prefilter.h"
#include "util/binary_io.h"
#include "util/utf8.h"

namespace kedb::match {
namespace fs = std::filesystem;
namespace {

// Bump when the prefilter's choices or the cache layout change.
constexpr uint32_t kCacheFormat = 2;
// Pattern databases kept per cache folder (several knowledge bases may share
// ~/.cache/kedb).
constexpr std::size_t kCachedDatabases = 8;
constexpr char kCacheMagic[8] = {'K', 'E', 'D', 'B', 'P', 'F', 'X', '1'};

// The cache file's key: the patterns' own key, with everything else that
// shapes the file.
uint64_t CacheKey(uint64_t patterns_key) {
  const std::string header =
      fmt::format("{}|{}|{}|{:016x}", kCacheFormat, kFactorPolicy, hs_version(), patterns_key);
  return XXH3_64bits(header.data(), header.size());
}

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

Result<std::unique_ptr<PatternSet>> PatternSet::Build(PatternSource source, const std::string& cache_dir) {
  auto start = std::chrono::steady_clock::now();
  std::unique_ptr<PatternSet> set(new PatternSet());
  set->source_ = std::move(source);
  const std::size_t n = set->source_.count;
  set->compiled_.reset(new std::atomic<Compiled*>[n]);
  for (std::size_t p = 0; p < n; ++p) set->compiled_[p].store(nullptr, std::memory_order_relaxed);
  set->stats_.patterns = n;

  const uint64_t key = CacheKey(set->source_.key);
  std::string cache_path;
  if (!cache_dir.empty()) cache_path = (fs::path(cache_dir) / fmt::format("patterns-{:016x}.bin", key)).string();
  if (cache_path.empty() || !set->LoadCache(cache_path, key)) {
    if (Status st = set->BuildPrefilter(); !st.ok()) return st;
    if (!cache_path.empty()) set->SaveCache(cache_path, key);
  }
  set->stats_.build_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return set;
}

Result<std::unique_ptr<PatternSet>> PatternSet::Build(std::vector<std::string> python_patterns,
                                                      const std::string& cache_dir) {
  auto held = std::make_shared<const std::vector<std::string>>(std::move(python_patterns));
  KnowledgeBase::PatternsHasher hasher;
  for (const std::string& p : *held) hasher.Add(p);
  PatternSource source{held->size(), hasher.Digest(),
                       [held](uint32_t p) { return std::string_view((*held)[p]); }};
  return Build(std::move(source), cache_dir);
}

PatternSet::~PatternSet() {
  for (std::size_t p = 0; p < source_.count; ++p) delete compiled_[p].load(std::memory_order_relaxed);
}

const PatternSet::Compiled& PatternSet::Get(uint32_t p) const {
  Compiled* c = compiled_[p].load(std::memory_order_acquire);
  if (!c) {
    auto fresh = std::make_unique<Compiled>();
    Compiled* expected = nullptr;
    if (compiled_[p].compare_exchange_strong(expected, fresh.get(), std::memory_order_acq_rel)) {
      c = fresh.release();
    } else {
      c = expected;  // another thread got there first
    }
  }
  std::call_once(c->once, [&]() {
    auto parsed = regex::ParsePythonRegex(source_.pattern(p));
    if (parsed.ok()) {
      c->info = std::make_unique<regex::PatternInfo>(std::move(parsed).value());
      c->check = LiteralCheck(*c->info, &literal_ids_);
      auto re = regex::Pcre2Regex::Compile(c->info->pcre2);
      if (re.ok()) c->regex = std::make_unique<regex::Pcre2Regex>(std::move(re).value());
    }
  });
  return *c;
}

namespace {

// What the prefilter makes of one pattern: its plan, or nothing when it
// does not parse or compile (it then never matches).
std::optional<PrefilterPlan> PlanPattern(std::string_view pattern) {
  auto parsed = regex::ParsePythonRegex(pattern);
  if (!parsed.ok() || !regex::Pcre2Regex::Compile(parsed->pcre2).ok()) return std::nullopt;
  return PlanPrefilter(std::string(pattern), *parsed);
}

}  // namespace

Status PatternSet::BuildPrefilter() {
  // Every pattern is planned, on both cores, and nothing compiled is kept:
  // scans compile the few patterns they meet (Get), and a million compiled
  // patterns held at once would cost gigabytes.
  const std::size_t n = source_.count;
  std::vector<std::optional<PrefilterPlan>> plans(n);
  auto plan_range = [&](std::size_t begin, std::size_t end) {
    for (std::size_t p = begin; p < end; ++p) plans[p] = PlanPattern(source_.pattern(static_cast<uint32_t>(p)));
  };
  {
    auto other = std::async(std::launch::async, plan_range, n / 2, n);
    plan_range(0, n / 2);
    other.get();
  }
  std::map<std::string, std::vector<uint32_t>> by_literal;
  std::vector<std::string> fallback_exprs;
  std::vector<unsigned> fallback_flags;
  for (uint32_t p = 0; p < n; ++p) {
    if (!plans[p]) {
      ++stats_.invalid;
      continue;
    }
    PrefilterPlan plan = std::move(*plans[p]);
    plans[p].reset();
    if (plan.unreachable) {
      every_line_.push_back(p);
      continue;
    }
    for (auto& lit : plan.literals) {
      auto& to = by_literal[lit];
      if (to.empty() || to.back() != p) to.push_back(p);
    }
    for (auto& [expr, flags] : plan.regexes) {
      fallback_exprs.push_back(std::move(expr));
      fallback_flags.push_back(flags);
      fallback_.push_back(p);
    }
    if (plan.regexes.empty()) {
      ++stats_.prefiltered;
    } else {
      ++stats_.fallback;
    }
  }
  // Distinctive literals on every line, broad ones on marked lines only.
  std::map<std::string, std::vector<uint32_t>> distinct_lits, broad_lits;
  for (auto& [lit, pats] : by_literal) (IsDistinctiveLiteral(lit) ? distinct_lits : broad_lits)[lit] = std::move(pats);
  stats_.literals = distinct_lits.size() + broad_lits.size();
  stats_.broad_literals = broad_lits.size();
  by_literal.clear();
  auto index_literals = [](std::map<std::string, std::vector<uint32_t>>* from, LiteralIndex* to) -> Status {
    std::vector<std::string> literals;
    to->offsets.push_back(0);
    for (auto& [lit, pats] : *from) {
      literals.push_back(lit);
      to->patterns.insert(to->patterns.end(), pats.begin(), pats.end());
      to->offsets.push_back(static_cast<uint32_t>(to->patterns.size()));
    }
    from->clear();
    auto db = regex::HsDatabase::CompileLiterals(literals);
    if (!db.ok()) return db.status();
    to->db = std::move(db).value();
    return Status::Ok();
  };
  // The three databases compile independently: the largest (distinctive
  // literals) on one core, the other two on the other.
  auto distinct = std::async(std::launch::async, index_literals, &distinct_lits, &distinct_);
  Status broad = index_literals(&broad_lits, &broad_);
  auto re_db = regex::HsDatabase::CompileRegexes(fallback_exprs, fallback_flags);
  if (Status st = distinct.get(); !st.ok()) return st;
  if (!broad.ok()) return broad;
  if (!re_db.ok()) return re_db.status();
  fallback_db_ = std::move(re_db).value();
  stats_.every_line = every_line_.size();
  return Status::Ok();
}

void PatternSet::SaveCache(const std::string& path, uint64_t key) const {
  util::BinaryWriter w;
  w.Raw(std::string_view(kCacheMagic, sizeof kCacheMagic));
  w.U64(key);
  w.U64(source_.count);
  for (const LiteralIndex* index : {&distinct_, &broad_}) {
    w.Bytes(index->db.Serialize());
    w.U32s(index->offsets);
    w.U32s(index->patterns);
  }
  w.Bytes(fallback_db_.Serialize());
  w.U32s(fallback_);
  w.U32s(every_line_);
  w.U32s({static_cast<uint32_t>(stats_.prefiltered), static_cast<uint32_t>(stats_.invalid)});
  w.Seal();
  // An unwritable cache only costs time. Older databases (of edited
  // knowledge bases) are pruned beyond a few.
  if (util::WriteFileAtomically(path, w.str())) {
    util::PruneCacheFiles(fs::path(path).parent_path().string(), "patterns-", kCachedDatabases);
  }
}

bool PatternSet::LoadCache(const std::string& path, uint64_t key) {
  // Mapped, not read into a buffer: the databases are copied out of it by
  // Hyperscan anyway, and a second copy would double the memory.
  const util::MappedFile file(path);
  const std::string_view bytes = file.bytes();
  if (bytes.size() < sizeof kCacheMagic + 16 || std::memcmp(bytes.data(), kCacheMagic, sizeof kCacheMagic) != 0) {
    return false;
  }
  std::string_view sealed = bytes;
  if (!util::Unseal(&sealed)) return false;
  util::BinaryReader r(sealed.substr(sizeof kCacheMagic));
  // Indexes must stay in range whatever the file says.
  auto in_range = [&](const std::vector<uint32_t>& v) {
    return std::all_of(v.begin(), v.end(), [&](uint32_t p) { return p < source_.count; });
  };
  auto read_index = [&](LiteralIndex* index) {
    std::string_view db_bytes;
    if (!r.Bytes(&db_bytes) || !r.U32s(&index->offsets) || !r.U32s(&index->patterns)) return false;
    if (index->offsets.empty() || index->offsets.back() != index->patterns.size() ||
        !std::is_sorted(index->offsets.begin(), index->offsets.end()) || !in_range(index->patterns)) {
      return false;
    }
    auto db = regex::HsDatabase::Deserialize(db_bytes);
    if (!db.ok()) return false;
    index->db = std::move(db).value();
    return true;
  };
  uint64_t file_key, n;
  std::string_view re_bytes;
  std::vector<uint32_t> counts;
  bool ok = r.U64(&file_key) && file_key == key && r.U64(&n) && n == source_.count && read_index(&distinct_) &&
            read_index(&broad_) && r.Bytes(&re_bytes) && r.U32s(&fallback_) && r.U32s(&every_line_) &&
            r.U32s(&counts) && r.done() && counts.size() == 2 && in_range(fallback_) && in_range(every_line_);
  auto re_db = ok ? regex::HsDatabase::Deserialize(re_bytes) : Result<regex::HsDatabase>(Status::Internal("unread"));
  if (!ok || !re_db.ok()) {
    distinct_ = LiteralIndex(), broad_ = LiteralIndex();
    fallback_.clear(), every_line_.clear();
    return false;
  }
  fallback_db_ = std::move(re_db).value();
  stats_.broad_literals = broad_.offsets.size() - 1;
  stats_.literals = distinct_.offsets.size() - 1 + stats_.broad_literals;
  stats_.prefiltered = counts[0];
  stats_.invalid = counts[1];
  std::vector<uint32_t> distinct = fallback_;  // a split pattern may have several expressions
  std::sort(distinct.begin(), distinct.end());
  stats_.fallback = static_cast<std::size_t>(std::unique(distinct.begin(), distinct.end()) - distinct.begin());
  stats_.every_line = every_line_.size();
  stats_.from_cache = true;
  return true;
}

// Confirms the candidates of one line at a time, reusing its buffers.
class PatternSet::LineConfirmer {
 public:
  LineConfirmer(const PatternSet& set, std::string_view text, const std::vector<std::size_t>& line_starts,
                std::vector<LineHit>* hits)
      : set_(set), text_(text), starts_(line_starts), hits_(hits) {
    patterns_.reserve(32);  // one allocation for the candidates of most lines
  }

  // Line `line` holds literals `lits` (repeats allowed) and is a candidate
  // for the patterns of `extra`.
  void Line(uint32_t line, std::vector<uint32_t>* lits, std::span<const LineHit> extra) {
    std::sort(lits->begin(), lits->end());
    lits->erase(std::unique(lits->begin(), lits->end()), lits->end());
    patterns_.clear();
    for (uint32_t lit : *lits) {
      for (uint32_t k = set_.distinct_.offsets[lit]; k < set_.distinct_.offsets[lit + 1]; ++k) {
        patterns_.push_back(set_.distinct_.patterns[k]);
      }
    }
    for (const LineHit& h : extra) patterns_.push_back(h.pattern);
    std::sort(patterns_.begin(), patterns_.end());
    patterns_.erase(std::unique(patterns_.begin(), patterns_.end()), patterns_.end());
    std::string_view text = logs::LineText(text_, starts_, line);
    bool folded = false;
    for (uint32_t p : patterns_) {
      const Compiled& comp = set_.Get(p);
      if (!comp.regex) continue;
      if (!comp.check.empty()) {
        if (!folded) {
          FoldLine(text, &folded_);
          memo_->Reset(folded_);
          folded = true;
        }
        if (!comp.check.MayMatch(memo_)) continue;
      }
      // The confirmation's span is kept, so a pattern without groups needs
      // no second search to report where it matched.
      if (auto span = comp.regex->Find(text)) hits_->push_back({line, p, *span});
    }
  }

 private:
  const PatternSet& set_;
  std::string_view text_;
  const std::vector<std::size_t>& starts_;
  std::vector<LineHit>* hits_;
  std::vector<uint32_t> patterns_;
  std::string folded_;
  // One per thread, kept across calls: its table grows with the number of
  // distinct literals, which a fresh one per call would pay for again.
  LineLiterals* memo_ = &ThreadMemo();
  static LineLiterals& ThreadMemo() {
    thread_local LineLiterals memo;
    return memo;
  }
};

void PatternSet::BroadCandidates(std::string_view text, const std::vector<std::size_t>& line_starts,
                                 const std::vector<uint8_t>* broad_lines, std::vector<LineHit>* out) const {
  // The marked lines, copied together: Hyperscan's cost is per byte scanned.
  std::string packed;
  std::vector<std::size_t> packed_starts;
  std::vector<uint32_t> original;  // packed line -> line of `text`
  if (broad_lines) {
    for (uint32_t i = 0; i < line_starts.size(); ++i) {
      if (i >= broad_lines->size() || !(*broad_lines)[i]) continue;
      packed_starts.push_back(packed.size());
      original.push_back(i);
      packed.append(logs::LineText(text, line_starts, i));
      packed.push_back('\n');
    }
    if (packed.empty()) return;
    text = packed;
  }
  const std::vector<std::size_t>& starts = broad_lines ? packed_starts : line_starts;
  auto line_of = [&](logs::LineCursor& c, std::size_t end) {
    std::size_t line = c.LineOfEnd(end);
    return broad_lines ? original[line] : static_cast<uint32_t>(line);
  };
  if (!broad_.db.empty()) {
    logs::LineCursor lines(starts);
    broad_.db.Scan(text, [&](unsigned lit, unsigned long long end) {
      uint32_t line = line_of(lines, end);
      for (uint32_t k = broad_.offsets[lit]; k < broad_.offsets[lit + 1]; ++k) out->push_back({line, broad_.patterns[k]});
    });
  }
  if (!fallback_db_.empty()) {
    logs::LineCursor lines(starts);
    auto on_match = [&](unsigned j, unsigned long long end) { out->push_back({line_of(lines, end), fallback_[j]}); };
    if (auto clean = SanitizedUtf8(text)) {
      fallback_db_.Scan(*clean, on_match);
    } else {
      fallback_db_.Scan(text, on_match);
    }
  }
  for (uint32_t p : every_line_) {
    for (std::size_t i = 0; i < starts.size(); ++i) {
      out->push_back({broad_lines ? original[i] : static_cast<uint32_t>(i), p});
    }
  }
}

void PatternSet::Scan(std::string_view text, const std::vector<std::size_t>& line_starts, std::vector<LineHit>* hits,
                      const std::vector<uint8_t>* broad_lines) const {
  if (text.empty() || line_starts.empty()) return;
  const std::size_t first_hit = hits->size();
  // Candidates from broad literals, the regex database and the every-line
  // patterns: collected first and merged line by line with the distinctive
  // literals' hits.
  std::vector<LineHit> extra;
  BroadCandidates(text, line_starts, broad_lines, &extra);
  SortUnique(&extra);
  logs::LineCursor literal_lines(line_starts);
  auto line_of = [](logs::LineCursor& c, std::size_t end) { return static_cast<uint32_t>(c.LineOfEnd(end)); };

  // Literal hits arrive in order of end offset, so a line's hits arrive
  // together and each line is confirmed as soon as the next one starts. A
  // hit for an earlier line (not expected, not ruled out) waits in `late`.
  LineConfirmer confirm(*this, text, line_starts, hits);
  std::size_t next_extra = 0;
  auto extra_before = [&](uint32_t line) {  // lines with only extra candidates
    std::vector<uint32_t> none;
    while (next_extra < extra.size() && extra[next_extra].line < line) {
      std::size_t b = next_extra;
      while (next_extra < extra.size() && extra[next_extra].line == extra[b].line) ++next_extra;
      confirm.Line(extra[b].line, &none, std::span(extra).subspan(b, next_extra - b));
    }
  };
  auto finish_line = [&](uint32_t line, std::vector<uint32_t>* lits) {
    extra_before(line);
    std::size_t b = next_extra;
    while (next_extra < extra.size() && extra[next_extra].line == line) ++next_extra;
    confirm.Line(line, lits, std::span(extra).subspan(b, next_extra - b));
    lits->clear();
  };
  uint32_t open_line = UINT32_MAX;
  std::vector<uint32_t> lits;
  std::vector<LineHit> late;
  distinct_.db.Scan(text, [&](unsigned lit, unsigned long long end) {
    uint32_t line = line_of(literal_lines, end);
    if (line == open_line) {
      lits.push_back(lit);
    } else if (open_line != UINT32_MAX && line < open_line) {
      late.push_back({line, lit});
    } else {
      if (open_line != UINT32_MAX) finish_line(open_line, &lits);
      open_line = line;
      lits.push_back(lit);
    }
  });
  if (open_line != UINT32_MAX) finish_line(open_line, &lits);
  extra_before(UINT32_MAX);
  if (late.empty()) return;
  SortUnique(&late);
  for (std::size_t i = 0; i < late.size();) {
    std::size_t b = i;
    for (lits.clear(); i < late.size() && late[i].line == late[b].line; ++i) lits.push_back(late[i].pattern);
    confirm.Line(late[b].line, &lits, {});
  }
  std::vector<LineHit> mine(hits->begin() + static_cast<std::ptrdiff_t>(first_hit), hits->end());
  SortUnique(&mine);
  hits->resize(first_hit);
  hits->insert(hits->end(), mine.begin(), mine.end());
}

std::size_t PatternSet::MatchedLiteralChars(uint32_t p, std::string_view line, regex::Span span) const {
  if (!Get(p).info) return 0;
  Compiled& c = *compiled_[p].load(std::memory_order_acquire);  // allocated by Get
  std::call_once(c.branches_once, [&]() {
    std::vector<Branch> branches;
    for (const std::string& b : TopLevelBranches(source_.pattern(p))) {
      auto parsed = regex::ParsePythonRegex(b);
      if (!parsed.ok()) return;  // a branch that does not stand alone: count the whole pattern
      auto re = regex::Pcre2Regex::Compile("\\A(?:" + parsed->pcre2 + ")");
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
