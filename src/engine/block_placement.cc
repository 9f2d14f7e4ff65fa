#include "engine/block_placement.h"

#include <algorithm>

#include "logs/line_kinds.h"

namespace kedb::match {
namespace {

// How far apart the blocks of one tool's report of one failure lie: torchrun
// prints the failed worker's exit, a traceback and a summary of a dozen
// lines, each read as a block of its own.
constexpr std::size_t kReportLines = 15;

}  // namespace

bool Kept(const logs::Block& b, std::size_t line) {
  auto it = std::lower_bound(b.text_lines.begin(), b.text_lines.end(), line,
                             [](const logs::Block::TextLine& l, std::size_t n) { return l.line_no < n; });
  return it != b.text_lines.end() && it->line_no == line;
}

void MergeNeighbours(std::vector<ErrorBlock>* blocks, std::size_t gap) {
  auto single = [](const ErrorBlock& b) {
    return b.kind == BlockKind::kErrorLine || b.kind == BlockKind::kMatch || b.kind == BlockKind::kGpu;
  };
  // Any block but a failed step's may join a neighbour; a block of many
  // lines (a launcher's traceback and its report) reaches further.
  auto mergeable = [](const ErrorBlock& b) { return b.kind != BlockKind::kStep && !b.matches.empty() && b.caused_by < 0; };
  auto reach = [&](const ErrorBlock& a, const ErrorBlock& b) {
    return single(a) && single(b) ? gap : std::max(gap, kReportLines);
  };
  std::vector<bool> is_cause(blocks->size(), false);
  for (const auto& b : *blocks) {
    if (b.caused_by >= 0) is_cause[static_cast<std::size_t>(b.caused_by)] = true;
  }
  std::vector<std::size_t> order(blocks->size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return (*blocks)[a].first_line < (*blocks)[b].first_line; });
  std::vector<long> into(blocks->size(), -1);  // merged into which block
  long open = -1;
  for (std::size_t i : order) {
    ErrorBlock& b = (*blocks)[i];
    if (!mergeable(b) || is_cause[i]) {
      open = -1;
      continue;
    }
    if (open >= 0) {
      ErrorBlock& o = (*blocks)[static_cast<std::size_t>(open)];
      if (b.first_line <= o.last_line + reach(o, b) && b.matches[0].record == o.matches[0].record) {
        o.last_line = std::max(o.last_line, b.last_line);
        // A line joined by the traceback it introduces reads as that traceback.
        if (single(o) && !single(b)) o.kind = b.kind;
        if (b.matches[0].score > o.matches[0].score) {
          o.decisive_line = b.decisive_line;
          o.decisive = std::move(b.decisive);
          o.matches = std::move(b.matches);
        }
        into[i] = open;
        continue;
      }
    }
    open = static_cast<long>(i);
  }
  std::vector<long> position(blocks->size(), -1);
  std::vector<ErrorBlock> kept;
  for (std::size_t i = 0; i < blocks->size(); ++i) {
    if (into[i] >= 0) continue;
    position[i] = static_cast<long>(kept.size());
    kept.push_back(std::move((*blocks)[i]));
  }
  for (auto& b : kept) {
    if (b.caused_by >= 0) b.caused_by = position[static_cast<std::size_t>(b.caused_by)];
  }
  *blocks = std::move(kept);
}

std::vector<std::string_view> KeptTexts(const logs::Block& b) {
  std::vector<std::string_view> out;
  out.reserve(b.text_lines.size());
  const std::string_view text = b.text;
  std::size_t at = 0;
  for (std::size_t k = 0; k < b.text_lines.size() && at < text.size(); ++k) {
    const std::size_t end = text.find('\n', at);
    out.push_back(text.substr(at, end - at));
    at = end == std::string_view::npos ? text.size() : end + 1;
  }
  return out;
}

long FindBlock(const std::vector<BlockSpan>& spans, std::size_t first, std::size_t last) {
  auto it = std::upper_bound(spans.begin(), spans.end(), BlockSpan{last, 0, 0});
  // Blocks do not overlap one another, so only a few before `last` can reach back.
  for (int k = 0; k < 4 && it != spans.begin(); ++k) {
    --it;
    if (it->last >= first) return static_cast<long>(it->block);
  }
  return -1;
}

bool JoinsBlock(const logs::Block& b, std::size_t line, std::string_view text) {
  return b.kind != BlockKind::kStep || Kept(b, line) || !logs::IsWarningLine(text);
}

long AdoptHeader(std::vector<BlockSpan>* spans, std::vector<ErrorBlock>* blocks, std::size_t line, std::string_view text) {
  if (text.empty()) return -1;
  const long b = FindBlock(*spans, line + 1, line + 1);
  if (b < 0) return -1;
  ErrorBlock& e = (*blocks)[static_cast<std::size_t>(b)];
  const bool headless = (e.kind == BlockKind::kJavascript || e.kind == BlockKind::kJava) && e.first_line == line + 1 &&
                        e.decisive_line == e.first_line && e.decisive.rfind("at ", 0) == 0;
  if (!headless) return -1;
  e.first_line = e.decisive_line = line;
  e.decisive = std::string(text);
  for (BlockSpan& s : *spans) {
    if (s.block == static_cast<std::size_t>(b) && s.first == line + 1) s.first = line;
  }
  return b;
}

}  // namespace kedb::match
