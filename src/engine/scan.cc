// Engine::Scan: a whole log, streamed, into error blocks with their known
// errors, root first. The pipeline runs in named stages:
//   1. ReadChunks: the log in chunks of whole lines, each cleaned and run
//      through the pattern database (on several threads when asked);
//   2. LineStage::Take, in log order: lines to the block segmenter, and
//      the pattern hits ranked on their own line and grouped into regions;
//   3. PlaceHits: the segmenter's blocks, with each region's hits placed
//      into the block holding their line, or standing alone;
//   4. ScoreBlocks: each block read as a message, ranked, the best kept;
//      4b. a block no record explains read again with the lines around it;
//   5. Tidy: decisive lines, weak blocks dropped, neighbours merged, root
//      error first.
#include <algorithm>
#include <atomic>
#include <deque>
#include <functional>
#include <future>
#include <memory>

#include <fmt/format.h>

#include "engine/block_placement.h"
#include "engine/candidate.h"
#include "engine/engine_impl.h"
#include "engine/hit_regions.h"
#include "engine/root_order.h"
#include "kedb/engine.h"
#include "logs/blocks.h"
#include "logs/decompress.h"
#include "logs/line_chunker.h"
#include "logs/line_kinds.h"
#include "logs/preprocess.h"
#include "logs/triggers.h"

namespace kedb {
namespace {

using match::AdoptHeader;
using match::BlockSpan;
using match::Candidate;
using match::FindBlock;
using match::HitRegions;
using match::JoinsBlock;
using match::Kept;
using match::LineOf;
using match::LineTexts;
using match::MergeNeighbours;

// Distinct quiet lines remembered at once (see LineStage).
constexpr std::size_t kQuietLines = 4096;

// The confidence a known error needs on a line that only reports an exit
// status (see Tidy).
constexpr double kSureOnExitStatus = 0.5;

// Reading a block as a message costs tens of microseconds to a few
// milliseconds; a log of endless distinct errors is read so only up to
// kMessageBlocks, and its other blocks by their decisive lines.
constexpr std::size_t kMessageBlocks = 1000;

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

void MatchChunk(const LayeredPatterns& patterns, bool problem_lines, MatchedChunk* c) {
  logs::CleanLines(c->raw, c->raw_starts, &c->cleaned);
  logs::MarkTriggerLines(c->cleaned.text, c->cleaned.starts, problem_lines, &c->flags);
  c->hits.clear();
  // Every trigger line is a problem line too: nonzero flags mark both.
  patterns.Scan(c->cleaned.text, c->cleaned.starts, &c->hits, problem_lines ? &c->flags : nullptr);
}

// Stage 1. Reads `in` chunk by chunk, matches each chunk (MatchChunk) and
// hands the chunks to `take` in log order. With several threads, chunks are
// copied out of the reader's buffer and matched on their own threads, at
// most `threads` at once; the oldest is taken as soon as it is done, so
// memory stays bounded and the result is the one-thread one. Fails on a
// compressed log (read as bytes it would give no error and no warning).
Status ReadChunks(std::istream& in, const ScanOptions& options, const LayeredPatterns& patterns,
                  bool problem_lines, const std::function<void(const MatchedChunk&)>& take, bool* read_failed) {
  logs::LineChunker chunker(in, 1 << 20, options.max_line_bytes);
  logs::LineChunk chunk;
  auto load = [&chunk](std::string_view raw, MatchedChunk* c) {
    c->raw = raw;
    c->raw_starts.swap(chunk.line_starts);
    c->first_line = chunk.first_line, c->first_offset = chunk.first_offset;
    c->tail_at = chunk.tail_at, c->tail_shift = chunk.tail_shift;
  };
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
      MatchChunk(patterns, problem_lines, &c);
      take(c);
    }
    *read_failed = chunker.failed();
    return Status::Ok();
  }
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
    running.emplace_back(std::move(c), std::async(std::launch::async, [&patterns, problem_lines, work] {
                           MatchChunk(patterns, problem_lines, work);
                         }));
  }
  while (!running.empty()) take_oldest();
  *read_failed = chunker.failed();
  return Status::Ok();
}

// Stage 2, in log order: feeds the segmenter, ranks each line's hits on
// the line alone, and groups the lines worth reporting into regions.
class LineStage {
 public:
  LineStage(const Engine::Impl& engine, const ScanOptions& options)
      : regions(options.region_gap, options.match.top), engine_(engine), options_(options) {}

