// UTF-8 encoding and decoding of single code points.
//
// Logs, patterns and records are bytes that are usually UTF-8 but need not
// be. These helpers never throw and never read past the end of the view:
// DecodeUtf8 reports invalid bytes as a length of 0 and leaves the caller to
// decide what to do with them (skip one byte, copy it unchanged, reject it).

#ifndef KEDB_UTIL_UTF8_H_
#define KEDB_UTIL_UTF8_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace kedb::util {

// Appends the UTF-8 encoding of `c`, which must be at most U+10FFFF.
inline void AppendUtf8(std::string* out, char32_t c) {
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (c >> 6)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (c >> 12)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (c >> 18)));
    out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

// Decodes the code point at s[i] (i < s.size()) into *c and returns its
// length in bytes, or returns 0 when the bytes there are not valid UTF-8:
// a stray continuation byte, a lead byte 0xF8 or above, a truncated
// sequence, an overlong form, a surrogate or a value past U+10FFFF.
inline std::size_t DecodeUtf8(std::string_view s, std::size_t i, char32_t* c) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) {
    *c = b0;
    return 1;
  }
  const std::size_t n = (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xE ? 3 : (b0 >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  char32_t v = b0 & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    v = (v << 6) | (b & 0x3F);
  }
  static constexpr char32_t kMinForLength[] = {0, 0, 0x80, 0x800, 0x10000};
  if (v < kMinForLength[n] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
  *c = v;
  return n;
}

// The longest prefix of `s` of at most `max_bytes` bytes that ends on a
// character boundary: its length.
inline std::size_t Utf8Cut(std::string_view s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return s.size();
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // no half character
  return cut;
}

// `s` cut to at most `max_bytes` bytes on a character boundary, with "…"
// after it when something was cut: a reader sees that there is more.
inline std::string Shortened(std::string_view s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return std::string(s);
  return std::string(s.substr(0, Utf8Cut(s, max_bytes))) + "…";
}

}  // namespace kedb::util

#endif  // KEDB_UTIL_UTF8_H_
