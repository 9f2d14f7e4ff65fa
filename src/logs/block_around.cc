// Block::lead and Block::trail: the few lines around an error block that
// are not its own. The segmenter sees every line of a log, and most are
// no error, so the last few lines are remembered as pointers into the
// caller's text where it stays put (AddStable) and copied into reused
// buffers otherwise. Text is allocated only for the lines a block keeps.
#include <algorithm>

#include "logs/blocks.h"

namespace kedb::logs {

void BlockSegmenter::FeedTrails(std::size_t line_no, std::string_view kept, std::size_t origin, LineMark mark) {
  for (auto& [index, wanted] : trailing_) {
    Block& b = blocks_[index];
    if (line_no <= b.last_line || kept.size() > text_budget_) continue;
    b.trail.push_back({line_no, origin, mark, std::string(kept)});
    text_budget_ -= kept.size();
    --wanted;
  }
  std::erase_if(trailing_, [](const auto& t) { return t.second == 0; });
}

void BlockSegmenter::Detach() {
  for (RecentLine& l : recent_) {
    if (l.text.data() == l.own.data()) continue;
    l.own.assign(l.text);
    l.text = l.own;
  }
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
    if (l.text.size() > text_budget_) continue;
    current_.lead.push_back({l.line_no, l.origin, l.mark, std::string(l.text)});
    text_budget_ -= l.text.size();
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
