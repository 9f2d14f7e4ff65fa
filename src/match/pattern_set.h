// PatternSet: every record's regex, matched against many lines in one pass.
//
// How a scan works, and why:
//   1. Prefilter. Each pattern is reduced to a set of literals such that any
//      match contains at least one of them (its "factor"). The factors go
//      into Hyperscan literal databases, which find them in a whole chunk of
//      lines at once. The corpus's patterns are broad (`.*` chains, short
//      alternatives) and a full Hyperscan regex database over them scans at
//      only 30-70 MB/s; a literal database scans at hundreds of MB/s.
//      Patterns with no usable factor go into a Hyperscan regex database;
//      those that alternate at their top go branch by branch, so only the
//      branches without a factor do.
//   2. Distinctive and broad literals. A distinctive literal (long, or an
//      identifier such as "cudnn_status_bad_param") is looked for on every
//      line. Broad ones ("mode", "ack", "201") and the regex database are
//      looked for only on the lines the caller marks (a log scan marks the
//      lines that read as a problem), unless it marks none. Thousands of
//      short English literals are what makes a literal database slow on
//      ordinary logs, and their hits on ordinary lines are what ranking
//      turns away anyway. A distinctive literal that holds a problem word
//      ("failed to mount ", "cudnn_status_") is looked for on marked lines
//      too, where alone it can be: that changes no result, and a long log
//      is read once for it per shard at a tenth of the bytes.
//   3. Confirm. Each (line, pattern) candidate is first checked for the
//      other literals the pattern needs (LiteralCheck: a substring search,
//      turns away nearly all candidates on ordinary logs), then confirmed
//      with PCRE2 on that line alone, with Python `re` semantics: a hit is
//      never credited to the wrong line, and nothing matches across a
//      newline.
// PCRE2 patterns are compiled lazily, on a pattern's first candidate that
// passes its literal check (read from the shard's file, so a candidate
// turned away is never parsed): most patterns never see one in a given
// log, so start-up stays cheap.
//
// The prefilter is split into shards by pattern hash (pattern_shard.h),
// compiled two at a time, and cached on disk each under a key made of its
// patterns' hashes; which shard holds which pattern is cached too
// (shard_plan.h). A short text is looked up in the shards' literal tables,
// a long one scanned with their Hyperscan databases, the any-line literals
// of every shard with one database made of them all (merged_literals.h).
// A stale or corrupt cache file is rebuilt, never trusted.
//
// Thread-safe: const methods may run concurrently.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kedb/status.h"
#include "match/literal_check.h"
#include "match/merged_literals.h"
#include "match/pattern_shard.h"
#include "match/shard_plan.h"
#include "regex/hs_database.h"
#include "regex/pcre2_regex.h"
#include "regex/python_regex.h"

namespace kedb::match {

struct LineHit {
  uint32_t line;     // index into the line_starts given to Scan
  uint32_t pattern;  // index into the patterns given to Build
  regex::Span span{0, 0};   // the confirmed match in the line (set by Scan)
};

struct PatternSetStats {
  std::size_t patterns = 0;
  std::size_t prefiltered = 0;  // patterns reached through a literal factor
  std::size_t fallback = 0;     // patterns with (some branches) in the Hyperscan regex database
  std::size_t every_line = 0;   // patterns neither can take: PCRE2 on every line
  std::size_t invalid = 0;      // patterns that do not parse (never match)
  std::size_t literals = 0;         // distinct literals, both kinds
  std::size_t broad_literals = 0;   // of which looked for on marked lines only
  std::size_t shards = 0;           // prefilter databases (pattern_shard.h)
  std::size_t shards_compiled = 0;  // of which compiled now, the others read from the cache
  bool from_cache = false;          // none compiled
  bool plan_from_cache = false;     // which shard holds which pattern, read from the cache (shard_plan.h)
  double build_seconds = 0;
};

class PatternSet {
 public:
  // Builds the set. `cache_dir` ("" for none) holds the prefilter cache;
  // failure to write it is not an error.
  // A set of more than `shard_patterns` patterns is split into shards of
  // about that many (pattern_shard.h).
  static constexpr std::size_t kShardPatterns = std::size_t{1} << 17;
  static Result<std::unique_ptr<PatternSet>> Build(PatternSource source, const std::string& cache_dir,
                                                   std::size_t shard_patterns = kShardPatterns);
  // The same from patterns in hand, which the set keeps.
  static Result<std::unique_ptr<PatternSet>> Build(std::vector<std::string> python_patterns,
                                                   const std::string& cache_dir);

  // `text` holds whole lines; line i spans [line_starts[i], line_starts[i+1])
  // (the last line runs to the end), trailing "\n" or "\r\n" excluded from
  // matching. Appends confirmed hits ordered by line, then pattern.
  //
  // `broad_lines`, when given, holds a flag per line: broad literals and the
  // regex database are tried only on flagged lines (see the top of this
  // file). It must flag at least the lines logs::MarkTriggerLines marks as
  // problem lines, or literals that hold a problem word are missed there.
  // Without it every pattern is tried on every line, which is exact
  // Python `re` semantics and costs several times more on a large log.
  void Scan(std::string_view text, const std::vector<std::size_t>& line_starts, std::vector<LineHit>* hits,
            const std::vector<uint8_t>* broad_lines = nullptr) const;

