// Small string helpers every layer reads text with: blanks (spaces and
// tabs), ASCII case, lines. Trim also drops a '\r' left at a line's end by
// a file with Windows line ends.
#ifndef KEDB_UTIL_STRINGS_H_
#define KEDB_UTIL_STRINGS_H_

#include <string>
#include <string_view>
#include <vector>

namespace kedb::util {

inline bool IsBlank(char c) { return c == ' ' || c == '\t'; }

inline std::string_view TrimLeft(std::string_view s) {
  while (!s.empty() && IsBlank(s.front())) s.remove_prefix(1);
  return s;
}

inline std::string_view Trim(std::string_view s) {
  s = TrimLeft(s);
  while (!s.empty() && (IsBlank(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

inline bool Contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// An http(s) address: something a reader can open.
inline bool IsHttpUrl(std::string_view u) { return u.starts_with("http://") || u.starts_with("https://"); }

// ASCII letters lower-cased; every other byte (UTF-8 included) as it is.
inline std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
  return out;
}

// The lines of `text`, without their '\n' (a '\r' before it is kept); a
// final line without '\n' counts, an empty text has none. The views point
// into `text`.
inline std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// The first line after line `line_no` (1-based) of `text` that is not
// blank, trimmed; "" when there is none.
inline std::string_view NextNonBlankLine(std::string_view text, std::size_t line_no) {
  const std::vector<std::string_view> lines = SplitLines(text);
  for (std::size_t i = line_no; i < lines.size(); ++i) {
    if (std::string_view t = Trim(lines[i]); !t.empty()) return t;
  }
  return {};
}

}  // namespace kedb::util

#endif  // KEDB_UTIL_STRINGS_H_
