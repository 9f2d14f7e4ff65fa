// Cutting a log into error blocks in the tests: every line cleaned and
// offered to the segmenter as a paste is (each line may start a block), or
// as a scan offers it (only lines with a trigger word may start one).
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "logs/blocks.h"
#include "logs/line_chunker.h"
#include "logs/preprocess.h"
#include "logs/triggers.h"

namespace kedb::testing {

inline std::vector<logs::Block> Segment(const std::string& log) {
  logs::BlockSegmenter seg;
  std::istringstream in(log);
  std::string line, scratch;
  std::size_t n = 0;
  while (std::getline(in, line)) {
    logs::CleanLine c = logs::Clean(line, &scratch);
    seg.Add(++n, c.text, c.mark);
  }
  seg.Finish();
  return seg.TakeBlocks();
}

inline std::vector<logs::Block> SegmentAsAScan(const std::string& log) {
  const std::vector<std::size_t> starts = logs::LineStarts(log);
  std::vector<uint8_t> flags;
  logs::MarkTriggerLines(log, starts, /*problem_lines=*/false, &flags);
  logs::BlockSegmenter seg;
  std::string scratch;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    seg.Add(i + 1, logs::Clean(logs::LineText(log, starts, i), &scratch).text, logs::LineMark::kNone,
            (flags[i] & logs::kTriggerLine) != 0);
  }
  seg.Finish();
  return seg.TakeBlocks();
}

}  // namespace kedb::testing
