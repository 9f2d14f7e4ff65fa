#include "logs/line_chunker.h"

#include <cstring>

namespace kedb::logs {

std::vector<std::size_t> LineStarts(std::string_view text) {
  std::vector<std::size_t> starts{0};
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] == '\n') starts.push_back(i + 1);
  }
  return starts;
}

std::string_view LineText(std::string_view text, const std::vector<std::size_t>& starts, std::size_t i) {
  std::size_t b = starts[i];
  std::size_t e = i + 1 < starts.size() ? starts[i + 1] : text.size();
  std::string_view line = text.substr(b, e - b);
  if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

LineChunker::LineChunker(std::istream& in, std::size_t chunk_bytes, std::size_t max_line_bytes)
    : in_(in), chunk_bytes_(chunk_bytes), max_line_bytes_(std::max<std::size_t>(max_line_bytes, 1)) {}

bool LineChunker::Fill() {
  if (eof_) return false;
  if (pos_ > 0) {
    buf_.erase(0, pos_);
    pos_ = 0;
  }
  std::size_t old = buf_.size();
  std::size_t want = std::max<std::size_t>(chunk_bytes_, 1 << 16);
  buf_.resize(old + want);  // the zero fill is cheap next to the read
  in_.read(buf_.data() + old, static_cast<std::streamsize>(want));
  std::size_t got = static_cast<std::size_t>(in_.gcount());
  buf_.resize(old + got);
  if (in_.bad()) failed_ = true;
  if (got == 0) eof_ = true;
  return got > 0;
}

bool LineChunker::Next(LineChunk* chunk) {
  chunk->text.clear();
  chunk->line_starts.clear();
  chunk->first_line = next_line_;
  chunk->first_offset = offset_;
  chunk->truncated_lines = 0;
  // Fast path: take every whole line in the buffer as one block (one copy),
  // as long as none is over-long.
  while (!skipping_) {
    if (buf_.size() - pos_ < chunk_bytes_ && !eof_) {
      Fill();
      continue;
    }
    std::string_view avail(buf_.data() + pos_, buf_.size() - pos_);
    // The last newline within chunk_bytes, else the first one after.
    std::size_t last_nl = avail.substr(0, chunk_bytes_).rfind('\n');
    if (last_nl == std::string_view::npos) last_nl = avail.find('\n');
    std::size_t block = last_nl == std::string_view::npos ? (eof_ ? avail.size() : 0) : last_nl + 1;
    if (block == 0) break;  // one line longer than the buffer: the slow path
    std::string_view text = avail.substr(0, block);
    bool overlong = false;
    for (std::size_t b = 0; b < text.size();) {
      const char* nl = static_cast<const char*>(std::memchr(text.data() + b, '\n', text.size() - b));
      std::size_t e = nl ? static_cast<std::size_t>(nl - text.data()) + 1 : text.size();
      if (e - b > max_line_bytes_) {
        overlong = true;
        break;
      }
      chunk->line_starts.push_back(b);
      b = e;
    }
    if (overlong) {
      chunk->line_starts.clear();
      break;
    }
    chunk->text.assign(text);
    pos_ += block;
    offset_ += block;
    next_line_ += chunk->line_starts.size();
    return !chunk->line_starts.empty();
  }
  // Slow path, line by line: over-long lines keep their head only.
  for (;;) {
    if (pos_ >= buf_.size() && !Fill()) break;
    const char* data = buf_.data() + pos_;
    std::size_t avail = buf_.size() - pos_;
    const char* nl = static_cast<const char*>(std::memchr(data, '\n', avail));
    if (skipping_) {
      // Dropping the tail of an over-long line, up to its newline.
      std::size_t n = nl ? static_cast<std::size_t>(nl - data) + 1 : avail;
      pos_ += n;
      offset_ += n;
      if (nl) skipping_ = false;
      continue;
    }
    if (!nl && avail < max_line_bytes_ && !eof_) {
      Fill();
      continue;
    }
    std::size_t len = nl ? static_cast<std::size_t>(nl - data) + 1 : avail;
    if (len > max_line_bytes_) {
      // Keep the head of the line, drop the rest as it streams by.
      chunk->line_starts.push_back(chunk->text.size());
      chunk->text.append(data, max_line_bytes_);
      chunk->text.push_back('\n');
      ++chunk->truncated_lines;
      pos_ += max_line_bytes_;
      offset_ += max_line_bytes_;
      skipping_ = true;
    } else {
      chunk->line_starts.push_back(chunk->text.size());
      chunk->text.append(data, len);
      pos_ += len;
      offset_ += len;
    }
    ++next_line_;
    if (chunk->text.size() >= chunk_bytes_ || skipping_) break;
  }
  return !chunk->line_starts.empty();
}

}  // namespace kedb::logs
