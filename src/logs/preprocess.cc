#include "logs/preprocess.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#include "logs/line_chunker.h"
#include "util/utf8.h"

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

#ifdef __SSE2__
// Whether s[0, 16) reads "YYYY-MM-DD?hh:mm", ? one of 'T', ' ', '_': the
// head of nearly every timestamp of a timestamped log, checked at once.
bool DateTimeHead(const char* s) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
  const __m128i d = _mm_sub_epi8(v, _mm_set1_epi8('0'));
  const auto digits = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d)));
  constexpr unsigned kDigits = 0b1101'1011'0110'1111;  // bit i: s[i] is a digit (bit 0 first)
  return digits == kDigits && s[4] == '-' && s[7] == '-' && (s[10] == 'T' || s[10] == ' ' || s[10] == '_') &&
         s[13] == ':';
}
#endif

// A zone at s[i] ("Z", "+00:00", "-05:30"): its length, or 0.
std::size_t ZoneAt(std::string_view s, std::size_t i) {
  if (i < s.size() && s[i] == 'Z') return 1;
  if (i + 6 <= s.size() && (s[i] == '+' || s[i] == '-') && TwoDigitsAt(s, i + 1) && s[i + 3] == ':' &&
      TwoDigitsAt(s, i + 4)) {
    return 6;
  }
  return 0;
}

// A timestamp at s[0]: "2026-03-14T09:12:01.123Z", "2026-03-14 09:12:01,114",
// with an optional zone ("Z", "+00:00"), or "2026/03/14 09:12:01". Its
// length or 0.
std::size_t TimestampAt(std::string_view s) {
#ifdef __SSE2__
  // The common case: date, separator, hours and minutes known at once.
  if (s.size() >= 16 && s[4] == '-' && DateTimeHead(s.data())) {
    if (std::size_t c = ClockAt(s, 11)) return 11 + c + ZoneAt(s, 11 + c);
  }
#endif
  if (s.size() < 10 || !Digit(s[0]) || !Digit(s[1]) || !Digit(s[2]) || !Digit(s[3]) || !TwoDigitsAt(s, 5) ||
      !TwoDigitsAt(s, 8)) {
    return 0;
  }
  // "2024/12/25 00:40:02 ": Go's log package and nginx's error log. Only
  // with a clock: a bare "2024/12/25" may be the start of a path.
  if (s[4] == '/' && s[7] == '/') {
    const std::size_t c = s.size() > 11 && s[10] == ' ' ? ClockAt(s, 11) : 0;
    return c == 0 ? 0 : 11 + c;
  }
  if (s[4] != '-' || s[7] != '-') return 0;
  std::size_t n = 10;
  if (n < s.size() && (s[n] == 'T' || s[n] == ' ' || s[n] == '_')) {
    std::size_t c = ClockAt(s, n + 1);
    if (c == 0) return s[n] == ' ' ? n : 0;  // a bare date
    n += 1 + c;
    n += ZoneAt(s, n);
  }
  return n;
}

std::size_t SpacesAt(std::string_view s, std::size_t i) {
  std::size_t n = 0;
  while (i + n < s.size() && (s[i + n] == ' ' || s[i + n] == '\t')) ++n;
  return n;
}

// The one blank that separates a prefix from the line it stamps. Only one
// goes: what follows is the line as the program printed it, and its
// indentation is what tells a traceback's frames from its exception line
// and a stack frame from its header.
std::size_t SeparatorAt(std::string_view s, std::size_t i) {
  return i < s.size() && (s[i] == ' ' || s[i] == '\t') ? 1 : 0;
}


// Every prefix starts with a digit, '[', '#', a glog/pytest letter, a
// month's initial (syslog) or the first byte of a box-drawing character:
// most lines are done after this one test.
constexpr std::array<bool, 256> kMayStartPrefix = [] {
  std::array<bool, 256> t{};
  for (unsigned char c : std::string_view("0123456789[#IWEFJMASOND\xE2(")) t[c] = true;
  return t;
}();