  void Take(const MatchedChunk& c) {
    const std::vector<std::size_t>& starts = c.cleaned.starts;
    summary.lines += starts.size();
    summary.bytes += c.raw.size() + c.tail_shift;  // the input bytes, the cut middle included
    if (c.tail_at != std::string_view::npos) {
      ++summary.truncated_lines;
      cut_lines.Add(c.first_line + c.raw_starts.size() - 1, c.first_offset + c.tail_at, c.tail_shift);
    }
    for (std::size_t i = 0; i < starts.size(); ++i) {
      segmenter.AddStable(c.first_line + i, logs::LineText(c.cleaned.text, starts, i), c.cleaned.marks[i],
                          (c.flags[i] & logs::kTriggerLine) != 0, c.first_offset + c.cleaned.origins[i],
                          c.flags[i] != 0);
    }
    segmenter.Detach();  // the chunk's text is reused for the next
    for (std::size_t i = 0; i < c.hits.size();) TakeLineHits(c, &i);
  }

  logs::BlockSegmenter segmenter;
  HitRegions regions;
  match::CutLines cut_lines;
  ScanSummary summary;

 private:
  // The hits on one line, c.hits[*next] and those after it on that line.
  void TakeLineHits(const MatchedChunk& c, std::size_t* next) {
    const std::size_t li = c.hits[*next].line;
    const std::size_t line_no = c.first_line + li;
    const std::string_view line = logs::LineText(c.cleaned.text, c.cleaned.starts, li);
    // A line's matches depend on its text alone, so the same text again (a
    // progress line, a repeated install step) is passed over when its hits
    // were all too weak to report.
    if (quiet_.contains(line)) {
      while (*next < c.hits.size() && c.hits[*next].line == li) ++*next;
      return;
    }
    const match::LineWords words = engine_.signatures().Words(line);
    std::vector<Candidate> found;
    // Versions named on the line itself inform the ranking.
    match::AddLineMatches(engine_, c.hits, next, line, words, c.first_offset + c.cleaned.origins[li], line_no,
                          options_.match, match::TextEnvOf(line), &found);
    // Until the blocks are known, the line is its own context. Error blocks
    // are matched again as a whole once known (ScoreBlock), so this only
    // decides for lines outside them, which stand alone.
    const std::vector<double> affinity = engine_.signatures().Affinity(words);
    for (Candidate& m : found) match::SetContext(engine_, line, words, affinity, &m, /*context_is_line=*/true);
    std::erase_if(found, [&](const Candidate& m) { return !match::Listable(m, options_.match); });  // weak: abstain
    if (found.empty()) {
      if (quiet_.size() >= kQuietLines) quiet_.clear();
      quiet_.emplace(line);
      return;
    }
    // The rest of a line GitLab split is read with its first part (a
    // warning's tail is still a warning).
    const std::size_t raw_start = c.raw_starts[li];
    if (li > 0 && logs::ContinuesPreviousLine(c.raw.substr(raw_start, c.cleaned.origins[li] - raw_start))) {
      std::string whole(logs::LineText(c.cleaned.text, c.cleaned.starts, li - 1));
      whole += line;
      regions.Add(line_no, whole, std::move(found));
    } else {
      regions.Add(line_no, line, std::move(found));
    }
  }

  const Engine::Impl& engine_;
  const ScanOptions& options_;
  match::TextSet quiet_;
};

// A log's error blocks while they are being built: the segmenter's blocks
// first (same index as in `found`), then hits standing alone; for each, its
// candidates and the texts of its lines with hits.
struct PlacedBlocks {
  std::vector<logs::Block> found;
  std::vector<ErrorBlock> blocks;
  std::vector<std::vector<Candidate>> candidates;
  std::vector<LineTexts> hit_texts;
};

ErrorBlock FromSegmenter(const logs::Block& b) {
  ErrorBlock e;
  e.kind = b.kind;
  e.first_line = b.first_line, e.last_line = b.last_line, e.decisive_line = b.decisive_line;
  e.decisive = b.decisive;
  e.frames = b.frames;
  e.frame_count = b.frame_count, e.count = b.count;
  e.caused_by = b.caused_by;
  return e;
}

