#include "logs/preprocess.h"

#include <cstdint>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace kedb::logs {
namespace {

bool Digit(char c) { return c >= '0' && c <= '9'; }

// Length of a run of digits at `s[i]`.
std::size_t Digits(std::string_view s, std::size_t i) {
  std::size_t n = 0;
  while (i + n < s.size() && Digit(s[i + n])) ++n;
  return n;
}

// Exactly two digits at s[i] (a third would make another number).
bool TwoDigitsAt(std::string_view s, std::size_t i) {
  return i + 2 <= s.size() && Digit(s[i]) && Digit(s[i + 1]) && (i + 2 == s.size() || !Digit(s[i + 2]));
}

// "hh:mm:ss" with optional ",fff" / ".ffffff" at s[i]; its length or 0.
// Fixed positions first: this runs on nearly every line of most logs.
std::size_t ClockAt(std::string_view s, std::size_t i) {
  if (i + 8 > s.size() || s[i + 2] != ':' || s[i + 5] != ':' || !TwoDigitsAt(s, i) || !TwoDigitsAt(s, i + 3) ||
      !TwoDigitsAt(s, i + 6)) {
    return 0;
  }
  std::size_t n = 8;
  if (i + n < s.size() && (s[i + n] == '.' || s[i + n] == ',')) {
    std::size_t f = Digits(s, i + n + 1);
    if (f > 0) n += 1 + f;
  }
  return n;
}

// A timestamp at s[0]: "2026-03-14T09:12:01.123Z", "2026-03-14 09:12:01,114",
// with an optional zone ("Z", "+00:00"). Its length or 0.
std::size_t TimestampAt(std::string_view s) {
  if (s.size() < 10 || s[4] != '-' || s[7] != '-' || !Digit(s[0]) || !Digit(s[1]) || !Digit(s[2]) ||
      !Digit(s[3]) || !TwoDigitsAt(s, 5) || !TwoDigitsAt(s, 8)) {
    return 0;
  }
  std::size_t n = 10;
  if (n < s.size() && (s[n] == 'T' || s[n] == ' ' || s[n] == '_')) {
    std::size_t c = ClockAt(s, n + 1);
    if (c == 0) return s[n] == ' ' ? n : 0;  // a bare date
    n += 1 + c;
    if (n < s.size() && s[n] == 'Z') {
      ++n;
    } else if (n + 6 <= s.size() && (s[n] == '+' || s[n] == '-') && TwoDigitsAt(s, n + 1) && s[n + 3] == ':' &&
               TwoDigitsAt(s, n + 4)) {
      n += 6;
    }
  }
  return n;
}

std::size_t SpacesAt(std::string_view s, std::size_t i) {
  std::size_t n = 0;
  while (i + n < s.size() && (s[i + n] == ' ' || s[i + n] == '\t')) ++n;
  return n;
}

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// One known prefix at the start of `s`: its length (spaces after it
// included), or 0. Sets *mark for prefixes that say something.
std::size_t PrefixAt(std::string_view s, LineMark* mark) {
  if (s.empty()) return 0;
  // Every prefix starts with a digit, '[', '#', or a glog/pytest letter: most
  // lines are done after one comparison.
  const char c0 = s[0];
  if (!Digit(c0) && c0 != '[' && c0 != '#' && c0 != 'I' && c0 != 'W' && c0 != 'E' && c0 != 'F') return 0;
  // Timestamps, bare or bracketed.
  if (std::size_t t = TimestampAt(s)) {
    std::size_t n = t + SpacesAt(s, t);
    // GitLab runner stream tag after the timestamp: "00O ", "01E+".
    if (n + 3 <= s.size() && Digits(s, n) == 2 && (s[n + 2] == 'O' || s[n + 2] == 'E')) {
      std::size_t m = n + 3;
      if (m < s.size() && s[m] == '+') ++m;
      if (m == s.size() || s[m] == ' ') n = m + SpacesAt(s, m);
    }
    return n;
  }
  if (s[0] == '[') {
    std::size_t close = s.find(']');
    if (close != std::string_view::npos && close > 1) {
      std::string_view inner = s.substr(1, close - 1);
      if (TimestampAt(inner) == inner.size() || ClockAt(inner, 0) == inner.size()) return close + 1 + SpacesAt(s, close + 1);
      if (inner == "Pipeline") return close + 1 + SpacesAt(s, close + 1);
      // torchrun: "[rank0]:" and "[default0]:"
      if ((StartsWith(inner, "rank") || StartsWith(inner, "default")) && Digit(inner.back()) && close + 1 < s.size() &&
          s[close + 1] == ':') {
        return close + 2 + SpacesAt(s, close + 2);
      }
    }
  }
  // glog: "I0314 02:11:40.118000 140213 file.py:757] message"
  if (s.size() > 22 && (s[0] == 'I' || s[0] == 'W' || s[0] == 'E' || s[0] == 'F') && Digits(s, 1) == 4 && s[5] == ' ') {
    if (std::size_t c = ClockAt(s, 6)) {
      std::size_t close = s.find("] ", 6 + c);
      if (close != std::string_view::npos && close < 200) {
        if (s[0] == 'E' || s[0] == 'F') *mark = LineMark::kCiError;
        return close + 2;
      }
    }
  }
  // Docker BuildKit: "#12 3.456 " (step, seconds since the step started).
  if (s[0] == '#' && Digits(s, 1) > 0) {
    std::size_t i = 1 + Digits(s, 1);
    if (i < s.size() && s[i] == ' ') {
      std::size_t d = Digits(s, i + 1);
      if (d > 0 && i + 1 + d < s.size() && s[i + 1 + d] == '.') {
        std::size_t f = Digits(s, i + 2 + d);
        std::size_t end = i + 2 + d + f;
        if (f > 0 && (end == s.size() || s[end] == ' ')) return end + SpacesAt(s, end);
      }
    }
  }
  // GitHub Actions workflow commands.
  if (c0 == '#' && s.size() > 3 && s[1] == '#' && s[2] == '[') {
    for (std::string_view cmd : {"##[error]", "##[warning]", "##[group]", "##[endgroup]", "##[debug]", "##[notice]"}) {
      if (StartsWith(s, cmd)) {
        if (cmd == "##[error]") *mark = LineMark::kCiError;
        return cmd.size();
      }
    }
  }
  // pytest failure details: "E   " followed by the message.
  if (s.size() >= 4 && s[0] == 'E' && s[1] == ' ' && s[2] == ' ' && s[3] == ' ') {
    *mark = LineMark::kPytestError;
    return 1 + SpacesAt(s, 1);
  }
  return 0;
}

// Decodes one UTF-8 sequence at s[i]; its length, 0 when invalid.
std::size_t Utf8Length(std::string_view s, std::size_t i) {
  auto b = static_cast<unsigned char>(s[i]);
  std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  uint32_t c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
  for (std::size_t k = 1; k < n; ++k) {
    auto x = static_cast<unsigned char>(s[i + k]);
    if ((x & 0xC0) != 0x80) return 0;
    c = (c << 6) | (x & 0x3F);
  }
  // Overlong forms, surrogates and values past U+10FFFF are invalid.
  if ((n == 2 && c < 0x80) || (n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10FFFF)) ||
      (c >= 0xD800 && c <= 0xDFFF)) {
    return 0;
  }
  return n;
}

