// Engine::Scan: a whole log, streamed, into error blocks with their known
// errors, root first.
#include <algorithm>
#include <deque>
#include <future>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "kedb/engine.h"
#include "logs/blocks.h"
#include "logs/line_chunker.h"
#include "logs/line_kinds.h"
#include "logs/preprocess.h"
#include "logs/triggers.h"
#include "engine/block_placement.h"
#include "engine/candidate.h"
#include "engine/root_order.h"

namespace kedb {
namespace {

using match::AdoptHeader;
using match::BlockSpan;
using match::Candidate;
using match::FindBlock;
using match::JoinsBlock;
using match::Kept;
using match::MergeNeighbours;

// Distinct quiet lines remembered at once (see Engine::Scan).
constexpr std::size_t kQuietLines = 4096;

// The confidence a known error needs on a line that only reports an exit
// status (see Scan).
constexpr double kSureOnExitStatus = 0.5;

// Over-long lines, read as their head and tail (logs::LineChunker). A
// match in the tail is given its offset in the input, past the dropped
// middle.
class CutLines {
 public:
  void Add(std::size_t line, std::size_t tail_offset, std::size_t shift) { cuts_.push_back({line, tail_offset, shift}); }
  void FixOffsets(Match* m) const {
    for (const Cut& c : cuts_) {
      if (c.line != m->line) continue;
      if (m->begin >= c.tail_offset) m->begin += c.shift;
      if (m->end > c.tail_offset) m->end += c.shift;
    }
  }

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

// Pattern hits grouped into regions of nearby lines as the log streams by.
// A region seen again (same best record, same line up to numbers) is
// counted, not kept twice, so memory follows the distinct errors.
class HitRegions {
 public:
  struct Region {
    std::size_t first_line = 0, last_line = 0;
    std::vector<std::pair<std::size_t, std::string>> texts;  // lines with hits, cleaned (the first 64)
    std::size_t count = 1;
    std::vector<std::pair<std::size_t, std::size_t>> repeats;
    std::vector<Candidate> candidates;  // best first, at most `top` per record
  };

  HitRegions(std::size_t gap, std::size_t top) : gap_(gap), top_(top) {}

  // Candidates found on line `line_no` (increasing), whose text is `text`.
  void Add(std::size_t line_no, std::string_view text, std::vector<Candidate>&& found) {
    if (found.empty()) return;
    if (open_ && line_no > open_region_.last_line + gap_) Close();
    if (!open_) {
      open_region_ = Region();
      open_region_.first_line = line_no;
      open_ = true;
    }
    open_region_.last_line = line_no;
    if (open_region_.texts.size() < 64) open_region_.texts.emplace_back(line_no, text);
    for (auto& c : found) open_region_.candidates.push_back(std::move(c));
    // A long region keeps only its best candidates as it grows.
    if (open_region_.candidates.size() > 256) match::KeepBestOf(&open_region_.candidates, std::max<std::size_t>(top_, 64));
  }

  void Finish() {
    if (open_) Close();
  }
  std::vector<Region>& regions() { return regions_; }
  std::size_t dropped() const { return dropped_; }

 private:
  void Close() {
    open_ = false;
    // Kept per line, not only per record: the lines may fall into different
    // error blocks. Bounded all the same.
    auto& cs = open_region_.candidates;
    std::stable_sort(cs.begin(), cs.end(), [](const Candidate& a, const Candidate& b) { return a.match.score > b.match.score; });
    std::vector<Candidate> kept;
    for (auto& c : cs) {
      if (kept.size() >= std::max<std::size_t>(top_, 32)) break;
      bool seen = std::any_of(kept.begin(), kept.end(), [&](const Candidate& k) {
        return k.match.record == c.match.record && k.match.line == c.match.line;
      });
      if (!seen) kept.push_back(std::move(c));
    }
    cs = std::move(kept);
    std::string key = open_region_.candidates.empty() ? std::string() : open_region_.candidates[0].match.record->id;
    key += '\x1f';
    // The best candidate's line, numbers aside, tells repeats apart.
    for (const auto& [line, text] : open_region_.texts) {
      if (cs.empty() || line != cs[0].match.line) continue;
      for (char c : text) key += (c >= '0' && c <= '9') ? '#' : c;
      break;
    }
    if (auto it = by_key_.find(key); it != by_key_.end()) {
      Region& first = regions_[it->second];
      ++first.count;
      if (first.repeats.size() < logs::BlockSegmenter::kMaxOccurrences) {
        first.repeats.emplace_back(open_region_.first_line, open_region_.last_line);
      }
      return;
    }
    if (regions_.size() >= logs::BlockSegmenter::kMaxBlocks) {
      ++dropped_;
      return;
    }
    by_key_.emplace(std::move(key), regions_.size());
    regions_.push_back(std::move(open_region_));
  }

