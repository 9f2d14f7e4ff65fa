// Ordering a log's error blocks root error first.
//
// When a log holds several errors, the one to fix is usually the first
// cause. Three signals say which error caused which:
//   - chained exceptions (Python's "direct cause" / "during handling",
//     Java's "Caused by:"), already linked by the block segmenter;
//   - the knowledge base's transition graph: when record A leads_to record B
//     (or B is preceded_by A) and both are a block's best match, A's block
//     caused B's;
//   - order of appearance, for everything else, failures first: a block
//     that shows a failure (a traceback, a panic, a compiler error, a
//     logger's error line, a known error on a line that reads as a
//     problem) comes before a line that only reports an exit status
//     ("Process completed with exit code 1."), which comes before a known
//     error found on a warning line (a deprecation, a retry, a lint
//     warning), and that before one on a line that reads as no problem.
//     A known error the model is sure of (kSureInPlainWords) on a line
//     that names no failure comes after a logger's error line no record
//     knows and before an exit status. A CI log is full of the last two;
//     the failure is what was asked about. Among those last two, the block closest before a failure
//     (an exit status, say) comes first: the warning the failing step
//     printed, not one from a step that went on to succeed.
// The blocks are put in a topological order of the "caused" edges, ties and
// cycles broken by that order; the first block is the root.
#pragma once

#include <vector>

#include "kedb/match.h"

namespace kedb::match {

// The confidence that makes a known error on a line with no failure word
// ("It is required that your private key files are NOT accessible by
// others.") a failure all the same: it orders the root, and it makes an
// exit status after it context (scan.cc).
inline constexpr double kSureInPlainWords = 0.5;

// Reorders `blocks` (whose caused_by index into the same vector) root first,
// rewrites caused_by to the new positions, adds the graph's edges to
// caused_by where a block has no cause yet, and marks the root.
void OrderRootFirst(std::vector<ErrorBlock>* blocks);

}  // namespace kedb::match
