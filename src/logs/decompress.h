// Reading a log that may be compressed: gzip (CI systems archive logs as
// .log.gz) and zstd (journald exports, newer archives) are decompressed on
// the fly, in bounded memory; anything else passes through unchanged.
//
//   logs::DecompressingBuf buf(file);
//   std::istream in(&buf);
//   ... read `in` ...
//   if (!buf.error().empty()) ... the data was corrupt or truncated ...
//
// The format is told from the first bytes (logs::CompressionOf), not from
// the file name, so `zcat`-less pipes work too. Concatenated gzip members
// and zstd frames are read one after the other, as gzip and zstd do.
// Cost: plain text is handed through without a copy; decompression runs at
// the library's speed (about 300 MB/s for gzip, 1 GB/s for zstd a core)
// into a 256 KiB buffer.
#pragma once

#include <cstddef>
#include <istream>
#include <memory>
#include <streambuf>
#include <string>
#include <string_view>

namespace kedb::logs {

class DecompressingBuf : public std::streambuf {
 public:
  explicit DecompressingBuf(std::istream& source);
  ~DecompressingBuf() override;
  DecompressingBuf(const DecompressingBuf&) = delete;
  DecompressingBuf& operator=(const DecompressingBuf&) = delete;

  // "gzip", "zstd", or "" for input read as it is. Known once the first
  // byte has been read.
  std::string_view format() const { return format_; }
  // Why reading stopped early: corrupt or truncated compressed data, with
  // the compressed byte offset where it was noticed. "" when the input was
  // read whole (or reading has not ended).
  const std::string& error() const { return error_; }

 protected:
  int_type underflow() override;
  std::streamsize xsgetn(char* s, std::streamsize n) override;

 public:
  class Codec;  // the zlib or zstd state (decompress.cc)

 private:
  // Reads the first bytes and picks the format.
  void Sniff();
  // Fills out_ with the next decompressed bytes; false at the end.
  bool Decompress();
  // Reads more input into in_, after the bytes not consumed yet; false
  // when nothing more came.
  bool ReadInput();
  // After a frame's end: whether another frame of the same format starts.
  bool NextFrameFollows();
  // error() for a stream that stops inside a frame.
  std::string TruncatedMessage() const;

  std::istream& source_;
  bool sniffed_ = false;
  std::string_view format_;
  std::string error_;
  std::string in_;  // input read but not handed on (plain) or not decompressed (compressed)
  std::size_t in_pos_ = 0, in_end_ = 0;
  std::size_t in_offset_ = 0;  // compressed bytes consumed before in_
  std::string out_;
  std::unique_ptr<Codec> codec_;
  bool source_done_ = false;
  bool frame_open_ = false;  // a frame was started and has not ended
};

}  // namespace kedb::logs
