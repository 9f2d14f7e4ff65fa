// PatternSet::Scan (pattern_set.h): literals found, candidates checked
// and confirmed line by line, shard by shard.
#include <algorithm>
#include <cstring>
#include <mutex>
#include <optional>
#include <span>

#include "logs/line_chunker.h"
#include "match/merged_literals.h"
#include "match/pattern_set.h"
#include "match/pattern_shard.h"
#include "util/utf8.h"

namespace kedb::match {
namespace {

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


// One shard's part of a scan. What the shard finds on marked lines is
// collected first (on construction); then the hits of its any-line
// literals are fed in as they are found, in order of end offset, from the
// shard's own database or the merged one (merged_literals.h), and each
// line is confirmed, with the marked-line candidates of the lines before
// it, as soon as a later line's first hit arrives. A hit for an earlier
// line (not expected, not ruled out) waits until Finish.
class PatternSet::ShardScan {
 public:
  ShardScan(const PatternSet& set, const PatternShard& shard, std::string_view text,
            const std::vector<std::size_t>& line_starts, const MarkedLines* marked_lines, const TextKeys* keys,
            std::vector<LineHit>* hits)
      : confirm_(set, shard, text, line_starts, hits), literal_lines_(line_starts) {
    if (!marked_lines) {
      FindOnMarkedLines(shard, text, line_starts, nullptr, keys, &marked_);
    } else if (!marked_lines->text.empty()) {
      FindOnMarkedLines(shard, marked_lines->text, marked_lines->starts, &marked_lines->original,
                        marked_lines->keys ? &*marked_lines->keys : nullptr, &marked_);
    }
    SortUnique(&marked_.literals);
    SortUnique(&marked_.patterns);
  }

  // Any-line literal `lit` ends at `end` of the text.
  void Literal(uint32_t lit, std::size_t end) {
    const auto line = static_cast<uint32_t>(literal_lines_.LineOfEnd(end));
    if (line == open_line_) {
      lits_.push_back(lit);
    } else if (open_line_ != UINT32_MAX && line < open_line_) {
      late_.push_back({line, lit});
    } else {
      if (open_line_ != UINT32_MAX) FinishLine(open_line_);
      open_line_ = line;
      lits_.push_back(lit);
    }
  }

  // Confirms what is left: the open line, the lines with marked-line
  // candidates only, and the late hits.
  void Finish() {
    if (open_line_ != UINT32_MAX) FinishLine(open_line_);
    open_line_ = UINT32_MAX;
    MarkedBefore(UINT32_MAX);
    if (late_.empty()) return;
    SortUnique(&late_);
    for (std::size_t i = 0; i < late_.size();) {
      const std::size_t b = i;
      for (lits_.clear(); i < late_.size() && late_[i].line == late_[b].line; ++i) lits_.push_back(late_[i].pattern);
      confirm_.Line(late_[b].line, &lits_, {}, {});
    }
    late_.clear();
  }

 private:
  // The entries of `v` from *next on `line` (none on an earlier line).
  static std::span<const LineHit> Take(const std::vector<LineHit>& v, std::size_t* next, uint32_t line) {
    const std::size_t b = *next;
    while (*next < v.size() && v[*next].line == line) ++*next;
    return std::span<const LineHit>(v).subspan(b, *next - b);
  }
  uint32_t NextMarkedLine() const {
    return std::min(next_literal_ < marked_.literals.size() ? marked_.literals[next_literal_].line : UINT32_MAX,
                    next_pattern_ < marked_.patterns.size() ? marked_.patterns[next_pattern_].line : UINT32_MAX);
  }
  // Confirms the lines before `line` that have only marked-line candidates.
  void MarkedBefore(uint32_t line) {
    std::vector<uint32_t> none;
    for (uint32_t m = NextMarkedLine(); m < line; m = NextMarkedLine()) {
      confirm_.Line(m, &none, Take(marked_.literals, &next_literal_, m), Take(marked_.patterns, &next_pattern_, m));
    }
  }
  void FinishLine(uint32_t line) {
    MarkedBefore(line);
    confirm_.Line(line, &lits_, Take(marked_.literals, &next_literal_, line),
                  Take(marked_.patterns, &next_pattern_, line));
    lits_.clear();
  }

  LineConfirmer confirm_;
  MarkedCandidates marked_;
  std::size_t next_literal_ = 0, next_pattern_ = 0;
  logs::LineCursor literal_lines_;
  uint32_t open_line_ = UINT32_MAX;
  std::vector<uint32_t> lits_;  // of the open line
  std::vector<LineHit> late_;   // .pattern is an any-line literal
};

const MergedLiterals* PatternSet::Merged() const {
  std::call_once(merged_once_, [&] {
    std::vector<const LiteralIndex*> indexes;
    std::vector<uint64_t> keys;
    for (std::size_t k = 0; k < shards_.size(); ++k) {
      indexes.push_back(&shards_[k].literal_index(PatternShard::Literals::kAnyLine));
      keys.push_back(plan_->key(k));
    }
    // A database that does not compile leaves each shard to its own.
    auto merged = MergedLiterals::Open(std::move(indexes), MergedLiterals::Key(keys), cache_dir_);
    if (merged.ok()) merged_ = std::make_unique<MergedLiterals>(std::move(merged).value());
  });
  return merged_.get();
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
  const MarkedLines* marked_lines = marked ? &*marked : nullptr;
  // A long text goes through every shard's databases; their any-line
  // literals are read in one pass when there are several shards.
  const MergedLiterals* merged =
      shards_.size() > 1 && text.size() > PatternShard::kShortText ? Merged() : nullptr;
  if (merged) {
    std::vector<std::unique_ptr<ShardScan>> scans;
    for (const PatternShard& shard : shards_) {
      scans.push_back(std::make_unique<ShardScan>(*this, shard, text, line_starts, marked_lines, nullptr, hits));
    }
    merged->Find(text, [&](std::size_t k, uint32_t lit, std::size_t end) { scans[k]->Literal(lit, end); });
    for (auto& scan : scans) scan->Finish();
  } else {
    for (const PatternShard& shard : shards_) {
      ShardScan scan(*this, shard, text, line_starts, marked_lines, keys ? &*keys : nullptr, hits);
      shard.FindLiterals(
          PatternShard::Literals::kAnyLine, text, [&](uint32_t lit, std::size_t end) { scan.Literal(lit, end); },
          PatternShard::Route::kAuto, keys ? &*keys : nullptr);
      scan.Finish();
    }
  }
  std::vector<LineHit> mine(hits->begin() + static_cast<std::ptrdiff_t>(first_hit), hits->end());
  SortUnique(&mine);
  hits->resize(first_hit);
  hits->insert(hits->end(), mine.begin(), mine.end());
}

}  // namespace kedb::match