// Stage 3: each hit goes to the block holding its line; the rest of a
// region, if any, stands as a block of its own.
PlacedBlocks PlaceHits(std::vector<logs::Block> found, std::vector<HitRegions::Region>& regions) {
  PlacedBlocks p;
  p.found = std::move(found);
  std::vector<BlockSpan> spans;
  for (const logs::Block& b : p.found) {
    spans.push_back({b.first_line, b.last_line, p.blocks.size()});
    for (auto [f, l] : b.repeats) spans.push_back({f, l, p.blocks.size()});
    for (std::size_t line : b.restatements) spans.push_back({line, line, p.blocks.size()});
    p.blocks.push_back(FromSegmenter(b));
  }
  p.candidates.resize(p.blocks.size());
  p.hit_texts.resize(p.blocks.size());
  std::sort(spans.begin(), spans.end());
  for (auto& r : regions) {
    std::vector<Candidate> rest;
    auto add_text = [&r](std::size_t line, LineTexts* to) {
      if (std::any_of(to->begin(), to->end(), [&](const auto& t) { return t.first == line; })) return;
      for (const auto& t : r.texts) {
        if (t.first == line) to->push_back(t);
      }
    };
    for (auto& c : r.candidates) {
      long into = FindBlock(spans, c.match.line, c.match.line);
      if (into < 0 && r.count > 1) into = FindBlock(spans, r.first_line, r.last_line);
      if (into < 0) into = AdoptHeader(&spans, &p.blocks, c.match.line, LineOf(r.texts, c.match.line));
      if (into >= 0 && static_cast<std::size_t>(into) < p.found.size() &&
          !JoinsBlock(p.found[static_cast<std::size_t>(into)], c.match.line, LineOf(r.texts, c.match.line))) {
        into = -1;
      }
      if (into >= 0) {
        add_text(c.match.line, &p.hit_texts[static_cast<std::size_t>(into)]);
        p.candidates[static_cast<std::size_t>(into)].push_back(std::move(c));
      } else {
        rest.push_back(std::move(c));
      }
    }
    if (rest.empty()) continue;
    ErrorBlock e;
    e.kind = BlockKind::kMatch;
    e.first_line = e.last_line = rest[0].match.line;
    for (const auto& c : rest) {
      e.first_line = std::min(e.first_line, c.match.line);
      e.last_line = std::max(e.last_line, c.match.line);
    }
    e.decisive_line = rest[0].match.line;  // candidates are best first
    e.decisive = std::string(LineOf(r.texts, e.decisive_line));
    e.count = r.count;
    p.blocks.push_back(std::move(e));
    p.hit_texts.emplace_back();
    for (const auto& c : rest) add_text(c.match.line, &p.hit_texts.back());
    p.candidates.push_back(std::move(rest));
  }
  return p;
}

// Stage 5a: a failed step whose output holds a known error is shown at that
// error.
void ShowStepsAtTheirError(const std::vector<logs::Block>& found, std::vector<ErrorBlock>* blocks) {
  for (std::size_t i = 0; i < found.size(); ++i) {
    ErrorBlock& e = (*blocks)[i];
    if (e.kind != BlockKind::kStep || e.matches.empty()) continue;
    const std::size_t line = e.matches[0].line;
    const logs::Block& b = found[i];
    const std::vector<std::string_view> kept = match::KeptTexts(b);
    for (std::size_t k = 0; k < kept.size(); ++k) {
      if (b.text_lines[k].line_no == line) {
        e.decisive_line = line;
        e.decisive = std::string(kept[k]);
        break;
      }
    }
  }
}

// Stage 5b: a line that only reports that something else failed — a CI
// runner's epilogue ("Process completed with exit code 1.", "ERROR: Job
// failed: exit code 1"), a launcher's "worker 0 exited with code 1",
// wandb's teardown "... (failed 1)" — carries little evidence of its own.
// A known error found on it is reported only when the model is sure of it
// (exit code 137 and an out-of-memory record, say), and such a line with
// none is left out when the log shows another error: it is the context of
// that error, not one more to read. Alone, it still says a step failed.
void DropExitStatusLines(std::vector<ErrorBlock>* blocks) {
  // A failed step (an exit status with the problem lines its step printed)
  // counts as such a line too while no known error was found in it: its
  // decisive line is then still the exit status.
  auto bare = [](const ErrorBlock& b) {
    return (b.kind == BlockKind::kMatch || b.kind == BlockKind::kErrorLine || b.kind == BlockKind::kStep) &&
           logs::IsWrapperLine(b.decisive);
  };
  // Another error: a block the segmenter found, or a known error on a line
  // that is no warning and says something failed or is one the model is
  // sure of (ssh's "It is required that your private key files are NOT
  // accessible by others." names no failure). A deprecation warning
  // explains no failed step, so the exit status stays the root of such a log.
  bool other_error = false;
  for (ErrorBlock& b : *blocks) {
    if (!bare(b)) {
      other_error |= b.kind != BlockKind::kMatch ||
                     (!b.matches.empty() && !logs::IsWarningLine(b.decisive) &&
                      (logs::StatesFailure(b.decisive) || b.matches[0].confidence >= match::kSureInPlainWords));
      continue;
    }
    if (!b.matches.empty() && b.matches[0].confidence < kSureOnExitStatus) b.matches.clear();
  }
  // Hits outside any error block that nothing is reported for are no block
  // either.
  auto dropped = [&](const ErrorBlock& b) {
    return b.matches.empty() && (b.kind == BlockKind::kMatch || (other_error && bare(b)));
  };
  std::vector<long> position(blocks->size(), -1);
  std::vector<ErrorBlock> kept;
  for (std::size_t i = 0; i < blocks->size(); ++i) {
    if (dropped((*blocks)[i])) continue;
    position[i] = static_cast<long>(kept.size());
    kept.push_back(std::move((*blocks)[i]));
  }
  for (ErrorBlock& b : kept) {
    if (b.caused_by >= 0) b.caused_by = position[static_cast<std::size_t>(b.caused_by)];
  }
  *blocks = std::move(kept);
}

