// Reading a log of any size as chunks of whole lines, in bounded memory.
#pragma once

#include <algorithm>
#include <cstddef>
#include <istream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kedb::logs {

// Byte offsets where the lines of `text` start (a final newline starts no
// new line).
std::vector<std::size_t> LineStarts(std::string_view text);

// Line `i` of `text` given its LineStarts, without its "\n" or "\r\n".
// Matching, confirmation and ranking all see a line through this one view.
inline std::string_view LineText(std::string_view text, const std::vector<std::size_t>& starts, std::size_t i) {
  std::size_t b = starts[i];
  std::size_t e = i + 1 < starts.size() ? starts[i + 1] : text.size();
  std::string_view line = text.substr(b, e - b);
  if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

// The line holding the byte that ends a match at `end` (Hyperscan reports
// end offsets). Matches mostly arrive in order, so the line last found is
// tried first and a binary search covers the rest.
class LineCursor {
 public:
  explicit LineCursor(const std::vector<std::size_t>& starts) : starts_(starts) {}
  std::size_t LineOfEnd(std::size_t end) {
    std::size_t off = end > 0 ? end - 1 : 0;
    if (starts_[cur_] <= off) {
      // Matches arrive in order: the line is usually this one or a few on.
      for (int step = 0; step < 8; ++step) {
        if (cur_ + 1 >= starts_.size() || off < starts_[cur_ + 1]) return cur_;
        ++cur_;
      }
    }
    cur_ = static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), off) - starts_.begin()) - 1;
    return cur_;
  }

 private:
  const std::vector<std::size_t>& starts_;
  std::size_t cur_ = 0;
};

// The name of the compression format `head` (the first bytes of an input)
// starts with: "gzip", "zstd", "bzip2", "xz" or "zip"; empty for anything
// else. A compressed log read as text has no lines to find errors on.
std::string_view CompressionOf(std::string_view head);

// One chunk: whole lines, each starting at line_starts[i] in `text`.
// `text` points into the chunker's buffer (no copy): it stays valid until
// the next call to LineChunker::Next().
struct LineChunk {
  std::string_view text;
  std::vector<std::size_t> line_starts;
  std::size_t first_line = 1;       // 1-based number of the chunk's first line
  std::size_t first_offset = 0;     // byte offset of the chunk in the input
  // When the chunk's last line was over-long and cut, text[tail_at, ...)
  // is its kept tail, whose input offset is first_offset + tail_at +
  // tail_shift (the middle dropped, less the marker put in its place).
  // npos when no line was cut; at most one line a chunk is.
  std::size_t tail_at = std::string_view::npos;
  std::size_t tail_shift = 0;

  bool has_cut_line() const { return tail_at != std::string_view::npos; }
};

// Splits a stream into chunks of about `chunk_bytes`. A line longer than
// `max_line_bytes` (its newline aside) keeps its first and its last
// max_line_bytes / 2 bytes, joined by kCutMarker; the middle is read and
// dropped as it streams by, so a 2 GB line costs no more memory than the
// limit. Such a line ends its chunk and keeps its line number: an error
// printed at the end of a huge line (a JSON dump, a progress bar that never
// printed a newline) is still found.
class LineChunker {
 public:
  static constexpr std::string_view kCutMarker = " \xE2\x80\xA6 ";  // " … "

  LineChunker(std::istream& in, std::size_t chunk_bytes = 1 << 20, std::size_t max_line_bytes = 1 << 20);

  // Fills `chunk` with the next lines; false at the end of input.
  bool Next(LineChunk* chunk);
  bool failed() const { return failed_; }

 private:
  bool Fill();  // reads more input into buf_; false at end
  void KeepTail(std::string_view bytes);  // more of an over-long line's middle
  void FinishCutLine(LineChunk* chunk);   // appends the marker, the tail and '\n'
  std::size_t size() const { return end_ - pos_; }

  std::istream& in_;
  std::size_t chunk_bytes_, max_line_bytes_;
  std::size_t head_bytes_, tail_bytes_;  // kept of an over-long line
  // Input buffer, not zero-filled: unread data is [pos_, end_).
  std::unique_ptr<char[]> buf_;
  std::size_t capacity_ = 0, pos_ = 0, end_ = 0;
  std::string assembled_;  // the slow path's chunk text
  bool eof_ = false;
  bool failed_ = false;
  bool skipping_ = false;  // inside the dropped middle of an over-long line
  std::string tail_;       // its last bytes seen so far (at most 2 * tail_bytes_)
  std::size_t dropped_ = 0;  // bytes of that line read past its head
  std::size_t next_line_ = 1;
  std::size_t offset_ = 0;
};

}  // namespace kedb::logs