// Whether the line needs the slow path: escapes, carriage returns or bytes
// that are not plain ASCII.
bool NeedsRewrite(std::string_view s) {
  std::size_t i = 0;
#ifdef __SSE2__
  if (s.size() >= 16) {
    const __m128i esc = _mm_set1_epi8(0x1B), cr = _mm_set1_epi8('\r');
    auto any = [&](std::size_t at) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + at));
      __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(v, esc), _mm_cmpeq_epi8(v, cr));
      return _mm_movemask_epi8(_mm_or_si128(hit, v)) != 0;  // the high bit: bytes >= 0x80
    };
    for (; i + 16 <= s.size(); i += 16) {
      if (any(i)) return true;
    }
    // The tail: the last 16 bytes, overlapping what was checked.
    return i < s.size() && any(s.size() - 16);
  }
#endif
  for (; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c == 0x1B || c == '\r' || c >= 0x80) return true;
  }
  return false;
}

// Removes escapes and redraws and repairs UTF-8 into *out.
void Rewrite(std::string_view s, std::string* out) {
  out->clear();
  out->reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c == 0x1B) {
      if (i + 1 < s.size() && s[i + 1] == '[') {  // CSI: parameters, then a final byte 0x40-0x7E
        std::size_t j = i + 2;
        while (j < s.size() && !(s[j] >= 0x40 && s[j] <= 0x7E)) ++j;
        i = j + 1;
      } else if (i + 1 < s.size() && s[i + 1] == ']') {  // OSC: up to BEL or ESC backslash
        std::size_t j = i + 2;
        while (j < s.size() && s[j] != '\a' && !(s[j] == 0x1B && j + 1 < s.size() && s[j + 1] == '\\')) ++j;
        i = j < s.size() && s[j] == '\a' ? j + 1 : j + 2;
      } else {
        i += 2;  // a two-byte escape
      }
      continue;
    }
    if (c == '\r') {
      // A redraw: the terminal shows what comes after it (unless nothing does).
      if (i + 1 < s.size()) out->clear();
      ++i;
      continue;
    }
    if (c < 0x80) {
      out->push_back(static_cast<char>(c));
      ++i;
      continue;
    }
    std::size_t n = Utf8Length(s, i);
    if (n == 0) {
      out->append("\xEF\xBF\xBD");  // U+FFFD
      ++i;
    } else {
      out->append(s.substr(i, n));
      i += n;
    }
  }
}

}  // namespace

CleanLine Clean(std::string_view line, std::string* scratch) {
  CleanLine out;
  std::string_view s = line;
  if (NeedsRewrite(s)) {
    Rewrite(s, scratch);
    s = *scratch;
  }
  // Prefixes come in layers: "2026-...Z [rank0]:[E ...]" has three.
  for (int layer = 0; layer < 4; ++layer) {
    std::size_t n = PrefixAt(s, &out.mark);
    if (n == 0 || n > s.size()) break;
    s.remove_prefix(n);
    out.stripped += n;
  }
  out.text = s;
  return out;
}

}  // namespace kedb::logs
