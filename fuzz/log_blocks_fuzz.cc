// Feeds the input as a log through the stages `kedb scan` runs before any
// matching: LineChunker (small chunks and a short line limit, so that chunk
// edges and cut lines happen within a 64 KiB input), CleanLines,
// MarkTriggerLines and the BlockSegmenter. The engine's matching and
// ranking are left out: with them an input costs milliseconds instead of
// tens of microseconds, and they have targets of their own (python_regex,
// tokenizer, and http_request's /v1/scan).
//
// A bug is a crash, a sanitizer report, an exception, or a broken promise:
//   - chunks cover the input in order, whole lines, with numbers and offsets
//     that add up; a cut line keeps the input's head and tail around the
//     marker, and ends its chunk;
//   - CleanLines gives Clean()'s result line by line, one line per line,
//     valid UTF-8 without carriage returns;
//   - every trigger line is a problem line;
//   - blocks lie within the log, decisive line inside, frames, repeats and
//     restatements within their caps, causes pointing at other blocks.
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.h"
#include "logs/blocks.h"
#include "logs/line_chunker.h"
#include "logs/preprocess.h"
#include "logs/triggers.h"

namespace {

namespace logs = kedb::logs;

constexpr std::size_t kChunkBytes = 4096;
constexpr std::size_t kMaxLineBytes = 512;

// The chunk's bytes are the input's, but for a cut line's middle.
void CheckChunk(const logs::LineChunk& c, std::string_view input, std::size_t* offset, std::size_t* line) {
  FUZZ_CHECK(c.first_offset == *offset && c.first_line == *line);
  FUZZ_CHECK(!c.line_starts.empty() && c.line_starts[0] == 0);
  for (std::size_t i = 1; i < c.line_starts.size(); ++i) {
    FUZZ_CHECK(c.line_starts[i] > c.line_starts[i - 1] && c.text[c.line_starts[i] - 1] == '\n');
  }
  FUZZ_CHECK(c.line_starts.back() < c.text.size());
  *line += c.line_starts.size();
  if (!c.has_cut_line()) {
    FUZZ_CHECK(input.substr(c.first_offset, c.text.size()) == c.text);
    *offset += c.text.size();
    return;
  }
  const std::size_t marker = logs::LineChunker::kCutMarker.size();
  FUZZ_CHECK(c.tail_at >= c.line_starts.back() + marker && c.text.back() == '\n');
  const std::size_t head = c.tail_at - marker;
  FUZZ_CHECK(input.substr(c.first_offset, head) == c.text.substr(0, head));
  FUZZ_CHECK(c.text.substr(head, marker) == logs::LineChunker::kCutMarker);
  const std::string_view tail = c.text.substr(c.tail_at, c.text.size() - c.tail_at - 1);
  const std::size_t tail_offset = c.first_offset + c.tail_at + c.tail_shift;
  FUZZ_CHECK(input.substr(tail_offset, tail.size()) == tail);
  FUZZ_CHECK(tail.find('\n') == std::string_view::npos);
  *offset = tail_offset + tail.size();
  if (*offset < input.size()) {
    FUZZ_CHECK(input[*offset] == '\n');
    ++*offset;
  }
}

void CheckCleaned(const logs::LineChunk& c, const logs::CleanedLines& cleaned) {
  FUZZ_CHECK(cleaned.starts.size() == c.line_starts.size());
  FUZZ_CHECK(cleaned.origins.size() == c.line_starts.size() && cleaned.marks.size() == c.line_starts.size());
  std::string scratch;
  for (std::size_t i = 0; i < c.line_starts.size(); ++i) {
    const std::string_view raw = logs::LineText(c.text, c.line_starts, i);
    const std::string_view line = logs::LineText(cleaned.text, cleaned.starts, i);
    const logs::CleanLine one = logs::Clean(raw, &scratch);
    FUZZ_CHECK(line == one.text && cleaned.marks[i] == one.mark);
    FUZZ_CHECK(cleaned.origins[i] == c.line_starts[i] + one.stripped);
    FUZZ_CHECK(line.find('\r') == std::string_view::npos && line.find('\n') == std::string_view::npos);
    FUZZ_CHECK(kedb::fuzz::ValidUtf8(line));
  }
}

void CheckBlocks(const std::vector<logs::Block>& blocks, std::size_t lines) {
  FUZZ_CHECK(blocks.size() <= logs::BlockSegmenter::kMaxBlocks);
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const logs::Block& b = blocks[i];
    FUZZ_CHECK(b.kind != kedb::BlockKind::kMatch);  // the segmenter never makes a "match" block
    FUZZ_CHECK(1 <= b.first_line && b.first_line <= b.last_line && b.last_line <= lines);
    FUZZ_CHECK(b.decisive_line == 0 || (b.first_line <= b.decisive_line && b.decisive_line <= b.last_line));
    FUZZ_CHECK(b.decisive.find('\n') == std::string::npos);
    FUZZ_CHECK(b.frames.size() <= logs::BlockSegmenter::kMaxFrames && b.frames.size() <= b.frame_count);
    FUZZ_CHECK(b.repeats.size() <= logs::BlockSegmenter::kMaxOccurrences && b.count >= 1 + b.repeats.size());
    for (auto [first, last] : b.repeats) FUZZ_CHECK(1 <= first && first <= last && last <= lines);
    FUZZ_CHECK(b.restatements.size() <= logs::BlockSegmenter::kMaxOccurrences);
    for (std::size_t line : b.restatements) FUZZ_CHECK(b.last_line < line && line <= lines);
    FUZZ_CHECK(b.caused_by == -1 || (b.caused_by >= 0 && static_cast<std::size_t>(b.caused_by) < blocks.size() &&
                                     static_cast<std::size_t>(b.caused_by) != i));
    FUZZ_CHECK(b.text_lines.size() <= logs::BlockSegmenter::kMaxTextLines);
    std::size_t newlines = 0;
    for (char ch : b.text) newlines += ch == '\n';
    FUZZ_CHECK(newlines == b.text_lines.size());
    for (std::size_t k = 0; k < b.text_lines.size(); ++k) {
      FUZZ_CHECK(k == 0 || b.text_lines[k].line_no > b.text_lines[k - 1].line_no);
      FUZZ_CHECK(b.text_lines[k].line_no >= 1 && b.text_lines[k].line_no <= lines);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::istringstream in{std::string(input)};
  logs::LineChunker chunker(in, kChunkBytes, kMaxLineBytes);
  logs::LineChunk chunk;
  logs::CleanedLines cleaned;
  logs::BlockSegmenter segmenter;
  std::vector<uint8_t> flags;
  std::size_t offset = 0, line = 1;
  while (chunker.Next(&chunk)) {
    CheckChunk(chunk, input, &offset, &line);
    logs::CleanLines(chunk.text, chunk.line_starts, &cleaned);
    CheckCleaned(chunk, cleaned);
    logs::MarkTriggerLines(cleaned.text, cleaned.starts, /*problem_lines=*/true, &flags);
    FUZZ_CHECK(flags.size() == cleaned.starts.size());
    for (std::size_t i = 0; i < cleaned.starts.size(); ++i) {
      FUZZ_CHECK(!(flags[i] & logs::kTriggerLine) || (flags[i] & logs::kProblemLine));
      segmenter.Add(chunk.first_line + i, logs::LineText(cleaned.text, cleaned.starts, i), cleaned.marks[i],
                    (flags[i] & logs::kTriggerLine) != 0, chunk.first_offset + cleaned.origins[i], flags[i] != 0);
    }
  }
  FUZZ_CHECK(!chunker.failed() && offset == input.size());
  const std::size_t lines = line - 1;
  FUZZ_CHECK(lines == (input.empty() ? 0 : logs::LineStarts(input).size()));
  segmenter.Finish();
  CheckBlocks(segmenter.blocks(), lines);
  return 0;
}
