// Blanks (spaces and tabs) trimmed from a line; Trim also drops a '\r'
// left at its end by a file with Windows line ends.
#ifndef KEDB_UTIL_TRIM_H_
#define KEDB_UTIL_TRIM_H_

#include <string_view>

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

}  // namespace kedb::util

#endif  // KEDB_UTIL_TRIM_H_