  // Capture groups of pattern `p`, group 0 not counted (0 when it does not
  // compile). When 0, a hit's span is all Captures() would add.
  std::size_t CaptureCount(uint32_t p) const;
  // The leftmost match of pattern `p` in `line`, and its groups.
  std::optional<std::vector<std::optional<regex::Span>>> Captures(uint32_t p, std::string_view line) const;
  // Group names of pattern `p` ("" for unnamed), group 0 first.
  std::vector<std::string> GroupNames(uint32_t p) const;
  // Analysis of pattern `p`, nullptr when it does not parse.
  const regex::PatternInfo* Info(uint32_t p) const;

  // The literal characters behind a match of pattern `p` found at `span`
  // of `line`: those of the top-level alternative that matched (the first
  // that matches there, as in Python), or of the whole pattern when it
  // does not alternate at its top. `(ERESOLVE.*peer dep|could not
  // resolve)` earns 16 for the first branch and 17 for the second, not the
  // 17 of its smallest branch for either. Cost: the branches are compiled on
  // the pattern's first call; then one search per branch tried.
  std::size_t MatchedLiteralChars(uint32_t p, std::string_view line, regex::Span span) const;

  // Whether Scan() looks at `broad_lines` at all: some patterns are reached
  // only on marked lines.
  bool has_broad() const;

  const PatternSetStats& stats() const { return stats_; }
  std::size_t size() const { return source_.count; }

 private:
  // A top-level alternative of a pattern, for MatchedLiteralChars.
  struct Branch {
    std::unique_ptr<regex::Pcre2Regex> regex;  // anchored at the subject's start
    std::size_t literal_chars = 0;
  };
  struct Compiled {
    std::once_flag check_once;
    LiteralCheck check;                 // literals a matching line holds
    std::once_flag once;
    std::unique_ptr<regex::PatternInfo> info;  // null when the pattern does not parse
    std::unique_ptr<regex::Pcre2Regex> regex;  // null when it does not compile
    std::once_flag branches_once;
    std::vector<Branch> branches;       // empty: the pattern does not alternate at its top
  };
  PatternSet() = default;
  ~PatternSet();
  // Pattern p compiled, on its first call.
  const Compiled& Get(uint32_t p) const;
  // Pattern p's slot, allocated (with its page) on first call.
  Compiled& Slot(uint32_t p) const;
  // The literal check of pattern p, which is `local` in `shard`: read
  // from the shard's file, without parsing the pattern.
  const LiteralCheck& CheckOf(uint32_t p, const PatternShard& shard, uint32_t local) const;
  friend struct std::default_delete<PatternSet>;
  void CountStats(std::size_t compiled);
  class LineConfirmer;

  PatternSource source_;
  // Compiled patterns by number, in pages allocated on first use: a set of
  // a million patterns of which a command meets a few hundred allocates a
  // few pages, not a pointer for each.
  static constexpr std::size_t kSlotPageBits = 12;
  struct SlotPage {
    std::atomic<Compiled*> slots[std::size_t{1} << kSlotPageBits]{};
  };
  std::unique_ptr<std::atomic<SlotPage*>[]> slot_pages_;
  mutable LiteralIds literal_ids_;  // for the compiled patterns' checks

  // The lines the caller marked, copied together.
  struct MarkedLines {
    std::string text;
    std::vector<std::size_t> starts;
    std::vector<uint32_t> original;  // line i of `text` is line original[i] of the scanned text
    std::optional<TextKeys> keys;    // of a short text, hashed once for every shard
  };
  // What one shard finds on marked lines: hits of its marked-line
  // literals, and candidates from its regex database and every-line
  // patterns.
  struct MarkedCandidates {
    std::vector<LineHit> literals;  // .pattern is a literal of the marked-line index
    std::vector<LineHit> patterns;  // by their local numbers in the shard
  };
  // The same for `text` (marked lines only when `original` is given);
  // `keys` are TextKeys of `text`, or null.
  static void FindOnMarkedLines(const PatternShard& shard, std::string_view text,
                                const std::vector<std::size_t>& starts, const std::vector<uint32_t>* original,
                                const TextKeys* keys, MarkedCandidates* out);
  class ShardScan;
  // The shards' any-line literals in one database, made on first call
  // (merged_literals.h); null when it cannot be made.
  const MergedLiterals* Merged() const;

  std::unique_ptr<ShardPlan> plan_;  // before shards_, which read their members from it
  std::vector<PatternShard> shards_;
  PatternSetStats stats_;
  std::string cache_dir_;
  mutable std::once_flag merged_once_;
  mutable std::unique_ptr<MergedLiterals> merged_;
};

}  // namespace kedb::match
