// Pattern hits of a streamed log grouped into regions of nearby lines, and
// the bookkeeping for lines read as head and tail (steps of Engine::Scan).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "engine/candidate.h"

namespace kedb::match {

// Over-long lines, read as their head and tail (logs::LineChunker). A
// match in the tail is given its offset in the input, past the dropped
// middle.
class CutLines {
 public:
  void Add(std::size_t line, std::size_t tail_offset, std::size_t shift) { cuts_.push_back({line, tail_offset, shift}); }
  void FixOffsets(Match* m) const;

 private:
  struct Cut {
    std::size_t line, tail_offset, shift;
  };
  std::vector<Cut> cuts_;
};

// Looks up a string_view in a set of strings without copying it.
struct TextHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
using TextSet = std::unordered_set<std::string, TextHash, std::equal_to<>>;

// The lines of a region that had hits, cleaned: (line number, text).
using LineTexts = std::vector<std::pair<std::size_t, std::string>>;

// The text of line `line` among `texts`; empty past the ones kept.
std::string_view LineOf(const LineTexts& texts, std::size_t line);

// Pattern hits grouped into regions of nearby lines as the log streams by.
// A region seen again (same best record, same line up to numbers) is
// counted, not kept twice, so memory follows the distinct errors.
class HitRegions {
 public:
  struct Region {
    std::size_t first_line = 0, last_line = 0;
    LineTexts texts;  // lines with hits (the first 64)
    std::size_t count = 1;
    std::vector<std::pair<std::size_t, std::size_t>> repeats;
    std::vector<Candidate> candidates;  // best first, at most `top` per record
  };

  HitRegions(std::size_t gap, std::size_t top) : gap_(gap), top_(top) {}

  // Candidates found on line `line_no` (increasing), whose text is `text`.
  void Add(std::size_t line_no, std::string_view text, std::vector<Candidate>&& found);
  void Finish();
  std::vector<Region>& regions() { return regions_; }
  std::size_t dropped() const { return dropped_; }

 private:
  void Close();

  std::size_t gap_, top_;
  bool open_ = false;
  Region open_region_;
  std::vector<Region> regions_;
  std::unordered_map<std::string, std::size_t> by_key_;
  std::size_t dropped_ = 0;
};

}  // namespace kedb::match
