// What matching returns: plain data that renderers turn into text, JSON,
// HTML or MCP content.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "kedb/record.h"

namespace kedb {

// One KEY=VALUE of the user's environment: torch=2.2, cudnn=8.9, os=linux.
struct EnvPair {
  std::string key, value;
};

// Below this much evidence in the text (Match::evidence) a match is not
// reported, and kedb abstains rather than guess: a wrong answer costs more
// than none. Calibrated with tools/eval/calibrate.py on the deadends corpus
// (see README, "Quality"): just above the most evidence any answer reached
// on half of a set of real errors the corpus does not cover, per kind of
// match (a fuzzy candidate has no pattern behind it, so its evidence is
// lower for the same strength).
inline constexpr double kDefaultMinEvidence = 0.27;
inline constexpr double kDefaultMinFuzzyEvidence = 0.25;

struct MatchOptions {
  std::size_t top = 5;        // matches kept per message or region
  std::vector<EnvPair> env;   // --env; versions found in the text are added
  double min_evidence = kDefaultMinEvidence;             // weaker regex matches are not reported
  double min_fuzzy_evidence = kDefaultMinFuzzyEvidence;  // nor weaker fuzzy ones
};

// One reason behind a score: a factor in [0,1] (env fit in [-1,1]), its
// weight, and what it was measured from.
struct ScoreFactor {
  std::string name;    // "specificity", "coverage", "env", "confidence", "evidence"
  double value = 0;
  double weight = 0;
  std::string detail;
};

struct Match {
  const Record* record = nullptr;
  double score = 0;               // higher is better; comparable within one call
  double evidence = 0;            // how strongly the text shows it, in [0,0.8] (see match/rank.h)
  std::string kind = "regex";     // "regex" | "fuzzy"
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
  std::size_t max_line_bytes = 1 << 20;  // longer lines are matched on their first bytes
  // Patterns reached only through broad literals ("mode", "201") or the
  // regex database are tried only on lines that read as a problem (a word
  // such as "error", "denied", "timed out", "not found", "warning"). True
  // tries every pattern on every line, as `match` does: exact, and several
  // times slower on a large log.
  bool all_lines = false;
  // Chunks of the log cleaned and matched at once, each on a thread of its
  // own. The result does not depend on it; memory grows by about 2 MB a
  // thread.
  std::size_t threads = 1;
};

// One error in a log, as an engineer would point at it: a traceback, a
// stack trace, a panic, a compiler error, a failing library call, or lines
// holding known errors; with the known errors it shows.
struct ErrorBlock {
  // "python", "java", "javascript", "cpp", "rust-panic", "rustc", "go-panic",
  // "npm", "pytest", "compiler", "gpu", "error-line", or "match" (pattern
  // hits outside any recognised block).
  std::string kind;
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
  std::size_t truncated_lines = 0;  // lines longer than max_line_bytes
  std::size_t dropped_blocks = 0;   // distinct blocks beyond the limit, counted only
};

// A scanned log: its error blocks, root error first, then causes before
// their effects, then in order of appearance.
struct ScanResult {
  std::vector<ErrorBlock> blocks;
  ScanSummary summary;
};

}  // namespace kedb
