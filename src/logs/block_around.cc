// Block::lead and Block::trail: the few lines around an error block that
// are not its own. The segmenter sees every line of a log, and most are
// no error, so a line is remembered by copying a bounded prefix of it into
// a fixed ring slot: no allocation, a short copy. Text is allocated only
// for the lines a block keeps.
#include <algorithm>
#include <cstring>

#include "logs/blocks.h"

namespace kedb::logs {

void BlockSegmenter::Remember(std::size_t line_no, std::string_view text, std::size_t origin, LineMark mark) {
  const std::string_view kept = text.substr(0, std::min(text.size(), kAroundBytes));
  for (auto& [index, wanted] : trailing_) {
    Block& b = blocks_[index];
    if (line_no <= b.last_line || kept.size() > text_budget_) continue;
    b.trail.push_back({line_no, origin, mark, std::string(kept)});
    text_budget_ -= kept.size();
    --wanted;
  }
  std::erase_if(trailing_, [](const auto& t) { return t.second == 0; });
  RecentLine& slot = recent_[recent_next_];
  recent_next_ = (recent_next_ + 1) % recent_.size();
  slot.line_no = line_no, slot.origin = origin, slot.mark = mark;
  slot.size = kept.size();
  std::memcpy(slot.text.data(), kept.data(), kept.size());
}

void BlockSegmenter::TakeLead() {
  current_.lead.clear();
  // Newest first, back from the slot before recent_next_.
  std::array<const RecentLine*, kAroundLines> before{};
  std::size_t n = 0;
  for (std::size_t k = 1; k <= recent_.size() && n < kAroundLines; ++k) {
    const RecentLine& l = recent_[(recent_next_ + recent_.size() - k) % recent_.size()];
    if (l.line_no != 0 && l.line_no < current_.first_line) before[n++] = &l;
  }
  while (n-- > 0) {
    const RecentLine& l = *before[n];
    if (l.size > text_budget_) continue;
    current_.lead.push_back({l.line_no, l.origin, l.mark, std::string(l.text.data(), l.size)});
    text_budget_ -= l.size;
  }
}

void BlockSegmenter::ReturnLead() {
  for (const Block::AroundLine& l : current_.lead) text_budget_ += l.text.size();
  current_.lead.clear();
}

void BlockSegmenter::StartTrail(std::size_t index) {
  // A log of thousands of distinct errors in a row keeps few open at once:
  // each takes at most the next kAroundLines non-blank lines.
  trailing_.emplace_back(index, kAroundLines);
}

}  // namespace kedb::logs
