// Stage 4b of a scan (scan.cc): a block the segmenter found that no record
// explains is read once more with the lines around it (logs::Block::lead
// and trail), as a paste of the error would have shown them.
#include <algorithm>
#include <functional>

#include "engine/block_placement.h"
#include "engine/candidate.h"
#include "engine/engine_impl.h"
#include "kedb/engine.h"
#include "logs/blocks.h"
#include "logs/line_kinds.h"

namespace kedb {
namespace {

using match::BlockSpan;
using match::Candidate;
using match::FindBlock;

// The confidence a known error needs when it was found only by reading a
// block with the lines around it (stage 4b): the block itself named none.
constexpr double kSureAround = 0.5;

// How many unexplained blocks at each end of a log are read with their
// surroundings (ReadBlocksAround).
constexpr std::size_t kAroundEnds = 32;

// Stage 4b, once a known error was found by reading a block with the lines
// around it: the block takes in the line the error was found on, and a
// block that only reported an exit status is shown at that line.
void TakeInAround(const logs::Block& found, ErrorBlock* e) {
  const std::size_t line = e->matches[0].line;
  e->first_line = std::min(e->first_line, line);
  e->last_line = std::max(e->last_line, line);
  if (!logs::IsWrapperLine(e->decisive)) return;
  for (const auto* around : {&found.lead, &found.trail}) {
    for (const auto& l : *around) {
      if (l.line_no == line) e->decisive_line = line, e->decisive = l.text;
    }
  }
}

// A lone line's weak similarity answer (no pattern fired, and the line was
// read without the lines around it) is read again with its surroundings,
// as a paste would be, and stands only if that reading gives the same
// record: an error no record covers is often near enough some record's
// words on its own (a PHP ParseError line against a record of another PHP
// error), and the lines around it tell them apart.
constexpr double kDoubtfulFuzzy = 0.5;
bool Doubtful(const ErrorBlock& b) {
  return b.kind != BlockKind::kStep && b.first_line == b.last_line && !b.matches.empty() &&
         b.matches[0].kind == MatchKind::kFuzzy && b.matches[0].confidence < kDoubtfulFuzzy;
}

}  // namespace

void Engine::Impl::ReadBlocksAround(const std::vector<logs::Block>& found_blocks, std::size_t max_blocks,
                                    const MatchOptions& options, std::vector<ErrorBlock>* blocks) const {
  // Blocks with a known error are known by their line ranges, a failed
  // step's wide one included (FindBlock looks back a few spans, enough for
  // these).
  std::vector<BlockSpan> explained;
  for (std::size_t i = 0; i < blocks->size(); ++i) {
    const ErrorBlock& b = (*blocks)[i];
    if (b.matches.empty() || Doubtful(b)) continue;
    explained.push_back({b.first_line, b.last_line, i});
    if (i < found_blocks.size()) {
      for (auto [f, l] : found_blocks[i].repeats) explained.push_back({f, l, i});
    }
  }
  std::sort(explained.begin(), explained.end());
  auto is_explained = [&explained](std::size_t line) { return FindBlock(explained, line, line) >= 0; };
  // Reading a block with its surroundings costs about nine lines' worth of
  // fuzzy search. A log of thousands of distinct unknown errors is read so
  // only at its first and last kAroundEnds such blocks: where a cascade
  // starts and where the job gave up.
  std::vector<std::size_t> unexplained;
  for (std::size_t i = 0; i < found_blocks.size() && i < max_blocks; ++i) {
    const logs::Block& found = found_blocks[i];
    const ErrorBlock& b = (*blocks)[i];
    if ((b.matches.empty() || Doubtful(b)) && !(found.lead.empty() && found.trail.empty())) unexplained.push_back(i);
  }
  if (unexplained.size() > 2 * kAroundEnds) {
    unexplained.erase(unexplained.begin() + kAroundEnds, unexplained.end() - kAroundEnds);
  }
  for (const std::size_t i : unexplained) {
    const logs::Block& found = found_blocks[i];
    ErrorBlock& b = (*blocks)[i];
    std::vector<Candidate> around = ReadAround(found, is_explained, options);
    match::KeepBest(&around, options);
    std::vector<kedb::Match> read = match::Explain(std::move(around), options);
    if (!b.matches.empty() && !read.empty() && read[0].record == b.matches[0].record) continue;  // it stands
    b.matches = std::move(read);
    if (!b.matches.empty() && b.matches[0].confidence < kSureAround) b.matches.clear();
    if (!b.matches.empty()) TakeInAround(found, &b);
  }
}

std::vector<Candidate> Engine::Impl::ReadAround(const logs::Block& found,
                                                const std::function<bool(std::size_t)>& explained,
                                                const MatchOptions& options) const {
  // The block's own lines (a failed step's exit status only: the problem
  // lines it gathered from far back were read already) between its lead
  // and its trail, each once, in log order. Lines that only report another
  // failure (wandb's "(failed 1)" after a traceback) say nothing of which
  // error it was. A line of a block with a known error of its own is
  // context, never where this block's error is found: an unknown error
  // next to a known one stays unknown.
  std::vector<logs::Block::AroundLine> lines;
  auto add_around = [&lines](const std::vector<logs::Block::AroundLine>& around) {
    for (const auto& l : around) {
      if (!logs::IsWrapperLine(l.text)) lines.push_back(l);
    }
  };
  add_around(found.lead);
  const std::vector<std::string_view> kept = match::KeptTexts(found);
  if (found.kind == BlockKind::kStep || kept.empty()) {
    lines.push_back({found.decisive_line, 0, logs::LineMark::kNone, found.decisive});
    for (const auto& l : found.text_lines) {
      if (l.line_no == found.decisive_line) lines.back().origin = l.origin, lines.back().mark = l.mark;
    }
  } else {
    for (std::size_t k = 0; k < kept.size(); ++k) {
      const auto& l = found.text_lines[k];
      lines.push_back({l.line_no, l.origin, l.mark, std::string(kept[k])});
    }
  }
  add_around(found.trail);
  std::stable_sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.line_no < b.line_no; });
  lines.erase(std::unique(lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.line_no == b.line_no; }),
              lines.end());
  std::string text, context;
  match::MessageLines m;
  for (const auto& l : lines) {
    (context += l.text) += '\n';
    if (explained(l.line_no) && !(l.line_no >= found.first_line && l.line_no <= found.last_line)) continue;
    m.starts.push_back(text.size());
    (text += l.text) += '\n';
    m.origins.push_back(l.origin);
    m.marks.push_back(l.mark);
    m.numbers.push_back(l.line_no);
  }
  m.text = text;
  if (context.size() != text.size()) m.context = context;
  return MessageCandidates(m, options);
}

}  // namespace kedb