  std::size_t gap_, top_;
  bool open_ = false;
  Region open_region_;
  std::vector<Region> regions_;
  std::unordered_map<std::string, std::size_t> by_key_;
  std::size_t dropped_ = 0;
};

// The text of line `line` among a region's lines with hits; empty past the
// ones kept.
std::string_view LineOf(const std::vector<std::pair<std::size_t, std::string>>& texts, std::size_t line) {
  for (const auto& [n, text] : texts) {
    if (n == line) return text;
  }
  return {};
}

// One chunk of the log, cleaned and matched against the patterns: the part
// of a scan that may run on any thread. What follows (error blocks,
// ranking) needs the chunks in order.
struct MatchedChunk {
  std::string own;  // the chunk's bytes, when it is matched on another thread
  std::string_view raw;
  std::vector<std::size_t> raw_starts;
  std::size_t first_line = 1, first_offset = 0;
  std::size_t tail_at = std::string_view::npos, tail_shift = 0;  // as in logs::LineChunk
  logs::CleanedLines cleaned;
  std::vector<uint8_t> flags;  // per line: logs::kTriggerLine, logs::kProblemLine
  std::vector<match::LineHit> hits;
};

void MatchChunk(const match::PatternSet& patterns, bool problem_lines, MatchedChunk* c) {
  logs::CleanLines(c->raw, c->raw_starts, &c->cleaned);
  logs::MarkTriggerLines(c->cleaned.text, c->cleaned.starts, problem_lines, &c->flags);
  c->hits.clear();
  // Every trigger line is a problem line too: nonzero flags mark both.
  patterns.Scan(c->cleaned.text, c->cleaned.starts, &c->hits, problem_lines ? &c->flags : nullptr);
}

}  // namespace

void Engine::ScoreBlock(const ErrorBlock& block, const logs::Block* found,
                        const std::vector<std::pair<std::size_t, std::string>>& hit_texts, const MatchOptions& options,
                        std::vector<Candidate>* candidates) const {
  if (found && !found->text.empty()) {
    // An error block whose lines were kept is read as a message of its own,
    // as `kedb match` reads a paste. Hits found while streaming on lines
    // it did not keep add to them.
    match::MessageLines m;
    m.text = found->text;
    m.starts = logs::LineStarts(found->text);
    if (!m.starts.empty() && m.starts.back() == found->text.size()) m.starts.pop_back();
    for (const auto& l : found->text_lines) {
      m.origins.push_back(l.origin);
      m.marks.push_back(l.mark);
      m.numbers.push_back(l.line_no);
    }
    m.starts.resize(m.numbers.size());
    std::vector<Candidate> own = MessageCandidates(m, options);
    const match::LineWords context = signatures_->Words(found->text);
    const std::vector<double> affinity = signatures_->domains().Affinity(context);
    // Kept lines are in order but need not be contiguous: a failed step
    // keeps its failure lines and exit status, and the hits between them
    // count as well.
    for (auto& c : *candidates) {
      if (Kept(*found, c.match.line)) continue;
      match::SetContext(*this, context, affinity, &c);
      own.push_back(std::move(c));
    }
    *candidates = std::move(own);
    return;
  }
  // Otherwise: fuzzy candidates for the decisive line when no pattern
  // fired, and the context of what was kept: the decisive line, the frames
  // and the lines with hits.
  if (candidates->empty() && !block.decisive.empty()) {
    match::LineWords words = signatures_->Words(block.decisive);
    const match::TextEnv text_env = match::TextEnvOf(block.decisive);
    for (const match::Neighbour& n : FuzzyRecords(block.decisive, words, options.top, /*with_search=*/true)) {
      Candidate c = match::MakeFuzzyMatch(*this, n, block.decisive, words, 0, block.decisive_line, options, text_env);
      if (block.first_line == block.last_line) c.features.fuzzy_alone = 1;
      candidates->push_back(std::move(c));
    }
  }
  if (candidates->empty()) return;
  std::string context = block.decisive;
  for (const auto& f : block.frames) (context += '\n') += f;
  for (const auto& [line, text] : hit_texts) (context += '\n') += text;
  const match::LineWords words = signatures_->Words(context);
  const std::vector<double> affinity = signatures_->domains().Affinity(words);
  for (Candidate& c : *candidates) match::SetContext(*this, words, affinity, &c);
}

Status Engine::Scan(std::istream& in, const ScanOptions& options, ScanResult* result) const {
  logs::LineChunker chunker(in, 1 << 20, options.max_line_bytes);
  logs::LineChunk chunk;
  logs::BlockSegmenter segmenter;
  HitRegions regions(options.region_gap, options.match.top);
  ScanSummary sum;
  const bool problem_lines = !options.all_lines && patterns_->has_broad();
  // Cleaned lines whose hits were all too weak to report. A line's matches
  // depend on its text alone, so the same text again (a progress line, a
  // repeated install step) is passed over without ranking it again.
  TextSet quiet;
  CutLines cut_lines;

  // In log order: feed the segmenter, rank the hits, group them in regions.
  auto take = [&](const MatchedChunk& c) {
    const std::string_view text = c.cleaned.text;
    const std::vector<std::size_t>& starts = c.cleaned.starts;
    sum.lines += starts.size();
    sum.bytes += c.raw.size() + c.tail_shift;  // the input bytes, the cut middle included
    if (c.tail_at != std::string_view::npos) {
      ++sum.truncated_lines;
      cut_lines.Add(c.first_line + c.raw_starts.size() - 1, c.first_offset + c.tail_at, c.tail_shift);
    }
    for (std::size_t i = 0; i < starts.size(); ++i) {
      segmenter.Add(c.first_line + i, logs::LineText(text, starts, i), c.cleaned.marks[i],
                    (c.flags[i] & logs::kTriggerLine) != 0, c.first_offset + c.cleaned.origins[i], c.flags[i] != 0);
    }
    const std::vector<match::LineHit>& hits = c.hits;
    for (std::size_t i = 0; i < hits.size();) {
      const std::size_t li = hits[i].line;
      const std::size_t line_no = c.first_line + li;
      std::string_view line = logs::LineText(text, starts, li);
      if (quiet.contains(line)) {
        while (i < hits.size() && hits[i].line == li) ++i;
        continue;
      }
      // Versions named on the line itself inform the ranking.
      const match::TextEnv text_env = match::TextEnvOf(line);
      match::LineWords words = signatures_->Words(line);
      std::vector<Candidate> found;
      const std::size_t origin = c.first_offset + c.cleaned.origins[li];
      // Until the blocks are known, the line is its own context. Error
      // blocks are matched again as a whole once known (ScoreBlock), so
      // this only decides for lines outside them, which stand alone.
      const std::vector<double> affinity = signatures_->domains().Affinity(words);
      for (; i < hits.size() && hits[i].line == li; ++i) {
        Candidate m = match::MakeMatch(*this, hits[i], line, words, origin, line_no, options.match, text_env);
        match::SetContext(*this, words, affinity, &m, /*context_is_line=*/true);
        if (match::Listable(m, options.match)) found.push_back(std::move(m));  // weak hits: abstain
      }
      if (found.empty()) {
        if (quiet.size() >= kQuietLines) quiet.clear();
        quiet.emplace(line);
        continue;
      }
      // The rest of a line GitLab split is read with its first part (a
      // warning's tail is still a warning).
      const std::size_t raw_start = c.raw_starts[li];
      if (li > 0 && logs::ContinuesPreviousLine(c.raw.substr(raw_start, c.cleaned.origins[li] - raw_start))) {
        std::string whole(logs::LineText(text, starts, li - 1));
        whole += line;
        regions.Add(line_no, whole, std::move(found));
      } else {
        regions.Add(line_no, line, std::move(found));
      }
    }
  };

  // The chunk just read, as `c`'s input; `raw` holds its bytes.
  auto load = [&chunk](std::string_view raw, MatchedChunk* c) {
    c->raw = raw;
    c->raw_starts.swap(chunk.line_starts);
    c->first_line = chunk.first_line, c->first_offset = chunk.first_offset;
    c->tail_at = chunk.tail_at, c->tail_shift = chunk.tail_shift;
  };
  // A compressed log read as bytes would give no error and no warning.
  auto compressed = [&chunk]() -> std::optional<Status> {
    if (chunk.first_offset != 0) return std::nullopt;
    const std::string_view format = logs::CompressionOf(chunk.text);
    if (format.empty()) return std::nullopt;
    return Status::InvalidArgument(
        fmt::format("the input is {}-compressed, not text; decompress it first (zcat, zstdcat, bzcat, xzcat, unzip -p)",
                    format));
  };
  const std::size_t threads = std::max<std::size_t>(options.threads, 1);
  if (threads == 1) {
    MatchedChunk c;
    while (chunker.Next(&chunk)) {
      if (auto error = compressed()) return *error;
      load(chunk.text, &c);
      MatchChunk(*patterns_, problem_lines, &c);
      take(c);
    }
  } else {
    // Chunks are copied out of the reader's buffer and matched on their own
    // threads, at most `threads` at once; the oldest is taken as soon as it
    // is done, so memory stays bounded and the result is the one-thread one.
    std::deque<std::pair<std::unique_ptr<MatchedChunk>, std::future<void>>> running;
    std::vector<std::unique_ptr<MatchedChunk>> spare;
    auto take_oldest = [&] {
      running.front().second.get();
      std::unique_ptr<MatchedChunk> c = std::move(running.front().first);
      running.pop_front();
      take(*c);
      spare.push_back(std::move(c));
    };
    while (chunker.Next(&chunk)) {
      if (auto error = compressed()) return *error;  // first chunk: nothing runs yet
      if (running.size() >= threads) take_oldest();
      std::unique_ptr<MatchedChunk> c;
      if (spare.empty()) {
        c = std::make_unique<MatchedChunk>();
      } else {
        c = std::move(spare.back());
        spare.pop_back();
      }
      c->own.assign(chunk.text);
      load(c->own, c.get());
      MatchedChunk* work = c.get();
      running.emplace_back(std::move(c), std::async(std::launch::async, [this, problem_lines, work] {
                             MatchChunk(*patterns_, problem_lines, work);
                           }));
    }
    while (!running.empty()) take_oldest();
  }
  segmenter.Finish();
  regions.Finish();

  // Structural blocks, then hit regions placed into them or standing alone.
  std::vector<logs::Block> found_blocks = segmenter.TakeBlocks();
  std::vector<ErrorBlock> blocks;
  std::vector<std::vector<Candidate>> candidates;
  std::vector<BlockSpan> spans;
  for (auto& b : found_blocks) {
    ErrorBlock e;
    e.kind = b.kind;
    e.first_line = b.first_line, e.last_line = b.last_line, e.decisive_line = b.decisive_line;
    e.decisive = b.decisive;
    e.frames = b.frames;
    e.frame_count = b.frame_count, e.count = b.count;
    e.caused_by = b.caused_by;
    spans.push_back({e.first_line, e.last_line, blocks.size()});
    for (auto [f, l] : b.repeats) spans.push_back({f, l, blocks.size()});
    blocks.push_back(std::move(e));
  }
  candidates.resize(blocks.size());
  // The texts of the lines with hits each block received, for its context.
  std::vector<std::vector<std::pair<std::size_t, std::string>>> hit_texts(blocks.size());
  std::sort(spans.begin(), spans.end());
  for (auto& r : regions.regions()) {
    // Each hit goes to the block holding its line; the rest of the region,
    // if any, stands as a block of its own.
    std::vector<Candidate> rest;
    auto add_text = [&r](std::size_t line, std::vector<std::pair<std::size_t, std::string>>* to) {
      if (std::any_of(to->begin(), to->end(), [&](const auto& t) { return t.first == line; })) return;
      for (const auto& t : r.texts) {
        if (t.first == line) to->push_back(t);
      }
    };
    for (auto& c : r.candidates) {
      long into = FindBlock(spans, c.match.line, c.match.line);
      if (into < 0 && r.count > 1) into = FindBlock(spans, r.first_line, r.last_line);
      if (into < 0) into = AdoptHeader(&spans, &blocks, c.match.line, LineOf(r.texts, c.match.line));
      if (into >= 0 && static_cast<std::size_t>(into) < found_blocks.size() &&
          !JoinsBlock(found_blocks[static_cast<std::size_t>(into)], c.match.line, LineOf(r.texts, c.match.line))) {
        into = -1;
      }
      if (into >= 0) {
        add_text(c.match.line, &hit_texts[static_cast<std::size_t>(into)]);
        candidates[static_cast<std::size_t>(into)].push_back(std::move(c));
      } else {
        rest.push_back(std::move(c));
      }
    }
    if (rest.empty()) continue;
    ErrorBlock e;
    e.kind = "match";
    e.first_line = e.last_line = rest[0].match.line;
    for (const auto& c : rest) {
      e.first_line = std::min(e.first_line, c.match.line);
      e.last_line = std::max(e.last_line, c.match.line);
    }
    e.decisive_line = rest[0].match.line;  // candidates are best first
    for (auto& [line, text] : r.texts) {
      if (line == e.decisive_line) e.decisive = text;
    }
    e.count = r.count;
    blocks.push_back(std::move(e));
    hit_texts.emplace_back();
    for (const auto& c : rest) add_text(c.match.line, &hit_texts.back());
    candidates.push_back(std::move(rest));
  }
  // Reading a block as a message costs tens of microseconds to a few
  // milliseconds; a log of endless distinct errors is read so only up to
  // kMessageBlocks, and its other blocks by their decisive lines.
  constexpr std::size_t kMessageBlocks = 1000;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const logs::Block* found = i < found_blocks.size() && i < kMessageBlocks ? &found_blocks[i] : nullptr;
    ScoreBlock(blocks[i], found, hit_texts[i], options.match, &candidates[i]);
  }
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    match::KeepBest(&candidates[i], options.match);
    blocks[i].matches = match::Explain(std::move(candidates[i]), options.match);
  }
  // A failed step whose output holds a known error is shown at that error.
  for (std::size_t i = 0; i < found_blocks.size(); ++i) {
    if (blocks[i].kind != "step" || blocks[i].matches.empty()) continue;
    const std::size_t line = blocks[i].matches[0].line;
    const logs::Block& b = found_blocks[i];
    std::size_t at = 0;
    for (std::size_t k = 0; k < b.text_lines.size(); ++k) {
      const std::size_t end = b.text.find('\n', at);
      if (b.text_lines[k].line_no == line) {
        blocks[i].decisive_line = line;
        blocks[i].decisive = b.text.substr(at, end - at);
        break;
      }
      at = end + 1;
    }
  }
  // A line outside any block that only reports an exit status (wandb's
  // teardown "... (failed 1)") carries little evidence of its own: a known
  // error found on it is reported only when the model is sure of it.
  for (ErrorBlock& b : blocks) {
    if (b.kind == "match" && !b.matches.empty() && b.matches[0].confidence < kSureOnExitStatus &&
        logs::IsWrapperLine(b.decisive)) {
      b.matches.clear();
    }
  }
  // Hits outside any error block that nothing is reported for are no block.
  // (Such blocks come after the segmenter's, so no caused_by index moves.)
  std::erase_if(blocks, [](const ErrorBlock& b) { return b.kind == "match" && b.matches.empty(); });
  MergeNeighbours(&blocks, options.region_gap);
  match::OrderRootFirst(&blocks);
  for (ErrorBlock& b : blocks) {
    for (kedb::Match& m : b.matches) cut_lines.FixOffsets(&m);
  }

  sum.blocks = blocks.size();
  sum.known = static_cast<std::size_t>(
      std::count_if(blocks.begin(), blocks.end(), [](const ErrorBlock& b) { return !b.matches.empty(); }));
  sum.dropped_blocks = segmenter.dropped() + regions.dropped();
  result->blocks = std::move(blocks);
  result->summary = sum;
  if (chunker.failed()) return Status::IoError("read error");
  return Status::Ok();
}

}  // namespace kedb