// syslog's and journald's stamp: "Sep 28 04:26:44 " (the day padded with a
// blank: "Sep  8"), then the host and the program's tag ("web1
// mariadbd[23978]: ", "web1 kernel: "). The stamp's length, with host and
// tag when both are there, or 0.
std::size_t SyslogPrefixAt(std::string_view s) {
  static constexpr std::string_view kMonths = "JanFebMarAprMayJunJulAugSepOctNovDec";
  if (s.size() < 16 || s[3] != ' ') return 0;
  bool month = false;
  for (std::size_t m = 0; m < kMonths.size() && !month; m += 3) month = s.substr(0, 3) == kMonths.substr(m, 3);
  if (!month || !(s[4] == ' ' || Digit(s[4])) || !Digit(s[5]) || s[6] != ' ') return 0;
  const std::size_t clock = ClockAt(s, 7);
  if (clock == 0 || 7 + clock >= s.size() || s[7 + clock] != ' ') return 0;
  const std::size_t stamp = 7 + clock + 1;
  const std::size_t host_end = s.find(' ', stamp);
  if (host_end == std::string_view::npos || host_end == stamp || host_end - stamp > 64) return stamp;
  const std::size_t tag_end = s.find(' ', host_end + 1);
  if (tag_end == std::string_view::npos || tag_end - host_end > 64 || s[tag_end - 1] != ':') return stamp;
  return tag_end + 1;
}

// Ray's and vLLM's process column: "(APIServer pid=1179246) ",
// "(RayWorkerWrapper pid=5023, ip=10.0.0.2) ", "(pid=812) ": a name, a
// pid, in brackets. Its length with the blank after it, or 0.
std::size_t ProcessPrefixAt(std::string_view s) {
  const std::size_t close = s.find(')');
  if (close == std::string_view::npos || close > 96) return 0;
  const std::string_view inner = s.substr(1, close - 1);
  const std::size_t pid = inner.find("pid=");
  if (pid == std::string_view::npos || (pid > 0 && inner[pid - 1] != ' ') || pid + 4 >= inner.size() ||
      !Digit(inner[pid + 4]) || inner.find_first_of("()") != std::string_view::npos) {
    return 0;
  }
  return close + 1 + SeparatorAt(s, close + 1);
}

// Terraform's frame around a diagnostic: "│ " before each line, and "╷" /
// "╵" lines above and below it.
std::size_t BoxPrefixAt(std::string_view s) {
  if (s.starts_with("\u2502")) return 3 + SeparatorAt(s, 3);
  if ((s.starts_with("\u2577") || s.starts_with("\u2575")) && s.find_first_not_of(' ', 3) == std::string_view::npos) {
    return s.size();
  }
  return 0;
}
bool MayStartPrefix(char c) { return kMayStartPrefix[static_cast<unsigned char>(c)]; }

// Bytes of a Docker Compose service name: "web-1", "nacos", "api_1". Names
// are lower case by convention (project names must be); a capital makes it
// a table's first cell ("Name | Value", "OutOfMemoryError | 3").
constexpr std::array<bool, 256> kServiceNameByte = [] {
  std::array<bool, 256> t{};
  for (unsigned char c = '0'; c <= '9'; ++c) t[c] = true;
  for (unsigned char c = 'a'; c <= 'z'; ++c) t[c] = true;
  t['_'] = t['-'] = t['.'] = true;
  return t;
}();

// Docker Compose's service prefix: the name, padding, a bar ("nacos  | ",
// "web-1  | "). Not a logger's level column ("error    | "), which says
// something about the line.
std::size_t ServicePrefixAt(std::string_view s) {
  constexpr std::size_t kMaxName = 64;
  std::size_t i = 0;
  while (i < s.size() && i < kMaxName && kServiceNameByte[static_cast<unsigned char>(s[i])]) ++i;
  if (i == 0 || i >= s.size() || s[i] != ' ') return 0;
  const std::size_t name_end = i;
  while (i < s.size() && s[i] == ' ') ++i;
  if (i >= s.size() || s[i] != '|') return 0;
  const std::string_view name = s.substr(0, name_end);
  for (std::string_view level : {"trace", "debug", "info", "notice", "success", "warn", "warning", "error", "critical",
                                 "fatal"}) {
    if (name == level) return 0;
  }
  ++i;
  return i < s.size() && s[i] == ' ' ? i + 1 : i;
}