// Stage 5: the blocks as a reader should see them, root error first.
void Tidy(const std::vector<logs::Block>& found, std::size_t region_gap, std::vector<ErrorBlock>* blocks) {
  ShowStepsAtTheirError(found, blocks);
  DropExitStatusLines(blocks);
  MergeNeighbours(blocks, region_gap);
  match::OrderRootFirst(blocks);
}

}  // namespace

void Engine::Impl::ScoreBlock(const ErrorBlock& block, const logs::Block* found, const LineTexts& hit_texts,
                              const MatchOptions& options, std::vector<Candidate>* candidates) const {
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
    const match::LineWords context = signatures().Words(found->text);
    const std::vector<double> affinity = signatures().Affinity(context);
    // Kept lines are in order but need not be contiguous: a failed step
    // keeps its failure lines and exit status, and the hits between them
    // count as well.
    for (auto& c : *candidates) {
      if (Kept(*found, c.match.line)) continue;
      match::SetContext(*this, found->text, context, affinity, &c);
      own.push_back(std::move(c));
    }
    *candidates = std::move(own);
    return;
  }
  // Otherwise: fuzzy candidates for the decisive line when no pattern
  // fired, and the context of what was kept: the decisive line, the frames
  // and the lines with hits.
  if (candidates->empty() && !block.decisive.empty()) {
    match::LineWords words = signatures().Words(block.decisive);
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
  const match::LineWords words = signatures().Words(context);
  const std::vector<double> affinity = signatures().Affinity(words);
  for (Candidate& c : *candidates) match::SetContext(*this, context, words, affinity, &c);
}

Status Engine::Impl::Scan(std::istream& raw, const ScanOptions& options, ScanResult* result) const {
  Build();
  // Stages 1 and 2, on the log decompressed when it is gzip or zstd.
  logs::DecompressingBuf plain(raw);
  std::istream in(&plain);
  LineStage lines(*this, options);
  const bool problem_lines = !options.all_lines && patterns().has_broad();
  bool read_failed = false;
  Status st = ReadChunks(in, options, patterns(), problem_lines, [&](const MatchedChunk& c) { lines.Take(c); },
                         &read_failed);
  if (!st.ok()) return st;
  if (!plain.error().empty()) return Status::InvalidArgument(plain.error());
  lines.segmenter.Finish();
  lines.regions.Finish();

  // Stage 3.
  PlacedBlocks placed = PlaceHits(lines.segmenter.TakeBlocks(), lines.regions.regions());

  // Stage 4.
  std::vector<ErrorBlock>& blocks = placed.blocks;
  // Blocks are scored each on its own, on as many threads as the scan may
  // use: at a million records reading a block as a message costs about
  // half a millisecond, and a long log has hundreds.
  std::atomic<std::size_t> next_block{0};
  auto score_blocks = [&] {
    for (std::size_t i = next_block++; i < blocks.size(); i = next_block++) {
      const logs::Block* found = i < placed.found.size() && i < kMessageBlocks ? &placed.found[i] : nullptr;
      ScoreBlock(blocks[i], found, placed.hit_texts[i], options.match, &placed.candidates[i]);
    }
  };
  std::vector<std::future<void>> helpers;
  for (std::size_t t = 1; t < std::min<std::size_t>(options.threads, blocks.size()); ++t) {
    helpers.push_back(std::async(std::launch::async, score_blocks));
  }
  score_blocks();
  for (auto& h : helpers) h.get();
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    match::KeepBest(&placed.candidates[i], options.match);
    blocks[i].matches = match::Explain(std::move(placed.candidates[i]), options.match);
  }
  ReadBlocksAround(placed.found, kMessageBlocks, options.match, &blocks);  // stage 4b

  // Stage 5.
  Tidy(placed.found, options.region_gap, &blocks);
  for (ErrorBlock& b : blocks) {
    for (kedb::Match& m : b.matches) lines.cut_lines.FixOffsets(&m);
  }

  ScanSummary sum = lines.summary;
  sum.blocks = blocks.size();
  sum.known = static_cast<std::size_t>(
      std::count_if(blocks.begin(), blocks.end(), [](const ErrorBlock& b) { return !b.matches.empty(); }));
  sum.dropped_blocks = lines.segmenter.dropped() + lines.regions.dropped();
  result->blocks = std::move(blocks);
  result->summary = sum;
  if (read_failed) return Status::IoError("read error");
  return Status::Ok();
}

}  // namespace kedb
