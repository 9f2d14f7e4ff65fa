// What matching returns: plain data that renderers turn into text, JSON,
// HTML or MCP content.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kedb/block_kind.h"
#include "kedb/record.h"

namespace kedb {

// One KEY=VALUE of the user's environment: torch=2.2, cudnn=8.9, os=linux.
struct EnvPair {
  std::string key, value;
};

struct MatchOptions {
  std::size_t top = 5;        // matches kept per message or region
  std::vector<EnvPair> env;   // --env; versions found in the text are added
  // Abstention. Every match carries a calibrated confidence (the chance it
  // is the right explanation, see Match::confidence). When the best match
  // is below `min_confidence`, nothing is reported: a wrong answer costs
  // more than none. Once the best clears it, the others are listed down to
  // `list_confidence`. Negative values take the calibrated defaults
  // (README, "Quality"); 0 reports every candidate.
  double min_confidence = -1;
  double list_confidence = -1;
};

// One reason behind a score: a factor in [0,1] (env fit in [-1,1]), its
// weight in the score, and what it was measured from.
struct ScoreFactor {
  // "specificity", "coverage", "similarity", "domain", "env", ...: one of a
  // fixed set of names, held for the life of the program.
  std::string_view name;
  double value = 0;
  double weight = 0;
  std::string detail;
};

// How a match was found: a record's pattern fired on the line, or the line
// reads like the record (no pattern fired).
enum class MatchKind : uint8_t { kRegex, kFuzzy };

inline constexpr std::string_view MatchKindName(MatchKind kind) {
  return kind == MatchKind::kRegex ? "regex" : "fuzzy";
}

struct Match {
  const Record* record = nullptr;
  double score = 0;               // the ranking score (log-odds); higher is better
  // The calibrated chance that this record is the right explanation, in
  // [0,1]: of matches reported with 0.8, about 8 in 10 are right on the
  // check half of the real-world case set.
  double confidence = 0;
  MatchKind kind = MatchKind::kRegex;
  std::size_t line = 0;           // 1-based line of the text the match is on
  std::size_t begin = 0, end = 0; // byte span in the whole text
  std::vector<std::pair<std::string, std::string>> captures;  // group name (or number) -> text
  std::vector<ScoreFactor> why;
};

struct MatchResult {
  std::vector<Match> matches;  // best first
  bool abstained = false;      // true when nothing is reported
};

struct ScanOptions {
  MatchOptions match;
  std::size_t region_gap = 3;            // hit lines this close, outside any error block, form one block
  // A longer line is matched on its first and last max_line_bytes / 2
  // bytes; its middle is dropped unread, and it keeps its line number.
  std::size_t max_line_bytes = 1 << 20;
  // Patterns reached only through broad literals ("mode", "201") or the
  // regex database are tried only on lines that read as a problem (a word
  // such as "error", "denied", "timed out", "not found", "warning"). True
  // tries every pattern on every line, as `match` does: exact, and several
  // times slower on a large log.
  bool all_lines = false;
  // Chunks of the log cleaned and matched at once, each on a thread of its
  // own, and error blocks scored at once the same way. The result does not
  // depend on it; memory grows by about 2 MB a thread.
  std::size_t threads = 1;
};

// One error in a log, as an engineer would point at it: a traceback, a
// stack trace, a panic, a compiler error, a failing library call, or lines
// holding known errors; with the known errors it shows.
struct ErrorBlock {
  // kMatch: pattern hits outside any recognised block.
  BlockKind kind = BlockKind::kMatch;
  std::size_t first_line = 0, last_line = 0;  // 1-based, inclusive, in the original log
  std::size_t decisive_line = 0;              // the line that says what went wrong
  std::string decisive;                       // its text, cleaned
  std::vector<std::string> frames;            // the first frames, cleaned
  std::size_t frame_count = 0;                // all frames
  std::size_t count = 1;                      // occurrences (repeats are counted, not listed)
  bool root = false;                          // the error the others follow from
  long caused_by = -1;                        // index (in ScanResult::blocks) of its cause, or -1
  std::vector<Match> matches;                 // best first, one per record; empty: no known error
};

struct ScanSummary {
  std::size_t lines = 0;
  std::size_t bytes = 0;
  std::size_t blocks = 0;           // error blocks reported
  std::size_t known = 0;            // of which with a known error
  std::size_t truncated_lines = 0;  // lines longer than max_line_bytes, read as head and tail
  std::size_t dropped_blocks = 0;   // distinct blocks beyond the limit, counted only
};

// A scanned log: its error blocks, root error first, then causes before
// their effects, then in order of appearance.
struct ScanResult {
  std::vector<ErrorBlock> blocks;
  ScanSummary summary;
};

}  // namespace kedb
