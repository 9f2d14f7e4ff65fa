#include "logs/decompress.h"

#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "logs/line_chunker.h"

namespace kedb::logs {
namespace {

constexpr std::size_t kInputBytes = 64u << 10;
constexpr std::size_t kOutputBytes = 256u << 10;

}  // namespace

// One compressed stream's decoder. Step decodes what it can of `in` into
// `out`; a frame (a gzip member, a zstd frame) that ends is reported so the
// next one can start.
class DecompressingBuf::Codec {
 public:
  enum class Result { kMore, kFrameEnd, kError };
  virtual ~Codec() = default;
  virtual Result Step(std::string_view in, std::size_t* consumed, char* out, std::size_t cap, std::size_t* produced) = 0;
  virtual void NextFrame() = 0;
  std::string message;  // kError: the library's reason
};

namespace {

class GzipCodec : public DecompressingBuf::Codec {
 public:
  GzipCodec() { inflateInit2(&z_, 16 + MAX_WBITS); }  // 16: gzip header and trailer, not zlib's
  ~GzipCodec() override { inflateEnd(&z_); }

  Result Step(std::string_view in, std::size_t* consumed, char* out, std::size_t cap, std::size_t* produced) override {
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z_.avail_in = static_cast<uInt>(std::min<std::size_t>(in.size(), UINT32_MAX));
    z_.next_out = reinterpret_cast<Bytef*>(out);
    z_.avail_out = static_cast<uInt>(cap);
    const int rc = inflate(&z_, Z_NO_FLUSH);
    *consumed = in.size() - z_.avail_in;
    *produced = cap - z_.avail_out;
    if (rc == Z_STREAM_END) return Result::kFrameEnd;
    if (rc == Z_OK || rc == Z_BUF_ERROR) return Result::kMore;  // Z_BUF_ERROR: needs more input
    message = z_.msg != nullptr ? z_.msg : fmt::format("zlib error {}", rc);
    return Result::kError;
  }
  void NextFrame() override { inflateReset(&z_); }

 private:
  z_stream z_{};
};

class ZstdCodec : public DecompressingBuf::Codec {
 public:
  ZstdCodec() : ds_(ZSTD_createDStream()) { ZSTD_initDStream(ds_); }
  ~ZstdCodec() override { ZSTD_freeDStream(ds_); }

  Result Step(std::string_view in, std::size_t* consumed, char* out, std::size_t cap, std::size_t* produced) override {
    ZSTD_inBuffer src{in.data(), in.size(), 0};
    ZSTD_outBuffer dst{out, cap, 0};
    const std::size_t rc = ZSTD_decompressStream(ds_, &dst, &src);
    *consumed = src.pos;
    *produced = dst.pos;
    if (ZSTD_isError(rc)) {
      message = ZSTD_getErrorName(rc);
      return Result::kError;
    }
    return rc == 0 ? Result::kFrameEnd : Result::kMore;  // 0: the frame is decoded and flushed
  }
  void NextFrame() override { ZSTD_DCtx_reset(ds_, ZSTD_reset_session_only); }

