// Placing a log's pattern hits into its error blocks, and tidying the
// blocks that result (the steps of Engine::Scan between matching and root
// order).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "kedb/match.h"
#include "logs/blocks.h"

namespace kedb::match {

// Where a structural block's lines (its first occurrence or a repeat) are.
// A list of spans is kept sorted by `first`.
struct BlockSpan {
  std::size_t first, last, block;
  bool operator<(const BlockSpan& o) const { return first < o.first; }
};

// Whether block `b` kept line `line` of the log in its text. Cost: a
// binary search over its kept lines.
bool Kept(const logs::Block& b, std::size_t line);

// The text of each line block `b` kept, in order (one per b.text_lines),
// pointing into b.text.
std::vector<std::string_view> KeptTexts(const logs::Block& b);

// The block whose lines overlap [first, last], or -1. Cost: a binary search.
long FindBlock(const std::vector<BlockSpan>& spans, std::size_t first, std::size_t last);

// Whether a hit on line `line` (text `text`) inside block `b`'s range is
// part of that error. A failed step's range runs from its first failure
// line to its exit status, over output it did not keep; a known error on a
// warning line in between is not why the step failed, and stands alone.
bool JoinsBlock(const logs::Block& b, std::size_t line, std::string_view text);

// A stack trace whose header the segmenter did not see (a line with no
// trigger word: Next.js's "NEXT_REDIRECT") starts at its first frame. A hit
// on the line right before it is that header: the block takes the line as
// its start and decisive line, and its span moves with it. Returns the
// block, or -1.
long AdoptHeader(std::vector<BlockSpan>* spans, std::vector<ErrorBlock>* blocks, std::size_t line, std::string_view text);

// Neighbouring blocks that show the same known error are one error to a
// reader: one-line blocks at most `gap` lines apart (pip prints "Failed
// building wheel", then "Failed to build", then "Could not build wheels"),
// and blocks of any kind but a failed step within a report's length
// (torchrun's exit line, traceback and summary). They become one block,
// whose decisive line is the one with the strongest match. Blocks another
// block names as its cause are left alone; caused_by indexes are kept right.
void MergeNeighbours(std::vector<ErrorBlock>* blocks, std::size_t gap);

}  // namespace kedb::match