// One known prefix at the start of `s`: its length (spaces after it
// included), or 0. Sets *mark for prefixes that say something.
std::size_t PrefixAt(std::string_view s, LineMark* mark) {
  if (s.empty()) return 0;
  const char c0 = s[0];
  if (!MayStartPrefix(c0)) return 0;
  // Timestamps, bare or bracketed.
  if (std::size_t t = TimestampAt(s)) {
    std::size_t n = t + SeparatorAt(s, t);
    // GitLab runner stream tag after the timestamp: "00O ", "01E+".
    if (n + 3 <= s.size() && Digits(s, n) == 2 && (s[n + 2] == 'O' || s[n + 2] == 'E')) {
      std::size_t m = n + 3;
      if (m < s.size() && s[m] == '+') ++m;
      if (m == s.size() || s[m] == ' ') n = m + SeparatorAt(s, m);
    }
    return n;
  }
  if (s[0] == '[') {
    std::size_t close = s.find(']');
    if (close != std::string_view::npos && close > 1) {
      std::string_view inner = s.substr(1, close - 1);
      if (TimestampAt(inner) == inner.size() || ClockAt(inner, 0) == inner.size()) return close + 1 + SeparatorAt(s, close + 1);
      if (inner == "Pipeline") return close + 1 + SeparatorAt(s, close + 1);
      // torchrun: "[rank0]:" and "[default0]:"
      if ((inner.starts_with("rank") || inner.starts_with("default")) && Digit(inner.back()) && close + 1 < s.size() &&
          s[close + 1] == ':') {
        return close + 2 + SeparatorAt(s, close + 2);
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
        if (f > 0 && (end == s.size() || s[end] == ' ')) return end + SeparatorAt(s, end);
      }
    }
  }
  // PM2's process column: "0|api  | " (the process id, its name, padding,
  // a bar), as `pm2 logs` prints it, often under Docker Compose's own.
  if (Digit(c0)) {
    const std::size_t d = Digits(s, 0);
    if (d < s.size() && s[d] == '|') {
      if (const std::size_t n = ServicePrefixAt(s.substr(d + 1))) return d + 1 + n;
    }
  }
  // GitHub Actions workflow commands.
  if (c0 == '#' && s.size() > 3 && s[1] == '#' && s[2] == '[') {
    for (std::string_view cmd : {"##[error]", "##[warning]", "##[group]", "##[endgroup]", "##[debug]", "##[notice]"}) {
      if (s.starts_with(cmd)) {
        if (cmd == "##[error]") *mark = LineMark::kCiError;
        return cmd.size();
      }
    }
  }
  if (std::size_t n = c0 == '\xE2' ? BoxPrefixAt(s) : c0 == '(' ? ProcessPrefixAt(s) : SyslogPrefixAt(s)) return n;
  // pytest failure details: "E   " followed by the message.
  if (s.size() >= 4 && s[0] == 'E' && s[1] == ' ' && s[2] == ' ' && s[3] == ' ') {
    *mark = LineMark::kPytestError;
    return 1 + SpacesAt(s, 1);
  }
  return 0;
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
    char32_t unused;
    std::size_t n = util::DecodeUtf8(s, i, &unused);
    if (n == 0) {
      out->append("\xEF\xBF\xBD");  // U+FFFD
      ++i;
    } else {
      out->append(s.substr(i, n));
      i += n;
    }
  }
}

// The line without its prefixes, which come in layers:
// "2026-...Z [rank0]:[E ...]" has three.
CleanLine StripPrefixes(std::string_view s) {
  CleanLine out;
  bool service = false;
  for (int layer = 0; layer < 4; ++layer) {
    std::size_t n = PrefixAt(s, &out.mark);
    if (n == 0 && !service) {
      n = ServicePrefixAt(s);  // once: under a CI timestamp, or first
      service = true;
    }
    if (n == 0 || n > s.size()) break;
    s.remove_prefix(n);
    out.stripped += n;
  }
  out.text = s;
  return out;
}