 private:
  ZSTD_DStream* ds_;
};

}  // namespace

DecompressingBuf::DecompressingBuf(std::istream& source) : source_(source) {}
DecompressingBuf::~DecompressingBuf() = default;

bool DecompressingBuf::ReadInput() {
  if (source_done_) return false;
  // Bytes not consumed yet move to the front, and more are read after them.
  const std::size_t kept = in_end_ - in_pos_;
  if (kept > 0 && in_pos_ > 0) std::memmove(in_.data(), in_.data() + in_pos_, kept);
  in_offset_ += in_pos_;
  in_.resize(kInputBytes);
  source_.read(in_.data() + kept, static_cast<std::streamsize>(in_.size() - kept));
  const auto got = static_cast<std::size_t>(source_.gcount());
  in_pos_ = 0;
  in_end_ = kept + got;
  if (source_.bad()) error_ = "read error";
  if (kept + got < in_.size()) source_done_ = true;
  return got > 0;
}

void DecompressingBuf::Sniff() {
  sniffed_ = true;
  ReadInput();
  format_ = CompressionOf(std::string_view(in_.data(), in_end_));
  if (format_ == "gzip") {
    codec_ = std::make_unique<GzipCodec>();
  } else if (format_ == "zstd") {
    codec_ = std::make_unique<ZstdCodec>();
  } else {
    format_ = {};  // other formats are left to the reader to refuse (see CompressionOf)
  }
}

std::string DecompressingBuf::TruncatedMessage() const {
  return fmt::format("the {} data ends early: the file is truncated after {} compressed bytes", format_,
                     in_offset_ + in_end_);
}

bool DecompressingBuf::Decompress() {
  out_.resize(kOutputBytes);
  while (error_.empty()) {
    if (in_pos_ == in_end_ && !ReadInput()) {
      if (frame_open_ && error_.empty()) error_ = TruncatedMessage();
      return false;
    }
    std::size_t consumed = 0, produced = 0;
    const std::string_view in(in_.data() + in_pos_, in_end_ - in_pos_);
    const Codec::Result r = codec_->Step(in, &consumed, out_.data(), out_.size(), &produced);
    in_pos_ += consumed;
    if (r == Codec::Result::kError) {
      error_ = fmt::format("the {} data is corrupt at compressed byte {}: {}", format_, in_offset_ + in_pos_,
                           codec_->message);
      return false;
    }
    if (r == Codec::Result::kFrameEnd) {
      codec_->NextFrame();
      frame_open_ = false;
      if (!NextFrameFollows()) {
        source_done_ = true;
        in_pos_ = in_end_;
      }
    } else if (consumed > 0 || produced > 0) {
      frame_open_ = true;
    } else if (!ReadInput()) {
      // No progress on what is buffered: the codec needs bytes that never came.
      error_ = TruncatedMessage();
      return false;
    }
    if (produced > 0) {
      setg(out_.data(), out_.data(), out_.data() + produced);
      return true;
    }
    if (source_done_ && in_pos_ == in_end_ && !frame_open_) return false;
  }
  return false;
}

bool DecompressingBuf::NextFrameFollows() {
  // Another member or frame may follow; anything else after the last one
  // (tar padding, garbage) is left unread, as gzip -d does. The magic may
  // straddle two reads.
  constexpr std::size_t kMagic = 4;
  if (in_end_ - in_pos_ < kMagic) ReadInput();
  if (in_pos_ == in_end_) return false;
  return CompressionOf(std::string_view(in_.data() + in_pos_, in_end_ - in_pos_)) == format_;
}

DecompressingBuf::int_type DecompressingBuf::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  if (!sniffed_) Sniff();
  if (codec_) return Decompress() ? traits_type::to_int_type(*gptr()) : traits_type::eof();
  // Plain: what was read ahead is handed on first, then the source.
  if (in_pos_ == in_end_ && !ReadInput()) return traits_type::eof();
  setg(in_.data() + in_pos_, in_.data() + in_pos_, in_.data() + in_end_);
  in_pos_ = in_end_;
  return traits_type::to_int_type(*gptr());
}

std::streamsize DecompressingBuf::xsgetn(char* s, std::streamsize n) {
  if (!sniffed_) Sniff();
  if (codec_) return std::streambuf::xsgetn(s, n);
  // Plain text: what is buffered, then straight from the source, so a
  // large read costs no copy through this buffer.
  std::streamsize got = 0;
  if (gptr() < egptr()) {
    got = std::min<std::streamsize>(n, egptr() - gptr());
    std::memcpy(s, gptr(), static_cast<std::size_t>(got));
    gbump(static_cast<int>(got));
  }
  if (got < n && in_pos_ < in_end_) {
    const auto k = std::min<std::streamsize>(n - got, static_cast<std::streamsize>(in_end_ - in_pos_));
    std::memcpy(s + got, in_.data() + in_pos_, static_cast<std::size_t>(k));
    in_pos_ += static_cast<std::size_t>(k);
    got += k;
  }
  if (got < n && !source_done_) {
    source_.read(s + got, n - got);
    const std::streamsize k = source_.gcount();
    if (source_.bad()) error_ = "read error";
    if (k < n - got) source_done_ = true;
    got += k;
  }
  return got;
}

}  // namespace kedb::logs
