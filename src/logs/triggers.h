// Which lines of a chunk could start an error block.
//
// Almost every line of a log is not an error, and the block segmenter's
// tests (a dozen substring searches and shape checks) would cost more than
// matching the line against every known error. One Hyperscan scan of the
// chunk for the words every block start contains ("error", "exception",
// "traceback", "panic", "cuda", "nccl", "fatal", "failed", ...) marks the
// few lines worth testing. A line without one can still continue a block.
//
// The same scan marks the lines that read as a problem at all: a wider set
// of words ("denied", "timed out", "not found", "warning", "invalid", ...).
// The matcher tries its broad patterns only on those lines (PatternSet::Scan).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace kedb::logs {

// Bits of a line's flags.
inline constexpr uint8_t kTriggerLine = 1;  // holds a trigger word: may start a block
inline constexpr uint8_t kProblemLine = 2;  // reads as a problem (every trigger line does)

// Sets (*flags)[i] to the bits line i of `text` (lines start at `starts`)
// earns. kProblemLine is looked for only when `problem_lines` (its words
// make the scan about twice as slow). Thread-safe; the databases are built
// once.
void MarkTriggerLines(std::string_view text, const std::vector<std::size_t>& starts, bool problem_lines,
                      std::vector<uint8_t>* flags);

// Whether `text` holds a trigger or problem word, so that any line holding
// `text` is marked kProblemLine. The matcher looks for such a literal on
// marked lines only, and loses nothing by it (pattern_shard.h).
bool HoldsProblemWord(std::string_view text);

// Changes whenever the words change: part of the key of anything that was
// built with HoldsProblemWord.
uint64_t ProblemWordsKey();

}  // namespace kedb::logs