// The first byte at or after `from` that makes a line need a rewrite: an
// escape, a byte past ASCII, or a carriage return not ending its line.
// block.size() when there is none.
std::size_t NextRewriteByte(std::string_view block, std::size_t from) {
  for (;;) {
    std::size_t i = from;
#ifdef __SSE2__
    const __m128i esc = _mm_set1_epi8(0x1B), cr = _mm_set1_epi8('\r');
    for (; i + 16 <= block.size(); i += 16) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block.data() + i));
      __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, esc), _mm_cmpeq_epi8(v, cr)), v);
      if (auto mask = static_cast<unsigned>(_mm_movemask_epi8(hit))) {
        i += static_cast<std::size_t>(__builtin_ctz(mask));
        break;
      }
    }
#endif
    for (; i < block.size(); ++i) {
      auto c = static_cast<unsigned char>(block[i]);
      if (c == 0x1B || c == '\r' || c >= 0x80) break;
    }
    // "\r\n" (and a final "\r") end a line; LineText drops them.
    if (i < block.size() && block[i] == '\r' && (i + 1 == block.size() || block[i + 1] == '\n')) {
      from = i + 1;
      continue;
    }
    return i;
  }
}

}  // namespace

CleanLine Clean(std::string_view line, std::string* scratch) {
  if (!NeedsRewrite(line)) return StripPrefixes(line);
  Rewrite(line, scratch);
  return StripPrefixes(*scratch);
}

void CleanLines(std::string_view block, const std::vector<std::size_t>& line_starts, CleanedLines* out) {
  out->starts.resize(line_starts.size());
  out->origins.resize(line_starts.size());
  out->marks.resize(line_starts.size());
  // Room for every line and its newline; only U+FFFD (3 bytes for 1) grows.
  std::string& buf = out->buffer;
  if (buf.size() < block.size() + line_starts.size()) buf.resize(block.size() + line_starts.size());
  std::size_t at = 0;
  std::size_t rewrite = NextRewriteByte(block, 0);
  for (std::size_t i = 0; i < line_starts.size(); ++i) {
    const std::size_t b = line_starts[i];
    const std::string_view line = LineText(block, line_starts, i);
    if (rewrite < b) rewrite = NextRewriteByte(block, b);
    CleanLine c;
    if (rewrite < b + line.size()) {
      Rewrite(line, &out->scratch);
      c = StripPrefixes(out->scratch);
    } else if (!line.empty() && MayStartPrefix(line[0])) {
      c = StripPrefixes(line);
    } else if (!line.empty() && kServiceNameByte[static_cast<unsigned char>(line[0])] && ServicePrefixAt(line) > 0) {
      c = StripPrefixes(line);  // rare: most lines that start with a letter have no prefix
    } else {
      c.text = line;
    }
    if (at + c.text.size() + 1 > buf.size()) buf.resize(std::max(2 * buf.size(), at + c.text.size() + 1));
    out->starts[i] = at;
    out->origins[i] = b + c.stripped;
    out->marks[i] = c.mark;
    std::memcpy(buf.data() + at, c.text.data(), c.text.size());
    at += c.text.size();
    buf[at++] = '\n';
  }
  out->text = std::string_view(buf.data(), at);
}

bool ContinuesPreviousLine(std::string_view prefix) {
  while (!prefix.empty() && prefix.back() == ' ') prefix.remove_suffix(1);
  // "...Z 01E+": two digits, the stream letter, the flag.
  const std::size_t n = prefix.size();
  return n >= 5 && prefix[n - 1] == '+' && (prefix[n - 2] == 'O' || prefix[n - 2] == 'E') && Digit(prefix[n - 3]) &&
         Digit(prefix[n - 4]) && prefix[n - 5] == ' ';
}

}  // namespace kedb::logs
