// The lines around an error block that are not its own.
//
// Block::lead and Block::trail: the few lines just before and after it.
// The segmenter sees every line of a log, and most are no error, so the
// last few lines are remembered as pointers into the caller's text where
// it stays put (AddStable) and copied into reused buffers otherwise. Text
// is allocated only for the lines a block keeps.
//
// Problem lines no block took, in a ring: a failed step's exit status
// takes those that say what failed before it (TakeStepLines), and a log
// with no block at all may end on one (TakeLastWords).
#include <algorithm>

#include "logs/blocks.h"
#include "logs/line_kinds.h"

namespace kedb::logs {
namespace {

// A problem line that can say why a step failed: it states a failure and
// is no warning (a deprecation explains no failed step) and no source code
// quoted (a code frame line that mentions an error).
bool SaysWhatFailed(std::string_view line) {
  return !IsWarningLine(line) && !IsSourceLine(line) && StatesFailure(line);
}

}  // namespace

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

void BlockSegmenter::KeepProblemLine(std::size_t line_no, std::string_view text, std::size_t origin, LineMark mark) {
  ProblemLine& slot = problem_lines_[problem_next_];
  problem_next_ = (problem_next_ + 1) % problem_lines_.size();
  slot.line_no = line_no, slot.origin = origin, slot.mark = mark;
  slot.text.assign(text);
}

void BlockSegmenter::TakeStepLines() {
  // The ring's last lines that say something failed, after the previous
  // block and within the window, oldest first, go before the exit status.
  // (Judged only now: a log has thousands of problem lines and few exits.)
  std::vector<const ProblemLine*> step;
  for (std::size_t k = problem_lines_.size(); k-- > 0 && step.size() < kStepLines;) {
    const ProblemLine& l = problem_lines_[(problem_next_ + k) % problem_lines_.size()];
    if (l.line_no == 0 || l.line_no <= last_block_end_ || l.line_no >= current_.first_line) continue;
    if (l.line_no + kStepWindow < current_.first_line) break;
    if (!SaysWhatFailed(l.text)) continue;
    step.push_back(&l);
  }
  if (step.empty()) return;
  std::reverse(step.begin(), step.end());
  std::string text;
  std::vector<OpenLine> lines;
  for (const ProblemLine* l : step) {
    text.append(l->text);
    text += '\n';
    lines.push_back({l->line_no, l->origin, text.size(), l->mark});
  }
  // Then the exit status itself, as kept.
  std::size_t begin = 0;
  for (const OpenLine& l : open_lines_) {
    text.append(open_text_, begin, l.end - begin);
    lines.push_back({l.line_no, l.origin, text.size(), l.mark});
    begin = l.end;
  }
  open_text_ = std::move(text);
  open_lines_ = std::move(lines);
  current_.kind = BlockKind::kStep;
  current_.first_line = step.front()->line_no;
}

void BlockSegmenter::TakeLastWords() {
  // The newest problem line no block took, if it says something failed and
  // the log ends soon after it. In a text of a few lines (a post, a paste)
  // every line is near the end, so there it says nothing.
  if (prev_line_no_ < kLastWordsMinLines) return;
  const ProblemLine& l = problem_lines_[(problem_next_ + problem_lines_.size() - 1) % problem_lines_.size()];
  if (l.line_no == 0 || l.line_no + kLastWordsLines < prev_line_no_) return;
  if (!SaysWhatFailed(l.text)) return;
  SingleLine(BlockKind::kErrorLine, l.line_no, l.text, l.origin);
}

}  // namespace kedb::logs
